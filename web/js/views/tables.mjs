// Published measurements (the core's "tables" command, format "page"): browse and filter (the
// core filters, counts and pages; the GPU and temperature choices are the core's); "Use" fills
// the calculator from a row and shows measured vs predicted; "Reproduce the papers" runs the
// core's validate and draws it (validation.mjs, loaded on demand).
import { el, $, clear } from '../dom.mjs';
import { callJson, describeError } from '../api.mjs';
import { heavyJson } from '../worker/client.mjs';
import * as fmt from '../format.mjs';

const TEXT_FILTERS = [
  ['method', 'Method'],
  ['model', 'Model'],
  ['dataset', 'Dataset'],
  ['source', 'Source'],
];
// Filters whose choices the core lists with the page (filters.hardware / filters.temperature).
const CHOICE_FILTERS = [
  ['hardware', 'GPU'],
  ['temperature', 'Temperature'],
];

// The calculator config a published row describes comes from the core (`config` on every
// tables / validate row; null when the row cannot be modelled): "Use" and "Reproduce" agree.
export function configFromRow(row) {
  return row.config && typeof row.config === 'object' ? row.config : null;
}

export class TablesView {
  constructor(root, { onUse, busy, loadCharts }) {
    this.root = root;
    this.onUse = onUse;
    this.busy = busy;
    this.loadCharts = loadCharts;
    this.offset = 0;
    this.choices = { hardware: [], temperature: [] };
    this.body = $('.data-body', root);
  }

