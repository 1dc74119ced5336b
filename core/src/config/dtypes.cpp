// Weight and KV-cache number formats: names, bytes per element (block scales included) and
// which engines' formats they are.
#include <string>
#include <vector>

#include "speccalc/config.hpp"

namespace speccalc {

namespace {

struct DTypeInfo {
  const char* name;
  double bits;  // per weight, block scales included
};

// Sources of the bits:
// - fp16 .. mxfp4: see dtype_bytes' history (NVFP4: NVIDIA "Introducing NVFP4 ..." Table 1,
//   16 E2M1 values + one E4M3 scale = 4.5 bits; MXFP4: OCP MX v1.0, 32 values + E8M0 = 4.25).
// - GGUF block types, from their block structs (ggml-org/llama.cpp ggml/src/ggml-common.h):
//   q4_0 = fp16 scale + 32 x 4 bits = 18 B / 32 = 4.5 bits; q5_0 22 B / 32 = 5.5; q8_0
//   34 B / 32 = 8.5; q6_k 210 B / 256 = 6.5625; iq4_xs 136 B / 256 = 4.25; iq4_nl 18 B / 32 =
//   4.5; iq3_xxs 98 B / 256 = 3.0625.
// - GGUF mixes (k-quants whose _S/_M variants keep some tensors in wider types): the sizes
//   llama-quantize lists for Llama-3-8B (8.03 B weights; tools/quantize/quantize.cpp
//   QUANT_OPTIONS, G = GiB): q2_k 2.96 G = 3.17 bits, q3_k_m 3.74 G = 4.00, q4_k_s 4.37 G =
//   4.67, q4_k_m 4.58 G = 4.90, q5_k_s 5.21 G = 5.57, q5_k_m 5.33 G = 5.70 (bits = G x 2^30 x
//   8 / 8.03e9). Other models mix the same way within a few percent.
// - MLX: mlx.core.quantize, affine, group_size 64: b bits a weight plus a 16-bit scale and a
//   16-bit bias per 64 weights = b + 0.5 bits (ml-explore/mlx python/mlx/nn/layers/
//   quantized.py defaults group_size=64, bits=4).
constexpr DTypeInfo kDTypes[] = {
    {"fp16", 16},      {"bf16", 16},      {"fp8", 8},       {"int8", 8},      {"int4", 4},
    {"nvfp4", 4.5},    {"mxfp4", 4.25},   {"q2_k", 3.17},   {"q3_k_m", 4.00}, {"q4_0", 4.5},
    {"q4_k_s", 4.67},  {"q4_k_m", 4.90},  {"q5_0", 5.5},    {"q5_k_s", 5.57}, {"q5_k_m", 5.70},
    {"q6_k", 6.5625},  {"q8_0", 8.5},     {"iq4_xs", 4.25}, {"iq4_nl", 4.5},  {"iq3_xxs", 3.0625},
    {"mlx_4bit", 4.5}, {"mlx_6bit", 6.5}, {"mlx_8bit", 8.5}};
constexpr int kDTypeCount = sizeof(kDTypes) / sizeof(kDTypes[0]);
static_assert(kDTypeCount == static_cast<int>(DType::mlx_8bit) + 1, "one entry per DType");

}  // namespace

const char* dtype_name(DType d) { return kDTypes[static_cast<int>(d)].name; }

bool dtype_from_name(const std::string& s, DType* out) {
  for (int i = 0; i < kDTypeCount; ++i) {
    if (s == kDTypes[i].name) {
      *out = static_cast<DType>(i);
      return true;
    }
  }
  return false;
}

std::string dtype_names() {
  std::string out;
  for (int i = 0; i < kDTypeCount; ++i) out += std::string(i ? ", " : "") + kDTypes[i].name;
  return out;
}

double dtype_bytes(DType d) {
  // The 16/8/4-bit formats return exact constants, as before the table existed.
  return kDTypes[static_cast<int>(d)].bits / 8;
}

bool dtype_is_fp4(DType d) { return d == DType::nvfp4 || d == DType::mxfp4; }

bool dtype_is_gguf(DType d) { return d >= DType::q2_k && d <= DType::iq3_xxs; }

bool dtype_is_mlx(DType d) { return d >= DType::mlx_4bit && d <= DType::mlx_8bit; }

bool engine_runs_weights(const std::string& formats, DType d) {
  if (d == DType::fp16 || d == DType::bf16) return true;
  if (formats == "gguf") return dtype_is_gguf(d) || d == DType::mxfp4;  // MXFP4: gpt-oss GGUFs
  if (formats == "mlx") return dtype_is_mlx(d);
  return !dtype_is_gguf(d) && !dtype_is_mlx(d);
}

bool engine_runs_kv(const std::string& formats, DType d) {
  if (d == DType::fp16 || d == DType::bf16) return true;
  if (formats == "gguf") return d == DType::q8_0 || d == DType::q4_0;  // -ctk / -ctv
  if (formats == "mlx") return false;
  return d == DType::fp8 || d == DType::int8;
}

std::vector<std::string> engine_weight_dtypes(const std::string& formats) {
  std::vector<std::string> out;
  for (int i = 0; i < kDTypeCount; ++i)
    if (engine_runs_weights(formats, static_cast<DType>(i))) out.push_back(kDTypes[i].name);
  return out;
}

std::vector<std::string> engine_kv_dtypes(const std::string& formats) {
  std::vector<std::string> out;
  for (int i = 0; i < kDTypeCount; ++i)
    if (engine_runs_kv(formats, static_cast<DType>(i))) out.push_back(kDTypes[i].name);
  return out;
}

DType engine_default_weights(const std::string& formats) {
  if (formats == "gguf") return DType::q4_k_m;
  if (formats == "mlx") return DType::mlx_4bit;
  return DType::fp16;
}

}  // namespace speccalc
