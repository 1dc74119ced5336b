// "Size it for my hardware": the core's `size` command (run in the core worker) picks the draft tree
// or k with the best speedup for this model, GPU, runtime, batch and context. Shows the speedup
// and τ curves over the node count, the best tree with each node's acceptance probability
// (tree-expect), the schedule by batch, and the engine settings to paste. "Apply best" writes
// the choice into the config. Every number is a field of a core output.
import { el, $, clear, labelName } from '../dom.mjs';
import { callJson, describeError, SpecCalcError } from '../api.mjs';
import { heavyJson } from '../worker/client.mjs';
import { ChartSlot, color, markerPlugin, oneLine, tauSeries, tauAxis } from './chart-kit.mjs';
import { drawTree } from './tree.mjs';
import { engineBlocks } from './engines.mjs';
import * as fmt from '../format.mjs';

const PROGRESS_AFTER_MS = 100;
const root = document.documentElement;

function describeAcceptance(acc) {
  return typeof acc.alpha === 'number' ? `α = ${fmt.plain(acc.alpha)}` : 'acceptance';
}

export class SizingView {
  constructor(section, { onApply }) {
    this.section = section;
    this.onApply = onApply;
    this.seq = 0;
    this.last = null;
    this.form = $('#sizing-form', section);
    this.budget = $('#s-budget', section);
    this.depth = $('#s-depth', section);
    this.status = $('#sizing-status', section);
    this.out = $('#sizing-out', section);
    this.mode = $('#sizing-mode', section);
    this.teaser = document.getElementById('sizing-teaser');
    this.batches = [];
    let timer = null;
    this.form.addEventListener('submit', (e) => e.preventDefault());
    this.form.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.config && this.show(this.config, this.currentSpeedup), 400);
    });
    section.dataset.state = 'idle';
  }

  // The request's defaults are the core's (`list ui`'s sizing: budget, max_depth, batches).
  setDefaults({ budget, max_depth: maxDepth, batches }) {
    this.budget.value = String(budget);
    this.depth.value = String(maxDepth);
    this.batches = batches;
  }

  setWorkerMode(mode, reason) {
    this.mode.textContent =
      mode === 'worker'
        ? 'Runs in a background worker: the page stays responsive.'
        : mode === 'fallback'
          ? `The background worker could not start (${reason}); sizing runs on the page thread and may pause it for a moment.`
          : 'Starting the background worker…';
    this.mode.className = `hint${mode === 'fallback' ? ' warn' : ''}`;
  }

  // Numbers go to the core as typed; it names the field when one is out of range.
  request(config) {
    const num = (node) => (/^\s*\d+\s*$/.test(node.value) ? Number(node.value) : node.value);
    return {
      config,
      budget: num(this.budget),
      max_depth: num(this.depth),
      batches: this.batches,
    };
  }

  // currentSpeedup: the evaluated speedup of the config as set, for the one-line summary.
  async show(config, currentSpeedup) {
    this.config = config;
    this.currentSpeedup = currentSpeedup;
    const req = this.request(config);
    // The same request as the one running or shown (the charts' queued sizing and the debounced
    // edit of one change both ask): nothing to redo, and the shown answer does not flicker.
    const key = JSON.stringify(req);
    if (key === this.shownKey) {
      // Only redraw (a theme change re-colours the charts).
      if (this.section.dataset.state === 'done' && this.last) {
        const { out, labels } = this.last;
        this.render(config, req, out, labels);
      }
      return;
    }
    this.shownKey = key;
    const seq = ++this.seq;
    this.section.dataset.state = 'running';
    this.section.dataset.config = JSON.stringify(config); // what is being sized (tests wait on it)
    root.dataset.sizing = 'running';
    const t0 = performance.now();
    const tick = () => {
      if (seq !== this.seq || this.section.dataset.state !== 'running') return;
      const s = (performance.now() - t0) / 1000;
      this.status.hidden = false;
      this.status.textContent = `Sizing… ${s.toFixed(1)} s`;
      this.progressTimer = setTimeout(tick, 100);
    };
    clearTimeout(this.progressTimer);
    this.progressTimer = setTimeout(tick, PROGRESS_AFTER_MS);
    this.clearErrors();
    let out;
    let labels;
    try {
      out = await heavyJson('size', req, { slot: 'size' });
      if (seq !== this.seq) return;
      labels = await this.labelBest(out);
    } catch (e) {
      if (e && e.superseded) return;
      if (seq !== this.seq) return;
      // A failure that is not the core's answer (the worker stopped) may pass: ask again next time.
      if (!(e instanceof SpecCalcError)) this.shownKey = null;
      this.finish('error');
      this.showError(e);
      this.showTeaser('');
      return;
    }
    if (seq !== this.seq) return;
    this.finish('done', (performance.now() - t0) / 1000);
    this.last = { config, req, out, labels };
    this.render(config, req, out, labels);
  }

  // The best tree's node probabilities under the acceptance the sizing optimized under (the
  // core reports it, fitted to a measured tau when one was given).
  async labelBest(out) {
    const acceptance = out.acceptance;
    const fitted = 'acceptance_fitted_to_tau' in out;
    try {
      const expect = await callJson('tree-expect', { choices: out.best.choices, acceptance });
      return { acceptance, fitted, expect };
    } catch (e) {
      return { acceptance, fitted, error: describeError(e) };
    }
  }

  finish(state, seconds) {
    clearTimeout(this.progressTimer);
    this.section.dataset.state = state;
    root.dataset.sizing = state;
    this.status.hidden = state !== 'done';
    this.status.textContent = state === 'done' ? `Sized in ${seconds.toFixed(2)} s.` : '';
  }

  clearErrors() {
    for (const n of this.section.querySelectorAll('.field-error')) n.remove();
    for (const input of [this.budget, this.depth]) {
      if (!input) continue;
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
    }
  }

  // The core's message: beside budget / max depth when it names them, else in place of results.
  showError(e) {
    const field = e instanceof SpecCalcError ? e.field : '';
    const input = field === 'budget' ? this.budget : field === 'max_depth' ? this.depth : null;
    if (input) {
      // Named by the label the user reads ("Draft nodes", not "budget"), marked invalid for
      // screen readers, as the main form does (the walk).
      const name = labelName(this.section.querySelector(`label[for="${input.id}"]`));
      const id = `err-${input.id}`;
      input.closest('.field').append(
        el('p', {
          class: 'field-error',
          id,
          role: 'alert',
          'data-testid': 'sizing-error',
          text: name ? `${name}: ${e.message}` : describeError(e),
        }),
      );
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', id);
      return;
    }
    // Not a mistake in the sizing inputs (e.g. a method with nothing to size): said plainly,
    // not as a red failure.
    clear(this.out).append(
      el('p', {
        class: 'hint',
        role: 'status',
        'data-testid': 'sizing-error',
        text: describeError(e),
      }),
    );
  }

  // One line under the result: what the sizing found, with a way down to the details.
  showTeaser(text) {
    if (!this.teaser) return;
    clear(this.teaser);
    this.teaser.hidden = !text;
    if (!text) return;
    this.teaser.append(
      el('span', { text }),
      el('button', {
        type: 'button',
        text: 'Size it for my hardware ↓',
        onclick: () => {
          this.section.scrollIntoView({ behavior: 'smooth', block: 'start' });
          this.section.focus({ preventScroll: true });
        },
      }),
    );
  }

  render(config, req, out, labels) {
    const best = out.best;
    const box = clear(this.out);
    const chain = out.sized_as === 'chain';
    const what = chain
      ? `k = ${best.nodes} drafted tokens`
      : `${best.nodes} draft nodes, depth ${best.depth}`;
    // Whether the setting is already the best is the core's answer (current_is_best), and
    // the setting's own speedup is the core's, under the same acceptance as the candidates.
    this.showTeaser(
      `Best for this hardware: ${what} → ${fmt.speedup(best.speedup)}${out.current_is_best ? ' (your setting is already the best)' : ` (your setting: ${fmt.speedup(out.current.speedup)})`}.`,
    );
    const summary = el(
      'p',
      { class: 'sizing-best', 'data-testid': 'sizing-best' },
      el('strong', { text: `Best for this hardware: ${what}` }),
      ` — speedup ${fmt.speedup(best.speedup)}, τ ${fmt.tau(best.tau)}, ${fmt.rate(best.tokens_per_s)} tokens/s`,
      ` (searched n ≤ ${req.budget}${chain ? '' : `, depth ≤ ${req.max_depth}`}).`,
    );
    Object.assign(summary.dataset, {
      currentIsBest: String(out.current_is_best),
      currentSpeedup: String(out.current.speedup),
      nodes: String(best.nodes),
      depth: String(best.depth),
      speedup: String(best.speedup),
      tau: String(best.tau),
    });
    const apply = el('button', {
      type: 'button',
      class: 'primary',
      'data-testid': 'sizing-apply',
      text: 'Apply best',
      onclick: () => this.apply(),
    });
    const applyNote = el('p', { class: 'hint', text: out.apply_sets });
    box.append(el('div', { class: 'sizing-head' }, summary, apply), applyNote);

    const curveFig = el(
      'figure',
      { class: 'chart', 'data-testid': 'chart-sizing' },
      el('figcaption', {
        text: chain
          ? 'Speedup and τ vs k'
          : 'Speedup and τ vs draft nodes n (best depth for each n)',
      }),
      el('div', { class: 'chart-body' }),
      el('p', { class: 'chart-note' }),
      el('div', { class: 'chart-actions' }),
    );
    const treeFig = el(
      'figure',
      { class: 'sizing-tree' },
      el('figcaption', {
        text: chain
          ? "The chosen chain, each token's acceptance probability"
          : "The chosen tree, each node's acceptance probability",
      }),
    );
    // A scrolling box: focusable so keyboard users can scroll it (axe scrollable-region-focusable).
    const treeBox = el('div', {
      class: 'tree-drawing',
      'data-testid': 'sizing-tree',
      tabindex: '0',
      role: 'region',
      'aria-label': 'Best draft tree for this hardware',
    });
    treeFig.append(treeBox);
    box.append(el('div', { class: 'sizing-grid' }, curveFig, treeFig));
    this.drawCurve(curveFig, out, best, chain);
    if (labels.error) {
      treeBox.append(
        el('p', {
          class: 'placeholder',
          text: `Per-node probabilities unavailable: ${labels.error}`,
        }),
      );
    } else {
      drawTree(treeBox, best.choices, labels.expect.node_prob);
      // Both numbers as the core gave them (tree-expect's and the sizing's); the page does not
      // judge whether they agree (tests/browser/run.mjs checks that they do).
      const hint = el('p', {
        class: 'hint',
        text: labels.fitted
          ? `The sizing's τ ${fmt.tau(best.tau)} is measured; the probabilities drawn come from one per-token acceptance fitted to it (${describeAcceptance(labels.acceptance)}), whose τ on this ${chain ? 'chain' : 'tree'} is ${fmt.tau(labels.expect.expected_tau)} (tree-expect).`
          : `τ of this ${chain ? 'chain' : 'tree'} from tree-expect: ${fmt.tau(labels.expect.expected_tau)}; the sizing: ${fmt.tau(best.tau)}; acceptance as configured.`,
      });
      hint.dataset.expectTau = String(labels.expect.expected_tau);
      hint.dataset.sizingTau = String(best.tau);
      treeFig.append(hint);
    }

    box.append(
      el('h3', { text: 'Schedule by batch size' }),
      this.scheduleTable(out.schedule, chain),
      ...(out.schedule_notes || []).map((n) =>
        el('p', { class: 'hint', 'data-testid': 'sizing-schedule-note', text: n }),
      ),
    );
    box.append(
      el('h3', { text: 'Engine settings for the best choice' }),
      engineBlocks(out.export, 'sizing-export'),
    );
    if (out.assumptions && out.assumptions.length) {
      box.append(
        el(
          'details',
          { class: 'assumptions' },
          el('summary', { text: 'Sizing assumptions' }),
          el('ul', {}, ...out.assumptions.map((a) => el('li', { text: a }))),
        ),
      );
    }
  }

  drawCurve(figure, out, best, chain) {
    const slot = new ChartSlot(figure);
    const curve = out.curve;
    const x = curve.map((c) => c.nodes);
    const depthOf = new Map(curve.map((c) => [c.nodes, c.depth]));
    slot.draw(
      {
        series: [
          // The x axis's own letter: a chain's length k is its depth, a tree's n has one.
          chain
            ? { label: 'k', value: (u, v) => (v == null ? '—' : String(v)) }
            : { label: 'n', value: (u, v) => (v == null ? '—' : `${v} (depth ${depthOf.get(v)})`) },
          {
            label: 'Speedup',
            stroke: color('--c1'),
            width: 2,
            value: (u, v) => (v == null ? '—' : fmt.speedup(v)),
          },
          tauSeries(),
        ],
        scales: { x: { time: false } },
        axes: [
          { label: chain ? 'k, drafted tokens per cycle' : 'n, draft nodes per cycle' },
          { label: 'Speedup ×' },
          tauAxis(),
        ],
        plugins: [markerPlugin(() => best.nodes, 'best', '--accent'), oneLine()],
      },
      [x, curve.map((c) => c.speedup), curve.map((c) => c.tau)],
    );
    slot.setNote(
      chain
        ? "τ is the chain's expected tokens per cycle (bonus included) at each k."
        : "τ is the optimal tree's expected tokens per cycle (bonus included) at the depth that gives the best speedup for that n.",
    );
    slot.setExport(
      'sizing-curve',
      curve.map((c) => ({
        nodes: c.nodes,
        depth: c.depth,
        tau: c.tau,
        speedup: c.speedup,
        tokens_per_s: c.tokens_per_s,
      })),
    );
  }

  scheduleTable(schedule, chain) {
    const table = el(
      'table',
      { class: 'published schedule', 'data-testid': 'sizing-schedule' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...['Batch', 'Speculate?', chain ? 'k' : 'Draft nodes', 'Depth', 'τ', 'Speedup'].map(
            (h) => el('th', { scope: 'col', text: h }),
          ),
        ),
      ),
    );
    const tbody = el('tbody');
    for (const s of schedule) {
      // A batch the core marks infeasible does not fit in memory: neither speculate nor not.
      if (s.verdict === 'infeasible') {
        tbody.append(
          el(
            'tr',
            { class: 'idle', 'data-verdict': 'infeasible' },
            el('td', { text: String(s.batch) }),
            el('td', { text: 'does not fit in memory' }),
            el('td', { text: '—' }),
            el('td', { text: '—' }),
            el('td', { text: '—' }),
            el('td', { text: '—' }),
          ),
        );
        continue;
      }
      tbody.append(
        s.speculate
          ? el(
              'tr',
              {},
              el('td', { text: String(s.batch) }),
              el('td', { text: 'yes' }),
              el('td', { text: String(s.nodes) }),
              el('td', { text: String(s.depth) }),
              el('td', { text: fmt.tau(s.tau) }),
              el('td', { text: fmt.speedup(s.speedup) }),
            )
          : el(
              'tr',
              { class: 'idle' },
              el('td', { text: String(s.batch) }),
              el('td', { text: "don't speculate" }),
              el('td', { text: '—' }),
              el('td', { text: '—' }),
              el('td', { text: '—' }),
              el('td', { text: `best ${fmt.speedup(s.best_speedup)}` }),
            ),
      );
    }
    table.append(tbody);
    return el(
      'div',
      {
        class: 'table-wrap',
        tabindex: '0',
        role: 'region',
        'aria-label': 'Schedule by batch size',
      },
      table,
    );
  }

  // Loads the config the core sized (its `apply`: the best k or tree, and the fitted acceptance
  // when the configured one was a measured tau).
  async apply() {
    if (!this.last) return;
    await this.onApply(structuredClone(this.last.out.apply));
  }
}
