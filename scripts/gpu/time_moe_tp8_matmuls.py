#!/usr/bin/env python3
"""DeepSeek-V3's matmuls as one GPU of a tensor-parallel-8 group runs them, timed by rows.

Why: SGLang's plain DeepSeek-V3 decode on 8 GPUs is published at 33-42 ms a step at batch 1-32
(sgl-project/sglang PR #2643, engine-measurements.json, check only) where the cost model says
5-20 ms: at TP 8 every weight matrix is a thin slice (an expert's 7168 x 2048 gate/up/down
becomes 7168 x 256 per GPU) and a step runs ~60 layers of them. Whether such slices reach the
bandwidth a 7B model's matrices do, or stop at a per-kernel floor, decides the fixed part of the
step and with it the shape of the MTP speedup against batch (issue 20). This script measures
that, nothing engine-specific: bf16 weights, PyTorch's own kernels.

Per layer, per GPU (DeepSeek-V3 config.json: hidden 7168, q_lora_rank 1536, kv_lora_rank 512,
qk_rope_head_dim 64, qk_nope_head_dim 128, v_head_dim 128, 128 heads -> 16 per GPU,
moe_intermediate_size 2048 -> 256 per GPU, 256 routed experts, top 8, 1 shared expert):
  fused q_a + kv_a   7168 -> 1536 + 576   (replicated in SGLang and vLLM)
  q_b                1536 -> 16 x 192
  o_proj             16 x 128 -> 7168
  router             7168 -> 256
  shared expert      7168 -> 2 x 256, 256 -> 7168
  routed experts     E touched experts, each 7168 -> 2 x 256 and 256 -> 7168, E = the expected
                     distinct experts of `rows` tokens under uniform routing (the core's rule
                     without locality), looped one matmul per expert (an upper bound on a fused
                     MoE kernel: it shows the per-kernel floor directly) and, where this torch has
                     torch._grouped_mm, as one grouped kernel.
Layers: 16 distinct copies (a step's weights far exceed L2); the time per layer is the total / 16.
Rows (tokens in the pass): 1, 2, 4, 8, 16, 32, 64, 128, 256. Every point: a CUDA graph captured
once and replayed, median of CUDA-event times (time_forward_pass.time_point).

Run:  python3 scripts/gpu/time_moe_tp8_matmuls.py OUT_DIR     (about 1-2 minutes on an H200)
Writes OUT_DIR/moe_tp8_matmul_timings.json.
"""
import json
import os
import sys
import time
import traceback

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import time_forward_pass as tfp  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
DT = torch.bfloat16
H, QA, KVA, QB, O_IN, EXPERTS, TOPK, INTER = 7168, 1536, 576, 16 * 192, 16 * 128, 256, 8, 256
LAYERS = 16
ROWS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
RES = {"meta": {"script": "scripts/gpu/time_moe_tp8_matmuls.py",
                "device": torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none",
                "torch": torch.__version__, "layers": LAYERS, "dtype": "bfloat16",
                "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
       "points": []}


def save():
    with open(os.path.join(OUT, "moe_tp8_matmul_timings.json"), "w") as f:
        json.dump(RES, f, indent=1)


def touched_experts(rows):
    """Expected distinct experts of `rows` tokens, each picking TOPK of EXPERTS uniformly."""
    return round(EXPERTS * (1.0 - (1.0 - TOPK / EXPERTS) ** rows))


def w(n_out, n_in):
    return torch.empty(n_out, n_in, device="cuda", dtype=DT).normal_(0, 0.02)


def dense_weights():
    # [out, in] per layer: the attention side, the router and the shared expert.
    return [dict(qkv_a=w(QA + KVA, H), q_b=w(QB, QA), o=w(H, O_IN), router=w(EXPERTS, H),
                 sh_up=w(2 * INTER, H), sh_down=w(H, INTER)) for _ in range(LAYERS)]


def expert_weights():
    # All 256 experts of each layer, stacked: [E, 2I, H] and [E, H, I] (1.4 GB per layer in bf16).
    return [(torch.empty(EXPERTS, 2 * INTER, H, device="cuda", dtype=DT).normal_(0, 0.02),
             torch.empty(EXPERTS, H, INTER, device="cuda", dtype=DT).normal_(0, 0.02))
            for _ in range(LAYERS)]


def part_runs(rows, dense, experts, e_touched):
    x = torch.empty(rows, H, device="cuda", dtype=DT).normal_()
    xa = torch.empty(rows, QA, device="cuda", dtype=DT).normal_()
    xo = torch.empty(rows, O_IN, device="cuda", dtype=DT).normal_()
    xi = torch.empty(rows, INTER, device="cuda", dtype=DT).normal_()
    ids = torch.randperm(EXPERTS, device="cuda")[:e_touched]
    ids_list = ids.tolist()  # read before capture: a device-to-host copy cannot be captured
    # Tokens per touched expert: rows x TOPK assignments spread over the touched experts.
    per = max(1, (rows * TOPK) // e_touched)

    def attention_side():
        for d in dense:
            x @ d["qkv_a"].t()
            xa @ d["q_b"].t()
            xo @ d["o"].t()

    def router_and_shared():
        for d in dense:
            x @ d["router"].t()
            x @ d["sh_up"].t()
            xi @ d["sh_down"].t()

    xe = torch.empty(per, H, device="cuda", dtype=DT).normal_()
    xei = torch.empty(per, INTER, device="cuda", dtype=DT).normal_()

    def experts_looped():
        for up, down in experts:
            for e in ids_list:
                xe @ up[e].t()
                xei @ down[e].t()

    runs = {"attention_side": attention_side, "router_and_shared": router_and_shared,
            "experts_looped": experts_looped}
    if hasattr(torch, "_grouped_mm"):
        offs = torch.arange(per, per * e_touched + 1, per, device="cuda", dtype=torch.int32)
        xg = torch.empty(per * e_touched, H, device="cuda", dtype=DT).normal_()
        xgi = torch.empty(per * e_touched, INTER, device="cuda", dtype=DT).normal_()
        sel = [(up[ids].transpose(1, 2).contiguous(), down[ids].transpose(1, 2).contiguous())
               for up, down in experts]  # [E, H, 2I] and [E, I, H]

        def experts_grouped():
            for up_t, down_t in sel:
                torch._grouped_mm(xg, up_t, offs=offs)
                torch._grouped_mm(xgi, down_t, offs=offs)
        runs["experts_grouped"] = experts_grouped
    bytes_per_layer = {
        "attention_side": 2 * ((QA + KVA) * H + QB * QA + H * O_IN),
        "router_and_shared": 2 * (EXPERTS * H + 2 * INTER * H + H * INTER),
        "experts_looped": 2 * e_touched * 3 * INTER * H,
        "experts_grouped": 2 * e_touched * 3 * INTER * H,
    }
    kernels_per_layer = {"attention_side": 3, "router_and_shared": 3,
                         "experts_looped": 2 * e_touched, "experts_grouped": 2}
    return runs, bytes_per_layer, kernels_per_layer


def main():
    os.makedirs(OUT, exist_ok=True)
    dense, experts = dense_weights(), expert_weights()
    for rows in ROWS:
        e_touched = touched_experts(rows)
        try:
            runs, nbytes, kernels = part_runs(rows, dense, experts, e_touched)
        except Exception as e:
            traceback.print_exc()
            RES["points"].append(dict(rows=rows, error=str(e)[:300]))
            continue
        for part, run in runs.items():
            timed = tfp.time_or_record(run, RES["points"], rows=rows, part=part)
            if timed is None:
                continue
            med, p10, p90, reps = timed
            per_layer_ms = med / LAYERS
            RES["points"].append(dict(
                rows=rows, part=part, experts_touched=e_touched, layers=LAYERS,
                bytes_per_layer=nbytes[part], kernels_per_layer=kernels[part],
                median_ms=round(med, 5), p10_ms=round(p10, 5), p90_ms=round(p90, 5), reps=reps,
                per_layer_us=round(per_layer_ms * 1e3, 2)))
            print("rows=%-3d %-18s E=%-3d %8.2f us/layer  %6.0f GB/s  %6.2f us/kernel" % (
                rows, part, e_touched, per_layer_ms * 1e3,
                nbytes[part] / (per_layer_ms / 1e3) / 1e9, per_layer_ms * 1e3 / kernels[part]),
                flush=True)
        del runs
        torch.cuda.empty_cache()
        save()
    save()


if __name__ == "__main__":
    main()
