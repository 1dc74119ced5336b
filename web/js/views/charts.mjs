// The four charts under the result. Every plotted number is a field of a core result (eval or
// sweep output); the only arithmetic here is placing those numbers on axes.
import {
  ChartSlot,
  color,
  markerPlugin,
  dotsPlugin,
  rangeWith,
  oneLine,
  tauSeries,
  tauAxis,
} from './chart-kit.mjs';
import { sweep } from './sweeps.mjs';
import { heavyJson } from '../worker/client.mjs';
import * as fmt from '../format.mjs';
import { engineIdOf } from '../engine-view.mjs';

const ok = (points) => points.filter((p) => p.result);

// The roofs as the core reported them with the result (eval's `roofline.roofs`): the datasheet
// roof and the effective one the runtime profile reaches, each with its ridge and the vertices
// of its line over the chart's extent. Nothing is derived here.
function roofsOf(result) {
  const r = result.roofline;
  return r && Array.isArray(r.roofs) && r.roofs.length ? { roofs: r.roofs, raw: r } : null;
}

function achieved(p) {
  return p.achieved_flops_per_s;
}

export class ChartsView {
  constructor(root) {
    this.roofline = new ChartSlot(root.querySelector('#chart-roofline'));
    this.k = new ChartSlot(root.querySelector('#chart-k'));
    this.batch = new ChartSlot(root.querySelector('#chart-batch'));
    this.families = new ChartSlot(root.querySelector('#chart-families'));
    this.families.measured = [];
    this.batchAxis = []; // the batches the batch chart sweeps: the core's (`list ui`)
  }

  showRoofline(result) {
    const slot = this.roofline;
    // Each pass under the core's label (plain decoding's target pass is its decode step).
    const pts = [
      ['baseline', '--c1'],
      ['draft', '--c2'],
      ['verify', '--c3'],
    ]
      .map(([key, c]) => ({ key, label: result[key] && result[key].label, c, p: result[key] }))
      .filter(({ p }) => p && p.bound !== 'none' && p.arithmetic_intensity > 0 && achieved(p) > 0);
    if (!pts.length) {
      slot.destroy();
      slot.setNote('No passes to place.');
      return;
    }
    const roof = roofsOf(result);
    // Each roof is its vertices joined by straight lines (straight on log-log axes too).
    const xs = new Set(pts.map(({ p }) => p.arithmetic_intensity));
    for (const r of roof ? roof.roofs : []) for (const [v] of r.vertices) xs.add(v);
    const x = [...xs].sort((a, b) => a - b);
    const data = [x];
    const series = [{ label: 'FLOP/B' }];
    for (const r of roof ? roof.roofs : []) {
      const at = new Map(r.vertices);
      data.push(x.map((v) => at.get(v) ?? null));
      series.push({
        label: r.label,
        stroke: color('--fg-muted'),
        width: 1.5,
        dash: r.name === 'datasheet' ? [6, 4] : [],
        spanGaps: true,
        points: { show: false },
        value: (u, v) => (v == null ? '—' : fmt.si(v, 'FLOP/s')),
      });
    }
    for (const { p, label, c } of pts) {
      data.push(x.map((v) => (v === p.arithmetic_intensity ? achieved(p) : null)));
      series.push({
        label,
        stroke: color(c),
        fill: color(c),
        width: 0,
        paths: () => null,
        points: { show: true, size: 12, fill: color(c) },
        value: (u, v) => (v == null ? '—' : fmt.si(v, 'FLOP/s')),
      });
    }
    slot.draw(
      {
        series,
        scales: { x: { time: false, distr: 3 }, y: { distr: 3 } },
        axes: [
          {
            label: 'Arithmetic intensity, FLOP/byte',
            values: (u, vals) => vals.map((v) => fmt.plain(v)),
          },
          {
            label: 'Achieved FLOP/s',
            size: 70,
            values: (u, vals) => vals.map((v) => fmt.si(v, '')),
          },
        ],
        cursor: { points: { size: 10 } },
      },
      data,
    );
    slot.figure.dataset.roofs = String(roof ? roof.roofs.length : 0);
    slot.setTable(
      ['Pass', 'Arithmetic intensity', 'Achieved FLOP/s', 'Bound'],
      pts.map(({ p, label }) => [
        label,
        fmt.intensity(p.arithmetic_intensity),
        fmt.si(achieved(p), 'FLOP/s'),
        p.bound,
      ]),
    );
    slot.setNote(
      roof
        ? `${roof.roofs
            .map(
              (r) =>
                `${r.label}: ${fmt.si(r.bandwidth_bytes_per_s, 'B/s')}, ${fmt.si(r.peak_flops_per_s, 'FLOP/s')}, ridge at ${fmt.plain(r.ridge_flops_per_byte)} FLOP/byte.`,
            )
            .join(' ')} Points sit below the roof by the per-pass overheads.`
        : 'Achieved FLOP/s of each pass (this core build does not report the GPU roof).',
    );
  }

