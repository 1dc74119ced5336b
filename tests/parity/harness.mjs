// Shared by the parity runners: loads the WASM module the page ships (dist/speccalc.mjs with
// its bytes, as Node needs) after checking that both builds exist.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export async function loadWasmAfterChecks(dist, nativeBin) {
  const mjs = path.join(dist, 'speccalc.mjs');
  const wasm = path.join(dist, 'speccalc.wasm');
  for (const f of [nativeBin, mjs, wasm]) {
    if (!fs.existsSync(f)) throw new Error(`${f} not found: run scripts/build.sh first`);
  }
  const { default: createModule } = await import(pathToFileURL(mjs).href);
  return createModule({ wasmBinary: fs.readFileSync(wasm) });
}
