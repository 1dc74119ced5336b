#!/usr/bin/env python3
"""The smallest cost of one kernel on this GPU, under CUDA-graph replay and launched eagerly,
and a repeat of key forward-pass points of time_forward_pass.py (run-to-run spread).

  graph: N tiny kernels captured in one graph; time per kernel = replay time / N (the GPU-side
         floor a fused or unfused decoder layer pays per kernel even with no host launches).
  eager: the same N ops launched from Python one by one (host launch cost per op).
Run on the device machine:  python3 scripts/gpu/time_kernel_floor.py OUT_DIR
Writes OUT_DIR/kernel_floor_timings.json and prints each number.
"""
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import time_forward_pass as tfp  # noqa: E402  (same shapes, same timing helper)

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
N = 2000
RES = {"meta": {"script": "scripts/gpu/time_kernel_floor.py", "kernels_per_graph": N,
                "device": torch.cuda.get_device_name(0), "torch": torch.__version__,
                "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
       "floor": [], "repeat": []}


def per_kernel_us(op, mode):
    """Median µs per op over 7 timed runs of N ops (graph replay or eager launches)."""
    def run():
        for _ in range(N):
            op()
    med, p10, p90, reps = tfp.time_point(run, mode, target_s=0.0, min_reps=7, max_reps=7)
    return med * 1000.0 / N, p10 * 1000.0 / N, p90 * 1000.0 / N


def main():
    os.makedirs(OUT, exist_ok=True)
    x = torch.randn(4096, device="cuda", dtype=torch.bfloat16)
    big = torch.randn(1, 4096, device="cuda", dtype=torch.bfloat16)
    w_small = torch.randn(256, 256, device="cuda", dtype=torch.bfloat16)
    a_small = torch.randn(1, 256, device="cuda", dtype=torch.bfloat16)
    w_row = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    ops = {
        "elementwise add_ on 4096 bf16": lambda: x.add_(1.0),
        "3 kernels: float(), pow(2), mean(-1) of 1x4096": lambda: big.float().pow(2).mean(-1),
        "gemm 1x256 @ 256x256 bf16": lambda: a_small @ w_small.t(),
        "gemv 1x4096 @ 4096x4096 bf16 (32 MiB, bandwidth-bound)": lambda: big @ w_row.t(),
    }
    for name, op in ops.items():
        for mode in ("graph", "eager"):
            med, p10, p90 = per_kernel_us(op, mode)
            RES["floor"].append(dict(op=name, mode=mode, us_per_op=round(med, 3),
                                     p10_us=round(p10, 3), p90_us=round(p90, 3)))
            print("%-55s %-5s %8.3f us/op" % (name, mode, med), flush=True)
    del w_row
    torch.cuda.empty_cache()
    masks = tfp.pick_mask_modes()
    m = tfp.Stack(tfp.SHAPES["llama-2-7b"], 16, 1024 + 64)
    pts = [(1, 1), (1, 2), (1, 8), (1, 64), (16, 1), (16, 4)]
    for rnd in range(2):
        for b, q in pts:
            xin = tfp.rand(b * q, 4096, std=1.0)
            med, p10, p90, reps = tfp.time_point(lambda: m.forward(xin, b, q, 1024, masks), "graph")
            RES["repeat"].append(dict(model="llama-2-7b", mode="graph", round=rnd, batch=b, q=q,
                                      context=1024, median_ms=round(med, 5),
                                      p10_ms=round(p10, 5), p90_ms=round(p90, 5), reps=reps))
            print("repeat %d graph b=%-2d q=%-3d %8.4f ms" % (rnd, b, q, med), flush=True)
        for b, q in ((1, 1), (16, 1)):
            xin = tfp.rand(b * q, 4096, std=1.0)
            med, p10, p90, reps = tfp.time_point(lambda: m.forward(xin, b, q, 1024, masks), "eager",
                                                 target_s=0.3)
            RES["repeat"].append(dict(model="llama-2-7b", mode="eager", round=rnd, batch=b, q=q,
                                      context=1024, median_ms=round(med, 5),
                                      p10_ms=round(p10, 5), p90_ms=round(p90, 5), reps=reps))
            print("repeat %d eager b=%-2d q=%-3d %8.4f ms (p10 %.2f p90 %.2f)" % (
                rnd, b, q, med, p10, p90), flush=True)
    with open(os.path.join(OUT, "kernel_floor_timings.json"), "w") as f:
        json.dump(RES, f, indent=1)


if __name__ == "__main__":
    main()
