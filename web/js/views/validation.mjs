// "Reproduce the papers": the core's validate report drawn as it is. Predicted vs measured
// speedup on log-log axes (one colour and marker per source, the line where they are equal),
// the error of each source in-sample and held out (leave-one-source-out), every published row
// not predicted counted under its reason, and the rows by source. Loaded on demand (with the
// chart library) when the reader asks for it: not part of the first load.
import { el, clear, download } from '../dom.mjs';
import { ChartSlot, color, drawnMark } from './chart-kit.mjs';
import { csvCell } from './results.mjs';
import * as fmt from '../format.mjs';

// Marker shapes cycle with the colours, so sources differ by more than colour.
const SHAPES = ['circle', 'square', 'triangle', 'diamond'];
const COLOURS = 10; // --s1 .. --s10 in app.css, light and dark
// Gridlines of the log axes, at speedups people read.
const TICKS = [0.5, 0.75, 1, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20];

const pct = (x) => fmt.signedPercent(x);
const mape = (s) => (s && s.rows ? `${s.mape_pct.toFixed(1)} %` : '—');

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

function table(headers, rows, attrs = {}) {
  return el(
    'table',
    { class: 'published', ...attrs },
    el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', { scope: 'col', text: h })))),
    el('tbody', {}, ...rows),
  );
}

