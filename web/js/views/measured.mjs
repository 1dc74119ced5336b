// "Calibrate to what you measured": the pasted vLLM / SGLang log or `vllm bench serve` summary
// (and an optional tokens/s) go to the core's `fit-measured`, which parses them, fits τ
// and the engine's speed, and answers predicted-before, predicted-after and measured. This view
// draws that table and applies the calibrated config; it computes nothing.
import { $, el, clear } from '../dom.mjs';
import { describeError } from '../api.mjs';
import { heavyJson } from '../worker/client.mjs';
import * as fmt from '../format.mjs';

const ROWS = [
  ['τ', 'tau', (x) => fmt.tau(x)],
  ['Time per output token', 'tpot_s', (x) => fmt.seconds(x)],
  ['Tokens/s (batch)', 'tokens_per_s', (x) => fmt.rate(x)],
];

// One submission of the form (the controller loads this module on the first one).
export async function calibrateMeasured(root, { current, apply }) {
  const status = $('#measured-status', root);
  const table = $('#measured-table', root);
  const config = current();
  if (!config) return;
  const req = { config };
  const text = $('#m-text', root).value;
  if (text.trim()) req[$('#m-kind', root).value] = text;
  const tps = $('#m-tps', root).value.trim();
  if (tps) req.tokens_per_s = Number.isFinite(Number(tps)) ? Number(tps) : tps;
  try {
    const out = await heavyJson('fit-measured', req);
    const body = clear($('tbody', table));
    for (const [label, key, show] of ROWS) {
      if (out.measured[key] === undefined) continue;
      body.append(
        el(
          'tr',
          { 'data-row': key },
          el('th', { scope: 'row', text: label }),
          el('td', { text: show(out.measured[key]), 'data-value': String(out.measured[key]) }),
          el('td', { text: show(out.before[key]), 'data-value': String(out.before[key]) }),
          el('td', { text: show(out.after[key]), 'data-value': String(out.after[key]) }),
        ),
      );
    }
    table.hidden = false;
    status.className = 'hint';
    status.textContent = `${out.sources.join('; ')}. After calibrating, predicted and measured ${
      out.agree ? 'agree' : 'differ'
    } within ${(out.tolerance * 100).toFixed(1)} %; the calibrated config is applied.`;
    status.dataset.agree = String(out.agree);
    await apply(out.config);
  } catch (err) {
    table.hidden = true;
    status.className = 'field-error';
    status.textContent = describeError(err);
  }
}
