#!/usr/bin/env python3
"""Adds llama.cpp Metal decode timings on three Apple chips (issue 22) to
core/data/engine-measurements.json.

Idempotent, like import_mlx_timings.py: removes the rows of its own source, appends them again,
writes the file in the same format (indent 1), _meta kept.

Source: XiongjieDai/GPU-Benchmarks-on-LLM-Inference, README.md, "Apple Silicon (snapshots in May
2024)": `llama-bench -p 512,... -n 512,...` of Llama-3 8B and 70B (Q4_K_M and F16, every layer on
the GPU) on an M1 Max (32-core GPU, 64 GB), an M2 Ultra (76-core, 192 GB) and an M3 Max (40-core,
64 GB). Non-speculative timings, which the issue's data rule lets us import with a citation.

tg 512 is 512 one-token forwards from an empty context: one forward at the mean context, 256.
These are the only stored Metal rows with one token per forward on several chips and on 8B to
70B models, so the only ones that separate the time each layer of a forward costs beyond its
bytes (kernel dispatch and sync, paid 32 times by the 8B and 80 times by the 70B) from the
weight stream. Left out: the M1 8 GB row (its tg 4096, 11.77 t/s, is faster than its tg 512,
10.20: not a steady run; 4.6 GB of weights on an 8 GB Mac) and the tg 1024-8192 columns (the
same forwards at longer contexts; tg 512 is the one closest to a fresh chat).

Also six later llama.cpp Metal decode speeds on other chips, kept as checks the fits never see
(check_only; validate's engines.time_checks prices them with the stored profile): community
benchmark submissions of 2026 with llama-bench tg128 or average decode tokens/s, and an M5's
tg 128 of a 7B and a 1.1B model from a llama.cpp pull request.

Rerun: python3 scripts/import_apple_llamabench.py, then python3 scripts/fit_runtimes.py (twice).
"""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(ROOT, "core", "data", "engine-measurements.json")
SOURCE = "xiongjiedai-gpu-benchmarks"
CHECK_SOURCES = ("normiebench", "llmfit-pr1031", "llama.cpp-pr16634")
CITE = ("XiongjieDai/GPU-Benchmarks-on-LLM-Inference README, Apple Silicon (May 2024), llama-bench "
        "tg 512 of Llama-3 {m} {dt}: {tps} t/s on {chip}")

ROWS = [  # preset, the table's chip, target, size, dtype, tg 512 tokens/s
    ("apple-m1-max", "M1 Max 32-core GPU 64GB", "llama3-instruct-8b", "8B", "q4_k_m", 35.73),
    ("apple-m1-max", "M1 Max 32-core GPU 64GB", "llama3-instruct-8b", "8B", "fp16", 18.75),
    ("apple-m1-max", "M1 Max 32-core GPU 64GB", "llama3-instruct-70b", "70B", "q4_k_m", 4.34),
    ("apple-m2-ultra", "M2 Ultra 76-core GPU 192GB", "llama3-instruct-8b", "8B", "q4_k_m", 78.81),
    ("apple-m2-ultra", "M2 Ultra 76-core GPU 192GB", "llama3-instruct-8b", "8B", "fp16", 36.90),
    ("apple-m2-ultra", "M2 Ultra 76-core GPU 192GB", "llama3-instruct-70b", "70B", "q4_k_m", 12.48),
    ("apple-m2-ultra", "M2 Ultra 76-core GPU 192GB", "llama3-instruct-70b", "70B", "fp16", 4.76),
    ("apple-m3-max", "M3 Max 40-core GPU 64GB", "llama3-instruct-8b", "8B", "q4_k_m", 48.97),
    ("apple-m3-max", "M3 Max 40-core GPU 64GB", "llama3-instruct-8b", "8B", "fp16", 22.04),
    ("apple-m3-max", "M3 Max 40-core GPU 64GB", "llama3-instruct-70b", "70B", "q4_k_m", 7.65),
]

obs = []
for hw, chip, target, size, dtype, tps in ROWS:
    config = {"target": target, "hardware": hw, "gpus": 1, "runtime": "llama.cpp-metal", "batch": 1,
              "context": 256, "dtype": {"weights": dtype, "kv": "fp16"}}
    label = "F16" if dtype == "fp16" else dtype.upper()
    obs.append({"id": f"llamacpp-metal-xjd-{hw}-{size.lower()}-{dtype}-tg512", "source": SOURCE,
                "profile": "llama.cpp-metal", "kind": "forward", "config": config,
                "measured": round(1 / tps, 9),
                "cite": CITE.format(m=size, dt=label, tps=tps, chip=chip), "tokens": 1})

