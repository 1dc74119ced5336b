// The page's one instance of the core, in a background thread: every core call of the page
// runs here, so the page never blocks and the .wasm is fetched and compiled once. Answers
// {id, command, input} with the core's output text, untouched; announces {ready}.
import { loadCore } from './core-loader.mjs';

const ready = loadCore();

ready.then(
  () => self.postMessage({ ready: true }),
  (e) => self.postMessage({ ready: false, message: String(e && e.message ? e.message : e) }),
);

self.onmessage = async (event) => {
  const { id, command, input } = event.data;
  try {
    const api = await ready;
    const output = await api.call(command, input);
    self.postMessage({ id, ok: true, output });
  } catch (e) {
    const core = !!e && e.name === 'SpecCalcError' && typeof e.field === 'string';
    self.postMessage({
      id,
      ok: false,
      core,
      field: core ? e.field : '',
      message: String(e && e.message ? e.message : e),
    });
  }
};