  // measured: published rows for this model ({family, speedup, config, label}); the rows of this
  // family that state the swept parameter (or batch) are drawn as dots.
  // `methods`: the core's family table (list methods), which names each family's size
  // parameter and its grid (`sweep`).
  async showK(config, methods = [], measured = []) {
    const slot = this.k;
    const family = config.method.family;
    // An engine that verifies chains sweeps its own knob (the core's sweep_by_engine).
    const entry = methods.find((m) => m.id === family) || {};
    const engine = engineIdOf(config.runtime);
    const spec = (entry.sweep_by_engine || {})[engine] || entry.sweep;
    if (!spec) {
      slot.destroy();
      slot.setExport('k', []);
      slot.setNote(`${family}: this family has no single draft-length or tree-size knob to sweep.`);
      return;
    }
    const { param: axis, values } = spec;
    const raw = await sweep(config, `method.${axis}`, values);
    const points = ok(raw);
    if (!points.length) {
      slot.destroy();
      slot.setNote('No valid point in the sweep.');
      return;
    }
    const x = points.map((p) => p.value);
    const current = config.method[spec.current || axis];
    const dots = measuredDots(measured, family, (c) => c.method[spec.current || axis]);
    slot.figure.dataset.measured = String(dots.length);
    const xs = [...x, ...dots.map((d) => d.x)];
    slot.draw(
      {
        series: [
          { label: axis },
          {
            label: 'Speedup',
            stroke: color('--c1'),
            width: 2,
            points: { show: true, size: 6 },
            value: (u, v) => (v == null ? '—' : fmt.speedup(v)),
          },
          tauSeries(),
        ],
        scales: {
          x: { time: false, range: [Math.min(...xs) - 0.5, Math.max(...xs) + 0.5] },
          y: { range: rangeWith(dots) },
        },
        axes: [
          { label: axis === 'k' ? 'k, drafted tokens per cycle' : `${axis}` },
          { label: 'Speedup ×' },
          tauAxis(),
        ],
        plugins: [
          ...(typeof current === 'number'
            ? [markerPlugin(() => current, 'current', '--accent')]
            : []),
          dotsPlugin(dots),
        ],
      },
      [x, points.map((p) => p.result.speedup), points.map((p) => p.result.tau)],
    );
    // The core's best point of the grid (points that do not fit in memory never count).
    const best = raw.meta.best;
    slot.figure.dataset.best = best ? String(best.values[0]) : 'none';
    slot.setNote(
      `${
        best
          ? `Best on this grid: ${axis} = ${best.values[0]} (${fmt.speedup(best.speedup)}).`
          : 'No point of this grid fits in GPU memory.'
      }${measuredNote(dots)}`,
    );
    slot.setTable(
      [axis, 'Speedup', 'τ', 'Fits in memory'],
      points.map((p) => [
        String(p.value),
        fmt.speedup(p.result.speedup),
        fmt.tau(p.result.tau),
        p.result.fits_in_memory ? 'yes' : 'no',
      ]),
    );
    slot.setExport(
      `sweep-${axis}`,
      points.map((p) => ({
        ...setupOf(config),
        [axis]: p.value,
        fits_in_memory: p.result.fits_in_memory,
        speedup: p.result.speedup,
        tau: p.result.tau,
        tokens_per_s: p.result.tokens_per_s,
      })),
    );
  }

