#!/usr/bin/env python3
"""Refits the runtime profiles and writes their parameters into core/data/runtimes.json.

The fit itself lives in the core (`speccalc fit`: observations, fast predictor, Nelder-Mead),
so the product, `validate`'s cross-validation and this script share one implementation. This
script only copies the result into the data table, with what each profile was fitted on.

Rerun:  python3 scripts/fit_runtimes.py [--cli build/native/speccalc]
then rebuild (the table is embedded) and rerun until the parameters stop changing (each fit
starts from the stored values; two rounds reach a fixed point).
"""
import argparse
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "native", "speccalc"))
    ap.add_argument("--only", default="", help="comma-separated profile ids to write (default: all)")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    fit = json.loads(subprocess.run([args.cli, "fit"], check=True, capture_output=True, text=True).stdout)
    path = os.path.join(ROOT, "core", "data", "runtimes.json")
    with open(path) as f:
        table = json.load(f)
    by_id = {p["id"]: p for p in fit["profiles"]}
    for prof in table["profiles"]:
        r = by_id.get(prof["id"])
        if only and prof["id"] not in only:
            continue
        if not r:
            continue
        prof["params"] = {k: float(f"{v:.6g}") for k, v in r["params"].items()}
        sources = ", ".join(f"{k}: {v['rows']} rows" for k, v in r["in_sample_by_source"].items())
        tied = ", ".join(f"{a} = {b}" for a, b in r["tied"].items())
        prior = (f" Parameters not fitted here are {r['priors_from']}'s fitted values." if r["priors_from"]
                 else " Parameters not fitted here keep their stated prior values.")
        alone = "".join(f"; {param} fitted alone on the {kind} rows, the others held"
                        for param, kind in r.get("fitted_alone", {}).items())
        prof["fitted_on"] = (f"`speccalc fit` (scripts/fit_runtimes.py): {', '.join(r['fitted'])} fitted"
                             + (f" ({tied})" if tied else "") + f" on {r['observations']} observations ({sources})"
                             + (", step times only (speedup rows held out)" if prof["id"] == "vllm" else "")
                             + alone
                             + f"; mean relative error {r['mean_relative_error_pct']:.2f}%."
                             + prior
                             + (f" unoverlapped_sched_s {r['params']['unoverlapped_sched_s'] * 1e3:.3g} ms is stated,"
                                " not fitted (runtimes.json _meta.unoverlapped_sched)."
                                if r["params"].get("unoverlapped_sched_s") else "")
                             + (f" score_bytes_per_element {r['params']['score_bytes_per_element']:g} is stated,"
                                " not fitted (runtimes.json _meta.score_bytes)."
                                if r["params"].get("score_bytes_per_element") else ""))
    with open(path, "w") as f:
        json.dump(table, f, indent=1)
        f.write("\n")
    for r in fit["profiles"]:
        print(r["id"], {k: round(v, 6) for k, v in r["params"].items() if v}, f"{r['mean_relative_error_pct']:.2f}%")


if __name__ == "__main__":
    main()
