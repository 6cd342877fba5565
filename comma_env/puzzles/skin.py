"""The clinical vocabulary and case record that Telehealth and the PAD-UFES-20 loader share: the
six diagnoses, Fitzpatrick numerals, and `Case`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

DIAGNOSES = ("bcc", "scc", "ack", "sek", "mel", "nev")
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}


@dataclass
class Case:
    """One patient: the true diagnosis, the clinical profile, and the lesion's look."""

    diagnosis: str
    clinical: dict[str, Any]
    lesion: dict[str, Any] = field(default_factory=dict)
    photo_path: str | None = None
