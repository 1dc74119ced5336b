// What Sequoia's tree code does on the host per speculative cycle outside the model's passes:
// the code that runs SpS token trees (Sequoia's trees, SpecInfer's merged chains) in research
// code. HF's assisted generation, which host_ops.cpp counts for SpS, drafts chains only.
// Counted in Infini-AI-Lab/Sequoia @0ff3ff7 (docs/host-ops.md, "Sequoia's tree code"):
// Tree/GreedyTree.py at temperature 0 (tests/testbed_greedy.py), Tree/SpecTree.py at
// temperature > 0 (tests/testbed.py), the top-p filter off as tests/run_A100.sh runs them.
// Conventions as host_ops.cpp: one op per torch call that launches a kernel or copies a Python
// list to the GPU, a graph replay one op; one sync per tensor truthiness.
#pragma once

#include <cstdint>

#include "model/host_ops.hpp"
#include "speccalc/tree.hpp"

namespace speccalc {

// Per cycle over the verified tree `t` with acceptance `a` (the acceptance walk in
// expectation), `levels` = draft passes per cycle (one per tree level with expanded nodes,
// the root's level included: Sequoia's grow steps + the pass over the bonus token).
// temperature 0: GreedyTree's argmax match; > 0: SpecTree's rejection sampling.
HostOps sequoia_host_ops(const tree::Tree& t, const tree::AcceptanceMatrix& a, int64_t levels,
                         double temperature);

}  // namespace speccalc
