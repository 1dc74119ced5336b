// "Under load" (issue 21): the core's `load` command for the config's load block — TPOT and
// output tokens/s against the request rate for plain and speculative decoding, the TPOT SLO
// line and the crossover rate marked, the schedule by rate. Loaded on demand (the controller
// imports this module when the section comes into view). Every number is a core output field.
import { el, $, clear, labelName } from '../dom.mjs';
import { callJson, describeError, SpecCalcError } from '../api.mjs';
import { ChartSlot, color, markerPlugin } from './chart-kit.mjs';
import * as fmt from '../format.mjs';

// The core's verdict at the chosen load (at_load): what speculation does at the rate (or
// concurrency) the user set, with the two TPOTs the core computed there.
function atLoad(out) {
  const v = out.at_load;
  if (!v) return null;
  const where =
    out.mode === 'concurrency'
      ? `At ${fmt.plain(out.plain.at.in_flight)} requests in flight`
      : `At ${fmt.plain(out.plain.at.rate_rps)} requests/s`;
  if (v.state === 'pays' || v.state === 'loses')
    return `${where} speculation ${v.state === 'pays' ? 'pays' : 'does not pay'}: TPOT ${fmt.seconds(out.speculative.at.tpot_s)} against ${fmt.seconds(out.plain.at.tpot_s)} plain (${fmt.speedup(v.tpot_speedup)})`;
  return `${where}: ${v.what}`;
}

// The form's fields, as config keys of the load block (the core validates them).
const FIELDS = [
  ['rate_rps', 'Request rate (requests/s)'],
  ['input_tokens', 'Mean prompt (tokens)'],
  ['output_tokens', 'Mean output (tokens)'],
  ['slo.tpot_s', 'TPOT target (s per token, optional)'],
  ['slo.ttft_s', 'TTFT target (s, optional)'],
];

// A horizontal line at y on scale 'y' (the TPOT SLO).
function sloLine(getY, label) {
  return {
    hooks: {
      draw: [
        (u) => {
          const yv = getY();
          if (yv === null || yv === undefined) return;
          const y = u.valToPos(yv, 'y', true);
          if (!Number.isFinite(y) || y < u.bbox.top || y > u.bbox.top + u.bbox.height) return;
          const { ctx } = u;
          ctx.save();
          ctx.strokeStyle = color('--warn');
          ctx.fillStyle = color('--warn');
          ctx.setLineDash([3, 3]);
          ctx.beginPath();
          ctx.moveTo(u.bbox.left, y);
          ctx.lineTo(u.bbox.left + u.bbox.width, y);
          ctx.stroke();
          ctx.font = `${12 * devicePixelRatio}px system-ui, sans-serif`;
          // At the right end, clear of the y axis's ticks and title.
          const w = ctx.measureText(label).width;
          ctx.fillText(
            label,
            u.bbox.left + u.bbox.width - w - 4 * devicePixelRatio,
            y - 4 * devicePixelRatio,
          );
          ctx.restore();
        },
      ],
    },
  };
}

