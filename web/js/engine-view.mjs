// The method as an engine names it, for the form and the compare view alike: the core's `list
// runtimes` knobs say which normalized keys each engine knob stands for (and which key it
// shows); the core maps the knobs back. E.g. vLLM EAGLE: one num_speculative_tokens instead of
// depth/top_k/total_token; SGLang EAGLE: speculative_num_steps / _eagle_topk / _num_draft_tokens.
// engine: one entry of `list runtimes` (or undefined: the method as it is).
// Returns {method: the keys shown, the engine's knobs first; alias: "method.<normalized key>" ->
// "method.<knob>"; labels: knob -> "knob — what it sets"}.
export function engineView(method, engine) {
  const shown = { ...method };
  const alias = {};
  const labels = {};
  for (const knob of (engine && engine.knobs) || []) {
    const use = knob.families && knob.families[method.family];
    if (!use || !(use.from in method)) continue;
    const when = use.when || {};
    if (!Object.entries(when).every(([k, v]) => method[k] === v)) continue;
    const value = method[use.from];
    for (const key of use.replaces) {
      delete shown[key];
      alias[`method.${key}`] = `method.${knob.key}`;
    }
    shown[knob.key] = value;
    labels[knob.key] = `${knob.key} — ${knob.sets}`;
  }
  // Keep the family's other keys in their order, the engine's knobs first.
  const ordered = {};
  for (const k of Object.keys(shown)) if (k in labels) ordered[k] = shown[k];
  for (const k of Object.keys(shown)) if (!(k in labels)) ordered[k] = shown[k];
  return { method: ordered, alias, labels };
}

// The engine id a config names: a preset id, or a profile with overrides ({profile, ...}).
export const engineIdOf = (runtime) => (typeof runtime === 'string' ? runtime : runtime?.profile);
