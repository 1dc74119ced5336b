// Published measurements (the core's "tables" command): browse and filter; "Use" fills the
// calculator from a row and shows measured vs predicted; "Reproduce the papers" predicts every
// row that names a model and GPU preset and lists the error, grouped by source.
import { el, $, clear, download } from '../dom.mjs';
import { callJson, describeError } from '../api.mjs';
import { heavyJson } from '../worker/client.mjs';
import { csvCell } from './results.mjs';
import * as fmt from '../format.mjs';

const MAX_SHOWN = 60;
const FILTERS = [
  ['method', 'Method'],
  ['model', 'Model'],
  ['dataset', 'Dataset'],
  ['source', 'Source'],
];

// The calculator config a published row describes comes from the core (`config` on every
// tables / validate row; null when the row cannot be modelled): "Use" and "Reproduce" agree.
export function configFromRow(row) {
  return row.config && typeof row.config === 'object' ? row.config : null;
}

function rowsCsv(rows) {
  const keys = [
    'source_id',
    'table',
    'method',
    'model',
    'dataset',
    'hardware',
    'gpus',
    'runtime',
    'tau',
    'measured',
    'predicted',
    'error_pct',
  ];
  return `${keys.join(',')}\n${rows.map((r) => keys.map((k) => csvCell(r[k] ?? '')).join(',')).join('\n')}\n`;
}

export function usable(row) {
  return configFromRow(row) !== null && typeof row.speedup === 'number' && !row.superseded;
}

export class TablesView {
  constructor(root, { onUse, busy }) {
    this.root = root;
    this.onUse = onUse;
    this.busy = busy;
    this.rows = [];
    this.body = $('.data-body', root);
  }

