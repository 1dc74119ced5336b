#include "engines/mlx_chip_kernels.hpp"

#include "config/json_fields.hpp"

namespace speccalc {

namespace {

// get_qmv_batch_limit (v0.32.1) for matrices wider than 4096 (an 8B model's MLP and above, the
// bulk of the bytes): the tiles (qmm) run once M reaches the limit, so the vector kernel takes
// limit - 1 rows. Generation 15+ (M3, M4) other than an Ultra: 13; an Ultra: 12; generation 13-14
// (M1, M2): 6.
double vector_rows(const Gpu& gpu) {
  if (gpu.apple_gpu_ultra) return 11;
  return gpu.apple_gpu_generation >= 15 ? 12 : 5;
}

// use_qmv_wide: "affine qmv_wide only beats qmv on gen-15+": below, each further row runs the
// plain vector kernel.
bool wide(const Gpu& gpu) { return gpu.apple_gpu_generation >= 15; }

}  // namespace

bool apply_mlx_chip_kernels(const Gpu& gpu, RuntimeParams* p) {
  if (gpu.apple_gpu_generation <= 0) return false;
  p->matvec_max_rows = vector_rows(gpu);
  // The fitted overlap is qmv_wide's (ml-explore/mlx issue #3852, an M4 Pro); without it no
  // stored timing says how rows grow: priced as llama.cpp's vector kernels are, each row added.
  if (!wide(gpu)) p->matvec_overlap = 0;
  return true;
}

std::string mlx_chip_kernels_text(const Gpu& gpu, const RuntimeParams& p) {
  if (gpu.apple_gpu_generation <= 0) return "";
  // The values priced (a config's override included), with what the chip's rule says of them.
  const std::string overlap = fields::format_significant(p.matvec_overlap);
  return "MLX on " + gpu.name + " (Apple GPU generation " +
         std::to_string(gpu.apple_gpu_generation) + (gpu.apple_gpu_ultra ? ", an Ultra" : "") +
         "): quantized matrix-vector kernels up to " +
         std::to_string(static_cast<int64_t>(p.matvec_max_rows)) +
         " rows, then 32-row tiles (mlx quantized.cpp get_qmv_batch_limit, v0.32.1, matrices "
         "wider than 4096); " +
         (wide(gpu)
              ? "this generation runs qmv_wide, whose rows share each weight load "
                "(matvec_overlap " +
                    overlap + "; fitted on an M4 Pro's multiplies, ml-explore/mlx issue #3852)"
              : "no qmv_wide on this generation (use_qmv_wide: generation 15+): each row "
                "past the first priced as adding its compute (matvec_overlap " +
                    overlap +
                    "), an assumption: no stored timing of MLX on this generation has "
                    "more than one row");
}

}  // namespace speccalc
