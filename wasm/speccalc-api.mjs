// The JS face of the WASM core: loads the module once and turns the binding's
// {ok, output, field, message} objects into return values or one error class.
// Used by the page (imports './speccalc-api.mjs' next to './speccalc.mjs') and by
// Node tests, which pass {wasmBinary} because Emscripten 3.1.6's web runtime
// fetch()es the .wasm by path and Node's fetch cannot read files.
import createSpecCalcModule from './speccalc.mjs';

// An input the core rejected. `field` is the dotted JSON path ('' when the whole input is at fault).
export class SpecCalcError extends Error {
  constructor(field, message) {
    super(message);
    this.name = 'SpecCalcError';
    this.field = field;
  }
  // "field: message", the same line the CLI prints after "speccalc: error: ".
  describe() {
    return this.field ? `${this.field}: ${this.message}` : this.message;
  }
}

let modulePromise = null;
let loadOptions = {};

// Resolves to the Emscripten module. Options apply to the first call only (the module is
// memoised) and are kept for a reload; a failed load is forgotten so a later call can retry.
export function load(options = {}) {
  if (!modulePromise) {
    if (Object.keys(options).length > 0) loadOptions = { ...options };
    modulePromise = createSpecCalcModule({ ...loadOptions }).catch((err) => {
      modulePromise = null;
      throw err;
    });
  }
  return modulePromise;
}

// Runs a core command ('eval', 'link', ...) on its input text and returns the output text
// exactly as core produced it (never re-serialized: parity depends on those bytes).
// The core is built without C++ exceptions, so a bug that would throw (or running out of
// memory) aborts: the instance traps and every later call on it would fail too. The wrapper
// then drops that instance, so the next call loads a fresh one, and throws a plain Error
// (not a SpecCalcError: no input field is at fault).
export async function call(command, input, options) {
  const mod = await load(options);
  let r;
  try {
    r = mod.run(String(command), String(input));
  } catch (err) {
    modulePromise = null;
    const why = err && err.message ? err.message : String(err);
    throw new Error(`the core stopped on '${String(command)}' (${why}); it will be reloaded`);
  }
  if (!r.ok) throw new SpecCalcError(r.field, r.message);
  return r.output;
}

// The registered command names, as an array.
export async function commandNames(options) {
  const mod = await load(options);
  return mod
    .commandNames()
    .split(', ')
    .filter((s) => s.length > 0);
}
