#!/usr/bin/env python3
"""Writes core/data/validation-bands.json from `speccalc validate`'s `bands` (the held-out error
per engine profile and method family that eval reports as `fidelity`). Run after a change to
the published table, the engine measurements or the fitting; the core test
Fidelity.EmbeddedTableEqualsAFreshValidation fails until the file is regenerated.
Usage: python3 scripts/validation_bands.py [path/to/speccalc]"""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
cli = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build/native/speccalc")
report = json.loads(subprocess.run([cli, "validate"], check=True, capture_output=True, text=True).stdout)
doc = {
    "_meta": {
        "what": "held-out error of the speedup prediction per engine profile and method family "
        "(rows, mape_pct, mean_error_pct = bias, max_abs_error_pct, basis), as `speccalc validate` "
        "reports it under `bands`; eval's `fidelity` reads it. `time_checks`: the stacks' own "
        "plain-decoding step times that are never fitted (validate's engines.time_checks; kind "
        "serving_tpot: a serving benchmark's mean time per output token at `concurrency` requests "
        "of input_tokens / output_tokens, priced by the load model), with "
        "the stored profile's prediction and the date the stack was measured where the source gives it "
        "(measured_on): eval's `fidelity` names a large miss for its engine and target",
        "generated_by": "scripts/validation_bands.py",
    },
    "bands": report["bands"],
    "time_checks": [
        {k: c[k] for k in ("id", "source", "engine", "kind", "target", "hardware", "gpus", "batch",
                           "concurrency", "input_tokens", "output_tokens", "measured_on",
                           "measured_s", "predicted_s", "error_pct") if k in c}
        for c in report["engines"]["time_checks"]
    ],
}
(ROOT / "core/data/validation-bands.json").write_text(json.dumps(doc, indent=1) + "\n")
