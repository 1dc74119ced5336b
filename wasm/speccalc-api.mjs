// The JS face of the WASM core: loads the module once and turns the binding's results
// (bindings.cpp: {ok, output, field, message}) into return values or one error class.
// Used by the page's core worker (web/js/worker/core-loader.mjs) and by Node tests.
// Options of load() (first call only):
//   wasmModule - speccalc.wasm already compiled (a WebAssembly.Module), or
//   wasmUrl    - its URL: fetched and compiled while it streams in
//                (WebAssembly.instantiateStreaming); the browser caches it by URL.
//   wasmBinary - the bytes instead (Node: Emscripten 3.1.6 fetch()es by path, which Node cannot).
//   loadData   - async (name) => text, for the tables a command reads that the module does not
//                embed (the core says which: dataNeeded(command), e.g. 'published'). Each is
//                loaded once, when the first command needs it.
//   fullWasmUrl / fullWasmBinary - where the full module's .wasm is (speccalc-full.mjs): the
//                first-load module carries only the page's commands (core/src/api/commands.def);
//                a command it lacks (sizing, tables, validate, fit, ...) loads the full module
//                then, once. Without these, such a command is the core's unknown-command error.
import createSpecCalcModule from './speccalc.mjs';
import { SpecCalcError } from './speccalc-error.mjs';

/** @typedef {import('./speccalc.mjs').SpecCalcModule} SpecCalcModule */
/** @typedef {typeof import('./speccalc.mjs').default} ModuleFactory */
/** @typedef {{ok: boolean, output: string, field: string, message: string}} Result */
/** @typedef {{ok: boolean, bytes: Uint8Array, field: string, message: string}} BytesResult */
/**
 * The module bound by bind(): every command runs through `run` (or `runBytes`: the output as
 * its UTF-8 bytes, copied out of the module's memory, for a worker to transfer undecoded).
 * @typedef {{
 *   run: (command: string, input: string, published?: string) => Result,
 *   runBytes: (command: string, input: string, published?: string) => BytesResult,
 *   commandNames: () => string[],
 *   allCommandNames: () => string[],
 *   dataNeeded: (command: string) => string,
 * }} BoundCore
 */
/**
 * Options of load() (see the top of this file).
 * @typedef {{
 *   wasmModule?: WebAssembly.Module,
 *   wasmUrl?: string | URL,
 *   wasmBinary?: ArrayBuffer | Uint8Array,
 *   loadData?: (name: string) => string | Promise<string>,
 *   fullWasmUrl?: string | URL,
 *   fullWasmBinary?: ArrayBuffer | Uint8Array,
 * }} LoadOptions
 */
/** @typedef {{wasmModule?: WebAssembly.Module, wasmUrl?: string | URL, wasmBinary?: ArrayBuffer | Uint8Array}} ModuleSource */

export { SpecCalcError };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// bindings.cpp's C functions as JS functions of strings. Strings cross as UTF-8 bytes copied
// into and out of the module's memory; a result is nine 32-bit words (struct Result).
/**
 * @param {SpecCalcModule} mod
 * @returns {BoundCore}
 */
