// Shared uPlot plumbing: theme colours from CSS variables, width that follows the container,
// and a note/actions area under each chart. uPlot is the vendored global (web/vendor/).
import { el, $, clear, download } from '../dom.mjs';
import { csvCell } from './results.mjs';
import * as fmt from '../format.mjs';

export function color(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

export function themeAxes() {
  const stroke = color('--fg-muted');
  const grid = { stroke: color('--grid'), width: 1 };
  return { stroke, grid, ticks: { stroke: color('--grid'), width: 1 } };
}

export class ChartSlot {
  constructor(figure) {
    this.figure = figure;
    this.body = $('.chart-body', figure);
    this.note = $('.chart-note', figure);
    this.actions = $('.chart-actions', figure);
    this.plot = null;
    new ResizeObserver(() => this.resize()).observe(this.body);
  }

  width() {
    return Math.max(260, Math.floor(this.body.clientWidth || 320));
  }

  resize() {
    if (this.plot) this.plot.setSize({ width: this.width(), height: this.height() });
  }

  height() {
    return Math.round(Math.min(300, Math.max(200, this.width() * 0.6)));
  }

  draw(opts, data) {
    this.destroy();
    if (typeof globalThis.uPlot !== 'function') {
      this.setNote('The chart library did not load.');
      return;
    }
    const axes = themeAxes();
    opts.axes = (opts.axes || []).map((a) => ({ ...axes, ...a }));
    opts.plugins = [...(opts.plugins || []), marksPlugin(this.figure)];
    this.plot = new globalThis.uPlot(
      { width: this.width(), height: this.height(), ...opts },
      data,
      this.body,
    );
    this.figure.dataset.points = String(data[0].length);
  }

  destroy() {
    if (this.plot) this.plot.destroy();
    this.plot = null;
    clear(this.body);
    delete this.figure.dataset.points;
    delete this.figure.dataset.marks;
  }

  setNote(text) {
    this.note.textContent = text || '';
  }

  // The plotted values as a table under the chart, so they are reachable by keyboard, touch and
  // screen readers, not only by hovering. rows: arrays of display strings, one per point.
  setTable(headers, rows) {
    let box = $('.chart-values', this.figure);
    if (!box) {
      box = el(
        'details',
        { class: 'chart-values', 'data-testid': 'chart-values' },
        el('summary', { text: 'Values' }),
        el('div', {
          class: 'table-wrap',
          tabindex: '0',
          role: 'region',
          // Each region's name is unique on the page (axe landmark-unique): the chart's caption.
          'aria-label': `Values: ${$('figcaption', this.figure)?.textContent || 'chart'}`,
        }),
      );
      this.figure.append(box);
    }
    const wrap = clear($('.table-wrap', box));
    wrap.append(
      el(
        'table',
        {},
        el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', { scope: 'col', text: h })))),
        el(
          'tbody',
          {},
          ...rows.map((r) =>
            el(
              'tr',
              {},
              ...r.map((c, i) =>
                i === 0 ? el('th', { scope: 'row', text: c }) : el('td', { text: c }),
              ),
            ),
          ),
        ),
      ),
    );
  }

  // JSON and CSV export of what the chart shows (rows: objects with the same keys).
  setExport(name, rows) {
    if (!this.actions) return;
    clear(this.actions);
    if (!rows || !rows.length) return;
    const keys = Object.keys(rows[0]);
    const csv = `${keys.join(',')}\n${rows.map((r) => keys.map((k) => csvCell(r[k] ?? '')).join(',')).join('\n')}\n`;
    this.actions.append(
      el('button', {
        type: 'button',
        text: 'JSON',
        'aria-label': `Export ${name} as JSON`,
        onclick: () => download(`speccalc-${name}.json`, JSON.stringify(rows, null, 2)),
      }),
      el('button', {
        type: 'button',
        text: 'CSV',
        'aria-label': `Export ${name} as CSV`,
        onclick: () => download(`speccalc-${name}.csv`, csv, 'text/csv'),
      }),
    );
  }
}

const inside = (u, cx, cy) =>
  Number.isFinite(cx) &&
  Number.isFinite(cy) &&
  cx >= u.bbox.left - 1 &&
  cx <= u.bbox.left + u.bbox.width + 1 &&
  cy >= u.bbox.top - 1 &&
  cy <= u.bbox.top + u.bbox.height + 1;

// Records what the reader sees: after each drawing, `data-marks` on the figure holds, per series
// label, the [x, y, cx, cy] of every point placed inside the plot area (data values, then canvas
// pixels), plus the marks drawn by hand through `drawnMark` (published dots, scatter markers).
// Browser tests compare these with the core's output and read the canvas at (cx, cy).
function marksPlugin(figure) {
  return {
    hooks: {
      drawClear: [
        (u) => {
          u.drawnMarks = {};
        },
      ],
      draw: [
        (u) => {
          const marks = {};
          u.series.forEach((s, i) => {
            if (i === 0 || s.show === false) return;
            const pts = [];
            u.data[i].forEach((y, j) => {
              if (y === null || y === undefined) return;
              const x = u.data[0][j];
              const cx = u.valToPos(x, 'x', true);
              const cy = u.valToPos(y, s.scale || 'y', true);
              if (inside(u, cx, cy)) pts.push([x, y, Math.round(cx), Math.round(cy)]);
            });
            marks[s.label] = pts;
          });
          figure.dataset.marks = JSON.stringify({ ...marks, ...u.drawnMarks });
        },
      ],
    },
  };
}

// A hand-drawn mark at data (x, y), placed at canvas (cx, cy): recorded under `name` when it
// lies inside the plot area. Returns whether it does (draw it only then).
export function drawnMark(u, name, x, y, cx, cy) {
  if (!inside(u, cx, cy)) return false;
  if (u.drawnMarks) (u.drawnMarks[name] ||= []).push([x, y, Math.round(cx), Math.round(cy)]);
  return true;
}

// A vertical marker line at x (e.g. the break-even batch), drawn after the series.
export function markerPlugin(getX, label, cssVar = '--bad') {
  return {
    hooks: {
      draw: [
        (u) => {
          const x = getX();
          if (x === null || x === undefined) return;
          const left = u.valToPos(x, 'x', true);
          // Recorded under its label (a test reads where it was drawn, not only that it exists).
          if (!drawnMark(u, label, x, null, left, u.bbox.top + 1)) return;
          const { ctx } = u;
          ctx.save();
          ctx.strokeStyle = color(cssVar);
          ctx.fillStyle = color(cssVar);
          ctx.setLineDash([6, 4]);
          ctx.lineWidth = 1.5 * devicePixelRatio;
          ctx.beginPath();
          ctx.moveTo(left, u.bbox.top);
          ctx.lineTo(left, u.bbox.top + u.bbox.height);
          ctx.stroke();
          ctx.font = `${12 * devicePixelRatio}px system-ui, sans-serif`;
          ctx.fillText(label, left + 4 * devicePixelRatio, u.bbox.top + 14 * devicePixelRatio);
          ctx.restore();
        },
      ],
    },
  };
}

// Published measurements as dots at arbitrary (x, y) (several rows may share an x, so they are
// drawn by hand rather than as a series). points: [{x, y}].
export function dotsPlugin(points, cssVar = '--c2') {
  return {
    hooks: {
      draw: [
        (u) => {
          const { ctx } = u;
          ctx.save();
          ctx.fillStyle = color(cssVar);
          ctx.strokeStyle = color('--panel');
          ctx.lineWidth = devicePixelRatio;
          for (const p of points) {
            const cx = u.valToPos(p.x, 'x', true);
            const cy = u.valToPos(p.y, 'y', true);
            if (!drawnMark(u, 'Published', p.x, p.y, cx, cy)) continue;
            ctx.beginPath();
            ctx.arc(cx, cy, 4.5 * devicePixelRatio, 0, 2 * Math.PI);
            ctx.fill();
            ctx.stroke();
          }
          ctx.restore();
        },
      ],
    },
  };
}

// A y range that also holds the dots.
export function rangeWith(points, pad = 0.08) {
  return (u, min, max) => {
    let lo = min;
    let hi = max;
    for (const p of points) {
      lo = Math.min(lo, p.y);
      hi = Math.max(hi, p.y);
    }
    if (!(Number.isFinite(lo) && Number.isFinite(hi))) return [0, 1];
    const span = hi - lo || Math.abs(hi) || 1;
    return [Math.max(0, lo - span * pad), hi + span * pad];
  };
}

// The τ series beside a speedup curve (its own right-hand scale 'tau'), and that axis.
export function tauSeries() {
  return {
    label: 'τ',
    stroke: color('--c3'),
    width: 1.5,
    dash: [5, 4],
    scale: 'tau',
    value: (u, v) => (v == null ? '—' : fmt.tau(v)),
  };
}
export const tauAxis = () => ({ label: 'τ', side: 1, scale: 'tau', grid: { show: false } });

// A dashed horizontal line at speedup 1× (no gain).
export function oneLine(scale = 'y') {
  return {
    hooks: {
      draw: [
        (u) => {
          const y = u.valToPos(1, scale, true);
          if (!Number.isFinite(y) || y < u.bbox.top || y > u.bbox.top + u.bbox.height) return;
          const { ctx } = u;
          ctx.save();
          ctx.strokeStyle = color('--fg-muted');
          ctx.setLineDash([4, 4]);
          ctx.beginPath();
          ctx.moveTo(u.bbox.left, y);
          ctx.lineTo(u.bbox.left + u.bbox.width, y);
          ctx.stroke();
          ctx.restore();
        },
      ],
    },
  };
}