function region(label, child) {
  return el(
    'div',
    { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': label },
    child,
  );
}

// The sources in the order the report lists them (published papers, then serving engines)
// with their points, a colour and a marker; a source with no predicted row is not drawn. Each
// point is placed at the core's numbers: a paper row at (measured, predicted); an engine row at
// (measured_reference, predicted), the value its error is taken against, with its measured
// range (when it states one) drawn as a bar.
function groupsOf(report) {
  const groups = new Map();
  const add = (id, kind) => {
    const i = groups.size;
    const shape = SHAPES[i % SHAPES.length];
    const n = (i % COLOURS) + 1;
    groups.set(id, {
      id,
      kind,
      points: [],
      colour: `--s${n}`,
      shape,
      swatch: `swatch s${n} shape-${shape}`,
    });
  };
  for (const s of report.sources) if (s.stock.rows) add(s.source_id, 'paper');
  const engines = report.engines;
  if (engines) for (const id of Object.keys(engines.by_source)) add(id, 'engine');
  for (const r of report.rows)
    groups.get(r.source_id)?.points.push({ measured: r.measured, predicted: r.predicted });
  if (engines)
    for (const r of engines.rows)
      groups.get(r.source)?.points.push({
        measured: r.measured_reference,
        predicted: r.predicted,
        range: r.measured_range || null,
      });
  return [...groups.values()];
}

function marker(ctx, shape, x, y, r) {
  ctx.beginPath();
  if (shape === 'square') ctx.rect(x - r, y - r, 2 * r, 2 * r);
  else if (shape === 'triangle') {
    ctx.moveTo(x, y - r * 1.2);
    ctx.lineTo(x + r * 1.1, y + r * 0.8);
    ctx.lineTo(x - r * 1.1, y + r * 0.8);
    ctx.closePath();
  } else if (shape === 'diamond') {
    ctx.moveTo(x, y - r * 1.3);
    ctx.lineTo(x + r, y);
    ctx.lineTo(x, y + r * 1.3);
    ctx.lineTo(x - r, y);
    ctx.closePath();
  } else ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fill();
  ctx.stroke();
}

function scatter(groups) {
  const figure = el(
    'figure',
    { class: 'chart scatter', 'data-testid': 'validation-scatter' },
    el('figcaption', { text: 'Predicted vs measured speedup (log–log), one marker per row' }),
    el('div', { class: 'chart-body' }),
    el('p', { class: 'chart-note' }),
  );
  const slot = new ChartSlot(figure);
  const all = groups.flatMap((g) => g.points);
  const values = all.flatMap((p) => [p.predicted, p.measured]);
  // The axes' extent only: both axes span every mark (a measured range's bar may run past
  // it, e.g. "below 1×" is [0, 1], and is cut at the axis).
  const lo = Math.min(...values) * 0.9;
  const hi = Math.max(...values) * 1.1;
  const ticks = () => TICKS.filter((t) => t >= lo && t <= hi);
  const every = (u, splits) => splits;
  const labels = (axis) => (u, v) => {
    const text = v.map((x) => fmt.plain(x));
    figure.dataset[`${axis}Ticks`] = text.join(',');
    return text;
  };
  const draw = () =>
    slot.draw(
      {
        series: [
          { label: 'Measured' },
          {
            label: 'Predicted = measured',
            stroke: color('--fg-muted'),
            width: 1,
            dash: [5, 4],
            points: { show: false },
          },
        ],
        scales: {
          x: { time: false, distr: 3, range: [lo, hi] },
          y: { distr: 3, range: [lo, hi] },
        },
        axes: [
          // Every tick labelled (uPlot's log axes label only some by default).
          { label: 'Measured speedup ×', splits: ticks, filter: every, values: labels('x') },
          { label: 'Predicted speedup ×', splits: ticks, filter: every, values: labels('y') },
        ],
        legend: { show: false },
        cursor: { show: false },
        plugins: [
          {
            hooks: {
              draw: [
                (u) => {
                  const { ctx } = u;
                  ctx.save();
                  ctx.lineWidth = devicePixelRatio;
                  for (const g of groups) {
                    ctx.fillStyle = color(g.colour);
                    for (const p of g.points) {
                      const cx = u.valToPos(p.measured, 'x', true);
                      const cy = u.valToPos(p.predicted, 'y', true);
                      if (!drawnMark(u, g.id, p.measured, p.predicted, cx, cy)) continue;
                      if (p.range) {
                        ctx.strokeStyle = color(g.colour);
                        ctx.beginPath();
                        ctx.moveTo(u.valToPos(Math.max(p.range[0], lo), 'x', true), cy);
                        ctx.lineTo(u.valToPos(Math.min(p.range[1], hi), 'x', true), cy);
                        ctx.stroke();
                      }
                      ctx.strokeStyle = color('--panel');
                      marker(ctx, g.shape, cx, cy, 4 * devicePixelRatio);
                    }
                  }
                  ctx.restore();
                },
              ],
            },
          },
        ],
      },
      [
        [lo, hi],
        [lo, hi],
      ],
    );
  // Drawn once the figure is in the document (uPlot sizes itself from its container).
  requestAnimationFrame(() => {
    draw();
    figure.dataset.sources = groups.map((g) => g.id).join(',');
  });
  slot.setNote(
    `${all.length} rows from ${groups.length} sources. Above the dashed line the model predicts more speedup than was measured; below it, less. A bar is a measured range (its marker at the end nearer the prediction, or on the prediction inside it). Each source's error is in the table under the chart.`,
  );
  return figure;
}

function sourceTable(report, groups) {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const name = (id, text) => {
    const g = byId.get(id);
    return el(
      'th',
      { scope: 'row' },
      g ? el('span', { class: g.swatch, 'aria-hidden': 'true' }) : null,
      text,
    );
  };
  const rows = report.sources.map((s) =>
    el(
      'tr',
      { 'data-source': s.source_id },
      name(s.source_id, s.source_id),
      el('td', { text: String(s.published_rows) }),
      el('td', { text: String(s.stock.rows), 'data-col': 'predicted' }),
      el('td', { text: String(s.not_predicted), 'data-col': 'not-predicted' }),
      el('td', { text: mape(s.stock), 'data-col': 'mape' }),
      el('td', { text: s.stock.rows ? pct(s.stock.mean_error_pct) : '—' }),
      el('td', { text: s.stock.rows ? `${s.stock.max_abs_error_pct.toFixed(0)} %` : '—' }),
      el('td', { text: mape(s.cross_validated), 'data-col': 'held-out' }),
    ),
  );
  const engines = report.engines ? Object.entries(report.engines.by_source) : [];
  for (const [id, s] of engines)
    rows.push(
      el(
        'tr',
        { 'data-source': id },
        name(id, `${id} (engine)`),
        el('td', { text: '—' }),
        el('td', { text: String(s.rows), 'data-col': 'predicted' }),
        el('td', { text: '—', 'data-col': 'not-predicted' }),
        el('td', { text: mape(s), 'data-col': 'mape' }),
        el('td', { text: pct(s.mean_error_pct) }),
        el('td', { text: `${s.max_abs_error_pct.toFixed(0)} %` }),
        el('td', { text: mape(s.cross_validated), 'data-col': 'held-out' }),
      ),
    );
  return region(
    'Error by source',
    table(
      [
        'Source',
        'Rows',
        'Predicted',
        'Not predicted',
        'MAPE, in-sample',
        'Mean error',
        'Largest |error|',
        'MAPE, held out',
      ],
      rows,
      { 'data-testid': 'validation-sources' },
    ),
  );
}

// Step times the engines' own sources measured, never fitted, each with the stored profile's
// prediction (the core's engines.time_checks, drawn as they are).
function timeChecks(report) {
  const checks = (report.engines && report.engines.time_checks) || [];
  if (!checks.length) return [];
  const rows = checks.map((r) =>
    el(
      'tr',
      { 'data-check': r.id },
      el('th', { scope: 'row', text: r.engine }),
      el('td', { text: r.target }),
      el('td', {
        text: `${r.gpus > 1 ? `${r.gpus}× ` : ''}${r.hardware}${r.hardware_stated ? '' : ' (assumed)'}`,
      }),
      el('td', { text: String(r.batch) }),
      el('td', { text: fmt.seconds(r.measured_s), 'data-col': 'measured' }),
      el('td', { text: fmt.seconds(r.predicted_s), 'data-col': 'predicted' }),
      el('td', {
        text: pct(r.error_pct),
        'data-col': 'error',
        class: r.large_error ? 'bad' : undefined,
      }),
    ),
  );
  return [
    el('h4', { text: 'Step-time checks (never fitted)' }),
    region(
      'Step-time checks',
      table(['Engine', 'Model', 'GPU', 'Batch', 'Measured step', 'Predicted step', 'Error'], rows, {
        'data-testid': 'validation-time-checks',
      }),
    ),
  ];
}

function coverage(report) {
  const c = report.coverage;
  const rows = c.reasons.map((g) =>
    el(
      'tr',
      { 'data-reason': g.reason },
      el('th', { scope: 'row', text: g.reason }),
      el('td', { text: String(g.rows) }),
      el(
        'td',
        {},
        el(
          'details',
          {},
          el('summary', { text: 'row ids' }),
          el('p', { class: 'ids', text: g.ids.join(', ') }),
        ),
      ),
    ),
  );
  return el(
    'div',
    { class: 'coverage', 'data-testid': 'validation-coverage' },
    el('p', {
      'data-testid': 'coverage-summary',
      text: `${c.published_rows} published rows: ${c.predicted} predicted, ${c.not_predicted} not predicted, by reason:`,
    }),
    region('Rows not predicted, by reason', table(['Reason', 'Rows', 'Which rows'], rows)),
  );
}

function rowsBySource(report) {
  const bySource = new Map(report.sources.map((s) => [s.source_id, []]));
  for (const r of report.rows) bySource.get(r.source_id)?.push(r);
  return report.sources
    .filter((s) => s.stock.rows)
    .map((src) => {
      const rows = bySource.get(src.source_id).map((r) =>
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
            class: r.large_error ? 'bad' : undefined,
          }),
        ),
      );
      const cal =
        src.calibrated && src.calibrated.rows
          ? `; calibrated MAPE ${src.calibrated.mape_pct.toFixed(1)} %`
          : '';
      return el(
        'details',
        {},
        el('summary', {
          text: `${src.source} — ${src.stock.rows} rows, MAPE ${src.stock.mape_pct.toFixed(1)} %${cal}`,
        }),
        region(
          `Rows of ${src.source_id}`,
          table(['Method', 'Model', 'Dataset', 'GPU', 'τ', 'Measured', 'Predicted', 'Error'], rows),
        ),
      );
    });
}

