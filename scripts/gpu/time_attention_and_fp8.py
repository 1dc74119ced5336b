#!/usr/bin/env python3
"""Two pieces of a forward pass timed alone on one GPU, for the cost model's attention and fp8 terms.

1. Attention of q new tokens per sequence over (context + q) cached keys, one layer, as a verify
   pass runs it: PyTorch SDPA (flash where it applies) with a lower-right causal mask for q > 1,
   MHA (32 query / 32 KV heads) and GQA (32 / 8), head dim 128, bf16; batch 1, 16, 64;
   q 1..64; context 1k, 8k, 32k. Bytes of KV read per call: batch x (context + q) x kv_heads x
   128 x 2 (K and V) x 2 bytes.
2. fp8 (e4m3, per-tensor scales) weight GEMMs of the Llama-2-7B layer shapes, 32 layers of
   distinct weights (6.5 GB, far past L2) via torch._scaled_mm, rows 16..512 (its minimum is 16:
   fewer rows are padded to 16, as engines do), bf16 output; with and without fast accumulation.

Each point: CUDA graph captured once, replayed; median CUDA-event time per replay (same helper as
time_forward_pass.py).  Run:  python3 scripts/gpu/time_attention_and_fp8.py OUT_DIR
Writes OUT_DIR/attention_fp8_timings.json.
"""
import json
import os
import sys
import time
import traceback

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import time_forward_pass as tfp  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
RES = {"meta": {"script": "scripts/gpu/time_attention_and_fp8.py",
                "device": torch.cuda.get_device_name(0), "torch": torch.__version__,
                "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
       "attention": [], "fp8_gemm": []}
DT = torch.bfloat16


def save():
    with open(os.path.join(OUT, "attention_fp8_timings.json"), "w") as f:
        json.dump(RES, f, indent=1)


def attention_points():
    masks = tfp.pick_mask_modes()
    RES["meta"]["mask"] = {"mha": masks[False], "gqa": masks[True]}
    for kvh in (32, 8):
        for b, ctxs in ((1, (1024, 8192, 32768)), (16, (1024, 8192, 32768)), (64, (1024, 8192))):
            for ctx in ctxs:
                qmax = 64
                k = torch.empty(b, kvh, ctx + qmax, 128, device="cuda", dtype=DT).normal_()
                v = torch.empty_like(k).normal_()
                for q in (1, 2, 4, 8, 16, 32, 64):
                    qq = torch.empty(b, 32, q, 128, device="cuda", dtype=DT).normal_()
                    kk, vv = k[:, :, :ctx + q], v[:, :, :ctx + q]
                    timed = tfp.time_or_record(
                        lambda: tfp.attention(qq, kk, vv, q, ctx + q, masks), RES["attention"],
                        kv_heads=kvh, batch=b, q=q, context=ctx)
                    if timed is None:
                        continue
                    med, p10, p90, reps = timed
                    kv_bytes = b * (ctx + q) * kvh * 128 * 2 * 2
                    RES["attention"].append(dict(
                        heads=32, kv_heads=kvh, head_dim=128, batch=b, q=q, context=ctx,
                        kv_bytes=kv_bytes, median_ms=round(med, 5), p10_ms=round(p10, 5),
                        p90_ms=round(p90, 5), reps=reps))
                    print("attn kv=%-2d b=%-2d ctx=%-5d q=%-2d %8.4f ms  %6.0f GB/s of KV" % (
                        kvh, b, ctx, q, med, kv_bytes / (med / 1e3) / 1e9), flush=True)
                del k, v
                torch.cuda.empty_cache()
    save()


def fp8_points():
    h, f, L = 4096, 11008, 32
    shapes = [(3 * h, h), (h, h), (2 * f, h), (h, f)]  # [out, in] per Llama-2-7B layer
    ws = [[torch.empty(n, k, device="cuda", dtype=DT).normal_(0, 0.02).to(torch.float8_e4m3fn)
           for n, k in shapes] for _ in range(L)]
    one = torch.tensor(1.0, device="cuda", dtype=torch.float32)
    weight_bytes = L * sum(n * k for n, k in shapes)
    # Correctness: one product against the bf16 product of the same fp8 values.
    a = torch.empty(16, h, device="cuda", dtype=DT).normal_().to(torch.float8_e4m3fn)
    w = ws[0][0]
    out = torch._scaled_mm(a, w.t(), scale_a=one, scale_b=one, out_dtype=DT).float()
    ref = a.float() @ w.float().t()
    rel = ((out - ref).norm() / ref.norm()).item()
    RES["meta"]["fp8_check_rel_error"] = rel
    print("fp8 _scaled_mm vs fp32 product of the same values: rel err %.2e" % rel, flush=True)
    for fast in (False, True):
        for rows in (16, 32, 64, 128, 256, 512):
            xs = {k: torch.empty(rows, k, device="cuda", dtype=DT).normal_().to(torch.float8_e4m3fn)
                  for k in (h, f)}

            def run():
                for layer in ws:
                    for wt in layer:
                        torch._scaled_mm(xs[wt.shape[1]], wt.t(), scale_a=one, scale_b=one,
                                         out_dtype=DT, use_fast_accum=fast)
            timed = tfp.time_or_record(run, RES["fp8_gemm"], rows=rows, fast_accum=fast)
            if timed is None:
                continue
            med, p10, p90, reps = timed
            flops = 2.0 * rows * weight_bytes
            RES["fp8_gemm"].append(dict(
                rows=rows, fast_accum=fast, layers=L, weight_bytes=weight_bytes, flops=flops,
                median_ms=round(med, 5), p10_ms=round(p10, 5), p90_ms=round(p90, 5), reps=reps))
            print("fp8 gemm rows=%-3d fast=%d %8.4f ms  %6.0f GB/s  %6.0f TFLOP/s" % (
                rows, fast, med, weight_bytes / (med / 1e3) / 1e9, flops / (med / 1e3) / 1e12),
                flush=True)
    save()


def main():
    os.makedirs(OUT, exist_ok=True)
    for part in (attention_points, fp8_points):
        try:
            part()
        except Exception:
            traceback.print_exc()
        save()


if __name__ == "__main__":
    main()
