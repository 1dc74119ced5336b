#!/usr/bin/env python3
"""Fits the runtime profiles (core/data/runtimes.json) to measured data, through the CLI.

Rerun:  python3 scripts/fit_runtimes.py [--cli build-fit/native/speccalc] [--write]

hf-eager, in two stages:
  1. decode anchors (plain decode step times of HF-eager stacks, empirical.json and the
     baselines the Medusa paper prints) pin bw_efficiency, pass_overhead_s, layer_overhead_s;
  2. with those fixed, the published rows `speccalc validate` checks (all hf-eager) fit
     cycle_overhead_s and flops_efficiency (minimum MAPE of the predicted speedups).
compiled: decode anchors of gpt-fast / lmdeploy / vLLM / SGLang pin bw_efficiency,
  pass_overhead_s and allreduce_latency_s (the tensor-parallel anchors); flops_efficiency comes
  from the 2048-token prefill anchors. No published row with a measured tau uses a compiled
  stack, so the compiled cycle_overhead_s is not fitted (kept, and said so in fitted_on).
The search is Nelder-Mead in log-parameters; every objective value is computed by the CLI,
so the fit uses exactly the cost model the product ships.
"""
import argparse
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (label, target, hardware, gpus, measured plain-decode step in seconds, where it comes from)
EAGER_ANCHORS = [
    ("3090 Llama-2-7B HF eager", "llama2-chat-7b", "rtx-3090", 1, 0.04082,
     "empirical.json decode_anchors[9]: EAGLE README, vanilla HF fp16 24.5 tok/s"),
    ("A100-SXM 13B HF eager", "llama2-chat-13b", "a100-80gb-sxm", 1, 0.02534,
     "empirical.json decode_anchors[11]: EAGLE repo baseline script, user measurement"),
    ("A100-PCIe 7B Medusa baseline", "vicuna-7b-v1.3", "a100-80gb-pcie", 1, 1 / 37.07,
     "published.json medusa-691 extra.baseline_tokens_per_s 37.07"),
    ("A100-PCIe 13B Medusa baseline", "vicuna-13b-v1.3", "a100-80gb-pcie", 1, 1 / 29.01,
     "published.json medusa-692 extra.baseline_tokens_per_s 29.01"),
    ("A100-PCIe 33B Medusa baseline", "vicuna-33b-v1.3", "a100-80gb-pcie", 1, 1 / 17.87,
     "published.json medusa-693 extra.baseline_tokens_per_s 17.87"),
    ("A100-PCIe 7B Sequoia baseline", "llama2-chat-7b", "a100-80gb-pcie", 1, 0.0242,
     "empirical.json decode_anchors[13]: Sequoia baseline"),
    ("A100-PCIe 13B Sequoia baseline", "llama2-chat-13b", "a100-80gb-pcie", 1, 0.0312,
     "empirical.json decode_anchors[14]"),
    ("A100-PCIe 33B Sequoia baseline", "vicuna-33b-v1.3", "a100-80gb-pcie", 1, 0.0532,
     "empirical.json decode_anchors[15]"),
    ("4xA100-40 70B HF device_map", "llama2-chat-70b", "a100-40gb-sxm", 4, 0.13385,
     "empirical.json decode_anchors[16]: EAGLE issue, layer-sequential device_map"),
]

COMPILED_ANCHORS = [
    ("gpt-fast A100 7B", "llama2-chat-7b", "a100-80gb-sxm", 1, 0.00953, "empirical.json decode_anchors[0]"),
    ("gpt-fast A100 Llama-3.1-8B", "llama3.1-8b-instruct", "a100-80gb-sxm", 1, 0.01065,
     "empirical.json decode_anchors[1]"),
    ("gpt-fast A100 70B TP2", "llama2-chat-70b", "a100-80gb-sxm", 2, 0.0469, "empirical.json decode_anchors[2]"),
    ("gpt-fast A100 70B TP8", "llama2-chat-70b", "a100-80gb-sxm", 8, 0.0160, "empirical.json decode_anchors[3]"),
    ("lmdeploy A100 7B", "llama2-chat-7b", "a100-80gb-sxm", 1, 0.0100, "empirical.json decode_anchors[4]"),
    ("lmdeploy A100 13B", "llama2-chat-13b", "a100-80gb-sxm", 1, 0.01739, "empirical.json decode_anchors[5]"),
    ("lmdeploy A100 70B TP4", "llama2-chat-70b", "a100-80gb-sxm", 4, 0.02946, "empirical.json decode_anchors[6]"),
    ("vLLM H100 Llama-3.1-8B", "llama3.1-8b-instruct", "h100-sxm", 1, 0.00752, "empirical.json decode_anchors[7]"),
    ("SGLang H100 Llama-3.1-8B", "llama3.1-8b-instruct", "h100-sxm", 1, 0.00633, "empirical.json decode_anchors[8]"),
    ("gpt-fast RTX 3090 7B", "llama2-chat-7b", "rtx-3090", 1, 0.01815, "empirical.json decode_anchors[10]"),
]

