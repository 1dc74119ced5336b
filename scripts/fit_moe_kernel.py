#!/usr/bin/env python3
"""Fit the fused-MoE call's cost on the engines' own kernel benchmarks (core/data/moe-kernel-times.json).

Model (one MoE layer's routed experts, one GPU, M tokens, in a CUDA graph):
    call_s = fixed_s + slices x hidden x moe_slice_k_s + expert_bytes / (mem_bw x moe_bw_efficiency)
where slices = experts x (1 - (1 - experts_per_token / experts)^M) is the expected number of
distinct experts the benchmark's random gating touches (each a 1 / tp slice on this GPU) and
expert_bytes = slices x 3 x hidden x intermediate_per_gpu x bytes_per_weight. The middle term is
the reduction each touched slice's few output tiles run over K = hidden in series: it grows with
the slices touched and with the hidden size, not with the bytes (a slice of N = 256 columns
costs nearly what one of N = 1024 costs).

Weighted least squares on the relative error, every curve (one source and shape) weighing the
same whatever its number of points, over M <= 128 tokens (decode and verify calls; the
benchmarks' larger M turn compute-bound). The profiles' moe_call_s is fixed_s less what
arch_kernel_s already charges for the call's three small extra kernels (top-k, align, sum:
kMoeExtraKernels' others, core/include/speccalc/cost.hpp). Prints the fit, each curve's error
in the fit and with that curve left out, and the curves kept out of the fit (`checks`). Usage: python3 scripts/fit_moe_kernel.py
"""
import json
import pathlib

ARCH_KERNEL_S = 2.5e-6  # core/data/runtimes.json, vllm and sglang
SMALL_EXTRA_KERNELS = 3  # top-k, moe_align_block_size, the top-k sum
MAX_TOKENS = 128

root = pathlib.Path(__file__).resolve().parent.parent
table = json.loads((root / "core/data/moe-kernel-times.json").read_text())
curves = table["curves"]
checks = table.get("checks", [])  # kept out of the fit: held-out checks


def terms(c, m):
    """The fit's three regressors for curve c at m tokens: 1, slices x hidden, stream seconds."""
    e, k = c["experts"], c["experts_per_token"]
    slices = e * (1.0 - (1.0 - k / e) ** m)
    stream_s = slices * 3 * c["hidden"] * c["intermediate_per_gpu"] * c["bytes_per_weight"] / (
        c["mem_bw_gbps"] * 1e9)
    return [1.0, slices * c["hidden"], stream_s]


def rows(cs):
    out = []
    for c in cs:
        pts = [(m, us * 1e-6) for m, us in c["points_us"] if m <= MAX_TOKENS]
        w_curve = 1.0 / len(pts) ** 0.5  # each curve's squared errors sum to one curve's weight
        out += [(c["id"], terms(c, m), t, w_curve / t) for m, t in pts]
    return out


def solve(rs):
    n = 3
    a = [[sum(w * w * x[i] * x[j] for _, x, _, w in rs) for j in range(n)] for i in range(n)]
    b = [sum(w * w * x[i] * t for _, x, t, w in rs) for i in range(n)]
    for i in range(n):  # Gaussian elimination on the normal equations (3 x 3, well scaled)
        for j in range(i + 1, n):
            f = a[j][i] / a[i][i]
            a[j] = [aj - f * ai for aj, ai in zip(a[j], a[i])]
            b[j] -= f * b[i]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (b[i] - sum(a[i][k] * x[k] for k in range(i + 1, n))) / a[i][i]
    return x  # fixed_s, moe_slice_k_s, 1 / moe_bw_efficiency


def predict(x, terms_):
    return sum(xi * ti for xi, ti in zip(x, terms_))


all_rows = rows(curves)
fit = solve(all_rows)
print(f"fixed per call {fit[0] * 1e6:.2f} us  moe_call_s {(fit[0] - SMALL_EXTRA_KERNELS * ARCH_KERNEL_S) * 1e6:.2f} us  "
      f"moe_slice_k_s {fit[1]:.4g} s ({fit[1] * 4096 * 1e6:.3f} us per slice at hidden 4096)  "
      f"moe_bw_efficiency {1.0 / fit[2]:.4f}")
fit_errs, out_errs = [], []
for c in curves:
    mine = [r for r in all_rows if r[0] == c["id"]]
    held = solve([r for r in all_rows if r[0] != c["id"]]) if len(curves) > 3 else fit
    e_in = [abs(predict(fit, x) / t - 1) for _, x, t, _ in mine]
    e_out = [abs(predict(held, x) / t - 1) for _, x, t, _ in mine]
    fit_errs.append(sum(e_in) / len(e_in))
    out_errs.append(sum(e_out) / len(e_out))
    print(f"  {c['id']:50s} {len(mine):2d} points  fit {100 * fit_errs[-1]:5.1f} %  "
          f"left out {100 * out_errs[-1]:5.1f} %  worst {100 * max(e_in):5.1f} %")
print(f"mean over curves: fit {100 * sum(fit_errs) / len(fit_errs):.1f} %, "
      f"left out {100 * sum(out_errs) / len(out_errs):.1f} %")
for c in checks:
    errs = [abs(predict(fit, x) / t - 1) for _, x, t, _ in rows([c])]
    print(f"  check {c['id']:44s} {len(errs):2d} points  {100 * sum(errs) / len(errs):5.1f} %  "
          f"(not fitted: {c['why_not_fitted']})")
