// "Calibrate this engine from your own benchmark" (issue 22, item 4): the pasted llama-bench
// table (or mlx_lm.generate summary) goes to the core's `calibrate` ({config, llama_bench} or
// {config, mlx_lm}), which parses it, fits the engine profile's kernel-regime efficiencies and
// answers each row's measured, predicted-before and predicted-after time, the mean error and the
// calibrated config. This view draws that and applies the config; it computes nothing. Loaded on
// demand (controller.mjs) when a paste is first submitted.
import { $, el, clear } from '../dom.mjs';
import { callJson, describeError } from '../api.mjs';
import * as fmt from '../format.mjs';

export class BenchView {
  constructor(root, { apply }) {
    this.root = root;
    this.text = $('#b-text', root);
    this.error = $('#b-error', root);
    this.status = $('#b-status', root);
    this.table = $('#b-table', root);
    this.applyButton = $('#b-apply', root);
    this.out = null; // the core's answer for the last table
    this.fittedFor = null; // the config (normalized JSON) it was fitted on
    this.applyButton.addEventListener('click', async () => {
      if (!this.out) return;
      const config = this.out.config;
      this.fittedFor = JSON.stringify(config);
      this.applyButton.hidden = true;
      this.status.textContent = `${this.summary()} Applied: the link holds the calibrated engine.`;
      await apply(config);
    });
  }

  // Fits the engine of `config` to the pasted text; `key` is the request key the core's
  // `list runtimes` names for this engine (calibrates_from: llama_bench or mlx_lm).
  async fit(config, key) {
    this.clearFit();
    let out;
    try {
      out = await callJson('calibrate', { config, [key]: this.text.value });
    } catch (err) {
      this.showError(describeError(err));
      return;
    }
    this.out = out;
    this.fittedFor = JSON.stringify(config);
    const body = clear($('tbody', this.table));
    out.fit.forEach((row, i) => {
      const cell = (x) => el('td', { text: fmt.seconds(x), 'data-value': String(x) });
      body.append(
        el(
          'tr',
          { 'data-row': String(i) },
          el('th', { scope: 'row', text: row.input }),
          cell(row.measured_s),
          cell(row.predicted_before_s),
          cell(row.predicted_after_s),
        ),
      );
    });
    this.table.hidden = false;
    this.status.dataset.meanError = String(out.mean_relative_error_pct);
    this.status.textContent = `${this.summary()} Apply to use the calibrated engine.`;
    this.applyButton.hidden = false;
  }

  summary() {
    const out = this.out;
    const changes = out.changes
      .map((c) => `${c.param} ${fmt.plain(c.before)} → ${fmt.plain(c.after)}`)
      .join('; ');
    // The core's warning when a fitted value ended at its bound (an efficiency of 1).
    const warning = out.warning ? ` Caution: ${out.warning}.` : '';
    return `Mean error after calibrating: ${out.mean_relative_error_pct.toFixed(1)} % (${changes}).${warning}`;
  }

  // A config on screen that is neither the one fitted nor the calibrated one: the fit's
  // "before" and its Apply no longer belong to it.
  show(config) {
    if (this.fittedFor !== null && JSON.stringify(config) !== this.fittedFor) this.clearFit();
  }

  showError(text) {
    this.error.textContent = text;
    this.error.hidden = false;
    this.text.setAttribute('aria-invalid', 'true');
    this.text.setAttribute('aria-describedby', this.error.id);
  }

  clearFit() {
    this.out = null;
    this.fittedFor = null;
    this.error.hidden = true;
    this.error.textContent = '';
    this.text.removeAttribute('aria-invalid');
    this.text.removeAttribute('aria-describedby');
    this.table.hidden = true;
    clear($('tbody', this.table));
    this.applyButton.hidden = true;
    this.status.textContent = '';
    delete this.status.dataset.meanError;
  }
}
