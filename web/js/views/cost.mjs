// Where the time and the memory go, drawn from the core's `cycle`, each pass's `kernels` and
// `memory`. Bars are geometry only: each segment's length is the core's number on a shared
// axis (a share of the axis's end); every figure shown is a core field.
import { el, clear } from '../dom.mjs';
import * as fmt from '../format.mjs';

// The draft and target parts are named by the core's pass labels (showCycle's `labels`).
const CYCLE_PARTS = [
  ['draft_s', null, 'seg-draft'],
  ['verify_s', null, 'seg-verify'],
  ['overhead_s', 'Engine overhead', 'seg-overhead'],
  ['comm_s', 'Communication', 'seg-comm'],
];

const MEMORY_PARTS = [
  ['weights_gb_per_gpu', 'Target weights', 'seg-verify'],
  ['draft_weights_gb_per_gpu', 'Draft weights', 'seg-draft'],
  ['kv_cache_gb_per_gpu', 'KV cache', 'seg-kv'],
  ['activations_gb_per_gpu', 'Activations', 'seg-overhead'],
];

const KERNEL_LABELS = { gemm: 'GEMMs', attention: 'Attention', lm_head: 'LM head', other: 'Other' };

// A legend entry that is plain text, so every value is readable without a pointer.
function legendItem(label, cls, text, value) {
  return el(
    'li',
    { 'data-value': value },
    el('span', { class: `swatch ${cls}`, 'aria-hidden': 'true' }),
    `${label}: ${text}`,
  );
}

// The stacked cycle-time bar: draft, verify, engine overhead, communication (sums to the cycle).
// A setup that does not fit has no real cycle: its parts are still shown (where the time
// would go), said as what one cycle would take if it fit.
// `labels`: the core's names of the draft and target passes (`draft_s`, `verify_s`: a plain
// decoding cycle's target pass is its decode step, not a verify).
export function showCycle(box, cycle, { infeasible = false, labels = {} } = {}) {
  clear(box);
  const bar = el('div', { class: 'stack', 'aria-hidden': 'true' });
  const legend = el('ul', { class: 'legend', 'data-testid': 'cycle-legend' });
  for (const [key, fixed, cls] of CYCLE_PARTS) {
    const label = fixed ?? labels[key];
    const seg = el('span', {
      class: `seg ${cls}`,
      title: `${label}: ${fmt.seconds(cycle[key])}`,
      'data-part': key,
    });
    // A share of the bar (flex-grow would fill only that fraction when the parts sum below 1).
    seg.style.width = `${(100 * cycle[key]) / cycle.total_s}%`;
    bar.append(seg);
    // A part that takes no time (no GPU-to-GPU traffic on one GPU) reads "none", not "0 s".
    legend.append(
      legendItem(label, cls, cycle[key] > 0 ? fmt.seconds(cycle[key]) : 'none', cycle[key]),
    );
  }
  box.append(
    bar,
    legend,
    el('p', {
      class: 'hint',
      text: infeasible
        ? `If it fit in memory (it does not), ${cycle.label} would take ${fmt.seconds(cycle.total_s)}.`
        : `Cycle: ${fmt.seconds(cycle.total_s)} for ${cycle.label}.`,
    }),
  );
}

// One small table per pass: its kernels as the core split them (per pass, per GPU).
export function showKernels(box, result, passes) {
  clear(box);
  for (const key of passes) {
    const { kernels, label } = result[key];
    if (!kernels.length) continue;
    const body = el('tbody');
    for (const k of kernels) {
      body.append(
        el(
          'tr',
          { 'data-kind': k.kind },
          el('th', { scope: 'row', text: KERNEL_LABELS[k.kind] || k.kind }),
          el('td', { text: fmt.seconds(k.time_s), 'data-value': k.time_s }),
          el('td', { text: fmt.flops(k.flops) }),
          el('td', { text: fmt.bytes(k.bytes) }),
          el('td', { text: k.bound, class: `bound-${k.bound}` }),
        ),
      );
    }
    box.append(
      el(
        'div',
        {
          class: 'table-wrap',
          tabindex: '0',
          role: 'region',
          'aria-label': `${label}: kernels per pass, per GPU`,
        },
        el(
          'table',
          { class: 'kernels', 'data-pass': key },
          el('caption', { text: `${label}, one pass on one GPU` }),
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              ...['Kernel', 'Time', 'FLOPs', 'Bytes', 'Bound'].map((h) =>
                el('th', { scope: 'col', text: h }),
              ),
            ),
          ),
          body,
        ),
      ),
    );
  }
}

// Memory per device (the core's memory.device: GPU, CPU or a unified-memory chip) against what the engine may use and its
// capacity.
export function showMemory(box, mem) {
  clear(box);
  box.dataset.fits = String(mem.fits);
  box.className = mem.fits ? 'memory' : 'memory bad';
  // The axis ends at the capacity, or at the total when it does not fit.
  const end = Math.max(mem.capacity_gb_per_gpu, mem.total_gb_per_gpu);
  const bar = el('div', { class: 'stack memory-stack', 'aria-hidden': 'true' });
  const legend = el('ul', { class: 'legend', 'data-testid': 'memory-legend' });
  for (const [key, label, cls] of MEMORY_PARTS) {
    const seg = el('span', {
      class: `seg ${cls}`,
      title: `${label}: ${fmt.gb(mem[key])}`,
      'data-part': key,
    });
    seg.style.width = `${(100 * mem[key]) / end}%`;
    bar.append(seg);
    legend.append(legendItem(label, cls, fmt.gb(mem[key]), mem[key]));
  }
  const usable = el('span', {
    class: 'usable-mark',
    title: `usable: ${fmt.gb(mem.usable_gb_per_gpu)}`,
  });
  usable.style.left = `${(100 * mem.usable_gb_per_gpu) / end}%`;
  bar.append(usable);
  const total =
    `${fmt.gb(mem.total_gb_per_gpu)} of ${fmt.gb(mem.usable_gb_per_gpu)} usable ` +
    `(${fmt.plain(mem.memory_utilization)} × ${fmt.gb(mem.capacity_gb_per_gpu)} on this ${mem.device})`;
  // max_batch / max_context are 0 when nothing fits (the core's contract).
  const limits = [
    mem.max_batch > 0
      ? `largest batch at this context: ${mem.max_batch}`
      : 'no batch fits at this context',
    mem.max_context > 0
      ? `longest context at this batch: ${mem.max_context} tokens`
      : 'no context fits at this batch',
  ].join('; ');
  const fits = `${mem.fits ? 'Fits' : 'Does not fit'}: ${limits}.`;
  box.append(
    bar,
    legend,
    el('p', { class: 'memory-total', 'data-testid': 'memory-total', text: total }),
    el('p', { class: mem.fits ? 'hint' : 'memory-verdict', text: fits }),
  );
}
