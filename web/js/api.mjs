// The page's only door to the model: the WASM core's call(command, input), which runs in the
// core worker (worker/client.mjs; on the page thread only when no worker can start).
// Nothing here computes a number; it parses the JSON text the core produced.
import { SpecCalcError } from '../speccalc-error.mjs';
import { coreText } from './worker/client.mjs';

export { SpecCalcError };

export async function callText(command, input) {
  return coreText(command, input);
}

export async function callJson(command, input) {
  return JSON.parse(await coreText(command, input));
}

// A message for any failure: core errors carry a field path; anything else is a bug or a load failure.
export function describeError(e) {
  if (e instanceof SpecCalcError || (e && typeof e.field === 'string')) {
    return e.field ? `${e.field}: ${e.message}` : e.message;
  }
  return String(e && e.message ? e.message : e);
}
