#!/usr/bin/env python3
"""Time transformer-shaped bf16 forward passes on one GPU: calibration data for the cost model.

What is timed: a decoder stack with the real matmul shapes of a model (fused QKV, output
projection, fused gate/up, down, final norm and LM head over every token of the pass), HF-style
RMSNorm in fp32, rotary embeddings, a KV cache written in place and flash/efficient attention of
q new tokens per sequence over (context + q) keys with a lower-right causal mask. Weights and
cache are random normal (never zeros). Each point is a whole forward pass of `batch` sequences x
`q` tokens; it is timed either
  graph: captured once in a CUDA graph and replayed (what vLLM/SGLang/TensorRT-LLM decode does), or
  eager: the same Python forward launched op by op (a lean lower bound of HF transformers eager).
Time per pass = median over replays of CUDA-event time around one pass, after warm-up.

Run on the device machine:  python3 scripts/gpu/time_forward_pass.py OUT_DIR [deadline_s]
Writes OUT_DIR/forward_pass_timings.json (every point, appended as it goes) and prints a table.
"""
import json
import math
import os
import subprocess
import sys
import time
import traceback

import torch
import torch.nn.functional as F

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
DEADLINE_S = float(sys.argv[2]) if len(sys.argv) > 2 else 240.0
T0 = time.time()
DEV = "cuda"
DT = torch.bfloat16

# Shapes from each model's config.json (hidden, layers, heads, kv heads, head dim, FFN, vocab).
SHAPES = {
    # meta-llama/Llama-2-7b-hf config.json
    "llama-2-7b": dict(hidden=4096, layers=32, heads=32, kv_heads=32, head_dim=128,
                       ffn=11008, vocab=32000, gated=True),
    # meta-llama/Llama-3.1-8B config.json (GQA, 128k vocabulary)
    "llama-3.1-8b": dict(hidden=4096, layers=32, heads=32, kv_heads=8, head_dim=128,
                         ffn=14336, vocab=128256, gated=True),
    # JackFram/llama-68m config.json (a common SpS draft)
    "llama-68m": dict(hidden=768, layers=2, heads=12, kv_heads=12, head_dim=64,
                      ffn=3072, vocab=32000, gated=True),
    # facebook/opt-1.3b config.json shapes (24 layers, ReLU FFN of two matmuls)
    "opt-1.3b-shape": dict(hidden=2048, layers=24, heads=32, kv_heads=32, head_dim=64,
                           ffn=8192, vocab=50272, gated=False),
    # EAGLE head of a 7B target (yuhuili/EAGLE-llama2-chat-7B): fc 2h->h, one decoder layer,
    # the target's LM head.
    "eagle-head-7b": dict(hidden=4096, layers=1, heads=32, kv_heads=32, head_dim=128,
                          ffn=11008, vocab=32000, gated=True, eagle_fc=True),
}

RESULTS = []


def log(*a):
    print(*a, flush=True)


def left():
    return DEADLINE_S - (time.time() - T0)


def save():
    with open(os.path.join(OUT, "forward_pass_timings.json"), "w") as f:
        json.dump({"meta": META, "points": RESULTS}, f, indent=1)


def smi(query):
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=" + query, "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception as e:  # nvidia-smi missing is not fatal
        return "n/a: %s" % e


META = {
    "script": "scripts/gpu/time_forward_pass.py",
    "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    "torch": torch.__version__,
    "cuda": torch.version.cuda,
    "device": torch.cuda.get_device_name(0),
    "sm_count": torch.cuda.get_device_properties(0).multi_processor_count,
    "smi_before": smi("name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.limit,temperature.gpu"),
    "dtype": "bfloat16",
}


# ---------------------------------------------------------------- attention variant
try:
    from torch.nn.attention.bias import causal_lower_right
except Exception:  # older torch: unmasked attention over all keys (recorded in meta)
    causal_lower_right = None


