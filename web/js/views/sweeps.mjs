// Sweeps come from the core's "sweep" command ({"config", "axis": <dotted config path>,
// "values"} -> {"points": [{"values": [v], "speedup", "tau", "fits_in_memory", ...} |
// {"values", "error"}], "best", "break_even_batch"?}): the summary of each point. Runs in the
// core worker. Returns [{value, result} | {value, error}] with the sweep's other output fields
// (best, break_even_batch) on the array's `meta`. JavaScript computes nothing here.
import { heavyJson } from '../worker/client.mjs';

// `slot` lets a newer sweep of the same chart replace a waiting one.
export async function sweep(config, path, values, slot = `sweep:${path}`) {
  const out = await heavyJson('sweep', { config, axis: path, values }, { slot });
  const points = out.points.map((p) =>
    p.error ? { value: p.values[0], error: p.error } : { value: p.values[0], result: p },
  );
  return Object.assign(points, { meta: out });
}
