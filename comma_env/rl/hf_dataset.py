"""An exported JSONL as a Hugging Face dataset folder (parquet with `datasets.Image` features and a
dataset card), and its push to the Hub (``--dataset DIR``, ``--push-to-hub USER/NAME``)."""

from __future__ import annotations

import json
import platform
from pathlib import Path
from typing import Any

import comma_env

DATA_FILE = "data/train-00000-of-00001.parquet"


def _rows(jsonl: Path) -> list[dict[str, Any]]:
    """The export's rows with each image file read in as ``{"bytes", "path"}`` (an Image value)."""
    rows = []
    for line in jsonl.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            row["images"] = [{"bytes": (jsonl.parent / name).read_bytes(), "path": Path(name).name}
                             for name in row.get("images") or []]
            if "reply_logprobs" in row:  # optional keys and [token, value] pairs: one JSON string per row
                row["reply_logprobs"] = json.dumps(row["reply_logprobs"]) if row["reply_logprobs"] else None
            rows.append(row)
    return rows


def card(run_dir: Path, fmt: str, rows: list[dict[str, Any]]) -> str:
    """The dataset card: YAML front matter the Hub reads, then what the rows are and where they came from."""
    import datasets
    import yaml

    try:  # the run's settings and provenance
        meta = dict(json.loads((run_dir / "results.json").read_text(encoding="utf-8")).get("meta") or {})
    except (OSError, ValueError, AttributeError):  # no results.json
        meta = {}
    configs = sorted(run_dir.glob("config*.yaml"))
    config = configs[0].read_text(encoding="utf-8") if configs else ""
    provenance = meta.pop("provenance", {})
    # no `configs:` block: with one, `datasets` caches a local folder by its name alone (stale rows)
    front = {"tags": ["comma", "multi-agent", "communication", fmt],
             "size_categories": ["n<1K" if len(rows) < 1000 else "1K<n<10K"]}
    versions = {"comma_env": comma_env.__version__, "datasets": datasets.__version__,
                "python": platform.python_version()}
    puzzles = sorted({str(r["puzzle"]) for r in rows})
    sections = [
        "---", yaml.safe_dump(front, sort_keys=False).strip(), "---", "",
        f"# COMMA trajectories ({fmt})", "",
        f"{len(rows)} rows of the puzzles {', '.join(puzzles)}, exported by `python -m comma_env.export "
        f"--format {fmt}` from a `python -m comma_env.rollout` run. One row is one turn of one role (`role`): "
        "the prompt the rollout sent, the reply, and for `rl` the reward, return-to-go, log-probabilities and token "
        "ids (`token_source` says whether they are the server's or re-tokenized). The solver's pictures are the "
        "`images` column (PNG).", "",
        "## Settings of the run", "", "```json", json.dumps(meta, indent=2, sort_keys=True), "```", "",
        *(["The rollout's configuration (secrets masked by the rollout):", "", "```yaml", config.strip(), "```", ""]
          if config else []),
        "## Versions", "", "```json", json.dumps(versions, indent=2, sort_keys=True), "```", "",
        "## Provenance", "", "```json", json.dumps(provenance, indent=2, sort_keys=True), "```", "",
    ]
    return "\n".join(sections)


def write(jsonl: str | Path, run_dir: str | Path, fmt: str, out_dir: str | Path) -> Path:
    """Write the dataset folder `out_dir` from an export's JSONL (its images beside it); returns it."""
    import datasets

    jsonl, out = Path(jsonl), Path(out_dir)
    rows = _rows(jsonl)
    if not rows:
        raise ValueError(f"{jsonl} has no rows to make a dataset of")
    dataset = datasets.Dataset.from_list(rows)
    dataset = dataset.cast_column("images", datasets.Sequence(datasets.Image()))
    (out / "data").mkdir(parents=True, exist_ok=True)
    dataset.to_parquet(str(out / DATA_FILE))
    (out / "README.md").write_text(card(Path(run_dir), fmt, rows), encoding="utf-8")
    return out


def push(folder: str | Path, repo_id: str) -> str:
    """Create the dataset repository (if needed) and upload the folder; returns the commit's URL."""
    from huggingface_hub import HfApi

    api = HfApi()
    api.create_repo(repo_id, repo_type="dataset", exist_ok=True)
    commit = api.upload_folder(folder_path=str(folder), repo_id=repo_id, repo_type="dataset",
                               commit_message="COMMA trajectories from comma_env.export")
    return str(commit.commit_url)
