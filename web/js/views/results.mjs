// Headline numbers, the verdict, the per-pass table and the assumptions list, exactly as the
// core returned them. The verdict's state and sentence are the core's (`verdict`,
// `verdict_reason`, `memory.suggestions`); this file only picks words and colours for them.
import { el, $, clear } from '../dom.mjs';
import * as fmt from '../format.mjs';
import { engineBlocks } from './engines.mjs';
import { showCycle, showKernels, showMemory } from './cost.mjs';

// The passes of a result, in table order; each is named by the core's `label`.
const PASSES = ['baseline', 'draft', 'verify'];

// A short label for each verdict state; the sentence under it (with the numbers) is the core's
// verdict_reason.
const HEADS = {
  pays: 'Speculation pays off',
  loses: 'Speculation does not pay off here',
  // {pool}: the core's memory.pool ("GPU memory", "CPU memory" or "unified memory").
  infeasible: 'Does not fit in {pool}: no speedup to report',
  baseline: 'Plain decoding (no speculation)',
};
// The same verdicts when the core's verdict_caveat says the other answer is within reach.
const UNCERTAIN_HEADS = {
  pays: 'Speculation probably pays off, not certainly',
  loses: 'Speculation probably does not pay off here',
};

function setOutput(node, value, text) {
  node.textContent = text;
  node.dataset.value = String(value);
}

export class ResultsView {
  constructor(root) {
    this.root = root;
    // The headline's twin at the bottom of a phone's screen while the headline is scrolled away
    // (the form sits below the result there: an edit changed numbers out of sight).
    this.mini = document.getElementById('mini-result');
    this.headlineSeen = true;
    // A button, not a link to #results: the address bar's fragment is the setup's link. It
    // scrolls to the title (on a phone the result's own box is display: contents, no box to
    // scroll to).
    if (this.mini)
      this.mini.addEventListener('click', () => {
        $('#results-title', root).scrollIntoView({ block: 'start' });
        root.focus({ preventScroll: true });
      });
    if (this.mini && 'IntersectionObserver' in window) {
      new IntersectionObserver((entries) => {
        this.headlineSeen = entries.some((e) => e.isIntersecting);
        this.showMini();
      }).observe($('.headline', root));
    }
    // The τ basis is clipped to one line on a phone; a tap opens or closes the whole text.
    const basis = $('#o-tau-basis', root);
    basis.addEventListener('click', () =>
      basis.setAttribute('aria-expanded', String(basis.getAttribute('aria-expanded') !== 'true')),
    );
  }

  showMini() {
    if (!this.mini) return;
    this.mini.hidden = this.headlineSeen || !this.mini.textContent;
  }

  show(result) {
    const state = result.verdict;
    const infeasible = state === 'infeasible';
    // An infeasible setup has no speedup: the number stays in data-value, the text says why.
    setOutput(
      $('#o-speedup', this.root),
      result.speedup,
      infeasible ? 'does not fit' : fmt.speedup(result.speedup),
    );
    $('#o-speedup', this.root).closest('.metric').dataset.state = state;
    this.showBand(result.band, infeasible);
    this.showFidelity(result.fidelity, infeasible);
    setOutput($('#o-tau', this.root), result.tau, fmt.tau(result.tau));
    // Where τ comes from, in the core's few words; an assumed τ (no data) is marked.
    const basis = $('#o-tau-basis', this.root);
    basis.textContent = result.tau_basis;
    basis.title = result.tau_source;
    basis.dataset.fromData = String(result.tau_from_data);
    setOutput(
      $('#o-tps', this.root),
      result.tokens_per_s,
      infeasible ? '—' : fmt.rate(result.tokens_per_s),
    );
    // A setup that cannot run has no times either: the numbers stay in data-value only.
    setOutput(
      $('#o-cycle', this.root),
      result.cycle_time_s,
      infeasible ? '—' : fmt.seconds(result.cycle_time_s),
    );
    $('#o-base-tps', this.root).textContent =
      `plain decoding: ${infeasible ? '—' : fmt.rate(result.baseline_tokens_per_s)}`;

    $('#l-tau', this.root).title = result.tau_definition;
    document.title = `${infeasible ? 'Does not fit' : fmt.speedup(result.speedup)} · SpecCalc`;

    this.showVerdict(result);
    if (this.mini) {
      this.mini.textContent = `${$('#o-speedup', this.root).textContent} · ${$('#verdict-head', this.root).textContent} ↑`;
      this.showMini();
    }
    this.showPasses(result);
    showCycle($('#cycle', this.root), result.cycle, {
      infeasible,
      labels: { draft_s: result.draft.label, verify_s: result.verify.label },
    });
    showKernels($('#kernels', this.root), result, PASSES);
    showMemory($('#memory', this.root), result.memory);
    $('#memory-title', this.root).textContent = `Memory per ${result.memory.device}`;

    const list = clear($('#assumptions', this.root));
    for (const a of result.assumptions) list.append(el('li', { text: a }));
  }

