// Chromium launch arguments for Debian's headless Chromium (see ../shared/TOOLCHAIN.md): the
// background-networking flags stop it from trying to reach outside hosts.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Until the page has its core and no computation is pending (the controller's data-ready and
// data-pending): what every browser test and benchmark waits on.
export async function waitQuiet(page) {
  await page.waitForFunction(
    () =>
      document.documentElement.dataset.ready === 'true' &&
      document.documentElement.dataset.pending === '0',
    null,
    { timeout: 60000 },
  );
}
