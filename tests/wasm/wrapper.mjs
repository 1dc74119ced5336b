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
// dist/ ships content-hashed names; the manifest maps the original ones.
const { distFile } = await import(pathToFileURL(path.join(repo, 'tests/parity/harness.mjs')).href);
const api = await import(pathToFileURL(distFile(dist, 'speccalc-api.mjs')).href);
const wasmBinary = fs.readFileSync(distFile(dist, 'speccalc.wasm'));
const fullWasmBinary = fs.readFileSync(distFile(dist, 'speccalc-full.wasm'));

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

const first = await api.load({ wasmBinary, fullWasmBinary });

await check('OutputIsTheCoreTextUntouched', async () => {
  const input = JSON.stringify({ target: 'llama2-chat-7b', method: 'ar' });
  const direct = first.run('eval', input, '').output;
  expect((await api.call('eval', input)) === direct, 'call() changed the output');
});

// The output decodes in up to three pieces around its non-ASCII span (bindings.cpp): the text
// equals one UTF-8 decode of its bytes, for outputs all ASCII, with one non-ASCII character
// and with several far apart (checked from runBytes, the same bytes undecoded).
await check('OutputInPiecesEqualsOneDecodeOfItsBytes', async () => {
  const decoder = new TextDecoder();
  const cases = [
    ['link', JSON.stringify({ target: 'llama2-chat-7b', method: 'ar' })],
    ['eval', JSON.stringify({ target: 'llama2-chat-7b', hardware: 'a100-80gb-sxm', method: 'ar' })],
    [
      'eval',
      JSON.stringify({ target: 'llama3.1-8b-instruct', hardware: 'h100-sxm', runtime: 'vllm' }),
    ],
  ];
  let nonAscii = 0;
  for (const [command, input] of cases) {
    const text = first.run(command, input, '').output;
    const bytes = first.runBytes(command, input, '').bytes;
    expect(text === decoder.decode(bytes), `${command}: pieces differ from one decode`);
    if (bytes.some((b) => b >= 0x80)) nonAscii++;
  }
  expect(nonAscii >= 2, `the cases include non-ASCII outputs (${nonAscii})`);
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
  // The first-load module itself does not carry sizing or validation.
  expect(!first.commandNames().includes('size'), 'the first-load module carries size');
  // Its list of every command (one preprocessor-joined literal, wasm/command_table_page.cpp)
  // is the full module's table, in order.
  const full = first.allCommandNames();
  expect(full.join(', ') === names.join(', '), `${full} vs ${names}`);
});

await check('CommandsOnlyTheFullModuleRunsLoadIt', async () => {
  // size is not in the first-load module: call() loads the full one and answers from it.
  const out = await api.call(
    'size',
    JSON.stringify({ config: { method: { family: 'sps', k: 2 } }, budget: 4, batches: [1] }),
  );
  expect(JSON.parse(out).best.nodes >= 1, out.slice(0, 80));
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
