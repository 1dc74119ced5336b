#!/usr/bin/env python3
"""Fit the fused-MoE call's cost on the engines' own kernel benchmarks (core/data/moe-kernel-times.json).

Model (one MoE layer's routed experts, one GPU, batch 1, in a CUDA graph):
    call_s = fixed_s + expert_bytes / (mem_bw x moe_bw_efficiency)
a least-squares line of call_s over expert_bytes / mem_bw: its slope is 1 / moe_bw_efficiency,
its intercept fixed_s. The profiles' moe_call_s is fixed_s less what arch_kernel_s already
charges for the call's three small extra kernels (top-k, align, sum: kMoeExtraKernels' others,
core/include/speccalc/cost.hpp). Prints the fit, each call's residual and the leave-one-out
error. Usage: python3 scripts/fit_moe_kernel.py
"""
import json
import pathlib

ARCH_KERNEL_S = 2.5e-6  # core/data/runtimes.json, vllm and sglang
SMALL_EXTRA_KERNELS = 3  # top-k, moe_align_block_size, the top-k sum

root = pathlib.Path(__file__).resolve().parent.parent
calls = json.loads((root / "core/data/moe-kernel-times.json").read_text())["calls"]


def stream_s(c):  # expert bytes at 100 % of peak bandwidth
    b = c["experts_per_token"] * 3 * c["hidden"] * c["intermediate_per_gpu"] * c["bytes_per_weight"]
    return b / (c["mem_bw_gbps"] * 1e9)


def fit(rows):
    xs = [stream_s(c) for c in rows]
    ts = [c["call_us"] * 1e-6 for c in rows]
    mx, mt = sum(xs) / len(xs), sum(ts) / len(ts)
    sxx = sum((x - mx) ** 2 for x in xs)
    sxt = sum((x - mx) * (t - mt) for x, t in zip(xs, ts))
    slope = sxt / sxx
    return 1.0 / slope, mt - slope * mx  # moe_bw_efficiency, fixed_s


eff, fixed = fit(calls)
print(f"moe_bw_efficiency {eff:.4f}  fixed per call {fixed * 1e6:.2f} us  "
      f"moe_call_s {(fixed - SMALL_EXTRA_KERNELS * ARCH_KERNEL_S) * 1e6:.2f} us")
for i, c in enumerate(calls):
    pred = fixed + stream_s(c) / eff
    e2, f2 = fit(calls[:i] + calls[i + 1:])
    loo = f2 + stream_s(c) / e2
    print(f"  {c['id']:34s} measured {c['call_us']:7.2f} us  fit {pred * 1e6:7.2f} "
          f"({100 * (pred * 1e6 / c['call_us'] - 1):+5.1f} %)  left out {loo * 1e6:7.2f} "
          f"({100 * (loo * 1e6 / c['call_us'] - 1):+5.1f} %)")