export function bind(mod) {
  // Each text is encoded straight into module memory (UTF-8 needs at most 3 bytes per UTF-16
  // unit); an empty one is passed as (0, 0) without an allocation.
  /** @type {(texts: string[], fn: (spans: number[]) => number) => number} */
  const withBytes = (texts, fn) => {
    /** @type {number[]} */
    const spans = [];
    try {
      for (const t of texts) {
        if (t.length === 0) {
          spans.push(0, 0);
          continue;
        }
        const capacity = t.length * 3;
        const at = mod._malloc(capacity);
        const { written } = encoder.encodeInto(t, mod.HEAPU8.subarray(at, at + capacity));
        spans.push(at, written);
      }
      return fn(spans);
    } finally {
      for (let i = 0; i < spans.length; i += 2) if (spans[i] !== 0) mod._free(spans[i]);
    }
  };
  /** @type {(at: number, n: number) => string} */
  const text = (at, n) => (n === 0 ? '' : decoder.decode(mod.HEAPU8.subarray(at, at + n)));
  // Read after the call: memory may have grown, and Module.HEAPU8/HEAPU32 are the new views.
  /** @type {(result: number) => Uint32Array} */
  const words = (result) => mod.HEAPU32.subarray(result >> 2, (result >> 2) + 9);
  // The output in up to three pieces: the ASCII before and after its non-ASCII span decode on
  // the fast path (bindings.cpp, Result).
  /** @type {(w: Uint32Array) => string} */
  const outputText = (w) => {
    const [at, n, begin, end] = [w[1], w[2], w[7], w[8]];
    if (begin >= n) return text(at, n);
    return text(at, begin) + text(at + begin, end - begin) + text(at + end, n - end);
  };
  /** @type {(result: number) => Result} */
  const take = (result) => {
    const w = words(result);
    const out = {
      ok: w[0] !== 0,
      output: outputText(w),
      field: text(w[3], w[4]),
      message: text(w[5], w[6]),
    };
    mod._speccalc_free_result(result);
    return out;
  };
  /** @type {(result: number) => BytesResult} */
  const takeBytes = (result) => {
    const w = words(result);
    const out = {
      ok: w[0] !== 0,
      bytes: mod.HEAPU8.slice(w[1], w[1] + w[2]),
      field: text(w[3], w[4]),
      message: text(w[5], w[6]),
    };
    mod._speccalc_free_result(result);
    return out;
  };
  /** @type {Map<string, string>} */
  const needs = new Map(); // command -> table name: fixed for a build, asked once per command
  return {
    // {ok, output, field, message}; `published` is the published table's text ('' = none).
    run: (command, input, published = '') =>
      take(
        withBytes([command, input, published], (a) =>
          mod._speccalc_run(a[0], a[1], a[2], a[3], a[4], a[5]),
        ),
      ),
    runBytes: (command, input, published = '') =>
      takeBytes(
        withBytes([command, input, published], (a) =>
          mod._speccalc_run(a[0], a[1], a[2], a[3], a[4], a[5]),
        ),
      ),
    commandNames: () =>
      take(mod._speccalc_command_names())
        .output.split(', ')
        .filter((s) => s.length > 0),
    // Every command, also those only the full module runs.
    allCommandNames: () =>
      take(mod._speccalc_all_command_names())
        .output.split(', ')
        .filter((s) => s.length > 0),
    dataNeeded: (command) => {
      if (!needs.has(command))
        needs.set(
          command,
          take(withBytes([command], (a) => mod._speccalc_data_needed(a[0], a[1]))).output,
        );
      return /** @type {string} */ (needs.get(command));
    },
  };
}

/** @type {Promise<BoundCore> | null} */
let modulePromise = null;
/** @type {LoadOptions['loadData'] | null} */
let loadData = null;
/** @type {LoadOptions} */
let firstOptions = {}; // kept so a trapped instance can be replaced with the same settings
/** @type {Map<string, Promise<string>>} */
const data = new Map(); // name -> Promise<string>

// Streams the module in; falls back to bytes when the server sends another MIME type (then
// instantiateStreaming refuses the response).
/**
 * @param {string} url
 * @param {(err: unknown) => void} onError
 * @returns {NonNullable<import('./speccalc.mjs').SpecCalcModuleSettings['instantiateWasm']>}
 */
function streamingInstantiator(url, onError) {
  return (imports, done) => {
    (async () => {
      let result;
      try {
        result = await WebAssembly.instantiateStreaming(fetch(url), imports);
      } catch (err) {
        if (!(err instanceof TypeError)) throw err;
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
        result = await WebAssembly.instantiate(await response.arrayBuffer(), imports);
      }
      done(result.instance, result.module);
    })().catch(onError);
    return {}; // Emscripten: the exports arrive through done()
  };
}

// One Emscripten module from its factory, given the compiled module, a URL or the bytes.
/**
 * @param {ModuleFactory} factory
 * @param {ModuleSource} source
 * @returns {Promise<BoundCore>}
 */
function instantiate(factory, { wasmUrl, wasmModule, ...rest }) {
  return new Promise((resolve, reject) => {
    /** @type {import('./speccalc.mjs').SpecCalcModuleSettings} */
    const settings = { ...rest };
    if (wasmModule) {
      settings.instantiateWasm = (imports, done) => {
        WebAssembly.instantiate(wasmModule, imports).then(
          (instance) => done(instance, wasmModule),
          reject,
        );
        return {};
      };
    } else if (wasmUrl) {
      settings.instantiateWasm = streamingInstantiator(String(wasmUrl), reject);
    }
    factory(settings).then((mod) => resolve(bind(mod)), reject);
  });
}

/** @type {Promise<BoundCore> | null} */
let fullPromise = null;

