"""Drawing of the Telehealth screen: the lesion photo, the patient profile card, the step.

Layers: the photo, the card's values, the status line (the only part a step changes)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text, font, text, text_into
from comma_env.drawing.lesions import LESION_KEYS, lesion_pixels
from comma_env.drawing.scene import Layer, Scene
from comma_env.puzzles.telehealth import TelehealthPuzzle

PHOTO = 352
PHOTO_BOX = (16, 52)
CARD = (388, 52, 752, 448)


@lru_cache(maxsize=8)
def _photo_from_file(path: str, size: int) -> Image.Image:
    """A real photo (PAD-UFES-20 mode), centre-cropped to a square."""
    with Image.open(path) as opened:
        image = opened.convert("RGB")
        side = min(image.size)
        left, top = (image.width - side) // 2, (image.height - side) // 2
        return image.crop((left, top, left + side, top + side)).resize((size, size), Image.Resampling.BILINEAR)


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


@lru_cache(maxsize=2)
def _static_screen(labels: tuple[str, ...]) -> Image.Image:
    """Everything that never changes: frame, title, photo frame, card and its labels."""
    image, draw = canvas(TelehealthPuzzle.image_size, "COMMA HEALTH  -  telehealth visit")
    x, y = PHOTO_BOX
    draw.rectangle((x - 3, y - 3, x + PHOTO + 2, y + PHOTO + 2), fill=PALETTE["frame"])
    draw.text((x, y + PHOTO + 8), "Photo of your skin lesion", font=font(15), fill=PALETTE["ink"])
    draw.rounded_rectangle(CARD, radius=8, fill=PALETTE["white"], outline=PALETTE["frame"], width=3)
    draw.text((CARD[0] + 12, CARD[1] + 8), "PATIENT PROFILE", font=font(16, bold=True), fill=PALETTE["frame"])
    for row, label, _ in _rows([(label, "") for label in labels]):
        if label:
            draw.text((CARD[0] + 12, row), f"{label}:", font=font(15, bold=True), fill=PALETTE["frame"])
        else:
            draw.line((CARD[0] + 10, row + 4, CARD[2] - 10, row + 4), fill=PALETTE["panel"], width=2)
    draw.rounded_rectangle((16, 456, 752, 496), radius=8, fill=PALETTE["display"])
    return image


def status_text(state: dict[str, Any]) -> str:
    if state.get("treatment_given"):
        return (f"Diagnosis recorded: {state['diagnosis_recorded'].upper()}.  "
                f"Treatment chosen: {state['treatment_given']}.")
    if state.get("diagnosis_recorded"):
        return f"Diagnosis recorded: {state['diagnosis_recorded'].upper()}.  Step 2: choose the treatment."
    return "Step 1: choose the diagnosis.  Step 2: choose the treatment."


def _photo_pixels(key: tuple[str, Any]) -> np.ndarray:
    """The photo as a read-only RGB array (cached by the photo's source)."""
    kind, source = key
    if kind == "file":
        return _file_pixels(source, PHOTO)
    return lesion_pixels(dict(source), PHOTO)


@lru_cache(maxsize=8)
def _file_pixels(path: str, size: int) -> np.ndarray:
    pixels = np.asarray(_photo_from_file(path, size))
    pixels.flags.writeable = False
    return pixels


def _paint_photo(image: Image.Image, draw: ImageDraw.ImageDraw, key: tuple[str, Any]) -> None:
    image.paste(Image.fromarray(_photo_pixels(key), "RGB"), PHOTO_BOX)


_paint_photo.pixels = _photo_pixels  # type: ignore[attr-defined]  # opaque raster: copied, not drawn


def _paint_value(image: Image.Image, draw: ImageDraw.ImageDraw, placed: tuple[int, int, str]) -> None:
    x, y, value = placed
    text(draw, (x, y), value, 15)


def _value_box(x: int, y: int) -> tuple[int, int, int, int]:
    """The box of the value written at (x, y): its row, from just left of it to the card's edge."""
    return x - 4, y, CARD[2] - 3, y + ROW_HEIGHT


@lru_cache(maxsize=4)
def _plain_card(height: int, width: int) -> np.ndarray:
    """A blank piece of the card (copied: a memcpy, far cheaper than filling from a colour)."""
    pixels = np.empty((height, width, 3), dtype=np.uint8)
    pixels[:] = PALETTE["white"]
    pixels.flags.writeable = False
    return pixels


@lru_cache(maxsize=1024)
def _value_pixels(placed: tuple[int, int, str]) -> np.ndarray:
    """`_paint_value`'s box as a read-only RGB array, written with numpy (the box lies on the
    card's plain white: a new patient's name, address and numbers cost no Pillow image)."""
    x, y, value = placed
    x0, y0, x1, y1 = _value_box(x, y)
    pixels = _plain_card(y1 - y0, x1 - x0).copy()
    text_into(pixels, (x - x0, y - y0), value, 15, background=PALETTE["white"])
    pixels.flags.writeable = False
    return pixels


_paint_value.pixels = _value_pixels  # type: ignore[attr-defined]  # opaque raster: copied, not drawn


def _value_layers(lines: list[tuple[str, str]]) -> dict[str, Layer]:
    """One layer per card value, boxed to its own row: a new patient repaints only the
    rows' value areas (not the whole card), and values that recur across patients (yes/no
    answers, skin types) come from `_value_pixels`' own cache without drawing."""
    return {name: Layer(box, (x, y, value), _paint_value)
            for (name, x, y, box), (_, value) in zip(_value_places(), lines, strict=True) if name}


@lru_cache(maxsize=1)
def _value_places() -> tuple[tuple[str, int, int, tuple[int, int, int, int]], ...]:
    """(layer name, x, y, box) of each card row's value ("" for the separator): the card's
    layout is fixed, so it is computed once."""
    places = []
    for row, label, _ in _rows([(label, "") for label in _LABELS]):
        x, y = (WIDE_VALUE_X, row + ROW_HEIGHT) if label in WIDE_LABELS else (VALUE_X, row)
        places.append((f"value {label}" if label else "", x, y, _value_box(x, y)))
    return tuple(places)


def _paint_status(image: Image.Image, draw: ImageDraw.ImageDraw, message: str) -> None:
    centered_text(draw, (16, 456, 752, 496), message, 17, fill=PALETTE["display_text"], bold=True)


_LABELS = tuple(label for label, _ in profile_lines(dict(dict.fromkeys(
    ("name", "date_of_birth", "ssn", "phone", "address", "age", "skin_type", "body_region", "itch", "bleed",
     "grew", "changed", "elevation"), ""), diameter_mm=None)))


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    return _static_screen(_LABELS)


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    if "lesion_photo_path" in state:
        photo: tuple[str, Any] = ("file", state["lesion_photo_path"])
    else:
        photo = ("synthetic", tuple((k, _hashable(state[k])) for k in LESION_KEYS))
    x, y = PHOTO_BOX
    lines = profile_lines(state)
    if tuple(label for label, _ in lines) != _LABELS:
        raise ValueError("the profile card's labels changed: update _LABELS")
    return {
        "photo": Layer((x, y, x + PHOTO, y + PHOTO), photo, _paint_photo),
        **_value_layers(lines),
        "status": _status_layer(status_text(state)),
    }


@lru_cache(maxsize=64)
def _status_layer(text: str) -> Layer:
    """Made once per text and reused: the scene and the patch cache recognise it by identity."""
    return Layer((19, 459, 750, 494), text, _paint_status)


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


draw_telehealth = Scene(TelehealthPuzzle.image_size, _background, _layers)