  // Points the core marks infeasible (they do not fit in memory) are dropped from the lines and
  // named in the note; the break-even batch is the sweep's own `break_even_batch`.
  async showBatch(config, measured = []) {
    const slot = this.batch;
    const raw = await sweep(config, 'batch', this.batchAxis);
    const dots = measuredDots(measured, config.method.family, (c) => c.batch);
    slot.figure.dataset.measured = String(dots.length);
    const points = ok(raw);
    if (!points.length) {
      slot.destroy();
      slot.setNote('No valid point in the sweep.');
      return;
    }
    const fits = (p) => p.result.fits_in_memory;
    const breakEven = raw.meta.break_even_batch ?? null;
    const tooBig = points.filter((p) => !fits(p)).map((p) => p.value);
    const shown = (f) => points.map((p) => (fits(p) ? f(p.result) : null));
    slot.draw(
      {
        series: [
          { label: 'batch' },
          {
            label: 'Speedup',
            stroke: color('--c1'),
            width: 2,
            points: { show: true, size: 6 },
            value: (u, v) => (v == null ? '—' : fmt.speedup(v)),
          },
          {
            label: 'Tokens/s, speculative',
            stroke: color('--c2'),
            width: 1.5,
            scale: 'tps',
            value: (u, v) => (v == null ? '—' : fmt.rate(v)),
          },
          {
            label: 'Tokens/s, plain',
            stroke: color('--c3'),
            width: 1.5,
            dash: [5, 4],
            scale: 'tps',
            value: (u, v) => (v == null ? '—' : fmt.rate(v)),
          },
        ],
        scales: { x: { time: false, distr: 3, log: 2 }, y: { range: rangeWith(dots) }, tps: {} },
        axes: [
          { label: 'Batch', values: (u, vals) => vals.map((v) => fmt.plain(v)) },
          { label: 'Speedup ×' },
          {
            label: 'Tokens/s',
            side: 1,
            scale: 'tps',
            size: 60,
            grid: { show: false },
            values: (u, vals) => vals.map((v) => fmt.si(v, '')),
          },
        ],
        plugins: [
          markerPlugin(() => breakEven, 'break-even', '--bad'),
          markerPlugin(() => tooBig[0] ?? null, 'does not fit', '--warn'),
          markerPlugin(() => config.batch, 'current', '--accent'),
          dotsPlugin(dots),
        ],
      },
      [
        points.map((p) => p.value),
        shown((r) => r.speedup),
        shown((r) => r.tokens_per_s),
        shown((r) => r.baseline_tokens_per_s),
      ],
    );
    slot.figure.dataset.breakEven = breakEven === null ? 'none' : String(breakEven);
    slot.figure.dataset.infeasible = tooBig.join(',');
    const fitting = points.filter(fits);
    // Worded as the prediction it is: the verdict above says how sure it is (the walk: "pays off
    // at every batch" beside a verdict of "probably pays off").
    const pays =
      breakEven === null
        ? fitting.length
          ? `The predicted speedup stays above 1× at every batch that fits, up to ${fitting[fitting.length - 1].value}.`
          : ''
        : `Break-even: the predicted speedup falls below 1× at batch ${breakEven} on this grid.`;
    const memory = tooBig.length
      ? ` From batch ${tooBig[0]} the setup does not fit in GPU memory (dropped from the chart).`
      : '';
    // The core's notes on this sweep's shape (an MoE target's verify vs decode by batch).
    const notes = (raw.meta.notes || []).map((n) => ` ${n}.`).join('');
    slot.setNote(`${pays}${memory}${notes}${measuredNote(dots)}`);
    slot.setTable(
      ['Batch', 'Speedup', 'Tokens/s, speculative', 'Tokens/s, plain', 'Fits in memory'],
      points.map((p) => [
        String(p.value),
        fits(p) ? fmt.speedup(p.result.speedup) : '—',
        fits(p) ? fmt.rate(p.result.tokens_per_s) : '—',
        fmt.rate(p.result.baseline_tokens_per_s),
        fits(p) ? 'yes' : 'no',
      ]),
    );
    slot.setExport(
      'sweep-batch',
      points.map((p) => ({
        ...setupOf(config),
        batch: p.value,
        fits_in_memory: p.result.fits_in_memory,
        speedup: p.result.speedup,
        tau: p.result.tau,
        tokens_per_s: p.result.tokens_per_s,
        baseline_tokens_per_s: p.result.baseline_tokens_per_s,
      })),
    );
  }

