// A small static file server for dist/ on 127.0.0.1 (module scripts and .wasm need http,
// not file://). Usage: node scripts/serve.mjs [ROOT]   (ROOT defaults to dist)
// Port: $PORT, else 8080; if that port is taken, any free port. Prints the URL.
// Also importable: startServer({root, port, host}) -> {server, url} (for tests).
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
      res.writeHead(200, {
        'Content-Type': MIME[path.extname(file).toLowerCase()] || 'application/octet-stream',
        'Content-Length': st.size,
        'Cache-Control': 'no-cache',
      });
      if (req.method === 'HEAD') res.end();
      else fs.createReadStream(file).pipe(res);
    });
  };
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    const onError = (err) => { server.off('listening', onListening); reject(err); };
    const onListening = () => { server.off('error', onError); resolve(); };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

// Starts serving `root`. port 0 means any free port; a taken port falls back to a free one
// unless strictPort is set.
export async function startServer({ root = 'dist', port = 8080, host = '127.0.0.1', strictPort = false } = {}) {
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

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const root = process.argv[2] || 'dist';
  const wanted = process.env.PORT !== undefined ? Number(process.env.PORT) : 8080;
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65535) {
    console.error(`serve: PORT must be an integer 0-65535, got '${process.env.PORT}'`);
    process.exit(2);
  }
  try {
    const { url } = await startServer({ root, port: wanted });
    if (!url.endsWith(`:${wanted}/`) && wanted !== 0) console.log(`serve: port ${wanted} is taken; using another`);
    console.log(`SpecCalc is being served at ${url}  (Ctrl+C to stop)`);
  } catch (err) {
    console.error(`serve: ${err.message}`);
    process.exit(1);
  }
}
