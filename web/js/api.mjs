// The page's only door to the model: the WASM core's call(command, input).
// Nothing here computes a number; it parses the JSON text the core produced.
import * as core from '../speccalc-api.mjs';

const { call, SpecCalcError } = core;

export { SpecCalcError };

export async function callText(command, input) {
  return call(command, typeof input === 'string' ? input : JSON.stringify(input));
}

export async function callJson(command, input) {
  return JSON.parse(await callText(command, input));
}

const known = new Map();
let names = null;

// Whether the core build registers a command (newer commands such as sweep or tables may be
// missing from an older build). Asks the wrapper for the command list; a wrapper without
// commandNames() is probed instead (an unknown command is an error on the field "command").
export async function hasCommand(command) {
  if (typeof core.commandNames === 'function') {
    if (!names) names = core.commandNames().then((list) => new Set(list), () => null);
    const set = await names;
    if (set) return set.has(command);
  }
  if (!known.has(command)) {
    known.set(command, (async () => {
      try {
        await call(command, '{}');
        return true;
      } catch (e) {
        return !(e instanceof SpecCalcError && e.field === 'command' && /unknown command/.test(e.message));
      }
    })());
  }
  return known.get(command);
}

// A message for any failure: core errors carry a field path; anything else is a bug or a load failure.
export function describeError(e) {
  if (e instanceof SpecCalcError || (e && typeof e.field === 'string')) {
    return e.field ? `${e.field}: ${e.message}` : e.message;
  }
  return String(e && e.message ? e.message : e);
}