  // measured: [{family, speedup, best, label}] published rows for this model (may be empty).
  // The bars are the core's `families` command: the user's own setup first, then every family
  // this model and engine can run at its own default acceptance (published rows, vLLM traces,
  // a model's report), with the spread of that data; the absent families with the core's reason.
  async showFamilies(config, families, measured = []) {
    const slot = this.families;
    const out = await heavyJson('families', config, { slot: 'families' });
    const points = [
      { label: `yours (${out.yours.family})`, yours: true, ...out.yours },
      ...out.families.map((f) => ({ label: f.family, yours: false, ...f })),
    ];
    const x = points.map((_, i) => i);
    // The core's short label of each family (list methods), on the axis, in the table and in
    // the list of families not shown.
    const short = new Map(families.map((f) => [f.id, f.short_label || f.label || f.id]));
    const shortOf = (id) => short.get(id) || id;
    const absentNote = out.absent.length
      ? ` Not shown: ${out.absent.map((a) => `${shortOf(a.family)} (${a.reason})`).join('; ')}.`
      : '';
    const labels = points.map((p) =>
      p.yours ? `yours (${shortOf(p.family)})` : shortOf(p.family),
    );
    const { record: xLabelsDrawn, ...xAxis } = categoryAxis(slot, labels);
    // The fastest published row of each family, as the core marks it (family_best).
    const measuredBy = new Map(measured.filter((m) => m.best).map((m) => [m.family, m.speedup]));
    const publishedOf = (p) => (p.yours ? undefined : measuredBy.get(p.family));
    const bars =
      globalThis.uPlot && globalThis.uPlot.paths && globalThis.uPlot.paths.bars
        ? globalThis.uPlot.paths.bars({ size: [0.6, 60] })
        : undefined;
    const series = [
      { label: 'family', value: (u, v) => (v == null ? '—' : labels[v]) },
      {
        label: 'Predicted speedup',
        stroke: color('--c1'),
        fill: color('--c1-soft'),
        paths: bars,
        points: { show: false },
        value: (u, v) => (v == null ? '—' : fmt.speedup(v)),
      },
      {
        label: 'Spread (low)',
        stroke: color('--fg-muted'),
        width: 0,
        paths: () => null,
        points: { show: true, size: 6, fill: color('--fg-muted') },
        value: (u, v) => (v == null ? '—' : fmt.speedup(v)),
      },
      {
        label: 'Spread (high)',
        stroke: color('--fg-muted'),
        width: 0,
        paths: () => null,
        points: { show: true, size: 6, fill: color('--fg-muted') },
        value: (u, v) => (v == null ? '—' : fmt.speedup(v)),
      },
    ];
    const data = [
      x,
      points.map((p) => p.speedup),
      points.map((p) => (p.spread ? p.spread.speedup_low : null)),
      points.map((p) => (p.spread ? p.spread.speedup_high : null)),
    ];
    if (measuredBy.size) {
      series.push({
        label: 'Published best (its own setup)',
        stroke: color('--c2'),
        width: 0,
        paths: () => null,
        points: { show: true, size: 10, fill: color('--c2') },
        value: (u, v) => (v == null ? '—' : fmt.speedup(v)),
      });
      data.push(points.map((p) => publishedOf(p) ?? null));
    }
    slot.draw(
      {
        series,
        scales: {
          x: { time: false, range: [-0.5, x.length - 0.5] },
          y: { range: (u, min, max) => [0, Math.max(1.2, max * 1.1)] },
        },
        axes: [{ label: 'Method family', splits: () => x, ...xAxis }, { label: 'Speedup ×' }],
        plugins: [oneLine(), xLabelsDrawn],
      },
      data,
    );
    slot.setNote(
      'Bars: your setup, then each family at its own default acceptance (its τ source in the table), ' +
        'grey dots the speedup at the ends of that data’s spread' +
        (measuredBy.size
          ? '; coloured dots the best published speedup for this model (on the GPU the source used).'
          : '. The dashed line is 1× (no gain).') +
        absentNote,
    );
    slot.setTable(
      [
        'Family',
        'Speedup',
        'τ',
        'Fits in memory',
        'Published best (its own setup)',
        'Spread',
        'τ from',
      ],
      points.map((p, i) => [
        labels[i],
        fmt.speedup(p.speedup),
        fmt.tau(p.tau),
        p.fits_in_memory ? 'yes' : 'no',
        publishedOf(p) !== undefined ? fmt.speedup(publishedOf(p)) : '—',
        p.spread
          ? `${fmt.speedupRange(p.spread.speedup_low, p.spread.speedup_high)} ${p.spread.label}`
          : '—',
        p.tau_source,
      ]),
    );
    slot.figure.dataset.absent = JSON.stringify(out.absent.map((a) => a.family));
    slot.setExport(
      'families',
      points.map((p) => ({
        ...setupOf(config),
        family: p.label,
        fits_in_memory: p.fits_in_memory,
        speedup: p.speedup,
        tau: p.tau,
        tau_source: p.tau_source,
        tokens_per_s: p.tokens_per_s,
        published_speedup: publishedOf(p) ?? '',
      })),
    );
  }
}