// The full module (every command), loaded the first time a command the first-load module lacks
// is called; null when load() was given no full module.
/** @returns {Promise<BoundCore> | null} */
function loadFull() {
  const { fullWasmUrl, fullWasmBinary } = firstOptions;
  if (!fullWasmUrl && !fullWasmBinary) return null;
  if (!fullPromise) {
    fullPromise = import('./speccalc-full.mjs')
      .then(({ default: factory }) =>
        instantiate(
          factory,
          fullWasmBinary ? { wasmBinary: fullWasmBinary } : { wasmUrl: fullWasmUrl },
        ),
      )
      .catch((err) => {
        fullPromise = null;
        throw err;
      });
  }
  return fullPromise;
}

// The bound module that runs `command`: the first-load one when it has the command.
/**
 * @param {string} command
 * @param {LoadOptions} [options]
 * @returns {Promise<BoundCore>}
 */
async function coreFor(command, options) {
  const first = await load(options);
  if (first.commandNames().includes(command)) return first;
  return (await loadFull()) || first;
}

// Resolves to the bound module ({run, commandNames, dataNeeded}). Options apply to the first
// call only (the module is memoised); a failed load is forgotten so a later call can retry.
/**
 * @param {LoadOptions} [options]
 * @returns {Promise<BoundCore>}
 */
export function load(options = {}) {
  if (!modulePromise) {
    if (Object.keys(options).length > 0) firstOptions = { ...options };
    options = firstOptions;
    const { loadData: loader, fullWasmUrl, fullWasmBinary, ...rest } = options;
    loadData = loader || null;
    modulePromise = instantiate(createSpecCalcModule, rest).catch((err) => {
      modulePromise = null;
      throw err;
    });
  }
  return modulePromise;
}

/**
 * @param {string} name
 * @returns {Promise<string>}
 */
function dataText(name) {
  if (!data.has(name)) {
    if (!loadData)
      return Promise.reject(
        new Error(`the core needs the '${name}' table and no loadData was given to load()`),
      );
    const p = Promise.resolve(loadData(name)).then((text) => String(text));
    p.catch(() => data.delete(name)); // a failed download can be retried
    data.set(name, p);
  }
  return /** @type {Promise<string>} */ (data.get(name));
}

// Runs a core command ('eval', 'link', ...) on its input text and returns the output text
// exactly as core produced it (never re-serialized: parity depends on those bytes).
// The core is built without C++ exceptions, so a bug that would throw (or running out of
// memory) aborts: the instance traps and every later call on it would fail too. The wrapper
// then drops that instance, so the next call loads a fresh one, and throws a plain Error
// (not a SpecCalcError: no input field is at fault).
/**
 * @param {string} command
 * @param {string} input
 * @param {LoadOptions} [options]
 * @returns {Promise<string>}
 */
export async function call(command, input, options) {
  return /** @type {string} */ (await callAs(command, input, options, false));
}

// call() with the output as its UTF-8 bytes (a Uint8Array of its own, not a view of the
// module's memory): a worker transfers them to the page without decoding and copying a
// multi-megabyte string (a 10,000-point sweep is 4 MB).
/**
 * @param {string} command
 * @param {string} input
 * @param {LoadOptions} [options]
 * @returns {Promise<Uint8Array>}
 */
export async function callBytes(command, input, options) {
  return /** @type {Uint8Array} */ (await callAs(command, input, options, true));
}

/**
 * @param {string} command
 * @param {string} input
 * @param {LoadOptions | undefined} options
 * @param {boolean} bytes
 * @returns {Promise<string | Uint8Array>}
 */
async function callAs(command, input, options, bytes) {
  const core = await coreFor(String(command), options);
  const name = core.dataNeeded(String(command));
  const text = name ? await dataText(name) : '';
  let r;
  try {
    r = bytes
      ? core.runBytes(String(command), String(input), text)
      : core.run(String(command), String(input), text);
  } catch (err) {
    modulePromise = null;
    fullPromise = null;
    const why = err instanceof Error && err.message ? err.message : String(err);
    throw new Error(`the core stopped on '${String(command)}' (${why}); it will be reloaded`);
  }
  if (!r.ok) throw new SpecCalcError(r.field, r.message);
  return 'bytes' in r ? r.bytes : r.output;
}

// The registered command names, as an array: with a full module given, every command (the
// full module is not loaded for this).
/**
 * @param {LoadOptions} [options]
 * @returns {Promise<string[]>}
 */
export async function commandNames(options) {
  const first = await load(options);
  const { fullWasmUrl, fullWasmBinary } = firstOptions;
  return fullWasmUrl || fullWasmBinary ? first.allCommandNames() : first.commandNames();
}
