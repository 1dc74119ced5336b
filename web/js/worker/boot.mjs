// Creates the page's one core worker as early as possible: index.html loads this module on its
// own (async, no imports), so the worker fetches and compiles the .wasm while the page's other
// scripts are still loading. client.mjs imports it and adopts the worker, replaying whatever the
// worker said before client.mjs was there to listen (events without a listener are lost).
export const boot = { worker: null, error: null, early: [] };

try {
  boot.worker = new Worker(new URL('./core-worker.mjs', import.meta.url), {
    type: 'module',
    name: 'speccalc-core',
  });
  boot.worker.onmessage = (e) => boot.early.push(e);
  boot.worker.onerror = (e) => {
    e.preventDefault(); // reported by client.mjs, which falls back to the page thread
    boot.early.push(e);
  };
} catch (e) {
  boot.error = e;
}
