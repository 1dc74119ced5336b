// The core in a background thread: sweeps, sizing and the papers' validation run here so the
// page never blocks. Loads the same WASM module as the page (bytes fetched here and handed over
// as wasmBinary) and answers {id, command, input} with the core's output text, untouched.
import { call, load, SpecCalcError } from '../../speccalc-api.mjs';

const ready = (async () => {
  const response = await fetch(new URL('../../speccalc.wasm', import.meta.url));
  if (!response.ok) throw new Error(`speccalc.wasm: HTTP ${response.status}`);
  await load({ wasmBinary: new Uint8Array(await response.arrayBuffer()) });
})();

ready.then(
  () => self.postMessage({ ready: true }),
  (e) => self.postMessage({ ready: false, message: String(e && e.message ? e.message : e) }),
);

self.onmessage = async (event) => {
  const { id, command, input } = event.data;
  try {
    await ready;
    const output = await call(command, input);
    self.postMessage({ id, ok: true, output });
  } catch (e) {
    const core = e instanceof SpecCalcError;
    self.postMessage({ id, ok: false, core, field: core ? e.field : '', message: String(e && e.message ? e.message : e) });
  }
};
