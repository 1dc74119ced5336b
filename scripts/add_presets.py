#!/usr/bin/env python3
"""Adds (or replaces) model presets in core/data/models.json from scripts/preset_configs.py by
id, without re-running the one-off importer (core/data/models.json has reviewed hand edits since
that import). Strips what the importer strips: keys the core never reads stay in
preset_configs.py, and each source is cut to its first parenthesis (first-load budget).

  python3 scripts/add_presets.py qwen3-235b-a22b kimi-k2-instruct
"""
import json, pathlib, sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from preset_configs import HEADS, NEW_DRAFTS, NEW_TARGETS  # noqa: E402
from import_presets import first_source  # noqa: E402

MODELS = pathlib.Path(__file__).resolve().parents[1] / "core" / "data" / "models.json"
STRIPPED = ("confidence", "notes", "published_params", "total_params")


def compiled(entry):
    e = {k: v for k, v in entry.items() if k not in STRIPPED}
    if e.get("source") is not None:
        e["source"] = first_source(e["source"])
    return e


def main(ids):
    data = json.loads(MODELS.read_text())
    for pid in ids:
        for table, presets in (("targets", NEW_TARGETS), ("drafts", NEW_DRAFTS)):
            found = [p for p in presets if p["id"] == pid]
            if not found:
                continue
            rows = data[table]
            at = [i for i, r in enumerate(rows) if r["id"] == pid]
            if at:
                rows[at[0]] = compiled(found[0])
            else:
                rows.append(compiled(found[0]))
            break
        else:
            sys.exit(f"add_presets: no preset '{pid}' in scripts/preset_configs.py")
    # Heads: preset_configs.py's entries the table lacks are appended (the table also holds
    # reviewed hand-added heads, which stay).
    have = {(h["family"], h["target"], h["repo_id"]) for h in data["heads"]}
    data["heads"] += [h for h in HEADS if (h["family"], h["target"], h["repo_id"]) not in have]
    MODELS.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
