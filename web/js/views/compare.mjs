// Two scenarios side by side: "A" (the one kept when Compare was pressed, in the link after
// "&compare&") and "B" (the one being edited). Rows whose text differs are marked, so the
// difference between two methods, engines or GPUs reads at a glance. Every number is a field of
// the two core results.
import { el, $, clear } from '../dom.mjs';
import * as fmt from '../format.mjs';

const name = (x) => (typeof x === 'string' ? x : 'custom');
const json = (x) => JSON.stringify(x);

// [label, text of one result] in display order: the setup first, then the outcome.
const ROWS = [
  ['Model', (r) => name(r.config.target)],
  ['GPU', (r) => `${r.config.gpus} × ${name(r.config.hardware)}`],
  ['Engine', (r) => r.engine.name],
  ['Batch × context', (r) => `${r.config.batch} × ${r.config.context}`],
  ['Method', (r) => r.config.method.family],
  [
    'Method settings',
    (r) =>
      json(Object.fromEntries(Object.entries(r.config.method).filter(([k]) => k !== 'family'))),
  ],
  ['Acceptance', (r) => json(r.config.acceptance)],
  // Where τ comes from (the core's tau_source): a default acceptance follows the family.
  ['τ from', (r) => r.tau_source],
  ['Verdict', (r) => r.verdict],
  ['Speedup', (r) => (r.verdict === 'infeasible' ? 'does not fit' : fmt.speedup(r.speedup))],
  ['τ', (r) => fmt.tau(r.tau)],
  ['Tokens/s', (r) => (r.verdict === 'infeasible' ? '—' : fmt.rate(r.tokens_per_s))],
  ['Cycle time', (r) => fmt.seconds(r.cycle_time_s)],
  [
    'Memory per GPU',
    (r) => `${fmt.gb(r.memory.total_gb_per_gpu)} of ${fmt.gb(r.memory.usable_gb_per_gpu)}`,
  ],
];

export class CompareView {
  constructor(root, { onStart, onStop, onSwap }) {
    this.root = root;
    this.body = $('.compare-body', root);
    $('#compare-start', root).addEventListener('click', onStart);
    this.actions = { onStop, onSwap };
  }

  // other: {result} of A, or null; current: B's result.
  show(other, current) {
    this.root.dataset.active = String(Boolean(other));
    $('#compare-start', this.root).hidden = Boolean(other);
    const body = clear(this.body);
    if (!other) return;
    const rows = ROWS.map(([label, text]) => {
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
          el('tbody', {}, ...rows),
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
