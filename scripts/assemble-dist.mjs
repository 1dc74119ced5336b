// Assembles dist/, the folder `npm start` serves, from web/, the WASM module and the data the
// module loads on demand. Why each step:
//   - content-hashed names (name.<hash>.ext) for every file a page or module refers to, with
//     the references rewritten, so the server can let browsers cache them for a year
//     (scripts/serve.mjs) and a second visit transfers only index.html's revalidation;
//   - index.html keeps its name (it is the URL people open; served no-cache). No modulepreload
//     links: on localhost round trips cost nothing and eager module compiles competed with the
//     first paint (measured: first result median 714 -> 634 ms, first paint 316 -> 236 ms
//     without them, 10 alternating runs each at load 13, docs/benchmarks.md);
//   - our scripts and styles minified (esbuild; the readable source stays in web/), which
//     halves their gzipped size: the first load has a 250 KB budget (issue 14);
//   - every compressible file also as .gz and .br, so the server sends compressed bytes without
//     compressing per request: .gz by Zopfli (a gzip stream any browser reads, ~5 % smaller
//     than zlib level 9: 204 -> 193 KB for the module), .br at brotli's quality 11;
//   - dist/manifest.json maps each original name to its hashed name (tests and benchmarks load
//     the shipped module through it);
//   - --embed ID=FILE puts FILE's JSON text into index.html as <script type="application/json"
//     id="ID"> (a data block: never executed). build.sh embeds the core's `eval` of the page's
//     starter (the native CLI's output, byte for byte the module's), so a first visit shows the
//     core's result with the first paint instead of after the module is compiled and asked
//     (issue 23: first result <= 1.5 x first paint); tests/browser/run.mjs keeps it equal to
//     what the worker's core returns.
// Usage: node scripts/assemble-dist.mjs OUT_DIR [--file DEST=SRC ...] [--dir DEST=SRC ...]
//        [--embed ID=FILE ...]
//   (scripts/build.sh passes web/ as a --dir and the module files as --file).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { transformSync } from 'esbuild';
import { gzipAsync } from '@gfx/zopfli';

// Zopfli's default; 50 iterations saved 5 bytes more on the module and took twice as long.
const ZOPFLI_ITERATIONS = 15;
// Larger files (the 1.1 MB published table, fetched on demand) get zlib level 9: Zopfli takes
// ~40 s on it for 0.1 % less.
const ZOPFLI_MAX_BYTES = 1 << 20;

const HASH_HEX_CHARS = 10; // 40 bits: a collision between two of our ~40 files is not a concern
const COMPRESSIBLE = new Set([
  '.html',
  '.mjs',
  '.js',
  '.css',
  '.json',
  '.wasm',
  '.svg',
  '.txt',
  '.md',
]);
const TEXT = new Set(['.html', '.mjs', '.js', '.css']);

