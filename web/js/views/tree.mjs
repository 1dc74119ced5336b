// The draft tree the result evaluated, with each node's acceptance probability, and the
// distribution of τ, from the core's `eval-tree`. Drawn as SVG nodes through DOM APIs (a node
// without a probability, when τ was given directly, is drawn plain); the τ histogram uses uPlot.
import { el, $, clear } from '../dom.mjs';
import { callJson, describeError } from '../api.mjs';
import { ChartSlot, color } from './chart-kit.mjs';
import * as fmt from '../format.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const MAX_DRAWN_NODES = 400;

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export class TreeView {
  constructor(root) {
    this.root = root;
    this.body = $('.tree-body', root);
  }

  // The tree the evaluation verified (the core's eval-tree: choices, node_prob, tau_pmf and the
  // same tau as the result), so the panel never draws a different tree than the one evaluated.
  async show(config) {
    let t;
    try {
      t = await callJson('eval-tree', config);
    } catch (e) {
      clear(this.body).append(el('p', { class: 'placeholder', text: describeError(e) }));
      return;
    }
    const body = clear(this.body);
    const summary = el(
      'p',
      { 'data-testid': 'tree-summary' },
      `${t.nodes} draft nodes, depth ${t.depth} (draft levels${t.eagle_depth === undefined ? '' : `; EAGLE's --depth ${t.eagle_depth}`}); τ `,
      el('output', { 'data-testid': 'tree-tau', 'data-value': t.tau, text: fmt.tau(t.tau) }),
      ` under ${t.acceptance}.`,
    );
    body.append(summary);
    if (t.nodes === 0) return;
    const treeBox = el('div', {
      class: 'tree-drawing',
      'data-testid': 'tree-drawing',
      tabindex: '0',
      role: 'region',
      'aria-label': 'Draft tree',
    });
    const grid = el('div', { class: 'tree-grid' }, treeBox);
    body.append(grid);
    drawTree(treeBox, t.choices, t.node_prob);
    if (t.tau_pmf) {
      const tauFig = el(
        'figure',
        { class: 'chart', 'data-testid': 'chart-tau' },
        el('figcaption', { text: 'Distribution of τ (tokens per cycle)' }),
        el('div', { class: 'chart-body' }),
        el('p', { class: 'chart-note' }),
      );
      grid.append(tauFig);
      this.drawTau(tauFig, t.tau_pmf);
    }
  }

  drawTau(figure, pmf) {
    const slot = new ChartSlot(figure);
    const x = pmf.map((_, j) => j + 1);
    const bars =
      globalThis.uPlot && globalThis.uPlot.paths
        ? globalThis.uPlot.paths.bars({ size: [0.7, 40] })
        : undefined;
    slot.draw(
      {
        series: [
          { label: 'τ' },
          {
            label: 'P(τ)',
            stroke: color('--c3'),
            fill: color('--c3-soft'),
            paths: bars,
            points: { show: false },
            value: (u, v) => (v == null ? '—' : fmt.plain(v)),
          },
        ],
        scales: { x: { time: false, range: [0.5, x.length + 0.5] }, y: { range: [0, 1] } },
        axes: [{ label: 'τ, tokens per cycle', splits: () => x }, { label: 'Probability' }],
      },
      [x, pmf],
    );
    slot.setTable(
      ['τ', 'P(τ)'],
      x.map((v, i) => [String(v), fmt.plain(pmf[i])]),
    );
  }
}

// The draft tree as SVG, each node labelled with its acceptance probability (node_prob from
// the core's tree-expect, in the order of choices). Layout: depth left to right; leaves on
// consecutive rows, parents centred on their children.
export function drawTree(box, choices, prob) {
  if (choices.length > MAX_DRAWN_NODES) {
    box.append(
      el('p', { class: 'placeholder', text: `${choices.length} nodes: too many to draw.` }),
    );
    return;
  }
  const key = (path) => path.join(',');
  const children = new Map([['', []]]);
  const info = new Map([['', { path: [], p: 1 }]]);
  choices.forEach((path, i) => {
    info.set(key(path), { path, p: prob ? prob[i] : null });
    children.set(key(path), []);
  });
  for (const path of choices) {
    const parent = key(path.slice(0, -1));
    if (children.has(parent)) children.get(parent).push(key(path));
  }
  for (const list of children.values())
    list.sort((a, b) => info.get(a).path.at(-1) - info.get(b).path.at(-1));
  let row = 0;
  const pos = new Map();
  const place = (k, depth) => {
    const kids = children.get(k);
    if (!kids.length) pos.set(k, { depth, row: row++ });
    else {
      kids.forEach((c) => place(c, depth + 1));
      const rows = kids.map((c) => pos.get(c).row);
      pos.set(k, { depth, row: (rows[0] + rows[rows.length - 1]) / 2 });
    }
  };
  place('', 0);
  const maxDepth = Math.max(...[...pos.values()].map((p) => p.depth));
  const dx = 90;
  const dy = 22;
  const width = (maxDepth + 1) * dx + 40;
  const height = Math.max(1, row) * dy + 20;
  const root = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: 'img',
    'aria-label': `Draft tree with ${choices.length} nodes; labels are acceptance probabilities`,
  });
  const xy = (k) => ({ x: 20 + pos.get(k).depth * dx, y: 10 + pos.get(k).row * dy + dy / 2 });
  for (const [k, kids] of children) {
    for (const c of kids) {
      const a = xy(k);
      const b = xy(c);
      root.append(
        svg('path', {
          d: `M${a.x},${a.y} C${a.x + dx / 2},${a.y} ${b.x - dx / 2},${b.y} ${b.x},${b.y}`,
          class: 'edge',
        }),
      );
    }
  }
  for (const [k, { p }] of info) {
    const { x, y } = xy(k);
    const known = p !== null;
    // data-path and data-p: which node of the core's tree this is and the probability drawn
    // for it, so tests read the drawing's values, not only its node count.
    const circle = svg('circle', {
      cx: x,
      cy: y,
      r: 7,
      class: 'node',
      'fill-opacity': known ? (0.15 + 0.85 * p).toFixed(3) : '0.5',
      'data-path': k,
      ...(known && k !== '' ? { 'data-p': String(p) } : {}),
    });
    const title = svg('title');
    title.textContent =
      k === ''
        ? 'root (last accepted token)'
        : `path [${k}]${known ? `: accepted with probability ${fmt.plain(p)}` : ''}`;
    circle.append(title);
    root.append(circle);
    if (k !== '' && known) {
      const label = svg('text', { x: x + 10, y: y + 4, class: 'node-label' });
      label.textContent = `${(p * 100).toFixed(0)}%`;
      root.append(label);
    }
  }
  box.append(root);
}
