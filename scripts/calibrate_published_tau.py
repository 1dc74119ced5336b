#!/usr/bin/env python3
"""Adds to each EAGLE family's entry of core/data/published-tau.json the top-1 acceptance that
reproduces its tau on the draft tree the rows ran (the paper's tree): "top1" for mean_tau,
"top1_min" / "top1_max" for the rows' spread; to each Medusa entry whose target has a Medusa-1
head-accuracy table, the multiple of that table that does ("scale", "scale_min", "scale_max"). A config drafting another tree takes its tau from
that acceptance on its own draft (core/src/config/paper_tree.hpp) instead of a tau measured on
a bigger (or smaller) tree.

The tree and tau are the core's: `speccalc eval-tree` of the family on the target with no
engine (the research defaults: EAGLE-1's default tree, EAGLE-2/3's dynamic tree of 60/50/48
tokens, depth 6 / 8, top-k 10) under the acceptance row top1 ((1 - top1) s)^r; this script only
bisects on top1. tests/core/paper_tree_test.cpp checks every stored top1 against the core.

Run from the repository root after a native build:  python3 scripts/calibrate_published_tau.py
(scripts/import_published.py runs it after writing the file)."""
import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPECCALC = ROOT / "build" / "native" / "speccalc"
FAMILIES = ("eagle1", "eagle2", "eagle3")
SIBLING_SHARE = 0.627  # config/paper_tree.hpp kSiblingShare (the test checks they agree)
MAX_RANK = 64          # tree.hpp kMaxRank


def row(top1):
    out, left = [], 1.0
    for _ in range(MAX_RANK):
        out.append(top1 * left)
        left *= (1.0 - top1) * SIBLING_SHARE
    return out


def tau_on_paper_tree(family, target, top1):
    """tau of the family's default tree on this target (no engine: the research defaults) under
    the paper row's acceptance, computed by the core (`speccalc eval-tree`)."""
    doc = {"target": target, "method": {"family": family}, "acceptance": {"p": [row(top1)]}}
    out = subprocess.run([str(SPECCALC), "eval-tree", "-"], input=json.dumps(doc),
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("speccalc eval-tree failed: " + out.stderr.strip())
    return json.loads(out.stdout)["tau"]


def top1_for(family, target, tau):
    """Bisection on top1 in [0, 1): tau grows with it. None when tau is out of reach."""
    lo, hi = 0.0, 1.0 - 1e-12
    if tau_on_paper_tree(family, target, hi) < tau:
        return None
    for _ in range(52):
        mid = 0.5 * (lo + hi)
        if tau_on_paper_tree(family, target, mid) < tau:
            lo = mid
        else:
            hi = mid
    return hi


def medusa_scale_for(target, tau):
    """The multiple of the target's Medusa-1 head-accuracy matrix that gives tau on Medusa's
    mc_sim_7b_63 tree: the core's own fit (`speccalc tree-calibrate`, family "scale"). None when
    the target has no head table or tau is out of reach."""
    doc = {"preset": "medusa-mc_sim_7b_63", "tau": tau, "family": "scale",
           "acceptance": {"medusa": target}}
    out = subprocess.run([str(SPECCALC), "tree-calibrate", "-"], input=json.dumps(doc),
                         capture_output=True, text=True)
    return json.loads(out.stdout)["scale"] if out.returncode == 0 else None


def main():
    path = ROOT / "core" / "data" / "published-tau.json"
    doc = json.loads(path.read_text())
    for e in doc["entries"]:
        for key in ("top1", "top1_min", "top1_max", "scale", "scale_min", "scale_max"):
            e.pop(key, None)
        if e["family"] == "medusa":
            fitted = [medusa_scale_for(e["target_id"], e[k]) for k in ("mean_tau", "min_tau", "max_tau")]
            if None not in fitted:
                e["scale"], e["scale_min"], e["scale_max"] = (round(x, 4) for x in fitted)
            continue
        if e["family"] not in FAMILIES:
            continue
        fitted = [top1_for(e["family"], e["target_id"], e[k])
                  for k in ("mean_tau", "min_tau", "max_tau")]
        if None in fitted:
            continue
        # 4 decimals: tau moves < 1e-3 (the published taus have 2), and the page embeds this file.
        e["top1"], e["top1_min"], e["top1_max"] = (round(x, 4) for x in fitted)
    doc["_meta"]["top1"] = ("top1, top1_min, top1_max: the top-1 acceptance (every depth, ranks "
                            "as config/paper_tree.hpp) that gives mean_tau, min_tau, max_tau on "
                            "the paper's draft tree for the target "
                            "(scripts/calibrate_published_tau.py)")
    doc["_meta"]["scale"] = ("scale, scale_min, scale_max (Medusa): the multiple of the target's "
                             "Medusa-1 head-accuracy matrix that gives mean_tau, min_tau, max_tau "
                             "on Medusa's mc_sim_7b_63 tree (scripts/calibrate_published_tau.py)")
    path.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