  // What the workload's traces bound (the core's `bounds` command): the best fixed k, the oracle
  // proposer (each cycle proposes exactly what will be accepted) and, for EAGLE, the best of
  // EAGLE and n-gram over the couplings the traces allow. null hides it.
  showBounds(bounds) {
    const node = $('#o-bounds', this.root);
    node.hidden = !bounds;
    if (!bounds) {
      node.textContent = '';
      return;
    }
    // No oracle where the core has none for this proposer (its note says why).
    const parts = [
      `best fixed k = ${bounds.best_fixed_k.k}: ${fmt.speedup(bounds.best_fixed_k.speedup)}`,
      bounds.oracle ? `oracle proposer: ${fmt.speedup(bounds.oracle.speedup)}` : bounds.note,
    ];
    const two = bounds.best_of_two && bounds.best_of_two.speedup;
    if (two)
      parts.push(
        `best of EAGLE and n-gram: ${fmt.speedupRange(two.comonotone, two.countermonotone)}`,
      );
    node.textContent = `Traces (${bounds.workload}): ${parts.join(' · ')}`;
    node.title = bounds.what;
    node.dataset.oracle = bounds.oracle ? String(bounds.oracle.speedup) : '';
    node.dataset.bestK = String(bounds.best_fixed_k.k);
  }

  // The speedup over the spread of τ (the core's `band`: a workload preset's per-request
  // percentiles, or the spread of the data a default acceptance was taken from).
  showBand(band, infeasible) {
    const node = $('#o-band', this.root);
    node.hidden = !band || infeasible;
    if (node.hidden) {
      node.textContent = '';
      return;
    }
    // The core says what the spread is (a workload's requests, the published rows, ...).
    node.textContent = `${fmt.speedupRange(band.speedup_p5, band.speedup_p95)} ${band.label} (τ ${fmt.tau(band.tau_p5)}–${fmt.tau(band.tau_p95)})`;
    node.title = band.what;
    node.dataset.low = String(band.speedup_p5);
    node.dataset.high = String(band.speedup_p95);
  }

  // How far to trust the headline: the error the validation measured on held-out rows of this
  // engine and family (the core's `fidelity`), as the speedup band it implies, and where τ and
  // the engine profile come from (in the title).
  showFidelity(f, infeasible) {
    const node = $('#o-fidelity', this.root);
    node.hidden = !f || infeasible;
    if (node.hidden) {
      node.textContent = '';
      return;
    }
    node.textContent =
      f.rows > 0
        ? `${fmt.speedupRange(f.speedup_low, f.speedup_high)} allowing for the validation's error (${f.statement})`
        : f.statement;
    node.title = `τ: ${f.tau_source}\nEngine profile: ${f.profile_source}`;
    node.dataset.rows = String(f.rows);
    if (f.rows > 0) {
      node.dataset.low = String(f.speedup_low);
      node.dataset.high = String(f.speedup_high);
    }
  }

  showVerdict(result) {
    const box = $('#verdict', this.root);
    box.dataset.state = result.verdict;
    box.className = `verdict ${result.verdict}`;
    // The core's caveat (verdict_caveat) where the numbers behind a pays / loses verdict also
    // allow the other answer: the head says "probably", the caveat follows the reason.
    const caveat = result.verdict_caveat || '';
    box.dataset.uncertain = String(caveat !== '');
    box.classList.toggle('uncertain', caveat !== '');
    $('#verdict-head', this.root).textContent = (
      (caveat && UNCERTAIN_HEADS[result.verdict]) ||
      HEADS[result.verdict]
    ).replace('{pool}', result.memory.pool);
    $('#verdict-reason', this.root).textContent = caveat
      ? `${result.verdict_reason} ${caveat}`
      : result.verdict_reason;
    const list = clear($('#verdict-suggestions', this.root));
    const suggestions = result.verdict === 'infeasible' ? result.memory.suggestions : [];
    for (const s of suggestions) list.append(el('li', { text: s }));
    // The core's narrower weight format and KV cache that fit, one press away (the controller
    // sets the form's dtype as a person would).
    const offers = [
      ['weights', result.memory.fits_with_weights, (f) => `Use ${f} weights`],
      ['kv', result.memory.fits_with_kv, (f) => `Use ${f} for the KV cache`],
    ];
    for (const [field, format, label] of offers) {
      if (result.verdict !== 'infeasible' || !format || !this.useDtype) continue;
      const use = () => this.useDtype(field, format);
      list.append(
        el('li', {}, el('button', { type: 'button', text: label(format), onclick: use })),
      );
    }
    list.hidden = suggestions.length === 0;
  }