def attention(q, k, v, qlen, kvlen, modes):
    """modes: {gqa?: "lower_right" | "none"}; enable_gqa is passed only where heads differ."""
    gqa = k.shape[1] != q.shape[1]
    kw = {"enable_gqa": True} if gqa else {}
    if qlen > 1 and modes[gqa] == "lower_right":
        kw["attn_mask"] = causal_lower_right(qlen, kvlen)
    return F.scaled_dot_product_attention(q, k, v, **kw)


def pick_mask_modes():
    """Per MHA/GQA: a lower-right causal mask where this torch runs it and it matches fp32 math."""
    return {False: check_mask(8, 8), True: check_mask(8, 2)}


def check_mask(heads, kvh):
    if causal_lower_right is None:
        return "none"
    try:
        qq = torch.randn(2, heads, 5, 64, device=DEV, dtype=DT)
        kk = torch.randn(2, kvh, 37, 64, device=DEV, dtype=DT)
        vv = torch.randn(2, kvh, 37, 64, device=DEV, dtype=DT)
        out = attention(qq, kk, vv, 5, 37, {kvh != heads: "lower_right"}).float()
        rep = heads // kvh
        kf = kk.float().repeat_interleave(rep, 1)
        vf = vv.float().repeat_interleave(rep, 1)
        s = qq.float() @ kf.transpose(-1, -2) / 8.0
        allowed = torch.arange(37, device=DEV)[None, :] <= (32 + torch.arange(5, device=DEV))[:, None]
        s = s.masked_fill(~allowed, float("-inf"))
        ref = torch.softmax(s, -1) @ vf
        err = ((out - ref).norm() / ref.norm()).item()
        if not err < 2e-2:
            log("mask check failed, rel err", err)
            return "none"
        return "lower_right"
    except Exception:
        traceback.print_exc()
        return "none"


# ---------------------------------------------------------------- model
def rand(*shape, std=0.02):
    return torch.empty(*shape, device=DEV, dtype=DT).normal_(0.0, std)


class Stack:
    def __init__(self, cfg, max_batch, max_kv):
        self.c = cfg
        h, f = cfg["hidden"], cfg["ffn"]
        nq, nkv, d = cfg["heads"], cfg["kv_heads"], cfg["head_dim"]
        self.layers = []
        for _ in range(cfg["layers"]):
            self.layers.append(dict(
                ln1=1.0 + rand(h), ln2=1.0 + rand(h),
                wqkv=rand((nq + 2 * nkv) * d, h), wo=rand(h, nq * d),
                wup=rand((2 if cfg["gated"] else 1) * f, h), wdown=rand(h, f),
                kc=rand(max_batch, nkv, max_kv, d, std=1.0),
                vc=rand(max_batch, nkv, max_kv, d, std=1.0)))
        self.lnf = 1.0 + rand(h)
        self.lm = rand(cfg["vocab"], h)
        self.fc = rand(h, 2 * h) if cfg.get("eagle_fc") else None
        inv = 1.0 / (10000.0 ** (torch.arange(0, d, 2, device=DEV).float() / d))
        pos = torch.arange(max_kv, device=DEV).float()
        ang = torch.outer(pos, inv)
        self.cos = torch.cat([ang, ang], -1).cos().to(DT)
        self.sin = torch.cat([ang, ang], -1).sin().to(DT)

    def norm(self, x, w):  # HF LlamaRMSNorm: fp32 variance, back to bf16, scale
        xf = x.float()
        xf = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6)
        return w * xf.to(DT)

    def rope(self, x, cos, sin):
        half = x.shape[-1] // 2
        rot = torch.cat([-x[..., half:], x[..., :half]], -1)
        return x * cos + rot * sin

    def forward(self, x, b, q, ctx, mask_mode, matmuls_only=False):
        c = self.c
        nq, nkv, d = c["heads"], c["kv_heads"], c["head_dim"]
        if self.fc is not None:
            x = x @ self.fc.t()
        cos = self.cos[ctx:ctx + q][None, None]
        sin = self.sin[ctx:ctx + q][None, None]
        for L in self.layers:
            if matmuls_only:
                qkv = x @ L["wqkv"].t()
                x = qkv[:, :nq * d] @ L["wo"].t()
                up = x @ L["wup"].t()
                x = up[:, :c["ffn"]] @ L["wdown"].t()
                continue
            hn = self.norm(x, L["ln1"])
            qkv = (hn @ L["wqkv"].t()).view(b, q, nq + 2 * nkv, d).transpose(1, 2)
            qh = self.rope(qkv[:, :nq], cos, sin)
            kh = self.rope(qkv[:, nq:nq + nkv], cos, sin)
            L["kc"][:b, :, ctx:ctx + q].copy_(kh)
            L["vc"][:b, :, ctx:ctx + q].copy_(qkv[:, nq + nkv:])
            a = attention(qh, L["kc"][:b, :, :ctx + q], L["vc"][:b, :, :ctx + q], q, ctx + q,
                          mask_mode)
            x = x + a.transpose(1, 2).reshape(b * q, nq * d) @ L["wo"].t()
            hn = self.norm(x, L["ln2"])
            up = hn @ L["wup"].t()
            if c["gated"]:
                g, u = up.split(c["ffn"], -1)
                act = F.silu(g) * u
            else:
                act = F.relu(up)
            x = x + act @ L["wdown"].t()
        if not matmuls_only:
            x = self.norm(x, self.lnf)
        return x @ self.lm.t()


