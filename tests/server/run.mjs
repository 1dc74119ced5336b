// scripts/serve.mjs against dist/ (after scripts/build.sh): content negotiation, cache headers,
// revalidation and path safety. Expected bytes are the files on disk that
// scripts/assemble-dist.mjs wrote (name, name.gz, name.br), read here independently.
// Usage: node tests/server/run.mjs   Prints "N passed, N failed"; exits 1 on any failure.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { startServer } from '../../scripts/serve.mjs';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const DIST = path.resolve(repo, process.env.SPECCALC_DIST || 'dist');
const manifest = JSON.parse(fs.readFileSync(path.join(DIST, 'manifest.json'), 'utf8'));
const wasm = manifest['speccalc.wasm'];

function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

let passed = 0;
let failed = 0;
async function test(name, fn) {
  try {
    await fn();
    passed += 1;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL ${name}\n     ${e.message}`);
  }
}
function eq(actual, expected, what) {
  if (actual !== expected)
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}
const sameBytes = (a, file, what) =>
  eq(Buffer.compare(a, fs.readFileSync(file)), 0, `${what} equals ${path.relative(DIST, file)}`);

const { server, url } = await startServer({ root: DIST, port: 0 });
try {
  await test('brotli when offered, first choice', async () => {
    const r = await get(`${url}${wasm}`, { 'Accept-Encoding': 'gzip, deflate, br' });
    eq(r.headers['content-encoding'], 'br', 'Content-Encoding');
    eq(
      r.headers['content-type'],
      'application/wasm',
      'Content-Type (instantiateStreaming needs it)',
    );
    sameBytes(r.body, path.join(DIST, `${wasm}.br`), 'body');
  });
  await test('gzip when brotli is refused or not offered', async () => {
    for (const ae of ['gzip', 'br;q=0, gzip;q=0.8']) {
      const r = await get(`${url}${wasm}`, { 'Accept-Encoding': ae });
      eq(r.headers['content-encoding'], 'gzip', `Content-Encoding for "${ae}"`);
      sameBytes(r.body, path.join(DIST, `${wasm}.gz`), 'body');
    }
  });
  await test('no encoding offered: the file itself', async () => {
    const r = await get(`${url}${wasm}`, { 'Accept-Encoding': 'identity' });
    eq(r.headers['content-encoding'], undefined, 'Content-Encoding');
    sameBytes(r.body, path.join(DIST, wasm), 'body');
    eq(r.headers.vary, 'Accept-Encoding', 'Vary');
  });
  await test('content-hashed files are cached for a year, immutable', async () => {
    const r = await get(`${url}${manifest['js/controller.mjs']}`);
    eq(r.headers['cache-control'], 'public, max-age=31536000, immutable', 'Cache-Control');
  });
  await test('index.html is revalidated and answered 304 when unchanged', async () => {
    const r = await get(url, { 'Accept-Encoding': 'gzip' });
    eq(r.headers['cache-control'], 'no-cache', 'Cache-Control');
    sameBytes(r.body, path.join(DIST, 'index.html.gz'), 'body');
    const again = await get(url, { 'Accept-Encoding': 'gzip', 'If-None-Match': r.headers.etag });
    eq(again.status, 304, 'status with the ETag');
    eq(again.body.length, 0, 'body bytes of the 304');
    const other = await get(url, {
      'Accept-Encoding': 'identity',
      'If-None-Match': r.headers.etag,
    });
    eq(other.status, 200, 'another encoding is other bytes: status with the gzip ETag');
  });
  await test('paths outside dist/ and unknown files are refused', async () => {
    // '/..%2fpackage.json' normalizes to '/package.json' inside dist/, which has none.
    eq(
      (await get(`${url}..%2fpackage.json`)).status,
      404,
      "encoded ../ (the repository's package.json must not come back)",
    );
    eq((await get(`${url}no-such-file.js`)).status, 404, 'missing file');
  });
} finally {
  server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
