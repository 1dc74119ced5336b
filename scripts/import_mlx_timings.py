#!/usr/bin/env python3
"""Adds the MLX plain-decoding observations (issue 22) to core/data/engine-measurements.json.

Idempotent: removes the rows of its own sources, appends them again, writes the file in the same
format (indent 1), _meta kept. A separate script because import_engine_measurements.py no longer
reproduces the whole file (later rows were added to the JSON directly, _meta.generated_by says
which); this one touches only its rows.

Rerun: python3 scripts/import_mlx_timings.py, then python3 scripts/fit_runtimes.py (twice).
"""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(ROOT, "core", "data", "engine-measurements.json")
SOURCES = ("mlx-examples-issue1029", "mlx-examples-pr1069", "lmstudio-mlx-engine-issue103",
           "lmstudio-mlx-engine-pr83", "mlx-issue3852")
obs = []


def add(id_, source, profile, kind, config, measured, cite, **extra):
    assert source in SOURCES, source
    row = {"id": id_, "source": source, "profile": profile, "kind": kind, "config": config,
           "measured": round(measured, 9), "cite": cite}
    row.update(extra)
    obs.append(row)


# ---- MLX (issue 22): plain decoding timings of mlx_lm / LM Studio's mlx-engine ------------------
# Non-speculative tokens/s from the stacks' own repositories, which the issue's data rule lets us
# import with a citation. Generation t/s -> one decode step at the run's mean context (prompt +
# generated / 2); "Prompt: t/s" of a prompt shorter than mlx_lm's 512-token prefill step -> one
# forward of that many tokens from an empty cache (first-token latency). MLX 4-bit / 8-bit are
# mlx-community's group-64 affine quantizations (mlx_4bit, mlx_8bit); "16-bit" is bf16 (fp16
# bytes). The chips are the presets (apple.com figures in hardware.json).


def mlx_step(id_, source, target, hw, dtype, tps, context, cite):
    c = {"target": target, "hardware": hw, "gpus": 1, "runtime": "mlx", "batch": 1, "context": context,
         "dtype": {"weights": dtype, "kv": "fp16"}}
    add(id_, source, "mlx", "decode_step", c, 1.0 / tps, cite)


# M3 Max (64 GB: the 40-core GPU), Llama-3.3-70B-Instruct-4bit, MLX 0.21.1 / mlx-lm 0.20.4, temp 0
# (ml-explore/mlx-examples issue #1029, comment by chigkim, 2024-12-15: a table of prompt and
# generation speed by prompt length; four of its rows, short to long).
for prompt, gen, tg in [(260, 309, 9.351), (1171, 744, 9.287), (4126, 724, 8.917), (10088, 887, 8.328)]:
    mlx_step(f"mlx-m3max-70b-4bit-tg-p{prompt}", "mlx-examples-issue1029", "llama3.3-70b-instruct", "apple-m3-max",
             "mlx_4bit", tg, prompt + gen // 2,
             f"ml-explore/mlx-examples issue #1029: M3 Max 64GB, Llama-3.3-70B-Instruct-4bit, prompt {prompt} "
             f"tokens, {gen} generated at {tg} t/s (mean context {prompt + gen // 2})")
mlx_first = {"target": "llama3.3-70b-instruct", "hardware": "apple-m3-max", "gpus": 1, "runtime": "mlx", "batch": 1,
             "context": 0, "dtype": {"weights": "mlx_4bit", "kv": "fp16"}}
add("mlx-m3max-70b-4bit-pp260", "mlx-examples-issue1029", "mlx", "forward", mlx_first, 260 / 75.871,
    "ml-explore/mlx-examples issue #1029: M3 Max 64GB, Llama-3.3-70B-Instruct-4bit, a 260-token prompt at "
    "75.871 t/s (one forward: under mlx_lm's 512-token prefill step)", tokens=260)
# M2 Ultra (76-core GPU), Meta-Llama-3-70B-Instruct in 16-bit with the weights wired (ml-explore/
# mlx-examples PR #1069, awni, 2024-10-24): generation 100 tokens at 4.7 t/s after a 16-token prompt.
# Its prompt figure (16 tokens at 27.8 t/s, 0.58 s, 3.3x the 16-bit weights' read time) is left out:
# mlx_lm's prompt time includes the first call's kernel set-up.
mlx_step("mlx-m2ultra-70b-bf16-tg", "mlx-examples-pr1069", "llama3-instruct-70b", "apple-m2-ultra", "fp16", 4.7, 16 + 50,
         "ml-explore/mlx-examples PR #1069 (wired memory): M2 Ultra, Meta-Llama-3-70B-Instruct 16-bit, "
         "generation (100 tokens) 4.7 t/s")