START = {
    "hf-eager": {"bw_efficiency": 0.8, "flops_efficiency": 0.6, "pass_overhead_s": 0.003,
                 "layer_overhead_s": 0.0006, "cycle_overhead_s": 0.004, "allreduce_latency_s": 0.00005},
    "compiled": {"bw_efficiency": 0.75, "flops_efficiency": 0.7, "pass_overhead_s": 0.0003,
                 "layer_overhead_s": 0.00001, "cycle_overhead_s": 0.0005, "allreduce_latency_s": 0.00001},
}

# 2048-token prefill of LLaMA-7B on A100 fp16 (empirical.json prefill_anchors): TensorRT-LLM
# 133 ms, lmdeploy 139 ms. FLOPs by hand: 2 x 6.48e9 non-embedding matmul params x 2048 tokens,
# plus LM head on one row, plus attention 4 x 32 layers x 4096 x 2048 x 2049 / 2.
PREFILL_FLOPS = 2 * 6.476e9 * 2048 + 4 * 32 * 4096 * 2048 * 2049 / 2
PREFILL_MS = [133.0, 139.0]
A100_PEAK = 312e12


def prefill_flops_efficiency():
    # Mean over the two prefill anchors of achieved / peak FLOP/s (about 0.65).
    return min(1.0, sum(PREFILL_FLOPS / (A100_PEAK * ms * 1e-3) for ms in PREFILL_MS) / len(PREFILL_MS))


