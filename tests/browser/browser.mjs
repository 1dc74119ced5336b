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