export function showValidation(out, report) {
  const o = report.overall;
  const cv = report.cross_validation;
  const groups = groupsOf(report);
  clear(out).append(
    el('p', {
      'data-testid': 'reproduce-overall',
      text: `${o.rows} rows predicted; mean |error| (MAPE) ${o.mape_pct.toFixed(1)} %, signed mean ${pct(o.mean_error_pct)}${report.overall_calibrated ? `; with each source's own baseline step time: MAPE ${report.overall_calibrated.mape_pct.toFixed(1)} %` : ''}.`,
    }),
    cv
      ? el('p', {
          'data-testid': 'reproduce-held-out',
          text: `Held out (${cv.method}): MAPE ${cv.mape_pct.toFixed(1)} % over ${cv.rows} rows, each source predicted by a fit that never saw it.`,
        })
      : null,
    report.definition ? el('p', { class: 'hint', text: String(report.definition) }) : null,
    el(
      'div',
      { class: 'validation-summary', 'data-testid': 'validation-summary' },
      groups.length ? scatter(groups) : null,
      el('h4', { text: 'Error by source' }),
      sourceTable(report, groups),
    ),
    ...timeChecks(report),
    el('h4', { text: 'Rows not predicted' }),
    coverage(report),
    el('h4', { text: 'Rows by source' }),
    ...rowsBySource(report),
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
