// Where the page's core comes from: the one place that names the module's files. The worker
// (core-worker.mjs) loads it; the page thread loads it only when no worker can start
// (client.mjs). The build renames every file to a content-hashed name and rewrites these
// URLs (scripts/assemble-dist.mjs), so the browser may cache them for good.
const WASM_URL = new URL('../../speccalc.wasm', import.meta.url);
// Every command the first-load module lacks (sizing, tables, validate, ...) runs in the full
// module, fetched the first time one is called (speccalc-api.mjs).
const FULL_WASM_URL = new URL('../../speccalc-full.wasm', import.meta.url);
// Tables the module does not embed, fetched the first time a command reads one (the core says
// which: speccalc-api.mjs asks dataNeeded(command)).
const DATA_URLS = {
  published: new URL('../../published.json', import.meta.url),
};

async function loadData(name) {
  const url = DATA_URLS[name];
  if (!url) throw new Error(`the core asked for an unknown table '${name}'`);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${name} table: HTTP ${response.status}`);
  return response.text();
}

// Resolves to speccalc-api.mjs with the module instantiated. The .wasm is fetched and compiled
// as it streams in, started before the JS wrapper is even imported (the two load in parallel).
export async function loadCore() {
  const compiled =
    typeof WebAssembly.compileStreaming === 'function'
      ? WebAssembly.compileStreaming(fetch(WASM_URL)).catch(() => null) // e.g. a wrong MIME type
      : Promise.resolve(null);
  const api = await import('../../speccalc-api.mjs');
  const wasmModule = await compiled;
  await api.load(
    wasmModule
      ? { wasmModule, loadData, fullWasmUrl: FULL_WASM_URL }
      : { wasmUrl: WASM_URL, loadData, fullWasmUrl: FULL_WASM_URL },
  );
  return api;
}
