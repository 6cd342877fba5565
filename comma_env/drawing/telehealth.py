"""Drawing of the Telehealth screen: the lesion photo, the patient profile card, the step."""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text, font, text
from comma_env.drawing.lesions import LESION_KEYS, render_lesion
from comma_env.puzzles.telehealth import TelehealthPuzzle

PHOTO = 352
PHOTO_BOX = (16, 52)
CARD = (388, 52, 752, 448)


@lru_cache(maxsize=8)  # an instance's photo, the same on every picture of its episode
def _photo(source: tuple[str, Any]) -> Image.Image:
    """The lesion photo of an instance: ("file", path), a real photo (PAD-UFES-20 mode)
    centre-cropped to a square, or ("synthetic", features), the lesion drawn from its words."""
    kind, value = source
    if kind == "synthetic":
        return render_lesion(dict(value), PHOTO)
    with Image.open(value) as opened:
        image = opened.convert("RGB")
        side = min(image.size)
        left, top = (image.width - side) // 2, (image.height - side) // 2
        return image.crop((left, top, left + side, top + side)).resize((PHOTO, PHOTO), Image.Resampling.BILINEAR)


def profile_lines(state: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value) rows of the card, in order; identity first, then clinical data."""
    return [
        ("Name", state["name"]),
        ("Date of birth", state["date_of_birth"]),
        ("SSN", state["ssn"]),
        ("Phone", state["phone"]),
        ("Address", state["address"]),
        ("", ""),
        ("Age", str(state["age"])),
        ("Skin type", f"{state['skin_type']} (Fitzpatrick)"),
        ("Body site", state["body_region"]),
        ("Diameter", "unknown" if state["diameter_mm"] is None else f"{state['diameter_mm']:.1f} mm"),
        ("Itching", str(state["itch"])),
        ("Bleeding", str(state["bleed"])),
        ("Grew recently", str(state["grew"])),
        ("Changed recently", str(state["changed"])),
        ("Raised (elevated)", str(state["elevation"])),
    ]


VALUE_X = CARD[0] + 176
WIDE_VALUE_X = CARD[0] + 28
WIDE_LABELS = ("Address",)
"""Labels whose value goes on the next row, at full card width."""
ROW_HEIGHT, GAP_HEIGHT = 23, 12


def _rows(lines: list[tuple[str, str]]) -> list[tuple[int, str, str]]:
    """(y, label, value) of each card row; an empty label is a separator line."""
    rows, y = [], CARD[1] + 34
    for label, value in lines:
        rows.append((y, label, value))
        y += (2 * ROW_HEIGHT if label in WIDE_LABELS else ROW_HEIGHT) if label else GAP_HEIGHT
    return rows


def status_text(state: dict[str, Any]) -> str:
    if state.get("treatment_given"):
        return (f"Diagnosis recorded: {state['diagnosis_recorded'].upper()}.  "
                f"Treatment chosen: {state['treatment_given']}.")
    if state.get("diagnosis_recorded"):
        return f"Diagnosis recorded: {state['diagnosis_recorded'].upper()}.  Step 2: choose the treatment."
    return "Step 1: choose the diagnosis.  Step 2: choose the treatment."


def _fixed(draw: ImageDraw.ImageDraw) -> None:
    """The photo's frame and caption, the card with its labels, and the status bar."""
    x, y = PHOTO_BOX
    draw.rectangle((x - 3, y - 3, x + PHOTO + 2, y + PHOTO + 2), fill=PALETTE["frame"])
    draw.text((x, y + PHOTO + 8), "Photo of your skin lesion", font=font(15), fill=PALETTE["ink"])
    draw.rounded_rectangle(CARD, radius=8, fill=PALETTE["white"], outline=PALETTE["frame"], width=3)
    draw.text((CARD[0] + 12, CARD[1] + 8), "PATIENT PROFILE", font=font(16, bold=True), fill=PALETTE["frame"])
    for row, label, _ in _rows(profile_lines(defaultdict(str, diameter_mm=None))):
        if label:
            draw.text((CARD[0] + 12, row), f"{label}:", font=font(15, bold=True), fill=PALETTE["frame"])
        else:
            draw.line((CARD[0] + 10, row + 4, CARD[2] - 10, row + 4), fill=PALETTE["panel"], width=2)
    draw.rounded_rectangle((16, 456, 752, 496), radius=8, fill=PALETTE["display"])


def draw_telehealth(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas(TelehealthPuzzle.image_size, "COMMA HEALTH  -  telehealth visit", _fixed)
    if "lesion_photo_path" in state:
        source: tuple[str, Any] = ("file", state["lesion_photo_path"])
    else:  # the feature words, hashable (lists become tuples)
        source = ("synthetic", tuple((key, _hashable(state[key])) for key in LESION_KEYS))
    image.paste(_photo(source), PHOTO_BOX)
    for row, label, value in _rows(profile_lines(state)):
        if label in WIDE_LABELS:  # the value on the next row, at full card width
            text(draw, (WIDE_VALUE_X, row + ROW_HEIGHT), value, 15)
        elif label:
            text(draw, (VALUE_X, row), value, 15)
    centered_text(draw, (16, 456, 752, 496), status_text(state), 17, fill=PALETTE["display_text"], bold=True)
    return image


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value
