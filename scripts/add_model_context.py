#!/usr/bin/env python3
"""Copies each preset's max_position_embeddings from core/data/model-context.json (the cited,
quoted values) into core/data/models.json (targets and drafts), which the core embeds.
Idempotent; run after scripts/import_presets.py, which does not carry the field.
Usage: python3 scripts/add_model_context.py"""
import json
import pathlib

DATA = pathlib.Path(__file__).resolve().parents[1] / "core" / "data"


def main():
    context = json.loads((DATA / "model-context.json").read_text())["models"]
    path = DATA / "models.json"
    models = json.loads(path.read_text())
    seen = set()
    for group in ("targets", "drafts"):
        for m in models[group]:
            entry = context.get(m["id"])
            if entry is None:
                m.pop("max_position_embeddings", None)
                continue
            m["max_position_embeddings"] = entry["max_position_embeddings"]
            seen.add(m["id"])
    unknown = sorted(set(context) - seen)
    if unknown:
        raise SystemExit(f"model-context.json names ids models.json lacks: {unknown}")
    path.write_text(json.dumps(models, indent=1, ensure_ascii=False) + "\n")
    print(f"max_position_embeddings set on {len(seen)} presets")


if __name__ == "__main__":
    main()
