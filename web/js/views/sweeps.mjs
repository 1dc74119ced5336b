// Sweeps come from the core's "sweep" command. Older core builds without it fall back to one
// "eval" per point (same numbers, just more calls); either way JavaScript computes nothing.
import { callJson, hasCommand } from '../api.mjs';

export async function sweep(config, axis, values) {
  if (await hasCommand('sweep')) {
    const out = await callJson('sweep', { config, axis, values });
    // Extra fields the core may add (e.g. break_even_batch) ride along on the array.
    return Object.assign(out.points, { meta: out });
  }
  const points = [];
  for (const value of values) {
    const c = structuredClone(config);
    if (axis === 'batch') c.batch = value;
    else if (axis === 'family') c.method = { family: value };
    else c.method = { ...c.method, [axis]: value };
    try {
      points.push({ value, result: await callJson('eval', c) });
    } catch (e) {
      points.push({ value, error: { field: e.field, message: e.message } });
    }
    // Let the page paint (and the progress indicator show) between points.
    await new Promise((r) => setTimeout(r, 0));
  }
  return points;
}
