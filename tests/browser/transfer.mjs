// Transfer budget (issue 14): a first visit to the page, with an empty cache, transfers at most
// 250 KB gzip (every response: the page, its scripts and styles, the worker, the module), and
// a second visit transfers almost nothing (content-hashed files cached as immutable; only
// index.html is revalidated, answered 304).
// Counted on the server side (scripts/serve.mjs, as `npm start` serves dist/), so requests the
// worker makes count too. The gzip figure is the size of each served file's .gz (level 9)
// whatever encoding the browser negotiated; bytes actually sent are reported beside it.
// Usage: node tests/browser/transfer.mjs   (after scripts/build.sh). Exits 1 over budget.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { CHROMIUM_ARGS, waitQuiet } from './browser.mjs';

const FIRST_LOAD_BUDGET_BYTES = 250_000; // issue 14: "Transfer <= 250 KB gzip on first load"

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const DIST = path.resolve(repo, process.env.SPECCALC_DIST || 'dist');

function gzipSize(rel, fallback) {
  const file = path.join(DIST, rel === '/' ? 'index.html' : decodeURIComponent(rel));
  try {
    return fs.statSync(`${file}.gz`).size;
  } catch {
    return fallback;
  }
}

const { server, url } = await startServer({ root: DIST, port: 0 });
let log = [];
server.on('request', (req, res) => {
  res.on('finish', () => {
    const rel = new URL(req.url, url).pathname;
    const sent = Number(res.getHeader('content-length') || 0);
    log.push({
      rel,
      status: res.statusCode,
      sent,
      gzip: res.statusCode === 200 ? gzipSize(rel, sent) : 0,
    });
  });
});

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
let failed = 0;
try {
  const context = await browser.newContext(); // empty cache
  const page = await context.newPage();
  const settled = async () => {
    await waitQuiet(page);
    await page.waitForLoadState('networkidle');
  };
  await page.goto(url);
  await settled();
  const first = log;
  const sum = (rows, k) => rows.reduce((s, r) => s + r[k], 0);
  const gzip = sum(first, 'gzip');
  for (const r of first) console.log(`  ${r.status} ${r.rel}  ${r.gzip} B gzip, ${r.sent} B sent`);
  const over = gzip > FIRST_LOAD_BUDGET_BYTES;
  console.log(
    `${over ? 'FAIL' : 'ok  '} first load: ${(gzip / 1000).toFixed(1)} KB gzip ` +
      `(${(sum(first, 'sent') / 1000).toFixed(1)} KB sent, ${first.length} requests); budget ${FIRST_LOAD_BUDGET_BYTES / 1000} KB`,
  );
  if (over) failed += 1;

  log = [];
  await page.goto(url);
  await settled();
  const sent = sum(log, 'sent');
  const bodies = log.filter((r) => r.status === 200).map((r) => r.rel);
  // Only index.html may come again (revalidated: 304, or 200 if the browser chose to refetch it).
  const heavy = bodies.some((r) => r !== '/');
  console.log(
    `${heavy ? 'FAIL' : 'ok  '} second visit: ${sent} B sent in ${log.length} requests ` +
      `(${log.map((r) => `${r.status} ${r.rel}`).join(', ')}); only index.html may be sent again`,
  );
  if (heavy) failed += 1;
  await context.close();
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
