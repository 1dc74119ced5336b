// Shared by the parity runners: loads the WASM module the page ships (dist/, by the names in
// dist/manifest.json, through its speccalc-api.mjs, with the bytes, as Node needs) after
// checking that both builds exist. Returns {run(command, input)} -> {ok, output, field, message},
// handing a command that reads a table the module does not embed (the core says which:
// dataNeeded) the file the page would fetch.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// The path of a shipped file by its original name (dist/manifest.json, scripts/assemble-dist.mjs).
export function distFile(dist, name) {
  const manifestPath = path.join(dist, 'manifest.json');
  if (!fs.existsSync(manifestPath)) throw new Error(`${manifestPath} not found: run scripts/build.sh first`);
  const hashed = JSON.parse(fs.readFileSync(manifestPath, 'utf8'))[name];
  if (!hashed) throw new Error(`${name} is not in ${manifestPath}`);
  return path.join(dist, hashed);
}

export async function loadWasmAfterChecks(dist, nativeBin) {
  if (!fs.existsSync(nativeBin)) throw new Error(`${nativeBin} not found: run scripts/build.sh first`);
  const api = await import(pathToFileURL(distFile(dist, 'speccalc-api.mjs')).href);
  const core = await api.load({ wasmBinary: fs.readFileSync(distFile(dist, 'speccalc.wasm')) });
  const tables = new Map();
  const table = (name) => {
    if (!tables.has(name)) tables.set(name, fs.readFileSync(distFile(dist, `${name}.json`), 'utf8'));
    return tables.get(name);
  };
  return {
    run(command, input) {
      const name = core.dataNeeded(command);
      return core.run(command, input, name ? table(name) : '');
    },
  };
}