# LM Studio's MLX engine without a draft model (lmstudio-ai/mlx-engine issue #103, 2025-02: M1 Pro
# 32 GB: Llama 3.1 8B Q4 MLX 38 t/s, Qwen 2.5 7B Q4 MLX 37.08 t/s; M1 Ultra 128 GB, 8-bit MLX:
# DeepSeek-R1-Distill-Qwen-32B 16.5 t/s, DeepSeek-R1-Distill-Llama-70B 7.9 t/s, the Qwen2.5-32B
# and Llama-3.3-70B architectures). Prompts not given: context 256 assumed (a chat turn).
for id_, target, hw, dt, tps, what in [
        ("mlx-m1pro-8b-4bit-tg", "llama3.1-8b-instruct", "apple-m1-pro", "mlx_4bit", 38.0,
         "M1 Pro 32GB, Llama 3.1 8B Q4 MLX, 38 t/s without a draft"),
        ("mlx-m1pro-qwen7b-4bit-tg", "qwen2.5-7b", "apple-m1-pro", "mlx_4bit", 37.08,
         "M1 Pro 32GB, Qwen 2.5 7B Q4 MLX, 37.08 t/s without a draft"),
        ("mlx-m1ultra-qwen32b-8bit-tg", "qwen2.5-32b", "apple-m1-ultra", "mlx_8bit", 16.5,
         "M1 Ultra 128GB, DeepSeek-R1-Distill-Qwen-32B 8-bit MLX, 16.5 t/s without a draft"),
        ("mlx-m1ultra-70b-8bit-tg", "llama3.3-70b-instruct", "apple-m1-ultra", "mlx_8bit", 7.9,
         "M1 Ultra 128GB, DeepSeek-R1-Distill-Llama-70B 8-bit MLX, 7.9 t/s without a draft")]:
    mlx_step(id_, "lmstudio-mlx-engine-issue103", target, hw, dt, tps, 256,
             "lmstudio-ai/mlx-engine issue #103: " + what + " (context 256 assumed)")
# M3 Pro 36 GB (18-core GPU), Qwen2.5-7B-Instruct-4bit without a draft: 29.21 t/s (lmstudio-ai/
# mlx-engine PR #83, the author's demo run, 2025-01-23).
mlx_step("mlx-m3pro-qwen7b-4bit-tg", "lmstudio-mlx-engine-pr83", "qwen2.5-7b", "apple-m3-pro", "mlx_4bit", 29.21, 256,
         "lmstudio-ai/mlx-engine PR #83: M3 Pro 36GB, Qwen2.5-7B-Instruct-4bit, 29.21 t/s without speculative "
         "decoding (context 256 assumed)")


# One quantized matrix multiply timed alone, by rows (ml-explore/mlx issue #3852, ARahim3,
# 2026-07-16: M4 Pro, applegpu_g16s, mlx 0.32.0, macOS 15.6; medians of 5 trials, 20 warm calls
# per eval). Affine 4-bit, group 128: 4 bits + a bf16 scale and bias per 128 weights = 4.25 bits.
# The table gives the one-row time and each row count's multiple of it; a row's `measured` is
# that multiple (a large matrix alone streams faster than a model's mix of them, so the one-row
# times are not fitted on; they are in the cites). These fix how MLX's
# matrix-vector kernels (qmv) grow with rows, which no whole-model MLX timing stored shows; the
# 32-row multiply runs the tiles (qmm). The 10-row column is left out: it costs exactly what 32
# rows do (4.5x), a tile's cost, while the code read (mlx/backend/metal/quantized.cpp
# get_qmv_batch_limit, mlx @846d176: 13 for this chip class and shape, qmv below it) would run
# qmv there; which kernel that build ran at 10 rows is not known.
M4_PRO_MM = {"target": "qwen3-8b", "hardware": "apple-m4-pro", "gpus": 1, "runtime": "mlx", "batch": 1,
             "context": 0, "dtype": {"weights": "mlx_4bit", "kv": "fp16"}}
for shape, k, n, one_ms, multiples in [
        ("ffn", 5120, 17408, 0.198, [(1, 1.0), (2, 0.99), (3, 1.13), (4, 1.43), (5, 1.75), (8, 2.84), (32, 4.5)]),
        ("lm-head", 5120, 248320, 2.725, [(1, 1.0), (2, 1.01), (3, 1.14), (4, 1.47), (5, 1.85), (8, 3.03)])]:
    for rows, x in multiples:
        if rows == 1:
            continue  # the unit the others are multiples of
        add(f"mlx-m4pro-qmm-4bit-{shape}-m{rows}", "mlx-issue3852", "mlx", "matmul", M4_PRO_MM, x,
            f"ml-explore/mlx issue #3852: M4 Pro, quantized_matmul {k}->{n}, 4-bit g128, M={rows}: "
            f"{x}x of {one_ms} ms", tokens=rows, matmul={"k": k, "n": n, "weight_bits": 4.25})

with open(PATH) as f:
    table = json.load(f)
kept = [r for r in table["observations"] if r["source"] not in SOURCES]
table["observations"] = kept + obs
with open(PATH, "w") as f:
    f.write(json.dumps(table, indent=1) + "\n")
print(len(obs), "MLX observations;", len(table["observations"]), "in all")