# ---------------------------------------------------------------- timing
def time_point(run, mode, target_s=0.04, min_reps=5, max_reps=200):
    """Median ms per pass and (p10, p90): CUDA events around each pass after warm-up."""
    g = None
    if mode == "graph":
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(2):
                run()
        torch.cuda.current_stream().wait_stream(s)
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            run()
        step = g.replay
    else:
        for _ in range(2):
            run()
        step = run
    torch.cuda.synchronize()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    step()
    e1.record()
    torch.cuda.synchronize()
    est = e0.elapsed_time(e1)
    reps = int(max(min_reps, min(max_reps, target_s * 1000.0 / max(est, 1e-3))))
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
          for _ in range(reps)]
    for a, z in ev:
        a.record()
        step()
        z.record()
    torch.cuda.synchronize()
    ts = sorted(a.elapsed_time(z) for a, z in ev)
    del g
    return ts[len(ts) // 2], ts[len(ts) // 10], ts[(len(ts) * 9) // 10], reps


def time_or_record(run, sink, **key):
    """time_point under a CUDA graph, or None after appending the error to sink with its key."""
    try:
        return time_point(run, "graph")
    except Exception as e:
        traceback.print_exc()
        sink.append(dict(key, error=str(e)[:300]))
        return None


def sweep(name, stack, mode, points, ctx, mask_mode, matmuls_only=False, label=None):
    h = stack.c["hidden"] * (2 if stack.c.get("eagle_fc") else 1)
    for b, q in points:
        if left() < 5:
            log("deadline: skipping rest of", name, mode)
            return
        x = rand(b * q, h, std=1.0)
        try:
            med, p10, p90, reps = time_point(
                lambda: stack.forward(x, b, q, ctx, mask_mode, matmuls_only), mode)
        except Exception as e:
            traceback.print_exc()
            RESULTS.append(dict(model=name, mode=mode, batch=b, q=q, context=ctx,
                                error=str(e)[:300]))
            torch.cuda.empty_cache()
            continue
        RESULTS.append(dict(model=name, part=label or ("matmuls" if matmuls_only else "full"),
                            mode=mode, batch=b, q=q, context=ctx, tokens=b * q,
                            median_ms=round(med, 5), p10_ms=round(p10, 5),
                            p90_ms=round(p90, 5), reps=reps))
        log("%-16s %-5s %-7s b=%-3d q=%-4d ctx=%-6d %9.4f ms" % (
            name, mode, label or ("mm" if matmuls_only else "full"), b, q, ctx, med))
        del x
    save()


def ceilings():
    n = 1 << 30  # 2 GiB bf16 source, copied device to device
    src = torch.empty(n, device=DEV, dtype=DT).normal_()
    dst = torch.empty_like(src)
    for _ in range(3):
        dst.copy_(src)
    torch.cuda.synchronize()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    for _ in range(10):
        dst.copy_(src)
    e1.record()
    torch.cuda.synchronize()
    copy_gbps = 10 * 2 * n * 2 / (e0.elapsed_time(e1) / 1000.0) / 1e9  # read + write bytes
    del src, dst
    a = torch.randn(8192, 8192, device=DEV, dtype=DT)
    bm = torch.randn(8192, 8192, device=DEV, dtype=DT)
    for _ in range(3):
        a @ bm
    torch.cuda.synchronize()
    e0.record()
    for _ in range(10):
        a @ bm
    e1.record()
    torch.cuda.synchronize()
    tflops = 10 * 2 * 8192 ** 3 / (e0.elapsed_time(e1) / 1000.0) / 1e12
    del a, bm
    torch.cuda.empty_cache()
    META["copy_read_plus_write_GBps"] = round(copy_gbps, 1)
    META["matmul_8192_bf16_TFLOPs"] = round(tflops, 1)
    log("ceilings: copy %.0f GB/s (read+write), bf16 8192^3 %.0f TFLOP/s" % (copy_gbps, tflops))


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(0)
    ceilings()
    mask_mode = pick_mask_modes()
    META["mask"] = {"mha": mask_mode[False], "gqa": mask_mode[True]}
    log("attention mask:", META["mask"])
    save()
    Q = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 512]
    B = [1, 2, 4, 8, 16, 32, 64]
    CTX = 1024
    m = Stack(SHAPES["llama-2-7b"], 64, CTX + 512)
    sweep("llama-2-7b", m, "graph", [(b, q) for b in B for q in Q], CTX, mask_mode)
    sweep("llama-2-7b", m, "eager", [(b, q) for b in (1, 8, 64) for q in Q if q <= 64],
          CTX, mask_mode)
    sweep("llama-2-7b", m, "graph", [(1, q) for q in Q] + [(b, 1) for b in B[1:]], CTX,
          mask_mode, matmuls_only=True)
    del m
    torch.cuda.empty_cache()
    small_q = [1, 2, 4, 8, 16, 32, 64]
    for name in ("llama-68m", "opt-1.3b-shape", "eagle-head-7b"):
        s = Stack(SHAPES[name], 16, CTX + 64)
        pts = [(1, q) for q in small_q] + [(b, 1) for b in (4, 16)]
        sweep(name, s, "graph", pts, CTX, mask_mode)
        sweep(name, s, "eager", pts, CTX, mask_mode)
        del s
        torch.cuda.empty_cache()
    s = Stack(SHAPES["llama-3.1-8b"], 64, CTX + 128)
    sweep("llama-3.1-8b", s, "graph",
          [(b, q) for b in (1, 4, 16, 64) for q in (1, 2, 4, 8, 16, 32, 64, 128)], CTX, mask_mode)
    del s
    torch.cuda.empty_cache()
    # Context: the same pass over longer caches (attention and KV reads grow, matmuls do not).
    for b, ctxs in ((1, (128, 4096, 16384, 32768)), (16, (128, 4096, 8192))):
        for ctx in ctxs:
            if left() < 10:
                break
            s = Stack(SHAPES["llama-2-7b"], b, ctx + 8)
            sweep("llama-2-7b", s, "graph", [(b, 1), (b, 8)], ctx, mask_mode, label="context")
            del s
            torch.cuda.empty_cache()
    META["smi_after"] = smi("clocks.sm,clocks.mem,temperature.gpu,power.draw")
    META["elapsed_s"] = round(time.time() - T0, 1)
    save()
    log("done in %.0f s, %d points" % (time.time() - T0, len(RESULTS)))


if __name__ == "__main__":
    try:
        main()
    finally:
        save()
