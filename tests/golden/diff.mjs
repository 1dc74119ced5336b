// A short unified line diff for golden failures: common head and tail trimmed, the middle
// aligned by longest common subsequence when it is small enough, at most `maxLines` lines shown.
export function lineDiff(expected, actual, { context = 3, maxLines = 40 } = {}) {
  const a = expected.split('\n');
  const b = actual.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const ops = align(midA, midB);

  // ops: [' ' | '-' | '+', line]; show changed lines with `context` lines around them.
  const all = [
    ...a.slice(Math.max(0, head - context), head).map((l) => [' ', l]),
    ...ops,
    ...a.slice(a.length - tail, a.length - tail + context).map((l) => [' ', l]),
  ];
  const keep = all.map(() => false);
  all.forEach(([op], i) => {
    if (op !== ' ')
      for (let j = i - context; j <= i + context; j++) if (j >= 0 && j < all.length) keep[j] = true;
  });
  const lines = [
    `--- expected (${a.length} lines) +++ got (${b.length} lines), first difference at line ${head + 1}`,
  ];
  let skipped = false;
  for (let i = 0; i < all.length; i++) {
    if (!keep[i]) {
      if (!skipped) lines.push('  ...');
      skipped = true;
      continue;
    }
    skipped = false;
    lines.push(`${all[i][0]} ${all[i][1]}`);
  }
  if (lines.length > maxLines) {
    const more = lines.length - maxLines;
    return [...lines.slice(0, maxLines), `  ... ${more} more diff lines`].join('\n');
  }
  return lines.join('\n');
}

// Longest-common-subsequence alignment; past 4M cells it lists removals then additions.
function align(a, b) {
  if (a.length * b.length > 4e6) return [...a.map((l) => ['-', l]), ...b.map((l) => ['+', l])];
  const n = a.length;
  const m = b.length;
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push([' ', a[i++]]);
      j++;
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      ops.push(['-', a[i++]]);
    } else {
      ops.push(['+', b[j++]]);
    }
  }
  return ops;
}