  async init() {
    const form = el('form', {
      class: 'filters',
      role: 'search',
      'aria-label': 'Filter published measurements',
    });
    this.inputs = {};
    for (const [key, label] of FILTERS) {
      const id = `t-${key}`;
      this.inputs[key] = el('input', {
        id,
        type: 'search',
        autocomplete: 'off',
        'data-filter': key,
      });
      form.append(
        el('div', { class: 'field' }, el('label', { for: id, text: label }), this.inputs[key]),
      );
    }
    form.addEventListener('submit', (e) => e.preventDefault());
    let timer = null;
    form.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.refresh(), 200);
    });
    this.count = el('p', { class: 'count', 'aria-live': 'polite' });
    this.compare = el('div', {
      class: 'compare',
      'data-testid': 'measured-vs-predicted',
      'aria-live': 'polite',
    });
    this.tableWrap = el('div', {
      class: 'table-wrap',
      tabindex: '0',
      role: 'region',
      'aria-label': 'Published measurements',
    });
    this.reproduceButton = el('button', {
      type: 'button',
      text: 'Reproduce the papers',
      onclick: () => this.reproduce(),
    });
    this.reproduceOut = el('div', { class: 'reproduce', 'data-testid': 'reproduce' });
    this.body.append(
      form,
      this.count,
      this.compare,
      this.tableWrap,
      el('h3', { text: 'Reproduce the papers' }),
      el('p', {
        class: 'hint',
        text: "Predicts every row that names a model and GPU we have presets for, with the row's own τ, and lists predicted vs measured speedup grouped by source.",
      }),
      this.reproduceButton,
      this.reproduceOut,
    );
    await this.refresh();
    return true;
  }

  query() {
    const q = { format: 'json' };
    for (const [key] of FILTERS) q[key] = this.inputs[key].value.trim();
    return q;
  }

  async refresh() {
    try {
      this.rows = await callJson('tables', this.query());
    } catch (e) {
      this.count.textContent = describeError(e);
      return;
    }
    const shown = this.rows.slice(0, MAX_SHOWN);
    this.count.textContent =
      this.rows.length > MAX_SHOWN
        ? `${this.rows.length} rows; showing the first ${MAX_SHOWN} (narrow the filters).`
        : `${this.rows.length} rows.`;
    const table = el(
      'table',
      { class: 'published', 'data-testid': 'published-table' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...['Source', 'Table', 'Method', 'Model', 'Dataset', 'Hardware', 'τ', 'Speedup', ''].map(
            (h) => el('th', { scope: 'col', text: h }),
          ),
        ),
      ),
    );
    const tbody = el('tbody');
    for (const row of shown) {
      const use = usable(row)
        ? el('button', {
            type: 'button',
            text: 'Use',
            'aria-label': `Use ${row.method} on ${row.target_model} (${row.source})`,
            onclick: () => this.use(row),
          })
        : el('span', {
            class: 'hint',
            text: row.target_id ? '' : 'no preset',
            title: 'The core cannot model this row (no model or GPU preset, or no τ)',
          });
      tbody.append(
        el(
          'tr',
          {},
          el('td', { text: row.source_id || row.source, title: row.source }),
          el('td', { text: row.table }),
          el('td', { text: row.method }),
          el('td', { text: row.target_model }),
          el('td', { text: row.dataset }),
          el('td', {
            text: row.hardware_id || '—',
            title: row.hardware_assumption || row.hardware,
          }),
          el('td', { text: typeof row.tau === 'number' ? fmt.tau(row.tau) : '—' }),
          el('td', { text: typeof row.speedup === 'number' ? fmt.speedup(row.speedup) : '—' }),
          el('td', {}, use),
        ),
      );
    }
    table.append(tbody);
    clear(this.tableWrap).append(table);
  }

  async use(row) {
    const result = await this.onUse(configFromRow(row));
    clear(this.compare);
    if (!result) return;
    this.compare.append(
      el(
        'p',
        {},
        el('strong', { text: `Measured ${fmt.speedup(row.speedup)}` }),
        ' vs ',
        el('strong', { text: `predicted ${fmt.speedup(result.speedup)}` }),
        ` — ${row.method}, ${row.target_model}, ${row.dataset} (${row.source}, ${row.table}).`,
      ),
      row.hardware_assumed
        ? el('p', { class: 'hint', text: `Hardware assumed: ${row.hardware_assumption}` })
        : null,
    );
    this.compare.scrollIntoView({ block: 'nearest' });
  }

  async reproduce() {
    this.reproduceButton.disabled = true;
    const done = this.busy('Reproducing published results…');
    // Let the progress indicator paint before the (synchronous) core call.
    await new Promise((r) => setTimeout(r, 120));
    try {
      this.showValidation(await heavyJson('validate', { format: 'json' }, { slot: 'validate' }));
    } finally {
      done();
      this.reproduceButton.disabled = false;
    }
  }

  // The core's "validate" report: per source MAPE, per row predicted vs measured, exclusions.
  showValidation(report) {
    const out = clear(this.reproduceOut);
    const pct = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(0)} %`;
    const o = report.overall;
    out.append(
      el('p', {
        'data-testid': 'reproduce-overall',
        text: `${o.rows} rows predicted; mean |error| (MAPE) ${o.mape_pct.toFixed(1)} %, signed mean ${pct(o.mean_error_pct)}${report.overall_calibrated ? `; with each source's own baseline step time: MAPE ${report.overall_calibrated.mape_pct.toFixed(1)} %` : ''}.`,
      }),
    );
    if (report.definition) out.append(el('p', { class: 'hint', text: String(report.definition) }));
    const bySource = new Map();
    for (const r of report.rows) {
      if (!bySource.has(r.source_id)) bySource.set(r.source_id, []);
      bySource.get(r.source_id).push(r);
    }
    for (const src of report.sources) {
      const rows = bySource.get(src.source_id) || [];
      const table = el(
        'table',
        { class: 'published' },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ...['Method', 'Model', 'Dataset', 'GPU', 'τ', 'Measured', 'Predicted', 'Error'].map(
              (h) => el('th', { scope: 'col', text: h }),
            ),
          ),
        ),
      );
      const tbody = el('tbody');
      for (const r of rows) {
        tbody.append(
          el(
            'tr',
            {},
            el('td', { text: r.method }),
            el('td', { text: r.model }),
            el('td', { text: r.dataset }),
            el('td', {
              text: `${r.gpus > 1 ? `${r.gpus}× ` : ''}${r.hardware}`,
              title: r.hardware_assumption || undefined,
            }),
            el('td', { text: fmt.tau(r.tau) }),
            el('td', { text: fmt.speedup(r.measured) }),
            el('td', { text: fmt.speedup(r.predicted) }),
            el('td', {
              text: pct(r.error_pct),
              class: Math.abs(r.error_pct) > 25 ? 'bad' : undefined,
            }),
          ),
        );
      }
      table.append(tbody);
      const cal =
        src.calibrated && src.calibrated.rows
          ? `; calibrated MAPE ${src.calibrated.mape_pct.toFixed(1)} %`
          : '';
      out.append(
        el(
          'details',
          {},
          el('summary', {
            text: `${src.source} — ${src.stock.rows} rows, MAPE ${src.stock.mape_pct.toFixed(1)} %${cal}`,
          }),
          el(
            'div',
            {
              class: 'table-wrap',
              tabindex: '0',
              role: 'region',
              'aria-label': 'Rows of this source',
            },
            table,
          ),
        ),
      );
    }
    const excluded = el(
      'ul',
      {},
      ...report.excluded.slice(0, 200).map((x) => el('li', { text: `${x.id}: ${x.reason}` })),
    );
    out.append(
      el(
        'details',
        {},
        el('summary', { text: `${report.excluded.length} rows not predicted, with the reason` }),
        excluded,
      ),
    );
    out.append(
      el(
        'div',
        { class: 'exports' },
        el('button', {
          type: 'button',
          text: 'Export JSON',
          onclick: () => download('speccalc-validate.json', JSON.stringify(report, null, 2)),
        }),
        el('button', {
          type: 'button',
          text: 'Export CSV',
          onclick: () => download('speccalc-validate.csv', rowsCsv(report.rows), 'text/csv'),
        }),
      ),
    );
  }

  // Published rows for this model (speedups measured at latency, not superseded), each with the
  // config the core says reproduces it: the families chart, and the k and batch charts overlay them.
  async measuredFor(targetId) {
    if (typeof targetId !== 'string') return [];
    if (this.measuredCache && this.measuredCache.target === targetId)
      return this.measuredCache.rows;
    try {
      const rows = (await callJson('tables', { model: targetId, format: 'json' }))
        .filter(
          (r) =>
            r.target_id === targetId &&
            typeof r.speedup === 'number' &&
            !r.superseded &&
            r.speedup_kind !== 'throughput',
        )
        .map((r) => ({
          family: r.family,
          speedup: r.speedup,
          config: configFromRow(r),
          label: `${r.source_id || r.source} ${r.table}, ${r.dataset}`,
          hardware: r.hardware_id || r.hardware,
        }));
      this.measuredCache = { target: targetId, rows };
      return rows;
    } catch {
      return [];
    }
  }
}
