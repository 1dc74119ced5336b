// Headline numbers, the per-pass table and the assumptions list, exactly as the core returned them.
import { el, $, clear } from '../dom.mjs';
import * as fmt from '../format.mjs';
import { engineBlocks } from './engines.mjs';

const PASSES = [
  ['baseline', 'Baseline (plain decoding)'],
  ['draft', 'Draft'],
  ['verify', 'Verify'],
];

function setOutput(node, value, text) {
  node.textContent = text;
  node.dataset.value = String(value);
}

export class ResultsView {
  constructor(root) {
    this.root = root;
  }

  show(result) {
    setOutput($('#o-speedup', this.root), result.speedup, fmt.speedup(result.speedup));
    setOutput($('#o-tau', this.root), result.tau, fmt.tau(result.tau));
    setOutput($('#o-tps', this.root), result.tokens_per_s, fmt.rate(result.tokens_per_s));
    setOutput($('#o-cycle', this.root), result.cycle_time_s, fmt.seconds(result.cycle_time_s));
    $('#o-base-tps', this.root).textContent =
      typeof result.baseline_tokens_per_s === 'number' ? `plain decoding: ${fmt.rate(result.baseline_tokens_per_s)}` : '';

    if (result.tau_definition) $('#l-tau', this.root).title = result.tau_definition;
    document.title = `${fmt.speedup(result.speedup)} · SpecCalc`;

    const verdict = $('#verdict', this.root);
    verdict.className = `verdict ${result.speedup > 1 ? 'good' : 'bad'}`;
    verdict.textContent = result.speedup > 1
      ? `Speculation pays off: ${fmt.speedup(result.speedup)} faster than plain decoding.`
      : `Speculation does not pay off here: ${fmt.speedup(result.speedup)} of plain decoding speed.`;

    const body = clear($('#passes-body', this.root));
    for (const [key, label] of PASSES) {
      const p = result[key];
      if (!p) continue;
      const bytesTitle = ['weights_bytes', 'kv_cache_bytes', 'activations_bytes']
        .filter((k) => typeof p[k] === 'number')
        .map((k) => `${k.replace('_bytes', '').replace('_', ' ')}: ${fmt.bytes(p[k])}`)
        .join(', ');
      const idle = p.bound === 'none';
      body.append(el('tr', { 'data-pass': key, class: idle ? 'idle' : undefined },
        el('th', { scope: 'row', text: label }),
        el('td', { text: fmt.seconds(p.time_s), 'data-value': p.time_s }),
        el('td', { text: fmt.plain(p.passes_per_cycle ?? '—') }),
        el('td', { text: fmt.plain(p.tokens_per_pass ?? '—') }),
        el('td', { text: fmt.bytes(p.bytes), title: bytesTitle || undefined }),
        el('td', { text: fmt.flops(p.flops) }),
        el('td', { text: idle ? '—' : fmt.intensity(p.arithmetic_intensity) }),
        el('td', {
          text: p.limited_by && p.limited_by !== p.bound ? `${p.bound} (${p.limited_by}-limited)` : p.bound,
          class: `bound-${p.bound}`,
          title: p.limited_by ? `roofline bound: ${p.bound}; largest time term: ${p.limited_by}` : undefined,
        })));
    }

    const mem = result.memory;
    const memNode = $('#memory', this.root);
    if (mem && typeof mem.weights_gb_per_gpu === 'number') {
      memNode.textContent = `Memory per GPU: ${fmt.plain(mem.weights_gb_per_gpu)} GB weights + ${fmt.plain(mem.kv_cache_gb_per_gpu)} GB KV cache${mem.fits ? '.' : ' — does not fit on this GPU.'}`;
      memNode.className = mem.fits ? 'memory' : 'memory bad';
    } else {
      memNode.textContent = '';
    }

    const list = clear($('#assumptions', this.root));
    for (const a of result.assumptions || []) list.append(el('li', { text: a }));
  }

  // The core's `export` of the current config (null: this core build has no export command).
  showEngines(exp, error) {
    const body = clear($('#engine-settings-body', this.root));
    $('#engine-settings', this.root).hidden = exp === null && !error;
    if (error) body.append(el('p', { class: 'placeholder', text: error }));
    else if (exp) body.append(engineBlocks(exp, 'engine-settings-blocks'));
  }

  setStale(stale) {
    $('#stale', this.root).hidden = !stale;
    this.root.classList.toggle('is-stale', stale);
  }
}

// One CSV row per pass plus the headline numbers, for spreadsheets.
export function resultCsv(result) {
  const lines = ['quantity,pass,value'];
  for (const k of ['speedup', 'tau', 'tokens_per_s', 'baseline_tokens_per_s', 'cycle_time_s']) {
    if (typeof result[k] === 'number') lines.push(`${k},,${result[k]}`);
  }
  for (const [key] of PASSES) {
    const p = result[key];
    if (!p) continue;
    for (const [k, v] of Object.entries(p)) {
      if (typeof v === 'number' || typeof v === 'string') lines.push(`${k},${key},${csvCell(v)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function csvCell(v) {
  const s = String(v);
  // Quote, and defuse spreadsheet formulas in text cells.
  const safe = /^[=+\-@]/.test(s) && typeof v !== 'number' ? `'${s}` : s;
  return /[",\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
