// The setup form: shows a normalized config, reads the user's edits back into a config, and shows
// core validation errors beside the field they name. It validates nothing itself: text that is not
// a number is passed to the core as a string so the core's message explains what is wrong.
import { el, $, clear, labelName } from '../dom.mjs';
import { SpecCalcError, callJson } from '../api.mjs';
import { engineView, engineIdOf } from '../engine-view.mjs';

const CUSTOM = '__custom__';

const NUMBER_RE = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

// "4" -> 4, "0.7" -> 0.7; anything else goes to the core unchanged so it can say why it is wrong
// (also "1e400": as a number it is Infinity, which JSON can only send as null).
function parseScalar(text) {
  const s = text.trim();
  return NUMBER_RE.test(s) && Number.isFinite(Number(s)) ? Number(s) : s;
}

// The field being typed in keeps its text while that text reads as the value the core answered
// with ("1e3" for 1000, "0.8,0.6" for "0.8, 0.6"); a value the core changed (a carry moved 3
// GPUs to 1) replaces it, so the form always shows what was priced.
function keepsTyping(node, text) {
  const reading = (t) => JSON.stringify(parseList(t));
  return node === document.activeElement && reading(node.value) === reading(text);
}

function parseList(text) {
  const s = text.trim();
  if (s.startsWith('[')) return parseJson(s);
  return s === ''
    ? []
    : s
        .split(/[\s,;]+/)
        .filter(Boolean)
        .map(parseScalar);
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isNumberList(v) {
  return Array.isArray(v) && v.every((x) => typeof x === 'number');
}

function optionOf(item) {
  if (typeof item === 'string') return { value: item, label: item };
  const value = item.id ?? item.name ?? String(item);
  const name = item.display_name ?? item.label ?? item.name;
  return { value, label: name || value };
}

function fillSelect(select, items) {
  clear(select);
  for (const item of items) {
    const { value, label } = optionOf(item);
    select.append(el('option', { value, text: label }));
  }
}

// Disables the options `why(value)` gives a reason for, naming it; the option in use stays
// selectable so a link that names it still shows.
function greyOut(select, why) {
  for (const o of select.options) {
    o.dataset.label ??= o.textContent;
    const reason = why(o.value);
    const ok = !reason || o.value === select.value;
    o.disabled = !ok;
    o.textContent = ok ? o.dataset.label : `${o.dataset.label} (${reason})`;
  }
}

function setSelect(select, value, customLabel) {
  let custom = select.querySelector(`option[value="${CUSTOM}"]`);
  if (value === CUSTOM) {
    if (!custom) {
      custom = el('option', { value: CUSTOM, text: customLabel });
      select.prepend(custom);
    }
  } else {
    if (![...select.options].some((o) => o.value === value)) {
      // A preset id the list lacks (a build without it, or a target preset serving as a draft):
      // kept, before any "custom" entry, so the core can name it or price it.
      const option = el('option', { value, text: value });
      if (custom) custom.before(option);
      else select.append(option);
    }
  }
  select.value = value;
}

export class InputsView {
  constructor(form, onEdit) {
    this.form = form;
    this.onEdit = onEdit;
    this.drafts = [];
    this.lastDraft = null; // the draft preset chosen last (what "your own draft" starts from)
    this.lastOwnDraft = null; // the last draft of your own the core echoed
    this.runtimes = [];
    this.fieldAlias = {}; // normalized method key -> the engine's own knob shown for it
    this.custom = { target: null, hardware: null, runtime: null };
    this.lastPreset = { target: null, hardware: null };
    this.presetLists = { target: [], hardware: [] };
    this.methodKeys = '';
    this.accKeys = '';
    this.lastAcceptance = {};
    this.methodParams = $('#method-params', form);
    this.accParams = $('#acceptance-params', form);
    this.dtypeEngine = null; // the engine whose dtypes the two dtype selects list

    form.addEventListener('submit', (e) => e.preventDefault());
    // A calibrated runtime (fitted efficiencies from a pasted table) back to its profile.
    $('#engine-reset', form).addEventListener('click', () => {
      this.custom.runtime = null;
      this.onEdit({ field: 'runtime', immediate: true });
    });
    form.addEventListener('change', (e) => this.handle(e, 'change'));
    form.addEventListener('input', (e) => this.handle(e, 'input'));
  }

  handle(event, kind) {
    const t = event.target;
    if (!t.dataset || !t.dataset.field) return;
    // Selects act at once; text fields wait for a pause in typing (the controller debounces).
    if (t.tagName === 'SELECT' && kind === 'input') return;
    const field = t.dataset.field;
    if (t.tagName === 'SELECT') {
      if (field === 'target' || field === 'hardware') {
        this.custom[field] = t.value === CUSTOM ? this.templateFor(field) : null;
        this.showCustomEditor(field, true);
      }
      if (field === 'runtime') this.custom.runtime = null;
    }
    this.onEdit({ field, immediate: t.tagName === 'SELECT' || kind === 'change' });
  }

  setPresets({ models, hardware, runtimes, methods, drafts, acceptance }) {
    this.presetLists = { target: models, hardware };
    // The acceptance forms, their definitions and starting values are the core's (list
    // acceptance).
    this.forms = new Map(acceptance.map((f) => [f.id, f]));
    fillSelect(
      $('#f-acc-mode', this.form),
      acceptance.map((f) => ({ id: f.id, label: f.label })),
    );
    fillSelect($('#f-target', this.form), models);
    fillSelect($('#f-hardware', this.form), hardware);
    $('#f-target', this.form).append(
      el('option', { value: CUSTOM, text: 'Custom architecture (JSON)…' }),
    );
    $('#f-hardware', this.form).append(el('option', { value: CUSTOM, text: 'Custom GPU (JSON)…' }));
    fillSelect($('#f-runtime', this.form), runtimes);
    this.runtimes = runtimes.filter((r) => typeof r === 'object');
    fillSelect($('#f-family', this.form), methods);
    // Each family as the core lists it: its summary, and whether it speculates (plain
    // decoding has nothing to accept and shows no acceptance fields).
    this.methods = new Map(methods.filter((m) => typeof m === 'object').map((m) => [m.id, m]));
    this.drafts = drafts;
  }

  // The JSON editor starts from the preset that was selected before "Custom…": the core lists
  // each preset's `custom` object (the custom target or GPU equal to it).
  templateFor(field) {
    const id = this.lastPreset[field];
    const item = this.presetLists[field].find((x) => typeof x === 'object' && x.id === id) || {};
    const out = { ...(item.custom || {}) };
    if (out.name) out.name = `${out.name} (custom)`;
    return out;
  }

  showCustomEditor(field, force) {
    const box = $(`[data-for="${field}-json"]`, this.form);
    const area = $(`#f-${field}-json`, this.form);
    const on = $(`#f-${field}`, this.form).value === CUSTOM;
    box.hidden = !on;
    if (on && (force || area !== document.activeElement))
      area.value = JSON.stringify(this.custom[field] || {}, null, 2);
  }

  // Show a normalized config. `force` also overwrites the field that has focus (used when a new
  // link or file replaces the whole state); otherwise the field being typed in is left alone.
  show(config, { force = false } = {}) {
    const set = (selector, value) => {
      const node = $(selector, this.form);
      const text = value === undefined || value === null ? '' : String(value);
      if (!force && keepsTyping(node, text)) return;
      node.value = text;
    };

    const target = config.target;
    this.custom.target = typeof target === 'object' && target !== null ? target : null;
    setSelect(
      $('#f-target', this.form),
      this.custom.target ? CUSTOM : String(target),
      'Custom architecture (from link/JSON)',
    );
    const hw = config.hardware;
    this.custom.hardware = typeof hw === 'object' && hw !== null ? hw : null;
    setSelect(
      $('#f-hardware', this.form),
      this.custom.hardware ? CUSTOM : String(hw),
      'Custom GPU (from link/JSON)',
    );
    if (!this.custom.target) this.lastPreset.target = String(target);
    if (!this.custom.hardware) this.lastPreset.hardware = String(hw);
    this.showCustomEditor('target', force);
    this.showCustomEditor('hardware', force);

    const rt = config.runtime;
    if (typeof rt === 'object' && rt !== null) {
      this.custom.runtime = rt;
      setSelect(
        $('#f-runtime', this.form),
        rt.profile !== undefined ? String(rt.profile) : CUSTOM,
        'Custom runtime (from link/JSON)',
      );
      set('#f-measured', rt.measured_decode_step_s);
    } else {
      this.custom.runtime = null;
      setSelect($('#f-runtime', this.form), String(rt), '');
      set('#f-measured', '');
    }
    set('#f-gpus', config.gpus);
    const par = config.parallelism || {};
    set('#f-data-attention', par.data_attention ?? '');
    set('#f-expert', par.expert ?? '');
    // Partial offload (llama.cpp --n-gpu-layers); a streaming offload has no fields here and is
    // kept as it is (read() carries it over).
    const off = config.offload || {};
    set('#f-gpu-layers', off.gpu_layers ?? '');
    set('#f-host-memory', off.host_memory_gbps ?? '');
    set('#f-host-tflops', off.host_tflops ?? '');
    set('#f-batch', config.batch);
    set('#f-temperature', config.temperature ?? '');
    set('#f-context', config.context);
    const engineId = engineIdOf(rt);
    this.showDtypes(engineId);
    const dt = config.dtype;
    setSelect($('#f-dtype-weights', this.form), typeof dt === 'string' ? dt : String(dt.weights));
    setSelect($('#f-dtype-kv', this.form), typeof dt === 'string' ? dt : String(dt.kv));

    const method = config.method || {};
    setSelect($('#f-family', this.form), String(method.family));
    const family = this.methods?.get(method.family);
    $('#family-summary', this.form).textContent = family?.summary || '';
    $('#acceptance-fields', this.form).hidden = family?.speculates === false;
    const view = this.engineView(method, engineId);
    this.fieldAlias = view.alias;
    // Where the draft runs, for the families with a draft network (the core's `list methods`):
    // the engine's own ('') unless a link or the user chose another; always the last field, so
    // choosing one does not reorder the form.
    let shown = { ...view.method };
    if (family?.draft_network) {
      const runsUnder = shown.draft_runtime ?? '';
      delete shown.draft_runtime;
      shown.draft_runtime = runsUnder;
    }
    // A draft model's shape where the engine verifies its trees (the core's shapes: the one
    // whose key the method holds, else the chain), after the draft; a choice is carried by the
    // core (carry, changed = method.shape), which sizes the new shape from this one.
    this.shapes = family?.shapes;
    if (this.shapes && this.runtimes.find((r) => r.id === engineId)?.draft_model_trees) {
      const { draft, ...rest } = shown;
      const at = this.shapes.find((s) => s.key in view.method) ?? this.shapes[0];
      shown = { draft, shape: at.id, ...rest };
    }
    this.showParams(
      this.methodParams,
      shown,
      'method',
      (key) => view.labels[key] || this.paramLabels?.get(method.family)?.[key] || key,
      force,
      'methodKeys',
    );

    const acc = config.acceptance || {};
    const mode = Object.keys(acc)[0]; // the config holds exactly one form
    if (mode) {
      const sel = $('#f-acc-mode', this.form);
      if (![...sel.options].some((o) => o.value === mode))
        sel.append(el('option', { value: mode, text: mode }));
      sel.value = mode;
    }
    for (const [k, v] of Object.entries(acc)) this.lastAcceptance[k] = v;
    this.showParams(
      this.accParams,
      acc,
      'acceptance',
      (key) => (this.forms.get(key) || {}).label || key,
      force,
      'accKeys',
    );
  }

  // Fields of what only some engines run for this config (parallelism, partial offload: the
  // core's engine.supports flags, data-parallel attention and expert parallelism only for a
  // mixture-of-experts target) show where they apply, and wherever they hold a value (so the
  // core's message about it stays in view).
  showEngineFields(supports) {
    for (const node of this.form.querySelectorAll('[data-needs]')) {
      const input = node.querySelector('input');
      const filled = Boolean(input && input.value.trim() !== '');
      node.hidden = !supports[node.dataset.needs] && !filled;
    }
  }

  // The weight and KV-cache dtypes the engine runs (the core's `list runtimes`: GGUF types under
  // llama.cpp, MLX types under mlx, fp8/int4/nvfp4… on the serving engines), refilled when the
  // engine changes. A dtype the engine does not run never reaches here: carry moves it.
  showDtypes(engineId) {
    const engine = this.runtimes.find((r) => r.id === engineId);
    if (!engine || engineId === this.dtypeEngine) return;
    this.dtypeEngine = engineId;
    fillSelect($('#f-dtype-weights', this.form), engine.weight_dtypes || []);
    fillSelect($('#f-dtype-kv', this.form), engine.kv_dtypes || []);
  }

  // The method as the chosen engine names it (engine-view.mjs, shared with the compare view).
  engineView(method, engineId) {
    return engineView(
      method,
      this.runtimes.find((r) => r.id === engineId),
    );
  }

  // An edit of the setup (target, engine, GPUs, family) carried by the core to a config that
  // runs: a draft with the new model's tokenizer, the engine's own knobs, the model's released
  // dtype. The notes say what else changed; on an error the edit goes on as it is (the core's
  // message then appears beside its field).
  async carry(config, changed, previous) {
    const carried = ['target', 'runtime', 'hardware', 'gpus', 'method.family', 'method.shape'];
    this.showCarryNotes([]);
    if (!carried.includes(changed)) return config;
    try {
      const out = await callJson('carry', { config, changed, previous: previous || undefined });
      this.showCarryNotes(out.notes, changed);
      return out.config;
    } catch {
      return config;
    }
  }

  // The core's notes on what an edit carried along, under the field that was edited (the walk:
  // a target change that switched the method said so only beside the method, far below).
  showCarryNotes(notes, changed = 'method.family') {
    let box = $('#carry-notes', this.form);
    if (!box) {
      box = el('p', {
        id: 'carry-notes',
        class: 'hint',
        role: 'status',
        'data-testid': 'carry-notes',
      });
    }
    const ids = {
      target: '#f-target',
      hardware: '#f-hardware',
      gpus: '#f-gpus',
      runtime: '#f-runtime',
      'method.family': '#f-family',
    };
    const field = $(ids[changed] || ids['method.family'], this.form)?.closest('.field');
    // (A shape's note too: its field is redrawn with the method's.)
    if (changed.startsWith('method.') || !field) {
      const summary = $('#family-summary', this.form);
      if (box.previousElementSibling !== summary) summary.after(box);
    } else if (box.parentElement !== field) {
      field.append(box); // inside the field: a .row's grid keeps its cells
    }
    box.textContent = notes.length ? `Also changed: ${notes.join('; ')}.` : '';
    box.hidden = !notes.length;
  }

  // One input per parameter the core reported, so a family's vocabulary comes from the core.
  showParams(container, obj, prefix, labelOf, force, keysSlot) {
    const entries = Object.entries(obj).filter(([k]) => !(prefix === 'method' && k === 'family'));
    const signature =
      entries.map(([k, v]) => `${k}:${typeof v}`).join(',') +
      (prefix === 'method' ? `@${obj.family}` : '');
    if (signature !== this[keysSlot]) {
      this[keysSlot] = signature;
      clear(container);
      for (const [key, value] of entries)
        container.append(this.paramField(`${prefix}.${key}`, key, value, labelOf(key)));
      force = true;
    }
    for (const [key, value] of entries) {
      if (prefix === 'method' && key === 'draft') {
        this.showDraft(container, `${prefix}.${key}`, value, force);
        continue;
      }
      const node = [...container.querySelectorAll('[data-field]')].find(
        (n) => n.dataset.field === `${prefix}.${key}`,
      );
      if (!node) continue;
      const text = this.textOf(key, value);
      if (!force && keepsTyping(node, text)) continue;
      // A select keeps a value its options lack (an id from a newer link) rather than blanking.
      if (node.tagName === 'SELECT') setSelect(node, text);
      else node.value = text;
    }
  }

  // The draft select and its JSON box: a preset id selects it; an object (a draft of your own,
  // echoed by the core as its model keys) selects "your own" and fills the box.
  showDraft(container, path, value, force) {
    const select = container.querySelector(`select[data-field="${path}"]`);
    const box = container.querySelector(`textarea[data-field="${path}"]`);
    if (!select || !box) return;
    const own = typeof value === 'object' && value !== null;
    if (!own) this.lastDraft = String(value);
    else this.lastOwnDraft = value; // back to "your own" later: the draft pasted, not a preset's
    setSelect(select, own ? CUSTOM : String(value), 'Your own draft (from link/JSON)');
    box.hidden = !own;
    const hint = container.querySelector(`#${box.id}-hint`);
    if (hint) hint.hidden = !own;
    if (own && (force || box !== document.activeElement))
      box.value = JSON.stringify(value, null, 2);
  }

  // What "your own draft" starts from: the last draft of your own the core echoed, else the
  // preset chosen before as model keys (the core's `list drafts` custom object), to edit or
  // replace with a config.json.
  draftTemplate() {
    if (this.lastOwnDraft) return this.lastOwnDraft;
    const item = this.drafts.find((d) => typeof d === 'object' && d.id === this.lastDraft);
    const out = { ...(item?.custom || {}) };
    if (out.name) out.name = `${out.name} (custom)`;
    return out;
  }

  textOf(key, value) {
    if (isNumberList(value)) return value.join(', ');
    if (typeof value === 'object' && value !== null) return JSON.stringify(value);
    return String(value);
  }

  paramField(path, key, value, label) {
    const id = `f-${path.replace(/[^a-z0-9]+/gi, '-')}`;
    // An acceptance form comes with the core's definition (and, for a preset form, its ids).
    const form = path.startsWith('acceptance.') ? this.forms.get(key) : null;
    const choices = form?.choices ?? (path === 'method.shape' ? this.shapes : null);
    let input;
    if (choices) {
      input = el('select', { id, 'data-field': path });
      fillSelect(input, choices);
      setSelect(input, String(value));
    } else if (typeof value === 'boolean') {
      // The values the core takes here (list acceptance: `published` only true; an "off" the
      // core refuses would be a choice that can never be made).
      const values = form?.values ?? [true, false];
      input = el(
        'select',
        { id, 'data-field': path, 'data-kind': 'boolean' },
        ...values.map((v) => el('option', { value: String(v), text: v ? 'on' : 'off' })),
      );
    } else if (key === 'draft') {
      // A preset, or a draft of your own: its model keys or config.json in the box below.
      input = el('select', { id, 'data-field': path });
      fillSelect(
        input,
        this.drafts.length ? this.drafts : typeof value === 'string' ? [value] : [],
      );
      input.append(el('option', { value: CUSTOM, text: 'Your own draft (config.json or keys)…' }));
      const box = el('textarea', {
        id: `${id}-json`,
        'data-field': path,
        'data-kind': 'draft-json',
        'aria-label': 'Your draft model: its config.json or model keys (JSON)',
        rows: 6,
        spellcheck: 'false',
        autocomplete: 'off',
      });
      const hint = el('p', {
        class: 'hint',
        id: `${id}-json-hint`,
        text: "Paste the draft's config.json from its Hugging Face repository, or SpecCalc's model keys; the result updates when you leave the box.",
      });
      box.setAttribute('aria-describedby', hint.id);
      const field = el(
        'div',
        { class: 'field', 'data-for': path },
        el('label', { for: id, text: label }),
        input,
        box,
        hint,
      );
      this.showDraft(field, path, value, true);
      return field;
    } else if (key === 'draft_runtime' && this.runtimes.length) {
      // Where the draft runs: the engine's own, or one of the engines the core lists (Sequoia's
      // graph-captured draft under an eager target is "hf-graphs"), by name, not an id to type.
      input = el('select', { id, 'data-field': path });
      fillSelect(input, [{ id: '', label: "The engine's own" }, ...this.runtimes]);
      setSelect(input, String(value));
    } else if (typeof value === 'object' && value !== null && !isNumberList(value)) {
      input = el('textarea', {
        id,
        'data-field': path,
        'data-kind': 'json',
        rows: 3,
        spellcheck: 'false',
        autocomplete: 'off',
      });
    } else {
      input = el('input', {
        id,
        'data-field': path,
        autocomplete: 'off',
        'data-kind': Array.isArray(value) ? 'list' : typeof value,
        inputmode: typeof value === 'number' ? 'decimal' : undefined,
      });
    }
    const hint = form ? el('p', { class: 'hint', id: `${id}-def`, text: form.definition }) : null;
    if (hint) input.setAttribute('aria-describedby', hint.id);
    return el(
      'div',
      { class: 'field', 'data-for': path },
      el('label', { for: id, text: label }),
      input,
      hint,
    );
  }

  // The config the form describes now. Family or acceptance-mode changes start that part afresh
  // so the core fills in the new family's defaults.
  read(changedField) {
    const v = (selector) => $(selector, this.form).value;
    const config = {};

    for (const field of ['target', 'hardware']) {
      if (v(`#f-${field}`) !== CUSTOM) config[field] = v(`#f-${field}`);
      else {
        // The box holds a JSON object: text that does not parse is named as such here (sent on,
        // the core would read it as an unknown preset name).
        const text = v(`#f-${field}-json`);
        try {
          config[field] = text.trim() ? JSON.parse(text) : this.custom[field];
        } catch (e) {
          const example =
            field === 'target' ? '{"num_layers": 32, "hidden": 4096}' : '{"mem_bw_gbps": 2039}';
          throw new SpecCalcError(
            field,
            `is not valid JSON (${e.message}); write an object such as ${example}`,
          );
        }
      }
    }
    config.gpus = parseScalar(v('#f-gpus'));
    // Optional blocks (data-parallel attention and expert parallelism; partial offload): the
    // fields given, none when all are blank.
    const block = (fields) => {
      const out = {};
      for (const [id, key] of fields) if (v(id).trim() !== '') out[key] = parseScalar(v(id));
      return Object.keys(out).length ? out : undefined;
    };
    const parallelism = block([
      ['#f-data-attention', 'data_attention'],
      ['#f-expert', 'expert'],
    ]);
    if (parallelism) config.parallelism = parallelism;
    const offload = block([
      ['#f-gpu-layers', 'gpu_layers'],
      ['#f-host-memory', 'host_memory_gbps'],
      ['#f-host-tflops', 'host_tflops'],
    ]);
    if (offload) config.offload = offload;

    const profile = v('#f-runtime');
    const measured = v('#f-measured').trim();
    if (this.custom.runtime) {
      const rt = { ...this.custom.runtime };
      if (profile !== CUSTOM) rt.profile = profile;
      if (measured === '') {
        // The field is the measurement: the step and the batch it was taken at go together.
        delete rt.measured_decode_step_s;
        delete rt.measured_decode_batch;
      } else rt.measured_decode_step_s = parseScalar(measured);
      config.runtime = rt;
    } else if (measured !== '') {
      config.runtime = { profile, measured_decode_step_s: parseScalar(measured) };
    } else {
      config.runtime = profile;
    }

    config.batch = parseScalar(v('#f-batch'));
    if (v('#f-temperature').trim() !== '') config.temperature = parseScalar(v('#f-temperature'));
    config.context = parseScalar(v('#f-context'));
    config.dtype = { weights: v('#f-dtype-weights'), kv: v('#f-dtype-kv') };

    const family = v('#f-family');
    config.method = { family };
    if (changedField !== 'method.family')
      Object.assign(config.method, this.readParams(this.methodParams, 'method'));
    // The shape is no config key: sent only to the core's carry, with the shape chosen.
    if (changedField !== 'method.shape') delete config.method.shape;

    const mode = v('#f-acc-mode');
    if (changedField === 'acceptance') {
      // τ starts at the τ the core just computed (same result, other parametrization); the
      // others start from what the user last had in that mode, or a typical value.
      const start =
        mode === 'tau' && typeof this.tauHint === 'number'
          ? this.tauHint
          : (this.lastAcceptance[mode] ?? this.forms.get(mode)?.start);
      config.acceptance = { [mode]: start };
    } else {
      config.acceptance = this.readParams(this.accParams, 'acceptance');
    }
    return config;
  }

  readParams(container, prefix) {
    const out = {};
    for (const node of container.querySelectorAll('[data-field]')) {
      const key = node.dataset.field.slice(prefix.length + 1);
      const kind = node.dataset.kind;
      if (kind === 'draft-json') {
        // Read only when "your own draft" is chosen; blank starts from draftTemplate().
        if (out[key] !== CUSTOM) continue;
        const text = node.value.trim();
        if (!text || node.hidden) out[key] = this.draftTemplate();
        else {
          try {
            out[key] = JSON.parse(text);
          } catch (e) {
            throw new SpecCalcError(
              `${prefix}.${key}`,
              `is not valid JSON (${e.message}); paste the draft's config.json or keys such as {"num_layers": 16, "hidden": 2048}`,
            );
          }
        }
      } else if (kind === 'boolean') out[key] = node.value === 'true';
      else if (node.tagName === 'SELECT') out[key] = node.value;
      else if (kind === 'json') out[key] = parseJson(node.value);
      else if (kind === 'list') out[key] = parseList(node.value);
      else if (kind === 'string')
        out[key] = /^\s*[[{]/.test(node.value) ? parseJson(node.value) : node.value;
      else out[key] = parseScalar(node.value);
    }
    return out;
  }

  // The chosen engine in one line, and a badge when no speculative measurement validates it
  // (the core's `engine` of the evaluated config).
  showEngine(engine) {
    $('#engine-text', this.form).textContent = engine.summary;
    this.showEngineFields(engine.supports);
    // The profile parameters the config overrides (the core's engine.calibrated), said under the
    // engine with a way back; the measured decode step has its own field.
    const calibrated = engine.calibrated || [];
    $('#engine-calibrated', this.form).hidden = calibrated.length === 0;
    $('#engine-calibrated-text', this.form).textContent = calibrated.length
      ? `Calibrated: ${calibrated.map((c) => `${c.parameter} ${Number(c.value.toPrecision(3))}`).join(', ')}.`
      : '';
    const badge = $('#engine-badge', this.form);
    badge.hidden = engine.validated;
    badge.title = engine.validated
      ? ''
      : 'No published speculative-decoding measurement on this engine checks these speedups';
    $('#engine-summary', this.form).dataset.validated = String(engine.validated);
    $('#engine-summary', this.form).title = engine.validated_by;
    // Method options follow what the engine can run (the core's engine.supports.families); the
    // family in use stays selectable so a link that names another still shows.
    // Families the engine runs but this target cannot (the core's reason) are greyed out too.
    const runs = new Set(engine.supports.families);
    const unavailable = engine.supports.unavailable || {};
    greyOut($('#f-family', this.form), (v) =>
      !runs.has(v) ? `not in ${engine.name}` : unavailable[v],
    );
    // Draft presets with another tokenizer than the target's, likewise (the core's reason).
    const draft = this.form.querySelector('select[data-field="method.draft"]');
    const noDraft = engine.supports.unavailable_drafts || {};
    if (draft) greyOut(draft, (v) => noDraft[v]);
    // And the runtimes the draft cannot run under here (a local engine, another vendor).
    const runsUnder = this.form.querySelector('select[data-field="method.draft_runtime"]');
    const noRuntime = engine.supports.unavailable_draft_runtimes || {};
    if (runsUnder) greyOut(runsUnder, (v) => noRuntime[v]);
  }

  clearErrors() {
    for (const node of this.form.querySelectorAll('.field-error:not(.form-error)')) node.remove();
    for (const node of this.form.querySelectorAll('[aria-invalid]')) {
      node.removeAttribute('aria-invalid');
      // Back to the field's own description (an acceptance form's definition), if it has one.
      if (node.dataset.describedby) node.setAttribute('aria-describedby', node.dataset.describedby);
      else node.removeAttribute('aria-describedby');
    }
    const top = $('#form-error', this.form);
    top.hidden = true;
    top.textContent = '';
  }

  // Put the core's message beside the input its field path names (or the nearest enclosing
  // one: "method.choices[2][0]" lands on method.choices). Returns whether a field was found.
  showError(error) {
    this.clearErrors();
    // A normalized key shown under the engine's own name lands on that field.
    const raw = error.field || '';
    const hit = Object.keys(this.fieldAlias).find((k) => raw === k || raw.startsWith(`${k}.`));
    const path = hit ? this.fieldAlias[hit] + raw.slice(hit.length) : raw;
    const inputs = [...this.form.querySelectorAll('[data-field]')];
    let best = null;
    for (const node of inputs) {
      const f = node.dataset.field;
      const covers = path === f || path.startsWith(`${f}.`) || path.startsWith(`${f}[`);
      const visible = !node.closest('[hidden]');
      if (covers && visible && (!best || f.length >= best.dataset.field.length)) best = node;
    }
    if (!best) {
      const top = $('#form-error', this.form);
      top.textContent = path ? `${path}: ${error.message}` : error.message;
      top.hidden = false;
      return false;
    }
    // Beside its own input the error is named by the label the user reads ("Batch", not
    // "batch"; the label's words before any parenthesis); an error deeper than the input (a key
    // inside a JSON editor, method.choices[2][0]) keeps the core's path, which is the user's own.
    // (A box without a label of its own, the draft's JSON, reads its field's: "Draft model".)
    const name = labelName(
      this.form.querySelector(`label[for="${best.id}"]`) ??
        best.closest('.field').querySelector('label'),
    );
    // One value of a list typed as "0.8, 0.7, ..." is named by its place in that list (the
    // walk: "acceptance.per_position[1]"); a JSON editor's deeper paths stay the core's.
    const item = name && /^\[(\d+)\]$/.exec(path.slice(best.dataset.field.length));
    const text =
      path === best.dataset.field && name
        ? `${name}: ${error.message}`
        : item && best.tagName === 'INPUT'
          ? `${name}, value ${Number(item[1]) + 1}: ${error.message}`
          : `${path}: ${error.message}`;
    const msgId = `err-${best.id}`;
    const msg = el('p', {
      class: 'field-error',
      id: msgId,
      role: 'alert',
      'data-testid': 'field-error',
      text,
    });
    msg.dataset.errorFor = best.dataset.field;
    best.closest('.field').append(msg);
    best.setAttribute('aria-invalid', 'true');
    best.dataset.describedby = best.getAttribute('aria-describedby') || '';
    best.setAttribute('aria-describedby', `${msgId} ${best.dataset.describedby}`.trim());
    return true;
  }
}
