// A small static file server for dist/ on 127.0.0.1 (module scripts and .wasm need http,
// not file://). Usage: node scripts/serve.mjs [ROOT]   (ROOT defaults to dist)
// Port: $PORT, else 8080; if that port is taken, any free port. Prints the URL.
// Also importable: startServer({root, port, host}) -> {server, url} (for tests).
// Serves what scripts/assemble-dist.mjs wrote: the precompressed file.br or file.gz when the
// browser accepts that encoding; content-hashed names (name.<10 hex>.ext) cached for a year as
// immutable, everything else (index.html) revalidated on each visit (ETag, 304).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

// A content-hashed name, as scripts/assemble-dist.mjs writes it: its bytes never change.
const HASHED = /\.[0-9a-f]{10}\.[a-z0-9]+$/;
const YEAR_S = 365 * 24 * 3600;
// Brotli first: smaller than gzip for every file here (browsers offer it over https only).
const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
];

// The encodings the request accepts (q=0 excluded).
function accepted(header) {
  const ok = new Set();
  for (const part of String(header || '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) ok.add(name);
  }
  return ok;
}

function sendFile(req, res, file, st) {
  const ext = path.extname(file).toLowerCase();
  const hashed = HASHED.test(path.basename(file));
  const headers = {
    'Content-Type': MIME[ext] || 'application/octet-stream',
    'Cache-Control': hashed ? `public, max-age=${YEAR_S}, immutable` : 'no-cache',
    Vary: 'Accept-Encoding',
  };
  let body = file;
  let size = st.size;
  const ok = accepted(req.headers['accept-encoding']);
  for (const [encoding, suffix] of ENCODINGS) {
    if (!ok.has(encoding)) continue;
    const st2 = statFile(file + suffix);
    if (!st2) continue;
    headers['Content-Encoding'] = encoding;
    body = file + suffix;
    size = st2.size;
    break;
  }
  // Weak validator from size and time; the encoding is part of it (different bytes).
  const etag = `W/"${size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}-${headers['Content-Encoding'] || 'id'}"`;
  headers.ETag = etag;
  if (req.headers['if-none-match'] === etag) {
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    res.writeHead(304).end();
    return;
  }
  headers['Content-Length'] = size;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v); // readable by listeners (tests)
  res.writeHead(200);
  if (req.method === 'HEAD') res.end();
  else fs.createReadStream(body).pipe(res);
}

function statFile(file) {
  try {
    const st = fs.statSync(file);
    return st.isFile() ? st : null;
  } catch {
    return null;
  }
}

function handler(root) {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end('bad request\n');
      return;
    }
    let file = path.join(root, path.normalize(rel));
    // path.join + normalize resolve '..'; refuse anything that escapes root.
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end('forbidden\n');
      return;
    }
    fs.stat(file, (err, st) => {
      if (!err && st.isDirectory()) {
        file = path.join(file, 'index.html');
        st = fs.existsSync(file) ? fs.statSync(file) : null;
      }
      if (err || !st || !st.isFile()) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
        return;
      }
      sendFile(req, res, file, st);
    });
  };
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

// Starts serving `root`. port 0 means any free port; a taken port falls back to a free one
// unless strictPort is set.
export async function startServer({
  root = 'dist',
  port = 8080,
  host = '127.0.0.1',
  strictPort = false,
} = {}) {
  const absRoot = path.resolve(root);
  if (!fs.existsSync(path.join(absRoot, 'index.html'))) {
    throw new Error(`${absRoot}/index.html not found (run scripts/build.sh first)`);
  }
  const server = http.createServer(handler(absRoot));
  try {
    await listen(server, port, host);
  } catch (err) {
    if (err.code !== 'EADDRINUSE' || strictPort) throw err;
    await listen(server, 0, host);
  }
  const url = `http://${host}:${server.address().port}/`;
  return { server, url };
}

const isMain =
  process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const root = process.argv[2] || 'dist';
  const wanted = process.env.PORT !== undefined ? Number(process.env.PORT) : 8080;
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65535) {
    console.error(`serve: PORT must be an integer 0-65535, got '${process.env.PORT}'`);
    process.exit(2);
  }
  try {
    const { url } = await startServer({ root, port: wanted });
    if (!url.endsWith(`:${wanted}/`) && wanted !== 0)
      console.log(`serve: port ${wanted} is taken; using another`);
    console.log(`SpecCalc is being served at ${url}  (Ctrl+C to stop)`);
  } catch (err) {
    console.error(`serve: ${err.message}`);
    process.exit(1);
  }
}
