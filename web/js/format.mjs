// Display formats. The page shows rounded values; the full-precision number the core produced
// is kept in each output's data-value attribute (String(number), which round-trips exactly).
//   speedup  2 decimals and "×"        (2.41×)
//   tau      2 decimals                (3.20)
//   tokens/s 1 decimal below 1000, else grouped integer
//   time, bytes, FLOPs: 3 significant digits with an SI prefix
//   memory in GB: 3 significant digits (65.7 GB)

export function speedup(x) {
  return `${x.toFixed(2)}×`;
}

// A range of speedups with one unit sign: "1.52–2.10×".
export function speedupRange(lo, hi) {
  return `${lo.toFixed(2)}–${speedup(hi)}`;
}

// A signed percentage to the nearest whole one: "+4 %", "-8 %", "0 %" (never "-0 %").
export function signedPercent(x) {
  const r = Math.round(x);
  return r === 0 ? '0 %' : `${r > 0 ? '+' : ''}${r} %`;
}

export function tau(x) {
  return x.toFixed(2);
}

export function rate(x) {
  return x < 1000 ? x.toFixed(1) : Math.round(x).toLocaleString('en-US');
}

const PREFIXES = [
  [1e15, 'P'],
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
  [1, ''],
  [1e-3, 'm'],
  [1e-6, 'µ'],
  [1e-9, 'n'],
];

export function si(x, unit) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '';
  if (x === 0) return `0 ${unit}`;
  const a = Math.abs(x);
  for (const [scale, prefix] of PREFIXES) {
    if (a >= scale) return `${sig3(x / scale)} ${prefix}${unit}`;
  }
  return `${x.toPrecision(3)} ${unit}`;
}

function sig3(v) {
  return Number(v.toPrecision(3)).toString();
}

export function seconds(x) {
  return si(x, 's');
}

export function bytes(x) {
  return si(x, 'B');
}

export function flops(x) {
  return si(x, 'FLOP');
}

// Memory the core reports in GB (1e9 bytes): 3 significant digits ("65.7 GB", not
// 65.662895616); below 1 GB in MB or kB ("13.8 MB", not 0.0138 GB).
export function gb(x) {
  return x >= 1 || x === 0 ? `${sig3(x)} GB` : si(x * 1e9, 'B');
}

export function intensity(x) {
  return `${sig3(x)} FLOP/B`;
}

export function plain(x) {
  if (x === null || x === undefined) return '';
  return typeof x === 'number' ? sig3(x) : String(x);
}
