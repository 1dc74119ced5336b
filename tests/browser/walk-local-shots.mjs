// Manual walk of the local path with screenshots (not part of npm test): the "My computer"
// example, then a pasted llama-bench table on an RTX 3090. Usage:
//   node tests/browser/walk-local-shots.mjs OUTDIR
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { CHROMIUM_ARGS } from './browser.mjs';
import { DIST } from './lib.mjs';

const out = process.argv[2] || '.';
const { server, url } = await startServer({ root: DIST, port: 0 });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
await page.goto(url);
await page.waitForSelector('#examples [data-example]');
const labels = await page.$$eval('#examples [data-example]', (b) => b.map((x) => x.textContent));
const i = labels.findIndex((l) => l.startsWith('My computer'));
await page.click(`#examples [data-example="${i}"]`);
await page.waitForTimeout(1500);
await page.screenshot({ path: path.join(out, 'my-computer.png'), fullPage: false });
console.log('headline:', (await page.textContent('body')).match(/\d\.\d\d×[^\n]{0,80}/)?.[0]);
console.log('url:', page.url());
await browser.close();
server.close();