def cli_run(cli, command, payload):
    p = subprocess.run([cli, "run", command, "-"], input=json.dumps(payload), capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{command} failed: {p.stderr.strip()}")
    return json.loads(p.stdout)


def step_time(cli, profile, params, target, hw, gpus):
    runtime = {"profile": profile, **params}
    cfg = {"target": target, "hardware": hw, "gpus": gpus, "runtime": runtime, "batch": 1,
           "context": 1024, "method": {"family": "ar"}, "acceptance": {"tau": 1}}
    return cli_run(cli, "eval", cfg)["baseline"]["time_s"]


def nelder_mead(f, x0, step=0.3, iters=200, tol=1e-7):
    n = len(x0)
    pts = [list(x0)] + [[x0[j] + (step if j == i else 0) for j in range(n)] for i in range(n)]
    vals = [f(p) for p in pts]
    for _ in range(iters):
        order = sorted(range(n + 1), key=lambda i: vals[i])
        pts = [pts[i] for i in order]
        vals = [vals[i] for i in order]
        if vals[-1] - vals[0] < tol:
            break
        c = [sum(p[j] for p in pts[:-1]) / n for j in range(n)]
        xr = [c[j] + (c[j] - pts[-1][j]) for j in range(n)]
        fr = f(xr)
        if fr < vals[0]:
            xe = [c[j] + 2 * (c[j] - pts[-1][j]) for j in range(n)]
            fe = f(xe)
            pts[-1], vals[-1] = (xe, fe) if fe < fr else (xr, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = xr, fr
        else:
            xc = [c[j] + 0.5 * (pts[-1][j] - c[j]) for j in range(n)]
            fc = f(xc)
            if fc < vals[-1]:
                pts[-1], vals[-1] = xc, fc
            else:
                for i in range(1, n + 1):
                    pts[i] = [pts[0][j] + 0.5 * (pts[i][j] - pts[0][j]) for j in range(n)]
                    vals[i] = f(pts[i])
    best = min(range(n + 1), key=lambda i: vals[i])
    return pts[best], vals[best]


def decode(names, x, fixed):
    params = dict(fixed)
    for name, v in zip(names, x):
        val = math.exp(v)
        if name.endswith("efficiency"):
            val = min(val, 1.0)
        params[name] = val
    return params


def anchor_loss(cli, profile, anchors, params):
    # Mean squared log ratio predicted / measured.
    s = 0.0
    for _, target, hw, gpus, measured, _ in anchors:
        t = step_time(cli, profile, params, target, hw, gpus)
        s += math.log(t / measured) ** 2
    return s / len(anchors)


def fit(cli, profile, anchors, names, start, fixed):
    x0 = [math.log(start[n]) for n in names]
    x, v = nelder_mead(lambda x: anchor_loss(cli, profile, anchors, decode(names, x, fixed)), x0)
    return decode(names, x, fixed), v


def validate(cli, runtimes):
    return cli_run(cli, "validate", {"calibrated": False, "runtimes": runtimes})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build-fit/native/speccalc"))
    ap.add_argument("--iters", type=int, default=300, help="Nelder-Mead iterations of the joint hf-eager fit")
    ap.add_argument("--write", action="store_true", help="write the fitted values into core/data/runtimes.json")
    args = ap.parse_args()
    cli = args.cli

    doc = json.load(open(os.path.join(ROOT, "core/data/runtimes.json")))
    prof = {p["id"]: p for p in doc["profiles"]}
    # Fixed starting points (the pre-fit guesses), so a rerun reproduces the same values.
    eager = dict(START["hf-eager"])
    comp = dict(START["compiled"])

    # hf-eager stage 1: decode anchors.
    names1 = ["bw_efficiency", "pass_overhead_s", "layer_overhead_s"]
    fixed = {k: v for k, v in eager.items() if k not in names1}
    eager, loss1 = fit(cli, "hf-eager", EAGER_ANCHORS, names1, eager, fixed)
    print("hf-eager stage 1 (decode anchors): rms log error %.3f" % math.sqrt(loss1))
    for a in EAGER_ANCHORS:
        t = step_time(cli, "hf-eager", eager, *a[1:4])
        print("  %-32s measured %7.2f ms  model %7.2f ms" % (a[0], a[4] * 1e3, t * 1e3))

    # hf-eager stage 2: published rows and decode anchors together. The anchors alone cannot
    # split host time between per-pass and per-layer parts (each lab's CPU differs and
    # three model sizes do not pin two overheads and an efficiency); the rows do, because
    # EAGLE/Hydra draft passes have one layer and a verify pass has all of them.
    # flops_efficiency is not free here: large matmuls run the same cuBLAS kernels in eager
    # PyTorch as in the compiled stacks, so both take the prefill anchors' value.
    names2 = ["bw_efficiency", "pass_overhead_s", "layer_overhead_s", "cycle_overhead_s"]
    flops_eff = prefill_flops_efficiency()

    def anchor_mape(params):
        s = 0.0
        for _, target, hw, gpus, measured, _ in EAGER_ANCHORS:
            s += abs(step_time(cli, "hf-eager", params, target, hw, gpus) / measured - 1)
        return 100 * s / len(EAGER_ANCHORS)

    def joint(x):
        params = decode(names2, x, {})
        params["allreduce_latency_s"] = eager["allreduce_latency_s"]
        params["flops_efficiency"] = flops_eff
        return validate(cli, {"hf-eager": params})["overall"]["mape_pct"] + anchor_mape(params)

    start = dict(eager)
    start["cycle_overhead_s"] = max(start["cycle_overhead_s"], 1e-3)
    start["flops_efficiency"] = min(start["flops_efficiency"], 0.7)
    start["layer_overhead_s"] = max(start["layer_overhead_s"], 3e-4)
    start["pass_overhead_s"] = max(start["pass_overhead_s"], 1e-3)
    x, v = nelder_mead(joint, [math.log(start[n]) for n in names2], iters=args.iters, tol=1e-3)
    eager = {**decode(names2, x, {}), "allreduce_latency_s": eager["allreduce_latency_s"],
             "flops_efficiency": flops_eff}
    print("hf-eager stage 2 (published rows + anchors): objective %.2f = rows MAPE %.2f %% + anchors MAPE %.2f %%" %
          (v, validate(cli, {"hf-eager": eager})["overall"]["mape_pct"], anchor_mape(eager)))
    for a in EAGER_ANCHORS:
        t = step_time(cli, "hf-eager", eager, *a[1:4])
        print("  %-32s measured %7.2f ms  model %7.2f ms" % (a[0], a[4] * 1e3, t * 1e3))

    # compiled: decode anchors (single-GPU and tensor-parallel), prefill for FLOPs efficiency.
    names_c = ["bw_efficiency", "pass_overhead_s", "allreduce_latency_s"]
    # layer_overhead_s stays at its prior (10 us of launch per layer, hidden under device time
    # at every anchor, so the data cannot fit it); cycle_overhead_s likewise (no compiled rows).
    fixed_c = {k: v for k, v in comp.items() if k not in names_c}
    comp, loss_c = fit(cli, "compiled", COMPILED_ANCHORS, names_c, comp, fixed_c)
    comp["flops_efficiency"] = prefill_flops_efficiency()
    print("compiled (decode anchors): rms log error %.3f" % math.sqrt(loss_c))
    for a in COMPILED_ANCHORS:
        t = step_time(cli, "compiled", comp, *a[1:4])
        print("  %-32s measured %7.2f ms  model %7.2f ms" % (a[0], a[4] * 1e3, t * 1e3))

    rep = validate(cli, {"hf-eager": eager, "compiled": comp})
    print("validate with fitted profiles: %d rows, MAPE %.2f %%, max |error| %.1f %%" % (
        rep["overall"]["rows"], rep["overall"]["mape_pct"], rep["overall"]["max_abs_error_pct"]))
    for s in rep["sources"]:
        print("  %-12s rows %3d  MAPE %5.1f %%  max %5.1f %%  mean %+5.1f %%" % (
            s["source_id"], s["stock"]["rows"], s["stock"]["mape_pct"], s["stock"]["max_abs_error_pct"],
            s["stock"]["mean_error_pct"]))
    sig = lambda d: {k: float("%.4g" % v) for k, v in d.items()}
    print("hf-eager params:", json.dumps(sig(eager)))
    print("compiled params:", json.dumps(sig(comp)))
    if args.write:
        prof["hf-eager"]["params"] = sig(eager)
        prof["compiled"]["params"] = sig(comp)
        with open(os.path.join(ROOT, "core/data/runtimes.json"), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        print("wrote core/data/runtimes.json")


if __name__ == "__main__":
    main()