// References a file makes to others, as [start, end) of the path text inside it. Only relative
// paths (html attributes: any path without a scheme) name files of ours.
const PATTERNS = {
  '.mjs': [
    /\b(?:from|import)\s*\(?\s*(['"])(\.{1,2}\/[^'"\s]+)\1/g, // import ... from './x.mjs', import('./x.mjs')
    /\bnew\s+URL\(\s*(['"])(\.{1,2}\/[^'"\s]+)\1\s*,\s*import\.meta\.url\s*\)/g, // new URL('./x', import.meta.url)
  ],
  '.html': [/\b(?:src|href)=(")([^"#:?][^"]*)"/g],
  '.css': [/\burl\(\s*(['"]?)([^'")\s:]+)\1\s*\)/g],
};
PATTERNS['.js'] = PATTERNS['.mjs'];

function parseArgs(argv) {
  const out = argv[0];
  if (!out) throw new Error('usage: assemble-dist.mjs OUT_DIR [--file DEST=SRC] [--dir DEST=SRC]');
  const files = new Map(); // dest (posix, relative) -> absolute source
  const embeds = new Map(); // element id -> absolute path of a JSON file
  for (let i = 1; i < argv.length; i += 2) {
    const [kind, spec] = [argv[i], argv[i + 1]];
    const eq = spec ? spec.indexOf('=') : -1;
    if (!['--file', '--dir', '--embed'].includes(kind) || eq < 0)
      throw new Error(`bad argument: ${kind} ${spec}`);
    const dest = spec.slice(0, eq).replace(/^\.?\/?/, '');
    const src = path.resolve(spec.slice(eq + 1));
    if (kind === '--file') files.set(dest, src);
    else if (kind === '--embed') embeds.set(dest, src);
    else for (const rel of walk(src)) files.set(path.posix.join(dest, rel), path.join(src, rel));
  }
  return { out: path.resolve(out), files, embeds };
}

function walk(dir, prefix = '') {
  const found = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.posix.join(prefix, entry.name);
    if (entry.isDirectory()) found.push(...walk(dir, rel));
    else if (entry.isFile()) found.push(rel);
  }
  return found;
}

// The files `name` refers to: [{start, end, target}] with target a key of `contents`.
function references(name, text, contents) {
  const refs = [];
  for (const re of PATTERNS[path.extname(name)] || []) {
    for (const m of text.matchAll(re)) {
      const spec = m[2];
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(name), spec));
      if (!contents.has(target)) continue; // not one of ours (or missing): left as written
      const start = m.index + m[0].indexOf(spec, m[0].indexOf(m[1]));
      refs.push({ start, end: start + spec.length, target });
    }
  }
  return refs.sort((a, b) => a.start - b.start);
}

// Already minified: third-party *.min.* files and the Emscripten glue (emcc minifies it at -O2+).
const minified = (name) =>
  /\.min\./.test(name) || name === 'speccalc.mjs' || name === 'speccalc-full.mjs';

function minify(name, bytes) {
  const ext = path.extname(name);
  if (!['.mjs', '.js', '.css'].includes(ext) || minified(name)) return bytes;
  const loader = ext === '.css' ? 'css' : 'js';
  const options = { loader, minify: true, ...(loader === 'js' ? { format: 'esm' } : {}) };
  return Buffer.from(transformSync(bytes.toString('utf8'), options).code, 'utf8');
}

function hashedName(name, bytes) {
  const hash = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, HASH_HEX_CHARS);
  const ext = path.posix.extname(name);
  return `${name.slice(0, name.length - ext.length)}.${hash}${ext}`;
}

function relative(from, to) {
  const rel = path.posix.relative(path.posix.dirname(from), to);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

// index.html with each embedded JSON file as a data block before </head>. The JSON is parsed
// and written back unchanged except for '<' as \u003c, so no '</script>' can end the block early
// (JSON.parse reads the escape as the same character).
function embedJson(html, embeds) {
  if (!embeds.size) return html;
  const blocks = [...embeds].map(([id, file]) => {
    const text = fs.readFileSync(file, 'utf8').trimEnd(); // the CLI ends its output with a newline
    JSON.parse(text); // a build that cannot produce it must fail here, not in the browser
    return `<script type="application/json" id="${id}">${text.replace(/</g, '\\u003c')}</script>`;
  });
  const at = html.indexOf('</head>');
  if (at < 0) throw new Error('index.html has no </head> to embed data before');
  return `${html.slice(0, at)}${blocks.join('')}\n  ${html.slice(at)}`;
}

async function assemble({ out, files, embeds }) {
  const contents = new Map(); // original name -> Buffer
  for (const [dest, src] of files) contents.set(dest, fs.readFileSync(src));
  if (contents.has('index.html'))
    contents.set(
      'index.html',
      Buffer.from(embedJson(contents.get('index.html').toString('utf8'), embeds), 'utf8'),
    );
  const refsOf = new Map();
  for (const [name, bytes] of contents) {
    refsOf.set(
      name,
      TEXT.has(path.extname(name)) ? references(name, bytes.toString('utf8'), contents) : [],
    );
  }
  // A file's hash covers the hashed names of what it refers to, so names are settled
  // leaves first; a cycle cannot be hashed this way and is reported.
  const finalName = new Map();
  const finalBytes = new Map();
  const visiting = new Set();
  const settle = (name) => {
    if (finalName.has(name)) return;
    if (visiting.has(name))
      throw new Error(`reference cycle through ${name}: content hashes need an acyclic graph`);
    visiting.add(name);
    const refs = refsOf.get(name);
    for (const r of refs) settle(r.target);
    let bytes = contents.get(name);
    if (refs.length) {
      const text = bytes.toString('utf8');
      let rewritten = '';
      let at = 0;
      for (const r of refs) {
        const written = text.slice(r.start, r.end);
        const target = finalName.get(r.target);
        // html keeps the form it was written in (no './'); modules need the './' or '../'.
        const link =
          path.extname(name) === '.html' && !written.startsWith('.')
            ? path.posix.relative(path.posix.dirname(name), target)
            : relative(name, target);
        rewritten += text.slice(at, r.start) + link;
        at = r.end;
      }
      bytes = Buffer.from(rewritten + text.slice(at), 'utf8');
    }
    bytes = minify(name, bytes);
    visiting.delete(name);
    finalBytes.set(name, bytes);
    finalName.set(
      name,
      name === 'index.html' || !isReferenced(name) ? name : hashedName(name, bytes),
    );
  };
  const referenced = new Set([...refsOf.values()].flat().map((r) => r.target));
  const isReferenced = (name) => referenced.has(name);
  for (const name of contents.keys()) settle(name);

  fs.rmSync(out, { recursive: true, force: true });
  const manifest = {};
  for (const [name, bytes] of finalBytes) {
    const dest = path.join(out, finalName.get(name));
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.writeFileSync(dest, bytes);
    manifest[name] = finalName.get(name);
    if (COMPRESSIBLE.has(path.extname(name))) {
      fs.writeFileSync(
        `${dest}.gz`,
        bytes.length <= ZOPFLI_MAX_BYTES
          ? await gzipAsync(bytes, { numiterations: ZOPFLI_ITERATIONS })
          : zlib.gzipSync(bytes, { level: 9 }),
      );
      fs.writeFileSync(
        `${dest}.br`,
        zlib.brotliCompressSync(bytes, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
      );
    }
  }
  const sorted = Object.fromEntries(
    Object.entries(manifest).sort(([a], [b]) => a.localeCompare(b)),
  );
  fs.writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(sorted, null, 1)}\n`);
  return sorted;
}

const manifest = await assemble(parseArgs(process.argv.slice(2)));
for (const [name, hashed] of Object.entries(manifest))
  console.log(name === hashed ? name : `${name} -> ${hashed}`);
