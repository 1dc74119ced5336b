import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, waitQuiet } from './browser.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { execFileSync } from 'node:child_process';
const { server, url } = await startServer({ port: 0 });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
const [w, h] = (process.argv[4] || '1280x900').split('x').map(Number);
const ctx = await browser.newContext({ viewport: { width: w, height: h } });
const page = await ctx.newPage();
const link = execFileSync('build/native/speccalc', ['run', 'link', '-'], { input: process.argv[2] })
  .toString()
  .trim();
await page.goto(`${url}#${link}`);
await waitQuiet(page);
if (process.argv[5])
  await page.evaluate((s) => document.querySelector(s).scrollIntoView(), process.argv[5]);
await page.waitForTimeout(300);
await page.screenshot({ path: process.argv[3] });
await browser.close();
server.close();