# Checks (check_only): preset, target, dtype, tokens/s, mean context of the run, source, cite.
CHECKS = [
    ("apple-m4", "llama3.1-8b-instruct", "q4_k_m", 20.87, 64, "normiebench",
     "brand-o/normiebench issue #3 (2026-03-08): Mac Mini M4 16 GB, llama.cpp Metal, Llama 3.1 8B "
     "Q4_K_M, tg128 20.87 t/s"),
    ("apple-m1-max", "llama3.1-8b-instruct", "q4_k_m", 46.2, 64, "normiebench",
     "brand-o/normiebench issue #40 (2026-03-08): MacBook Pro M1 Max 64 GB, llama.cpp Metal, "
     "Llama 3.1 8B Q4_K_M, tg128 46.2 t/s"),
    ("apple-m2-pro", "llama3.1-8b-instruct", "q4_k_m", 33.0, 256, "llmfit-pr1031",
     "AlexsJones/llmfit PR #1031 (2026-09-13): apple-m2-pro, llamacpp, "
     "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf, average 33.0 t/s (run lengths not given: context 256 "
     "assumed)"),
    ("apple-m2-pro", "llama3.1-8b-instruct", "q8_0", 22.0, 256, "llmfit-pr1031",
     "AlexsJones/llmfit PR #1031 (2026-09-13): apple-m2-pro, llamacpp, "
     "Meta-Llama-3.1-8B-Instruct-Q8_0.gguf, average 22.0 t/s (run lengths not given: context 256 "
     "assumed)"),
]
for hw, target, dtype, tps, context, source, cite in CHECKS:
    config = {"target": target, "hardware": hw, "gpus": 1, "runtime": "llama.cpp-metal", "batch": 1,
              "context": context, "dtype": {"weights": dtype, "kv": "fp16"}}
    obs.append({"id": f"llamacpp-metal-check-{source}-{hw}-8b-{dtype}", "source": source,
                "profile": "llama.cpp-metal", "kind": "decode_step", "config": config,
                "measured": round(1 / tps, 9), "cite": cite, "check_only": True})

# Two more checks on the newest chip and build: an M5 (10-core GPU, 153.6 GB/s; not a preset:
# Apple's figures, given here as a custom device) running llama.cpp's Metal4 tensor-API branch
# (PR #16634, 2025-10-25), llama-bench tg 128 of a 7B Q4_0 (Mistral-7B-v0.1: LLaMA-2-7B's shapes
# but 8 KV heads and a 32000 vocabulary, given as its config.json) and of TinyLlama-1.1B Q4_0
# (22 layers, hidden 2048: a draft-sized model, the only one in any stored Metal timing).
M5 = {"name": "Apple M5 (10-core GPU)", "vendor": "Apple", "mem_bw_gbps": 153.6, "fp16_tflops": 4.15,
      "mem_gb": 32, "unified_memory": True}  # apple.com/newsroom 2025-10: 153 GB/s
MISTRAL_7B = {"architectures": ["MistralForCausalLM"], "model_type": "mistral", "hidden_size": 4096,
              "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 32,
              "num_key_value_heads": 8, "vocab_size": 32000, "tie_word_embeddings": False,
              "max_position_embeddings": 32768}  # mistralai/Mistral-7B-v0.1 config.json
TINYLLAMA = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 2048,
             "intermediate_size": 5632, "num_attention_heads": 32, "num_hidden_layers": 22,
             "num_key_value_heads": 4, "vocab_size": 32000, "tie_word_embeddings": False,
             "max_position_embeddings": 2048}  # TinyLlama/TinyLlama-1.1B config.json
for name, target, tps in [("mistral-7b-q4_0", MISTRAL_7B, 26.59), ("tinyllama-1.1b-q4_0", TINYLLAMA, 149.69)]:
    config = {"target": target, "hardware": M5, "gpus": 1, "runtime": "llama.cpp-metal", "batch": 1,
              "context": 64, "dtype": {"weights": "q4_0", "kv": "fp16"}}
    obs.append({"id": f"llamacpp-metal-check-pr16634-m5-{name}", "source": "llama.cpp-pr16634",
                "profile": "llama.cpp-metal", "kind": "decode_step", "config": config,
                "measured": round(1 / tps, 9),
                "cite": f"llama.cpp PR #16634 (Metal4 tensor API, 2025-10-25), M5: {name} tg 128 {tps} t/s",
                "check_only": True})

with open(PATH) as f:
    table = json.load(f)
kept = [r for r in table["observations"] if r["source"] not in (SOURCE,) + CHECK_SOURCES]
table["observations"] = kept + obs
with open(PATH, "w") as f:
    f.write(json.dumps(table, indent=1) + "\n")
print(len(obs), "Apple llama.cpp Metal observations (6 of them checks);", len(table["observations"]), "in all")