// An axis of named categories at x = 0, 1, ...: labels turned 60° when they would not fit
// side by side (a phone), and recorded as drawn (`data-x-labels`: text, centre, angle, font)
// so a test can check they do not overlap.
const AXIS_FONT_PX = 12;
const AXIS_FONT = `${AXIS_FONT_PX}px system-ui, sans-serif`;
function categoryAxis(slot, labels) {
  const measure = document.createElement('canvas').getContext('2d');
  measure.font = AXIS_FONT;
  const widest = Math.max(0, ...labels.map((t) => measure.measureText(t).width));
  const plotWidth = slot.width() - 60; // the y axis takes about 60 px
  const turned = widest + 8 > plotWidth / Math.max(1, labels.length);
  const angle = turned ? -60 : 0;
  const record = {
    hooks: {
      draw: [
        (u) => {
          const a = u.axes[0];
          slot.figure.dataset.xLabels = JSON.stringify(
            (a._splits || []).map((v, i) => ({
              text: String(a._values[i]),
              x: u.valToPos(v, 'x'),
              angle: (angle * Math.PI) / 180,
              font: AXIS_FONT,
              size: AXIS_FONT_PX,
            })),
          );
        },
      ],
    },
  };
  return {
    values: (u, vals) => vals.map((v) => labels[v] ?? ''),
    font: AXIS_FONT,
    rotate: angle,
    size: turned ? Math.ceil(widest * Math.sin(Math.PI / 3)) + 36 : 50,
    gap: 4,
    record,
  };
}

// The setup a chart's rows belong to, so an exported CSV says what it was computed for.
function setupOf(config) {
  const m = config.method;
  return {
    target: typeof config.target === 'string' ? config.target : 'custom',
    hardware: typeof config.hardware === 'string' ? config.hardware : 'custom',
    gpus: config.gpus,
    engine: engineIdOf(config.runtime),
    batch: config.batch,
    context: config.context,
    method: m.family,
  };
}

// Published rows of this family whose reproducing config states the plotted parameter.
function measuredDots(measured, family, xOf) {
  const out = [];
  for (const m of measured) {
    if (m.family !== family || !m.config) continue;
    const x = xOf(m.config);
    if (typeof x === 'number' && Number.isFinite(x))
      out.push({ x, y: m.speedup, label: m.label, hardware: m.hardware, runtime: m.runtime });
  }
  return out;
}

function measuredNote(dots) {
  if (!dots.length) return '';
  // Where each was measured: the source's engine and GPU, which may be neither of yours.
  const where = [
    ...new Set(
      dots.map((d) => [d.runtime, d.hardware].filter(Boolean).join(' on ')).filter(Boolean),
    ),
  ];
  return ` Dots: ${dots.length} published measurement${dots.length === 1 ? '' : 's'} for this model and method (measured with ${where.join('; ') || "the sources' engines and GPUs"}, with the sources' own acceptance).`;
}
