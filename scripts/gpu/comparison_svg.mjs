// Draws the GPU calibration as one SVG (no dependencies): left, the measured full forward pass
// of the Llama-2-7B shapes under CUDA-graph replay against tokens per sequence, a line per batch;
// right, the GEMMs + LM head alone against rows per pass (tokens x batch), measured and the
// core's gemm + lm_head time under each profile. Points come from compare_profiles.mjs.
const W = 980;
const H = 430;
const PANEL = { w: 420, h: 330, top: 50 };
const COLORS = ['#1b6ca8', '#d1495b', '#2e933c', '#8e44ad', '#e07b00', '#00798c', '#555555'];

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');

function logScale(lo, hi, a, b) {
  const l0 = Math.log(lo);
  const l1 = Math.log(hi);
  return (v) => a + ((Math.log(v) - l0) / (l1 - l0)) * (b - a);
}

function panel(x0, title, xLabel, xTicks, yTicks, series) {
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const X = logScale(Math.min(...xs), Math.max(...xs), x0 + 50, x0 + PANEL.w);
  const yLo = Math.min(...ys) * 0.9;
  const yHi = Math.max(...ys) * 1.1;
  const Y = logScale(yLo, yHi, PANEL.top + PANEL.h, PANEL.top);
  const parts = [
    `<text x="${x0 + 50}" y="30" font-size="14" font-weight="bold">${esc(title)}</text>`,
  ];
  parts.push(
    `<rect x="${x0 + 50}" y="${PANEL.top}" width="${PANEL.w - 50}" height="${PANEL.h}" fill="none" stroke="#999"/>`,
  );
  for (const t of xTicks) {
    parts.push(
      `<text x="${X(t).toFixed(1)}" y="${PANEL.top + PANEL.h + 16}" font-size="11" text-anchor="middle">${t}</text>`,
    );
  }
  for (const t of yTicks.filter((v) => v >= yLo && v <= yHi)) {
    const y = Y(t).toFixed(1);
    parts.push(`<line x1="${x0 + 50}" x2="${x0 + PANEL.w}" y1="${y}" y2="${y}" stroke="#eee"/>`);
    parts.push(`<text x="${x0 + 45}" y="${y}" font-size="11" text-anchor="end" dy="4">${t}</text>`);
  }
  parts.push(
    `<text x="${x0 + 50 + (PANEL.w - 50) / 2}" y="${PANEL.top + PANEL.h + 34}" font-size="12" text-anchor="middle">${esc(xLabel)}</text>`,
  );
  parts.push(
    `<text transform="translate(${x0 + 12},${PANEL.top + PANEL.h / 2}) rotate(-90)" font-size="12" text-anchor="middle">ms per pass (log)</text>`,
  );
  series.forEach((s, i) => {
    const pts = s.points.map(([x, y]) => `${X(x).toFixed(1)},${Y(y).toFixed(1)}`);
    parts.push(
      `<polyline class="series" data-name="${esc(s.name)}" points="${pts.join(' ')}" fill="none" stroke="${s.color}" stroke-width="1.6"${s.dashed ? ' stroke-dasharray="5,3"' : ''}/>`,
    );
    if (!s.dashed) {
      for (const p of pts) {
        const [cx, cy] = p.split(',');
        parts.push(`<circle cx="${cx}" cy="${cy}" r="2.2" fill="${s.color}"/>`);
      }
    }
    const ly = PANEL.top + 14 + i * 15;
    parts.push(
      `<line x1="${x0 + 60}" x2="${x0 + 80}" y1="${ly - 4}" y2="${ly - 4}" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="5,3"' : ''}/>`,
    );
    parts.push(`<text x="${x0 + 85}" y="${ly}" font-size="11">${esc(s.name)}</text>`);
  });
  return parts.join('\n');
}

export function drawComparison(points, meta) {
  const measured = new Map();
  for (const p of points) {
    measured.set(`${p.model}|${p.mode}|${p.part}|${p.batch}|${p.q}|${p.context}`, p);
  }
  const full = [...measured.values()].filter(
    (p) => p.model === 'llama-2-7b' && p.mode === 'graph' && p.part === 'full',
  );
  const batches = [...new Set(full.map((p) => p.batch))].sort((a, b) => a - b);
  const left = batches.map((b, i) => ({
    name: `batch ${b}`,
    color: COLORS[i % COLORS.length],
    points: full
      .filter((p) => p.batch === b)
      .sort((a, c) => a.q - c.q)
      .map((p) => [p.q, p.median_ms]),
  }));
  const mm = points.filter((p) => p.model === 'llama-2-7b' && p.part === 'matmuls');
  const rows = (p) => p.batch * p.q;
  const line = (list, key) => {
    const byRows = new Map();
    for (const p of list) if (p[key] != null) byRows.set(rows(p), p[key]);
    return [...byRows.entries()].sort((a, b) => a[0] - b[0]);
  };
  const right = [
    {
      name: 'measured (b = 1, q = 1..512; q = 1, b = 2..64)',
      color: '#222',
      points: line(
        mm.filter((p) => p.profile === 'vllm' || p.profile === 'compiled'),
        'median_ms',
      ),
    },
    {
      name: 'core, vllm profile (chains: q <= 65)',
      color: COLORS[0],
      dashed: true,
      points: line(
        mm.filter((p) => p.profile === 'vllm'),
        'predicted_ms',
      ),
    },
    {
      name: 'core, compiled profile',
      color: COLORS[1],
      dashed: true,
      points: line(
        mm.filter((p) => p.profile === 'compiled'),
        'predicted_ms',
      ),
    },
  ];
  const ticks = [1, 4, 16, 64, 256, 512];
  const yTicks = [0.2, 0.5, 1, 2, 4, 6, 10, 20, 50, 100, 200, 500, 1000];
  const note = `${meta.device}, torch ${meta.torch}, bf16, context 1024; copy ${meta.copy_read_plus_write_GBps} GB/s, bf16 GEMM ${meta.matmul_8192_bf16_TFLOPs} TFLOP/s (scripts/gpu/time_forward_pass.py, ${meta.started_utc})`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif">
<rect width="${W}" height="${H}" fill="#fff"/>
${panel(0, 'Llama-2-7B forward pass, CUDA graph replay', 'tokens per sequence in the pass (q)', [1, 2, 4, 8, 16, 32, 64, 128, 256, 512], yTicks, left)}
${panel(500, 'GEMMs + LM head only: measured vs the core', 'rows per pass (batch x q)', ticks, yTicks, right)}
<text x="50" y="${H - 8}" font-size="10" fill="#555">${esc(note)}</text>
</svg>
`;
}
