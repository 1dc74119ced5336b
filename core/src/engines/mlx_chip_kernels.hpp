// MLX's small-batch quantized kernels depend on the Apple GPU they run on (issue 22): how many
// rows the matrix-vector kernel takes before the tiles, and whether its rows share each
// weight load (qmv_wide). Read from ml-explore/mlx mlx/backend/metal/quantized.cpp (v0.32.1).
#pragma once

#include <string>

#include "speccalc/presets.hpp"
#include "speccalc/runtime.hpp"

namespace speccalc {

// The mlx profile's kernel regime on `gpu` (an Apple preset with apple_gpu_generation), applied
// to `p` before a config's own overrides; false (p untouched) for any other device.
bool apply_mlx_chip_kernels(const Gpu& gpu, RuntimeParams* p);

// What apply_mlx_chip_kernels assumed, for the result's assumptions ("" when it did nothing).
std::string mlx_chip_kernels_text(const Gpu& gpu, const RuntimeParams& p);

}  // namespace speccalc
