// Two scenarios side by side: "A" (the one kept when Compare was pressed, in the link after
// "&compare&") and "B" (the one being edited). Rows whose text differs are marked, so the
// difference between two methods, engines or GPUs reads at a glance. Every number is a field of
// the two core results.
import { el, $, clear } from '../dom.mjs';
import * as fmt from '../format.mjs';
import { engineView, engineIdOf } from '../engine-view.mjs';

const name = (x) => (typeof x === 'string' && x ? x : 'custom');

// A value as people read it: numbers and lists of numbers as written, a tree (a list of paths)
// by its size, anything else as compact JSON.
function valueText(v) {
  if (Array.isArray(v) && v.every((x) => typeof x === 'number')) return v.join(', ');
  if (Array.isArray(v) && v.every(Array.isArray)) return `${v.length} tree paths`;
  if (typeof v === 'object' && v !== null) return JSON.stringify(v);
  return String(v);
}

// A setting as people read it; a draft of your own by its name, not its keys.
function settingText(key, v) {
  if (key === 'draft' && typeof v === 'object' && v !== null)
    return `${name(v.name ?? v)} (your own)`;
  return valueText(v);
}

// [label, text of one result] in display order: the setup first, then the outcome. `labels`
// holds the core's names (list methods: each family's label and param_labels; list
// acceptance: each form's label; list hardware: each preset's name; list runtimes: each
// engine's knobs).
const rows = (labels) => [
  ['Model', (r) => labels.model(r.config.target)],
  ['Hardware', (r) => `${r.config.gpus} × ${labels.hardware(r.config.hardware)}`],
  ['Engine', (r) => r.engine.name],
  // Precision moves memory and speed as much as batch does (the walk: fp16 -> fp8 weights went
  // unmarked while memory fell 37 -> 24 GB).
  ['Weights / KV cache', (r) => `${r.config.dtype.weights} / ${r.config.dtype.kv}`],
  ['Batch × context', (r) => `${r.config.batch} × ${r.config.context}`],
  ['Method', (r) => labels.family(r.config.method.family)],
  // In the engine's own knobs, as the form shows them (vLLM's num_speculative_tokens, not
  // depth / top_k / total_token); a knob by its name, the family's other keys by the core's label.
  [
    'Method settings',
    (r) => {
      const view = engineView(r.config.method, labels.engine(engineIdOf(r.config.runtime)));
      return Object.entries(view.method)
        .filter(([k]) => k !== 'family')
        .map(([k, v]) => {
          const name = k in view.labels ? k : labels.param(r.config.method.family, k);
          return `${name}: ${settingText(k, v)}`;
        })
        .join('; ');
    },
  ],
  // A default acceptance ({published: true}) reads as the core's few words of where it came
  // from ("assumed: per-token acceptance 0.7, ..."), not as "true"; a given one as given.
  [
    'Acceptance',
    (r) =>
      r.config.acceptance.published
        ? r.tau_basis
        : Object.entries(r.config.acceptance)
            .map(([k, v]) => `${labels.acceptance(k)}: ${valueText(v)}`)
            .join('; '),
  ],
  // Where τ comes from (the core's tau_source): a default acceptance follows the family.
  ['τ from', (r) => r.tau_source],
  ['Verdict', (r) => r.verdict],
  ['Speedup', (r) => (r.verdict === 'infeasible' ? 'does not fit' : fmt.speedup(r.speedup))],
  ['τ', (r) => fmt.tau(r.tau)],
  ['Tokens/s', (r) => (r.verdict === 'infeasible' ? '—' : fmt.rate(r.tokens_per_s))],
  ['Cycle time', (r) => fmt.seconds(r.cycle_time_s)],
  [
    'Memory per device',
    (r) => `${fmt.gb(r.memory.total_gb_per_gpu)} of ${fmt.gb(r.memory.usable_gb_per_gpu)}`,
  ],
];

export class CompareView {
  // The start button (index.html) is wired by the controller, which loads this view on its
  // first press.
  constructor(root, { onStop, onSwap }) {
    this.root = root;
    this.body = $('.compare-body', root);
    this.actions = { onStop, onSwap };
    this.setLabels({ methods: [], acceptance: [], hardware: [] });
  }

  // The core's names for families, their keys and the acceptance forms.
  setLabels({ methods, acceptance, hardware = [], models = [], runtimes = [] }) {
    const fam = new Map(methods.map((m) => [m.id, m]));
    const acc = new Map(acceptance.map((f) => [f.id, f.label]));
    const gpu = new Map(hardware.map((g) => [g.id, g.name]));
    const model = new Map(models.map((m) => [m.id, m.name]));
    const engine = new Map(runtimes.map((e) => [e.id, e]));
    this.rows = rows({
      // A model of your own (keys or a config.json) by the name the core echoed.
      model: (t) => (typeof t === 'string' ? model.get(t) || t : `${name(t.name ?? t)} (your own)`),
      hardware: (h) => (typeof h === 'string' ? gpu.get(h) || h : 'custom'),
      family: (id) => fam.get(id)?.label || id,
      param: (id, key) => fam.get(id)?.param_labels?.[key] || key,
      acceptance: (id) => acc.get(id) || id,
      engine: (id) => engine.get(id),
    });
  }

  // other: {result} of A, or null; current: B's result.
  show(other, current) {
    this.root.dataset.active = String(Boolean(other));
    $('#compare-start', this.root).hidden = Boolean(other);
    const body = clear(this.body);
    if (!other) return;
    const shown = this.rows.map(([label, text]) => {
      const a = text(other.result);
      const b = text(current);
      return el(
        'tr',
        { class: a === b ? undefined : 'diff', 'data-diff': String(a !== b), 'data-row': label },
        el('th', { scope: 'row', text: label }),
        el('td', { text: a }),
        el('td', { text: b }),
      );
    });
    body.append(
      el(
        'div',
        {
          class: 'table-wrap',
          tabindex: '0',
          role: 'region',
          'aria-label': 'A and B side by side',
        },
        el(
          'table',
          { class: 'compare-table', 'data-testid': 'compare-table' },
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              el('th', { scope: 'col', text: '' }),
              el('th', { scope: 'col', text: 'A (kept)' }),
              el('th', { scope: 'col', text: 'B (editing)' }),
            ),
          ),
          el('tbody', {}, ...shown),
        ),
      ),
      el('p', {
        class: 'hint',
        text: 'Marked rows differ. Edit the form to change B; both are in the link.',
      }),
      el(
        'div',
        { class: 'compare-actions' },
        el('button', {
          type: 'button',
          text: 'Swap A and B',
          'data-testid': 'compare-swap',
          onclick: this.actions.onSwap,
        }),
        el('button', {
          type: 'button',
          text: 'Stop comparing',
          'data-testid': 'compare-stop',
          onclick: this.actions.onStop,
        }),
      ),
    );
  }
}
