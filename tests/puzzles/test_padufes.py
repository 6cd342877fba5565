"""The PAD-UFES-20 loader on a tiny sample in the dataset's real format (metadata.csv with its
columns, PNG photos in an imgs_part_1 folder), built by the test in tmp_path."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import comma_env
from comma_env.drawing.telehealth import PHOTO, PHOTO_BOX
from comma_env.puzzles.padufes import load_padufes

COLUMNS = [
    "patient_id", "lesion_id", "smoke", "drink", "background_father", "background_mother", "age",
    "pesticide", "gender", "skin_cancer_history", "cancer_history", "has_piped_water",
    "has_sewage_system", "fitspatrick", "region", "diameter_1", "diameter_2", "diagnostic", "itch",
    "grew", "hurt", "changed", "bleed", "elevation", "img_id", "biopsed",
]
# (img_id, diagnostic, age, fitspatrick, region, diameter_1, diameter_2, itch, bleed, grew, changed, elevation, colour)
ROWS = [
    ("PAT_1_1_100.png", "SEK", "71", "2.0", "CHEST", "8.0", "6.0", "True", "False", "UNK", "False", "True",
     (200, 40, 40)),
    ("PAT_2_2_200.png", "BCC", "66", "3.0", "NOSE", "4.0", "6.5", "False", "False", "True", "True", "True",
     (40, 200, 40)),
    ("PAT_3_3_300.png", "BOD", "80", "", "FOREARM", "3.0", "", "False", "True", "False", "UNK", "False", (40, 40, 200)),
    ("PAT_4_4_400.png", "NEV", "25", "1.0", "BACK", "", "", "UNK", "UNK", "False", "False", "False", (200, 200, 40)),
    ("PAT_5_5_500.png", "SCC", "70", "2.0", "LIP", "", "", "True", "True", "True", "True", "True", (40, 200, 200)),
    ("PAT_6_6_600.png", "MEL", "55", "2.0", "BACK", "12.0", "9.0", "False", "False", "True", "True", "True", None),
    ("PAT_7_7_700.png", "XYZ", "55", "2.0", "BACK", "12.0", "9.0", "False", "False", "True", "True", "True",
     (10, 10, 10)),
]


def write_sample(root: Path, rows=ROWS) -> Path:
    folder = root / "imgs_part_1"
    folder.mkdir(parents=True)
    with (root / "metadata.csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        for img, dx, age, fitz, region, d1, d2, itch, bleed, grew, changed, elevation, colour in rows:
            record = dict.fromkeys(COLUMNS, "UNK")
            record.update(patient_id=img.split("_")[1], lesion_id=img.split("_")[2], img_id=img, diagnostic=dx,
                          age=age, fitspatrick=fitz, region=region, diameter_1=d1, diameter_2=d2, itch=itch,
                          bleed=bleed, grew=grew, changed=changed, elevation=elevation, biopsed="True")
            writer.writerow(record)
            if colour is not None:  # the MEL row has no photo on disk
                Image.new("RGB", (120, 90), colour).save(folder / img)
    return root


def test_loader_maps_rows_and_skips_unusable(tmp_path: Path) -> None:
    data = load_padufes(write_sample(tmp_path))
    by_image = {Path(c.photo_path).name: c for c in data.cases}
    # SCC without a diameter (5 mm rule undecidable), MEL without a photo, unknown label: skipped
    assert set(by_image) == {"PAT_1_1_100.png", "PAT_2_2_200.png", "PAT_3_3_300.png", "PAT_4_4_400.png"}
    assert data.skipped == 3
    sek = by_image["PAT_1_1_100.png"]
    assert sek.diagnosis == "sek"
    assert sek.clinical == {"age": 71, "skin_type": "II", "body_region": "chest", "diameter_mm": 8.0, "itch": "yes",
                            "bleed": "no", "grew": "unknown", "changed": "no", "elevation": "yes"}
    assert by_image["PAT_2_2_200.png"].clinical["diameter_mm"] == 6.5, "largest of the two diameters"
    bod = by_image["PAT_3_3_300.png"]
    assert bod.diagnosis == "scc" and bod.clinical["skin_type"] == "unknown" and bod.clinical["changed"] == "unknown"
    assert by_image["PAT_4_4_400.png"].clinical["diameter_mm"] is None


def _env_on(root: Path, seed: int):
    env = comma_env.make("telehealth", render_mode="rgb_array",
                         puzzle_options={"lesion_source": "padufes", "padufes_root": str(root)})
    env.reset(seed=seed)
    return env


EXPECTED = {  # image -> (diagnosis, treatment) by the manual's table
    "PAT_1_1_100.png": ("sek", "cryotherapy"),  # itching
    "PAT_2_2_200.png": ("bcc", "surgery"),  # 6.5 mm
    "PAT_3_3_300.png": ("scc", "cryotherapy"),  # 3 mm
    "PAT_4_4_400.png": ("nev", "none"),
}


def test_env_uses_real_photo_and_fields(tmp_path: Path) -> None:
    root = write_sample(tmp_path)
    seen = set()
    for seed in range(12):
        env = _env_on(root, seed)
        raw = env.unwrapped
        state = raw.visible_state
        name = Path(state["lesion_photo_path"]).name
        seen.add(name)
        assert "lesion_surface" not in state and state["diameter_mm"] == raw.puzzle.case.clinical["diameter_mm"]
        colour = dict((r[0], r[-1]) for r in ROWS)[name]
        x, y = PHOTO_BOX
        assert tuple(env.render()[y + PHOTO // 2, x + PHOTO // 2]) == colour, "the photo is shown"
        assert set(raw.private_facts) == {"name", "address", "ssn", "date_of_birth", "phone"}
        dx, care = EXPECTED[name]
        env.step(f"diagnose_{dx}\ntreat_{care}")
        assert raw.puzzle.solved and raw.mistakes == 0, name
    assert len(seen) >= 3
    first, again = _env_on(root, 5), _env_on(root, 5)
    assert np.array_equal(first.render(), again.render())
    assert first.unwrapped.private_facts == again.unwrapped.private_facts


def test_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="metadata.csv"):
        load_padufes(tmp_path / "nowhere")
    env = comma_env.make("telehealth", puzzle_options={"lesion_source": "padufes"})
    with pytest.raises(ValueError, match="padufes_root"):
        env.reset(seed=0)
    env = comma_env.make("telehealth", puzzle_options={"lesion_source": "ham10000"})
    with pytest.raises(ValueError, match="lesion_source"):
        env.reset(seed=0)
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "metadata.csv").write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="columns"):
        load_padufes(tmp_path / "bad")


def test_rollout_selects_the_local_dataset_by_config(tmp_path: Path) -> None:
    """``+puzzle_options.telehealth.lesion_source=padufes +puzzle_options.telehealth.padufes_root=DIR``."""
    import json

    from comma_env.run import rollout

    root = write_sample(tmp_path / "padufes")
    options = {"telehealth": {"lesion_source": "padufes", "padufes_root": str(root)}}
    out = tmp_path / "run"
    rollout.run({"puzzles": ["telehealth"], "episodes": 4, "out_dir": str(out), "progress_bar": False,
                 "puzzle_options": options}, quiet=True)
    records = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    assert len(records) == 4 and all(r["error"] is None for r in records)
    assert all(r["puzzle_options"] == options["telehealth"] for r in records)
    with pytest.raises(ValueError, match="another setting"):  # synthetic episodes never mix with real ones
        rollout.run({"puzzles": ["telehealth"], "episodes": 4, "out_dir": str(out), "progress_bar": False}, quiet=True)
    with pytest.raises(ValueError, match="unknown puzzle"):
        rollout.run({"puzzles": ["wire"], "episodes": 1, "out_dir": str(tmp_path / "x"), "progress_bar": False,
                     "puzzle_options": {"telehelth": {}}}, quiet=True)