  async init() {
    const form = el('form', {
      class: 'filters',
      role: 'search',
      'aria-label': 'Filter published measurements',
    });
    this.inputs = {};
    for (const [key, label] of TEXT_FILTERS) {
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
    for (const [key, label] of CHOICE_FILTERS) {
      const id = `t-${key}`;
      this.inputs[key] = el(
        'select',
        { id, 'data-filter': key },
        el('option', { value: '', text: 'any' }),
      );
      form.append(
        el('div', { class: 'field' }, el('label', { for: id, text: label }), this.inputs[key]),
      );
    }
    form.addEventListener('submit', (e) => e.preventDefault());
    let timer = null;
    // A filter change starts again at the first row.
    form.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        this.offset = 0;
        this.refresh();
      }, 200);
    });
    this.count = el('p', {
      class: 'count',
      'aria-live': 'polite',
      'data-testid': 'published-count',
    });
    this.pager = el('div', { class: 'pager' });
    this.compare = el('div', {
      class: 'compare',
      'data-testid': 'measured-vs-predicted',
      'aria-live': 'polite',
    });
    this.tableWrap = el('div', {
      class: 'table-wrap',
      tabindex: '0',
      role: 'region',
      'aria-label': 'Published rows on this page',
    });
    this.reproduceButton = el('button', {
      type: 'button',
      text: 'Reproduce the papers',
      'data-testid': 'reproduce-button',
      onclick: () => this.reproduce(),
    });
    this.reproduceOut = el('div', { class: 'reproduce', 'data-testid': 'reproduce' });
    this.body.append(
      form,
      this.count,
      this.compare,
      this.tableWrap,
      this.pager,
      el('h3', { text: 'Reproduce the papers' }),
      el('p', {
        class: 'hint',
        text: "Predicts every row that names a model and GPU we have presets for, with the row's own τ: predicted vs measured speedup by source, the error of each source in-sample and held out, and every row not predicted with the reason.",
      }),
      this.reproduceButton,
      this.reproduceOut,
    );
    await this.refresh();
    return true;
  }

  query() {
    const q = { format: 'page', offset: this.offset };
    for (const [key] of TEXT_FILTERS) q[key] = this.inputs[key].value.trim();
    // A choice is sent as the core listed it (a GPU id, a number or "not stated").
    for (const [key] of CHOICE_FILTERS) {
      const i = this.inputs[key].value;
      if (i !== '') q[key] = this.choices[key][Number(i)].query;
    }
    return q;
  }

  fillChoices(filters) {
    for (const [key] of CHOICE_FILTERS) {
      const select = this.inputs[key];
      if (select.options.length > 1) continue; // listed once: the choices cover the whole table
      this.choices[key] = filters[key];
      filters[key].forEach((c, i) =>
        select.append(el('option', { value: String(i), text: `${c.label} (${c.rows} rows)` })),
      );
    }
  }

  async refresh() {
    let page;
    try {
      page = await callJson('tables', this.query());
    } catch (e) {
      this.count.textContent = describeError(e);
      return;
    }
    this.fillChoices(page.filters);
    this.count.textContent = page.total
      ? `Rows ${page.first}–${page.last} of ${page.total}.`
      : 'No row matches these filters.';
    Object.assign(this.count.dataset, {
      total: page.total,
      first: page.first,
      last: page.last,
    });
    this.showPager(page);
    this.showRows(page.rows);
  }

  showPager(page) {
    const go = (offset) => () => {
      this.offset = offset;
      this.refresh();
    };
    clear(this.pager).append(
      el('button', {
        type: 'button',
        text: '← Previous rows',
        'data-testid': 'published-previous',
        disabled: page.previous_offset === null,
        onclick: go(page.previous_offset),
      }),
      el('button', {
        type: 'button',
        text: 'Next rows →',
        'data-testid': 'published-next',
        disabled: page.next_offset === null,
        onclick: go(page.next_offset),
      }),
    );
  }

  showRows(rows) {
    const heads = ['Source', 'Table', 'Method', 'Model', 'Dataset', 'T', 'GPU', 'τ', 'Speedup'];
    const table = el(
      'table',
      { class: 'published', 'data-testid': 'published-table' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...heads.map((h) => el('th', { scope: 'col', text: h })),
          el('th', { scope: 'col' }, el('span', { class: 'visually-hidden', text: 'Calculator' })),
        ),
      ),
    );
    const tbody = el('tbody');
    for (const row of rows) {
      // Whether a row can be used, and why not, is the core's (`use` on every row).
      const use = row.use.ok
        ? el('button', {
            type: 'button',
            text: 'Use',
            'aria-label': `Use ${row.method} on ${row.model} (${row.source})`,
            onclick: () => this.use(row),
          })
        : el('span', { class: 'hint', text: row.use.label, title: row.use.reason });
      // The model by the core's normalized name; the source's own spelling on hover.
      const published = row.target_model !== row.model ? `published as "${row.target_model}"` : '';
      tbody.append(
        el(
          'tr',
          { 'data-id': row.id },
          el('td', { text: row.source_id || row.source, title: row.source }),
          // A reprint of an earlier table's row (the core's duplicate_of) is one measurement.
          el('td', {
            text: row.duplicate_of ? `${row.table} (reprint)` : row.table,
            title: row.duplicate_of
              ? `the numbers of ${row.duplicate_of}, reprinted: validated once, as that row`
              : undefined,
          }),
          el('td', { text: row.method }),
          el('td', {
            text: row.model,
            'data-col': 'model',
            title: [published, row.target_assumption].filter(Boolean).join('; ') || undefined,
          }),
          el('td', { text: row.dataset }),
          el('td', { text: typeof row.temperature === 'number' ? String(row.temperature) : '—' }),
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
        ` — ${row.method}, ${row.model}, ${row.dataset} (${row.source}, ${row.table}).`,
      ),
      row.hardware_assumed
        ? el('p', { class: 'hint', text: `Hardware assumed: ${row.hardware_assumption}` })
        : null,
    );
    this.compare.scrollIntoView({ block: 'nearest' });
  }

  // The core's validate report, drawn by validation.mjs (with the chart library) on demand.
  async reproduce() {
    this.reproduceButton.disabled = true;
    const done = this.busy('Reproducing published results…');
    // Let the progress indicator paint before the (synchronous) core call.
    await new Promise((r) => setTimeout(r, 120));
    try {
      const [report, view] = await Promise.all([
        heavyJson('validate', { format: 'json' }, { slot: 'validate' }),
        import('./validation.mjs'),
        this.loadCharts(),
      ]);
      view.showValidation(clear(this.reproduceOut), report);
    } catch (e) {
      clear(this.reproduceOut).append(el('p', { class: 'field-error', text: describeError(e) }));
    } finally {
      done();
      this.reproduceButton.disabled = false;
    }
  }

  // Published rows for this model that a result can be set beside (the core's "comparable":
  // a reproducing config, a latency speedup, not superseded), with the core's mark of the
  // fastest row of each family: the families chart, and the k and batch charts overlay them.
  async measuredFor(targetId) {
    if (typeof targetId !== 'string') return [];
    if (this.measuredCache && this.measuredCache.target === targetId)
      return this.measuredCache.rows;
    try {
      const rows = (
        await callJson('tables', { model_id: targetId, comparable: true, format: 'json' })
      ).map((r) => ({
        family: r.family,
        speedup: r.speedup,
        best: r.family_best,
        config: configFromRow(r),
        label: `${r.source_id || r.source} ${r.table}, ${r.dataset}`,
        hardware: r.hardware_id || r.hardware,
        runtime: r.runtime,
      }));
      this.measuredCache = { target: targetId, rows };
      return rows;
    } catch {
      return [];
    }
  }
}
