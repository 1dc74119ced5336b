// The draft tree with each node's acceptance probability, and the distribution of τ, from the
// core's tree commands ("tree-preset" builds EAGLE-2 trees, "tree-expect" gives node_prob and
// tau_pmf). Drawn as SVG nodes through DOM APIs; the τ histogram uses uPlot.
import { el, $, clear } from '../dom.mjs';
import { callJson, hasCommand, describeError } from '../api.mjs';
import { ChartSlot, color } from './chart-kit.mjs';
import * as fmt from '../format.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const MAX_DRAWN_NODES = 400;

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

// The tree input the core needs for this method, or a reason why there is none.
async function treeRequest(config) {
  const m = config.method;
  const acc = config.acceptance || {};
  let acceptance = null;
  if (typeof acc.alpha === 'number') acceptance = { alpha: acc.alpha };
  else if (Array.isArray(acc.p)) acceptance = { p: acc.p };
  else if (Array.isArray(acc.per_position)) acceptance = { per_position: acc.per_position };
  if (!acceptance) return { reason: 'The tree view needs acceptance given as α (per-node acceptance cannot be recovered from τ alone).' };
  if (Array.isArray(m.choices)) return { choices: m.choices, acceptance };
  if (typeof m.choices === 'string') {
    const preset = await callJson('tree-preset', m.choices);
    return { choices: preset.choices, acceptance };
  }
  if (typeof m.total_token === 'number') {
    const preset = await callJson('tree-preset', { name: 'eagle2', total_token: m.total_token, depth: m.depth, top_k: m.top_k, acceptance });
    return { choices: preset.choices, acceptance };
  }
  if (typeof m.k === 'number' && m.k > 0) {
    // A chain of k drafted tokens: each node is the top-ranked child of the previous one.
    const choices = [];
    for (let d = 1; d <= m.k; d++) choices.push(new Array(d).fill(0));
    return { choices, acceptance };
  }
  return { reason: `${m.family}: no draft tree for this method.` };
}

export class TreeView {
  constructor(root) {
    this.root = root;
    this.body = $('.tree-body', root);
    this.available = null;
  }

  async show(config) {
    if (this.available === null) this.available = (await hasCommand('tree-expect')) && (await hasCommand('tree-preset'));
    const body = clear(this.body);
    if (!this.available) {
      body.append(el('p', { class: 'placeholder', text: 'This core build has no tree commands yet.' }));
      return;
    }
    let req;
    let expect;
    try {
      req = await treeRequest(config);
      if (req.reason) {
        body.append(el('p', { class: 'placeholder', text: req.reason }));
        return;
      }
      expect = await callJson('tree-expect', { choices: req.choices, acceptance: req.acceptance });
    } catch (e) {
      body.append(el('p', { class: 'placeholder', text: describeError(e) }));
      return;
    }
    const treeBox = el('div', { class: 'tree-drawing', 'data-testid': 'tree-drawing' });
    const tauFig = el('figure', { class: 'chart', 'data-testid': 'chart-tau' },
      el('figcaption', { text: 'Distribution of τ (tokens per cycle)' }), el('div', { class: 'chart-body' }), el('p', { class: 'chart-note' }));
    const under = req.acceptance.alpha !== undefined ? `α = ${req.acceptance.alpha}` : 'the given per-position rates';
    body.append(el('p', { text: `${expect.nodes} draft nodes, depth ${expect.depth}; expected τ ${fmt.tau(expect.expected_tau)} under ${under}.` }),
      el('div', { class: 'tree-grid' }, treeBox, tauFig));
    drawTree(treeBox, req.choices, expect.node_prob);
    this.drawTau(tauFig, expect.tau_pmf);
  }

  drawTau(figure, pmf) {
    const slot = new ChartSlot(figure);
    const x = pmf.map((_, j) => j + 1);
    const bars = globalThis.uPlot && globalThis.uPlot.paths ? globalThis.uPlot.paths.bars({ size: [0.7, 40] }) : undefined;
    slot.draw({
      series: [{ label: 'τ' }, { label: 'P(τ)', stroke: color('--c3'), fill: color('--c3-soft'), paths: bars, points: { show: false }, value: (u, v) => (v == null ? '—' : fmt.plain(v)) }],
      scales: { x: { time: false, range: [0.5, x.length + 0.5] }, y: { range: [0, 1] } },
      axes: [{ label: 'τ, tokens per cycle', splits: () => x }, { label: 'Probability' }],
    }, [x, pmf]);
  }
}

// The draft tree as SVG, each node labelled with its acceptance probability (node_prob from
// the core's tree-expect, in the order of choices). Layout: depth left to right; leaves on
// consecutive rows, parents centred on their children.
export function drawTree(box, choices, prob) {
  if (choices.length > MAX_DRAWN_NODES) {
    box.append(el('p', { class: 'placeholder', text: `${choices.length} nodes: too many to draw.` }));
    return;
  }
  const key = (path) => path.join(',');
  const children = new Map([['', []]]);
  const info = new Map([['', { path: [], p: 1 }]]);
  choices.forEach((path, i) => {
    info.set(key(path), { path, p: prob[i] });
    children.set(key(path), []);
  });
  for (const path of choices) {
    const parent = key(path.slice(0, -1));
    if (children.has(parent)) children.get(parent).push(key(path));
  }
  for (const list of children.values()) list.sort((a, b) => info.get(a).path.at(-1) - info.get(b).path.at(-1));
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
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': `Draft tree with ${choices.length} nodes; labels are acceptance probabilities` });
  const xy = (k) => ({ x: 20 + pos.get(k).depth * dx, y: 10 + pos.get(k).row * dy + dy / 2 });
  for (const [k, kids] of children) {
    for (const c of kids) {
      const a = xy(k);
      const b = xy(c);
      root.append(svg('path', { d: `M${a.x},${a.y} C${a.x + dx / 2},${a.y} ${b.x - dx / 2},${b.y} ${b.x},${b.y}`, class: 'edge' }));
    }
  }
  for (const [k, { p }] of info) {
    const { x, y } = xy(k);
    const circle = svg('circle', { cx: x, cy: y, r: 7, class: 'node', 'fill-opacity': (0.15 + 0.85 * p).toFixed(3) });
    const title = svg('title');
    title.textContent = k === '' ? 'root (last accepted token)' : `path [${k}]: accepted with probability ${fmt.plain(p)}`;
    circle.append(title);
    root.append(circle);
    if (k !== '') {
      const label = svg('text', { x: x + 10, y: y + 4, class: 'node-label' });
      label.textContent = `${(p * 100).toFixed(0)}%`;
      root.append(label);
    }
  }
  box.append(root);
}
