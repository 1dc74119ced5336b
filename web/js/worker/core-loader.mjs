// Where the page's core comes from: the one place that names the module's files. The worker
// (core-worker.mjs) loads it; the page thread loads it only when no worker can start
// (client.mjs). The build renames every file to a content-hashed name and rewrites these
// URLs (scripts/assemble-dist.mjs), so the browser may cache them for good.
const WASM_URL = new URL('../../speccalc.wasm', import.meta.url);
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

// Resolves to speccalc-api.mjs with the module instantiated (streaming compile of the .wasm).
export async function loadCore() {
  const api = await import('../../speccalc-api.mjs');
  await api.load({ wasmUrl: WASM_URL, loadData });
  return api;
}
