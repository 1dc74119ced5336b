// Page development without the core: serves web/ plus the fake module (tests/browser/fake/)
// from a temporary folder, opens it in headless Chromium, prints console messages and failed
// requests, and saves a screenshot. Usage: node tests/browser/dev.mjs [FRAGMENT] [OUT.png]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { CHROMIUM_ARGS } from './browser.mjs';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'speccalc-web-'));
fs.cpSync(path.join(repo, 'web'), dir, { recursive: true });
fs.copyFileSync(path.join(repo, 'wasm/speccalc-error.mjs'), path.join(dir, 'speccalc-error.mjs'));
// The worker asks the module for its command names when it starts (the fake's COMMANDS table).
let fake = fs.readFileSync(path.join(repo, 'tests/browser/fake/speccalc-api.mjs'), 'utf8');
if (!/export (async )?function commandNames\b/.test(fake)) {
  fake += '\nexport async function commandNames() { return Object.keys(COMMANDS); }\n';
}
fs.writeFileSync(path.join(dir, 'speccalc-api.mjs'), fake);
const { server, url } = await startServer({ root: dir, port: 0 });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
const page = await browser.newPage({
  viewport: { width: Number(process.env.W || 1280), height: Number(process.env.H || 800) },
});
page.on('console', (m) => console.log(`console.${m.type()}: ${m.text()}`));
page.on('pageerror', (e) => console.log(`pageerror: ${e.message}`));
page.on('requestfailed', (r) => console.log(`requestfailed: ${r.url()}`));
await page.goto(`${url}#${process.argv[2] || ''}`);
await page
  .waitForFunction(
    () =>
      document.documentElement.dataset.ready === 'true' &&
      document.documentElement.dataset.pending === '0',
    null,
    { timeout: 15000 },
  )
  .catch((e) => console.log(e.message));
await page.waitForTimeout(500);
console.log('url:', page.url());
console.log('speedup:', await page.textContent('[data-testid=speedup]'));
await page.screenshot({ path: process.argv[3] || '/tmp/dev.png', fullPage: true });
await browser.close();
server.close();