export class LoadView {
  // workloads: the workload ids the load block accepts (the core's `list ui`).
  // defaults: the load block the form starts from (the core's `list ui` load).
  constructor(section, { onApply, workloads, defaults }) {
    this.defaults = defaults;
    this.section = section;
    this.onApply = onApply;
    this.seq = 0;
    this.config = null;
    this.form = $('#load-form', section);
    this.out = $('#load-out', section);
    this.summary = $('#load-summary', section);
    this.tpot = new ChartSlot($('#chart-load-tpot', section));
    this.tput = new ChartSlot($('#chart-load-throughput', section));
    this.inputs = {};
    const fields = $('.load-fields', this.form);
    clear(fields);
    const wl = el(
      'select',
      { id: 'l-workload', 'data-key': 'workload' },
      ...['', ...workloads].map((w) =>
        el('option', { value: w, text: w || 'none (lengths below)' }),
      ),
    );
    this.inputs.workload = wl;
    fields.append(
      el(
        'div',
        { class: 'field', 'data-for': 'load.workload' },
        el('label', { for: 'l-workload', text: 'Workload (trace lengths)' }),
        wl,
        el('p', { class: 'field-error', role: 'alert' }),
      ),
    );
    for (const [key, label] of FIELDS) {
      const id = `l-${key.replace('.', '-')}`;
      const input = el('input', { id, inputmode: 'decimal', autocomplete: 'off', 'data-key': key });
      this.inputs[key] = input;
      fields.append(
        el(
          'div',
          { class: 'field', 'data-for': `load.${key}` },
          el('label', { for: id, text: label }),
          input,
          el('p', { class: 'field-error', role: 'alert' }),
        ),
      );
    }
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.apply();
    });
    $('#load-off', section).addEventListener('click', () => this.onApply(null));
    section.dataset.state = 'idle';
  }

  // The block the form describes (numbers as typed: the core names a bad one).
  block() {
    const load = {};
    const num = (s) => (s.trim() === '' ? undefined : Number.isFinite(Number(s)) ? Number(s) : s);
    if (this.inputs.workload.value) load.workload = this.inputs.workload.value;
    for (const [key] of FIELDS) {
      const v = num(this.inputs[key].value);
      if (v === undefined) continue;
      if (key.startsWith('slo.')) (load.slo ||= {})[key.slice(4)] = v;
      else load[key] = v;
    }
    // With a workload, lengths typed here replace its means (the core reads both; an empty
    // field leaves the workload's, shown as its placeholder).
    for (const key of ['max_num_seqs', 'max_num_batched_tokens'])
      if (this.config?.load?.[key] !== undefined) load[key] = this.config.load[key];
    return load;
  }

  clearErrors() {
    for (const f of this.form.querySelectorAll('.field')) {
      f.classList.remove('invalid');
      $('.field-error', f).textContent = '';
    }
  }

  async apply() {
    this.clearErrors();
    const load = this.block();
    try {
      // The load command itself: it also refuses a target below what the setup can reach (a
      // TTFT of 1 ms), which normalize cannot know; its message then sits beside the field.
      await callJson('load', { ...this.config, load });
    } catch (e) {
      const field = e instanceof SpecCalcError ? e.field : '';
      const box =
        this.form.querySelector(`[data-for="${field}"]`) || this.form.querySelector('.field');
      box.classList.add('invalid');
      // Beside its own field, named by the field's label (as the main form does); elsewhere the
      // core's path.
      const name = field && box.dataset.for === field ? labelName($('label', box)) : '';
      $('.field-error', box).textContent = name ? `${name}: ${e.message}` : describeError(e);
      this.section.dataset.state = 'error';
      return;
    }
    this.onApply(load);
  }

  fill(load) {
    this.inputs.workload.value = load.workload || '';
    for (const [key] of FIELDS) {
      const v = key.startsWith('slo.') ? load.slo?.[key.slice(4)] : load[key];
      this.inputs[key].value = v === undefined || v === null ? '' : String(v);
    }
  }

  async show(config) {
    const seq = ++this.seq;
    this.config = config;
    this.clearErrors();
    if (!config.load) {
      this.section.dataset.state = 'off';
      this.summary.textContent =
        'No load block in this config: give a request rate and lengths (or a workload) and apply.';
      this.tpot.destroy();
      this.tput.destroy();
      clear(this.out);
      if (!this.inputs.rate_rps.value && this.defaults) this.fill(this.defaults);
      return;
    }
    this.fill(config.load);
    this.section.dataset.state = 'running';
    let out;
    try {
      out = await callJson('load', config);
    } catch (e) {
      if (seq !== this.seq) return;
      this.section.dataset.state = 'error';
      this.summary.textContent = describeError(e);
      return;
    }
    if (seq !== this.seq) return;
    this.draw(out);
    this.section.dataset.state = 'done';
  }

  draw(out) {
    const rates = out.curve.rates_rps;
    const plain = out.curve.plain;
    const spec = out.curve.speculative || null;
    const cross =
      out.crossover && out.crossover.state === 'stops_paying' ? out.crossover.rate_rps : null;
    const slo = out.inputs.slo.tpot_s ?? null;
    // Every target the user set, as the core read it (max_rate_meeting_slo_rps meets them all).
    const targets = [
      ['TPOT', out.inputs.slo.tpot_s],
      ['TTFT', out.inputs.slo.ttft_s],
      ['end-to-end', out.inputs.slo.e2e_s],
    ].filter(([, v]) => v !== undefined && v !== null);
    // The rate the user chose, where the summary's verdict is read (the core's point; none when
    // a concurrency was given instead).
    const chosen = out.mode === 'rate' ? out.plain.at.rate_rps : null;
    this.section.dataset.crossover = cross === null ? '' : String(cross);
    // A workload's means fill the lengths left empty: their fields show them as placeholders.
    for (const key of ['input_tokens', 'output_tokens'])
      this.inputs[key].placeholder = this.config?.load?.workload
        ? `${fmt.plain(out.inputs[key])} (the workload's)`
        : '';
    this.section.dataset.sloTpot = slo === null ? '' : String(slo);
    const p = out.plain;
    const s = out.speculative;
    const bits = [
      atLoad(out),
      `plain decoding serves up to ${fmt.plain(p.capacity_rps)} requests/s`,
      s ? `speculative (${s.name}, τ ${fmt.tau(s.tau)}) up to ${fmt.plain(s.capacity_rps)}` : null,
      cross !== null
        ? `speculation stops paying above ${fmt.plain(cross)} requests/s`
        : out.crossover
          ? out.crossover.what
          : null,
      targets.length
        ? `${targets.map(([n, v]) => `${n} ≤ ${fmt.seconds(v)}`).join(' and ')} ${targets.length > 1 ? 'hold' : 'holds'} up to ${fmt.plain(p.max_rate_meeting_slo_rps)} requests/s plain${s ? `, ${fmt.plain(s.max_rate_meeting_slo_rps)} speculative` : ''}`
        : null,
    ].filter(Boolean);
    // The core's notes on the inputs (a TPOT target that never binds, in seconds) follow.
    const sentence = (t) => `${t.charAt(0).toUpperCase()}${t.slice(1)}.`;
    this.summary.textContent = [bits.join('; '), ...out.notes].map(sentence).join(' ');

    const series = [
      {},
      {
        label: 'plain TPOT',
        stroke: color('--c1'),
        width: 2,
        value: (u, v) => (v == null ? '—' : fmt.seconds(v)),
      },
    ];
    const data = [rates, plain.tpot_s];
    if (spec) {
      series.push({
        label: 'speculative TPOT',
        stroke: color('--c2'),
        width: 2,
        value: (u, v) => (v == null ? '—' : fmt.seconds(v)),
      });
      data.push(spec.tpot_s);
    }
    this.tpot.draw(
      {
        series,
        scales: { x: { time: false } },
        axes: [
          { label: 'requests/s' },
          // The ticks carry their unit ("20 ms"); the axis is wide enough for them.
          { label: 'TPOT', size: 64, values: (u, v) => v.map((x) => fmt.seconds(x)) },
        ],
        plugins: [
          markerPlugin(() => cross, 'crossover'),
          markerPlugin(() => chosen, 'your rate', '--accent'),
          sloLine(() => slo, 'TPOT target'),
        ],
      },
      data,
    );
    // Below capacity both setups serve every request, so their tokens/s coincide: plain is drawn
    // wider underneath so both lines stay visible.
    const tputSeries = [{}, { label: 'plain tokens/s', stroke: color('--c1'), width: 5 }];
    const tputData = [rates, plain.output_tokens_per_s];
    if (spec) {
      tputSeries.push({ label: 'speculative tokens/s', stroke: color('--c2'), width: 2 });
      tputData.push(spec.output_tokens_per_s);
    }
    tputSeries.push({
      label: 'plain tokens/s per user',
      stroke: color('--c1'),
      width: 1.5,
      dash: [5, 4],
      scale: 'user',
    });
    tputData.push(plain.output_tokens_per_s_per_user);
    if (spec) {
      tputSeries.push({
        label: 'speculative tokens/s per user',
        stroke: color('--c2'),
        width: 1.5,
        dash: [5, 4],
        scale: 'user',
      });
      tputData.push(spec.output_tokens_per_s_per_user);
    }
    this.tput.draw(
      {
        series: tputSeries,
        scales: { x: { time: false } },
        axes: [
          { label: 'requests/s' },
          { label: 'output tokens/s (all users)', size: 72 },
          { label: 'per user', side: 1, scale: 'user', grid: { show: false }, size: 56 },
        ],
        plugins: [
          markerPlugin(() => cross, 'crossover'),
          markerPlugin(() => chosen, 'your rate', '--accent'),
        ],
      },
      tputData,
    );
    const cell = (v) => (v === null || v === undefined ? 'over capacity' : fmt.seconds(v));
    const rows = rates.map((r, i) => [
      fmt.plain(r),
      cell(plain.tpot_s[i]),
      spec ? cell(spec.tpot_s[i]) : '—',
    ]);
    this.tpot.setTable(['requests/s', 'plain TPOT', 'speculative TPOT'], rows);
    this.tpot.setExport(
      'load-curve',
      rates.map((r, i) => ({
        rate_rps: r,
        plain_tpot_s: plain.tpot_s[i],
        speculative_tpot_s: spec ? spec.tpot_s[i] : null,
        plain_output_tokens_per_s: plain.output_tokens_per_s[i],
        speculative_output_tokens_per_s: spec ? spec.output_tokens_per_s[i] : null,
      })),
    );
    clear(this.out);
    if (out.schedule) {
      this.out.append(
        el('h3', { text: 'Schedule by load' }),
        // Scrolls inside its own box on a phone instead of widening the page (the walk: 454 px).
        el(
          'div',
          { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Schedule by load' },
          el(
            'table',
            { 'data-testid': 'load-schedule' },
            el(
              'thead',
              {},
              el(
                'tr',
                {},
                ...['requests/s', 'in flight', 'choice'].map((h) =>
                  el('th', { scope: 'col', text: h }),
                ),
              ),
            ),
            el(
              'tbody',
              {},
              ...out.schedule.map((seg) =>
                el(
                  'tr',
                  { 'data-choice': seg.choice },
                  el('th', {
                    scope: 'row',
                    text: `${fmt.plain(seg.from_rps)} – ${fmt.plain(seg.to_rps)}`,
                  }),
                  el('td', {
                    text:
                      seg.from_in_flight === undefined
                        ? '—'
                        : `${fmt.plain(seg.from_in_flight)} – ${fmt.plain(seg.to_in_flight)}`,
                  }),
                  el('td', { text: seg.label }),
                ),
              ),
            ),
          ),
        ),
        el('p', { class: 'hint', text: out.export.note }),
      );
    }
  }
}
