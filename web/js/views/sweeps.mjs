// Sweeps come from the core's "sweep" command ({"config", "axis": <dotted config path>,
// "values"} -> {"points": [{"values": [v], "speedup", "tau", ...} | {"values", "error"}]}).
// A core build without it falls back to one "eval" per point (same numbers, more calls);
// either way JavaScript computes nothing. Returns [{value, result} | {value, error}] with the
// sweep's other output fields (e.g. break_even_batch) on the array's `meta`.
import { callJson, hasCommand } from '../api.mjs';
import { heavyJson } from '../worker/client.mjs';

// Sets a dotted path; "method.family" starts the method afresh (the core fills its defaults).
function withValue(config, path, value) {
  const c = structuredClone(config);
  if (path === 'method.family') {
    c.method = { family: value };
    return c;
  }
  const keys = path.split('.');
  let node = c;
  for (const k of keys.slice(0, -1)) {
    if (typeof node[k] !== 'object' || node[k] === null) node[k] = {};
    node = node[k];
  }
  node[keys[keys.length - 1]] = value;
  return c;
}

// Runs in the core worker; `slot` lets a newer sweep of the same chart replace a waiting one.
export async function sweep(config, path, values, slot = `sweep:${path}`) {
  if (await hasCommand('sweep')) {
    const out = await heavyJson('sweep', { config, axis: path, values }, { slot });
    const points = out.points.map((p) => (p.error
      ? { value: p.values[0], error: p.error }
      : { value: p.values[0], result: p.result ?? p }));
    // Use the sweep only if its points carry results (guards against a core build whose sweep
    // output lacks them); otherwise evaluate point by point below.
    if (points.every((p) => p.error || typeof p.result.speedup === 'number')) return Object.assign(points, { meta: out });
  }
  const points = [];
  for (const value of values) {
    try {
      points.push({ value, result: await callJson('eval', withValue(config, path, value)) });
    } catch (e) {
      points.push({ value, error: { field: e.field, message: e.message } });
    }
    // Let the page paint (and the progress indicator show) between points.
    await new Promise((r) => setTimeout(r, 0));
  }
  return points;
}