  // Per pass (one forward of that kind) next to per cycle (all passes of that kind in a cycle).
  showPasses(result) {
    const body = clear($('#passes-body', this.root));
    for (const key of PASSES) {
      const p = result[key];
      const idle = p.bound === 'none';
      const bytesTitle = ['weights_bytes', 'kv_cache_bytes', 'activations_bytes']
        .map((k) => `${k.replace('_bytes', '').replace('_', ' ')}: ${fmt.bytes(p[k])} per cycle`)
        .join(', ');
      body.append(
        el(
          'tr',
          { 'data-pass': key, class: idle ? 'idle' : undefined },
          el('th', { scope: 'row', text: p.label }),
          el('td', {
            // Partial offload: the CPU's share of the pass, as the core gives it.
            text: idle
              ? '—'
              : fmt.seconds(p.time_per_pass_s) +
                (p.host_time_per_pass_s ? ` (CPU ${fmt.seconds(p.host_time_per_pass_s)})` : ''),
            'data-value': p.time_per_pass_s,
            'data-col': 'time-per-pass',
          }),
          el('td', { text: fmt.plain(p.passes_per_cycle), 'data-col': 'passes' }),
          el('td', {
            text: fmt.seconds(p.time_s),
            'data-value': p.time_s,
            'data-col': 'time-per-cycle',
          }),
          el('td', { text: fmt.plain(p.tokens_per_pass), 'data-col': 'tokens' }),
          el('td', {
            text: idle ? '—' : fmt.bytes(p.bytes_per_pass),
            'data-value': p.bytes_per_pass,
            'data-col': 'bytes-per-pass',
            title: bytesTitle,
          }),
          el('td', {
            text: idle ? '—' : fmt.flops(p.flops_per_pass),
            'data-value': p.flops_per_pass,
            'data-col': 'flops-per-pass',
          }),
          el('td', { text: idle ? '—' : fmt.intensity(p.arithmetic_intensity) }),
          el('td', {
            text:
              p.limited_by && p.limited_by !== p.bound
                ? `${p.bound} (${p.limited_by}-limited)`
                : p.bound,
            class: `bound-${p.bound}`,
            title: p.limited_by
              ? `roofline bound: ${p.bound}; largest time term: ${p.limited_by}`
              : undefined,
          }),
        ),
      );
    }
  }

  // The core's `export` of the current config.
  showEngines(exp, error) {
    const body = clear($('#engine-settings-body', this.root));
    if (error) body.append(el('p', { class: 'placeholder', text: error }));
    else body.append(engineBlocks(exp, 'engine-settings-blocks'));
  }

  // A result that is not the form's or the link's setup, marked with why: the last valid
  // result under an invalid field (the default words), or another setup under a link that could
  // not be opened.
  setStale(stale, why = '(last valid result; fix the highlighted field)') {
    const tag = $('#stale', this.root);
    tag.hidden = !stale;
    tag.textContent = why;
    this.root.classList.toggle('is-stale', stale);
    // The phone's bottom bar is what shows while the user is down at the field: it says so too.
    if (this.mini) {
      this.mini.classList.toggle('is-stale', stale);
      this.mini.dataset.stale = String(stale);
      const text = this.mini.textContent.replace(/ \(last valid result\)$/, '');
      this.mini.textContent = stale && text ? `${text} (last valid result)` : text;
    }
  }
}

// Flattens a config into [path, value] rows ("method.k", 4), so a CSV carries its setup.
function flatten(value, prefix, out) {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.push([prefix, Array.isArray(value) ? JSON.stringify(value) : value]);
  }
  return out;
}

// One CSV row per setup key, headline number and pass field, for spreadsheets.
export function resultCsv(result) {
  const lines = ['quantity,pass,value'];
  for (const [k, v] of flatten(result.config, '', []))
    lines.push(`config.${csvCell(k)},,${csvCell(v)}`);
  for (const k of [
    'verdict',
    'speedup',
    'tau',
    'tokens_per_s',
    'baseline_tokens_per_s',
    'cycle_time_s',
  ]) {
    lines.push(`${k},,${csvCell(result[k])}`);
  }
  for (const key of PASSES) {
    for (const [k, v] of Object.entries(result[key])) {
      if (typeof v === 'number' || typeof v === 'string') lines.push(`${k},${key},${csvCell(v)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function csvCell(v) {
  const s = String(v);
  // Quote, and defuse spreadsheet formulas in text cells.
  const safe = /^[=+\-@]/.test(s) && typeof v !== 'number' ? `'${s}` : s;
  return /[",\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
