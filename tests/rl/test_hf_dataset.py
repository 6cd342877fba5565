"""The export as a Hugging Face dataset: a folder `datasets` loads (images as Image features,
a dataset card with settings, versions and provenance), pushed with `--push-to-hub` through
`huggingface_hub` to a loopback stand-in of the Hub that records the calls."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

datasets = pytest.importorskip("datasets")
yaml = pytest.importorskip("yaml")

import comma_env  # noqa: E402
from comma_env.run import rollout  # noqa: E402
from tests.support.hub_server import HubServer  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_the_export_writes_a_dataset_and_pushes_it_to_the_hub(tmp_path):
    run = tmp_path / "run"
    rollout.run({"puzzles": ["wire", "who"], "episodes": 2, "out_dir": str(run), "progress_bar": False,
                 "model": {"kind": "oracle", "name": "oracle_nl", "extra": {"style": "natural"}}}, quiet=True)
    folder = tmp_path / "dataset"
    with HubServer() as hub:
        env = dict(os.environ, HF_ENDPOINT=hub.url, HF_TOKEN="hf_loopback", HF_HUB_DISABLE_TELEMETRY="1")
        done = subprocess.run([sys.executable, "-m", "comma_env.export", str(run), "--format", "rl", "--dataset",
                               str(folder), "--push-to-hub", "someone/comma-rl"], capture_output=True, text=True,
                              timeout=300, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "pushed to " + hub.url + "/datasets/someone/comma-rl/commit/" in done.stdout

    rows = [json.loads(line) for line in (run / "export" / "rl.jsonl").read_text().splitlines()]
    loaded = datasets.load_dataset(str(folder), split="train")
    assert len(loaded) == len(rows) and loaded.features["images"] == datasets.List(datasets.Image())
    with_images = [i for i, row in enumerate(rows) if row["images"]]
    assert with_images and any(not row["images"] for row in rows)  # the solver's turns carry its picture
    for i in with_images[:5]:
        picture = loaded[i]["images"][0]
        on_disk = Image.open(run / "export" / rows[i]["images"][0])
        assert np.array_equal(np.asarray(picture.convert("RGB")), np.asarray(on_disk.convert("RGB")))
    assert loaded[0]["prompt"] == rows[0]["prompt"] and loaded[0]["reward"] == rows[0]["reward"]

    text = (folder / "README.md").read_text()
    front = yaml.safe_load(text.split("---")[1])
    assert "rl" in front["tags"] and (folder / "data" / "train-00000-of-00001.parquet").is_file()
    meta = json.loads((run / "results.json").read_text())["meta"]
    assert f'"comma_env": "{comma_env.__version__}"' in text and f'"datasets": "{datasets.__version__}"' in text
    assert meta["provenance"]["git"]["commit"] in text and '"solver": "oracle_nl"' in text
    assert "oracle_nl" in text.split("```yaml")[1]  # the rollout's config

    create, validate, preupload, commit = hub.calls
    assert create == ("POST", "/api/repos/create", {"name": "comma-rl", "organization": "someone", "type": "dataset"})
    assert validate[1] == "/api/validate-yaml" and preupload[1] == "/api/datasets/someone/comma-rl/preupload/main"
    assert commit[1] == "/api/datasets/someone/comma-rl/commit/main"
    files = {line["value"]["path"]: base64.b64decode(line["value"]["content"]) for line in commit[2]
             if line["key"] == "file"}
    assert files == {name: (folder / name).read_bytes() for name in ("README.md", "data/train-00000-of-00001.parquet")}


def test_two_exports_under_one_folder_name_load_their_own_rows(tmp_path):
    """`datasets` must not serve one export's cached rows for another folder of the same name."""
    sizes = {}
    for episodes in (1, 2):
        run = tmp_path / f"run{episodes}"
        rollout.run({"puzzles": ["wire"], "episodes": episodes, "out_dir": str(run), "progress_bar": False,
                     "model": {"kind": "oracle", "name": "oracle"}}, quiet=True)
        folder = tmp_path / f"place{episodes}" / "dataset"
        done = subprocess.run([sys.executable, "-m", "comma_env.export", str(run), "--format", "rl", "--dataset",
                               str(folder)], capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert done.returncode == 0, done.stderr[-3000:]
        rows = (run / "export" / "rl.jsonl").read_text().splitlines()
        sizes[episodes] = (len(rows), len(datasets.load_dataset(str(folder), split="train")))
    assert sizes[1][0] < sizes[2][0] and all(written == loaded for written, loaded in sizes.values())
