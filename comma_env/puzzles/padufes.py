"""Loader for a local copy of PAD-UFES-20 (``puzzle_options={"lesion_source": "padufes", "padufes_root":
...}``): each usable row of ``metadata.csv`` is a `Case` with the real photo; never downloaded."""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from comma_env.puzzles.skin import DIAGNOSES, ROMAN, Case

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
LABEL_ALIASES = {"BOD": "SCC"}
"""Bowen's disease is an in-situ SCC; some releases label it BOD (the original code merges it)."""
CLINICAL_FLAGS = ("itch", "bleed", "grew", "changed", "elevation")


def _flag(value: str | None) -> str:
    """PAD-UFES booleans are 'True', 'False' or 'UNK' (or empty)."""
    text = (value or "").strip().lower()
    return {"true": "yes", "false": "no"}.get(text, "unknown")


def _number(value: str | None) -> float | None:
    try:
        number = float((value or "").strip())
    except ValueError:
        return None
    return None if math.isnan(number) else number


def _diagnosis(value: str | None) -> str | None:
    label = (value or "").strip().upper()
    label = LABEL_ALIASES.get(label, label).lower()
    return label if label in DIAGNOSES else None


def row_to_case(row: dict[str, str], photo: Path) -> Case | None:
    """A Telehealth case from one metadata row, or None when the row is not usable
    (unknown label or age, or a carcinoma without a diameter to apply the 5 mm rule to)."""
    diagnosis = _diagnosis(row.get("diagnostic"))
    age = _number(row.get("age"))
    sizes = [d for d in (_number(row.get("diameter_1")), _number(row.get("diameter_2"))) if d is not None]
    diameter = max(sizes) if sizes else None
    if diagnosis is None or age is None:
        return None
    if diameter is None and diagnosis in ("bcc", "scc"):
        return None
    skin = _number(row.get("fitspatrick"))
    clinical: dict[str, Any] = {
        "age": int(age),
        "skin_type": ROMAN.get(int(skin), "unknown") if skin is not None else "unknown",
        "body_region": (row.get("region") or "unknown").strip().lower() or "unknown",
        "diameter_mm": None if diameter is None else round(float(diameter), 1),
    }
    clinical.update({name: _flag(row.get(name)) for name in CLINICAL_FLAGS})
    return Case(diagnosis=diagnosis, clinical=clinical, photo_path=str(photo))


@dataclass(frozen=True)
class PadUfes:
    """The usable cases of one local PAD-UFES-20 copy."""

    root: Path
    cases: tuple[Case, ...]
    skipped: int

    def sample_case(self, rng: np.random.Generator) -> Case:
        """A uniformly chosen case (a fresh copy, so puzzles never share state)."""
        case = self.cases[int(rng.integers(len(self.cases)))]
        return Case(case.diagnosis, dict(case.clinical), dict(case.lesion), case.photo_path)


def _image_index(root: Path) -> dict[str, Path]:
    index: dict[str, Path] = {}
    for path in sorted(root.rglob("*")):
        if path.suffix.lower() in IMAGE_SUFFIXES and path.is_file():
            index.setdefault(path.name, path)
    return index


@lru_cache(maxsize=4)
def _load(root: Path) -> PadUfes:
    metadata = root / "metadata.csv"
    if not metadata.is_file():
        raise FileNotFoundError(
            f"PAD-UFES-20 metadata not found: {metadata} (expected metadata.csv in the dataset root)"
        )
    images = _image_index(root)
    cases, skipped = [], 0
    with metadata.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = {"diagnostic", "img_id", "age"} - set(reader.fieldnames or ())
        if missing:
            raise ValueError(f"{metadata} lacks the columns {sorted(missing)}; is it PAD-UFES-20's metadata.csv?")
        for row in reader:
            photo = images.get((row.get("img_id") or "").strip())
            case = row_to_case(row, photo) if photo is not None else None
            if case is None:
                skipped += 1
            else:
                cases.append(case)
    if not cases:
        raise ValueError(f"no usable PAD-UFES-20 rows under {root} (rows skipped: {skipped})")
    return PadUfes(root=root, cases=tuple(cases), skipped=skipped)


def load_padufes(root: str | Path) -> PadUfes:
    """Read (once per process) the dataset at `root`."""
    return _load(Path(root).expanduser().resolve())
