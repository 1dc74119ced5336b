// The page's one instance of the core, in a background thread: every core call of the page
// runs here, so the page never blocks and the .wasm is fetched and compiled once. Answers
// {id, command, input} with the core's output as its UTF-8 bytes, untouched and transferred
// (not a copied string: a 10,000-point sweep is 4 MB); announces {ready}.
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
    const bytes = await api.callBytes(command, input);
    self.postMessage({ id, ok: true, bytes }, [bytes.buffer]);
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
