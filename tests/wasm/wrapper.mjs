// The JS wrapper (wasm/speccalc-api.mjs, shipped as dist/speccalc-api.mjs) on the real module:
// outputs pass through untouched, input errors become SpecCalcError with the field, and an
// instance that trapped (the core aborts instead of throwing: no C++ exceptions in the build)
// is replaced on the next call instead of leaving the page with a dead module.
// Usage: node tests/wasm/wrapper.mjs [--dist DIR]. Prints "N passed, N failed".
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const distArg = process.argv.indexOf('--dist');
const dist = distArg > 0 ? path.resolve(process.argv[distArg + 1]) : path.join(repo, 'dist');
const api = await import(pathToFileURL(path.join(dist, 'speccalc-api.mjs')).href);
const wasmBinary = fs.readFileSync(path.join(dist, 'speccalc.wasm'));

let passed = 0;
let failed = 0;
async function check(name, fn) {
  try {
    await fn();
    passed++;
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e.stack || e.message}`);
  }
}
function expect(cond, what) {
  if (!cond) throw new Error(what);
}

const first = await api.load({ wasmBinary });

await check('OutputIsTheCoreTextUntouched', async () => {
  const direct = first.run('tree-preset', 'eagle1').output;
  expect((await api.call('tree-preset', 'eagle1')) === direct, 'call() changed the output');
});

await check('InputErrorIsSpecCalcErrorWithField', async () => {
  try {
    await api.call('eval', '{"batch": 0}');
    throw new Error('no error');
  } catch (e) {
    expect(e instanceof api.SpecCalcError, `not a SpecCalcError: ${e}`);
    expect(e.field === 'batch', `field '${e.field}'`);
    expect(e.describe().startsWith('batch: '), e.describe());
  }
});

await check('CommandNamesListTheTable', async () => {
  const names = await api.commandNames();
  for (const n of ['eval', 'sweep', 'size', 'export', 'validate', 'tables', 'tree-calibrate']) {
    expect(names.includes(n), `missing ${n} in ${names}`);
  }
});

await check('TrappedInstanceIsReplacedOnTheNextCall', async () => {
  // Stand-in for an abort inside the core: the instance's run() traps as WebAssembly does.
  first.run = () => {
    throw new WebAssembly.RuntimeError('Aborted(). Build with -s ASSERTIONS=1 for more info.');
  };
  let error = null;
  try {
    await api.call('list', 'runtimes');
  } catch (e) {
    error = e;
  }
  expect(error && !(error instanceof api.SpecCalcError), `expected a plain Error, got ${error}`);
  expect(/core stopped on 'list'/.test(error.message), error.message);
  // The next call loads a fresh instance with the options of the first load (wasmBinary here).
  const out = await api.call('list', 'runtimes');
  expect(out.startsWith('['), out.slice(0, 40));
  expect((await api.load()) !== first, 'the trapped instance was kept');
});

console.log(`wrapper: ${passed + failed} checks of ${path.relative(repo, dist)}/speccalc-api.mjs`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
