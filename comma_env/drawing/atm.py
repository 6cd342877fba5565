"""Drawing of the ATM: the screen (title, balance, on-screen buttons, status line), the
keypad, and the customer's card with the PIN printed on it.

Layers: the screen's title, body, button row, status line and PIN entry field, and the PIN
on the card;
the keypad and the rest of the card never change. The PIN is new in every instance, so it
is made of cached character cells (`comma_env.drawing.cell_text`): a reset copies nine
cells instead of rendering a line of text."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.cell_text import cell_text_layer
from comma_env.drawing.common import PALETTE, button, canvas, centered_text, text
from comma_env.drawing.scene import Layer, Scene
from comma_env.puzzles.atm import AtmPuzzle

_SCREEN = (20, 44, 492, 282)
_KEYPAD_ROWS = (("1", "2", "3"), ("4", "5", "6"), ("7", "8", "9"), ("CLEAR", "0", "ENTER"))
_TITLES = {
    "menu": "Choose a transaction",
    "balance": "Available balance",
    "complete": "Thank you",
}
_SCREEN_BUTTON = (60, 90, 110)  # dark blue on-screen buttons
_SCREEN_TEXT = (235, 240, 250)
_STATUS = (250, 210, 90)


def _screen_title(state: dict[str, Any]) -> str:
    kind = (state["selected_transaction"] or "").capitalize()
    screen = state["screen"]
    if screen == "pin_entry":
        return f"{kind}: enter your PIN"
    if screen == "amount":
        return f"{kind}: choose an amount"
    if screen == "confirm":
        return f"Confirm: {kind} {state['selected_amount']}?"
    return _TITLES[screen]


_PIN_FIELD = (318, 392, 476, 428)
_PIN_CHARS = "PIN: 0123456789"


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    """The frame, the empty screen, the keypad and the card without its PIN."""
    image, draw = canvas(AtmPuzzle.image_size, "ATM  -  NORTHBANK")
    draw.rounded_rectangle(_SCREEN, radius=10, fill=(18, 34, 64), outline=PALETTE["frame"], width=5)
    for row, keys in enumerate(_KEYPAD_ROWS):
        for column, key in enumerate(keys):
            bx, by = 24 + column * 92, 296 + row * 52
            fill = {"CLEAR": PALETTE["yellow"], "ENTER": PALETTE["green"]}.get(key, PALETTE["button"])
            button(draw, (bx, by, bx + 84, by + 44), key, 16 if len(key) > 1 else 22, fill=fill)
    draw.rounded_rectangle((304, 320, 490, 440), radius=12, fill=(32, 110, 170), outline=PALETTE["ink"], width=2)
    text(draw, (318, 330), "DEBIT CARD", 16, fill=PALETTE["white"], bold=True)
    draw.rectangle((318, 356, 352, 380), fill=PALETTE["yellow"])
    draw.rounded_rectangle(_PIN_FIELD, radius=6, fill=PALETTE["white"])
    text(draw, (304, 450), "Your card", 14, fill=PALETTE["frame"])
    return image


def _screen_button(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], label: str) -> None:
    button(draw, box, label, 20, fill=_SCREEN_BUTTON, text_fill=_SCREEN_TEXT)


def _paint_title(image: Image.Image, draw: ImageDraw.ImageDraw, title: str) -> None:
    x0, y0, x1, _ = _SCREEN
    centered_text(draw, (x0, y0 + 8, x1, y0 + 44), title, 22, fill=_SCREEN_TEXT, bold=True)


BodyKey = tuple[str, "str | None", str, tuple[str, ...]]
"""(screen, balance, transaction, amount buttons) of the screen body."""

_PIN_ENTRY = (156, 110, 356, 162)
"""The field that shows the PIN digits typed so far (a layer of its own: a key press
repaints the field, not the screen)."""


def _paint_body(image: Image.Image, draw: ImageDraw.ImageDraw, key: BodyKey) -> None:
    screen, balance, transaction, amounts = key
    x0, y0, x1, _ = _SCREEN
    if screen == "balance":
        centered_text(draw, (x0, 100, x1, 150), balance or "", 40, fill=_SCREEN_TEXT, bold=True)
        centered_text(draw, (x0, 150, x1, 178), f"Transaction: {transaction}", 18, fill=_SCREEN_TEXT)
    elif balance and screen in ("menu", "amount", "confirm"):
        text(draw, (x0 + 24, y0 + 44), f"Balance: {balance}", 16, fill=_SCREEN_TEXT)
    if screen == "complete":
        centered_text(draw, (x0, 120, x1, 170), "Please take your card.", 22, fill=_SCREEN_TEXT)
    for index, label in enumerate(amounts):
        row, column = divmod(index, 3)
        bx = x0 + 24 + column * 150
        by = 116 + row * 44
        _screen_button(draw, (bx, by, bx + 130, by + 38), label)


def _paint_pin_entry(image: Image.Image, draw: ImageDraw.ImageDraw, digits: int | None) -> None:
    if digits is not None:  # None: not on the PIN screen
        shown = "  ".join(["*"] * digits + ["_"] * (4 - digits))
        draw.rounded_rectangle(_PIN_ENTRY, radius=6, fill=(235, 240, 250))
        centered_text(draw, _PIN_ENTRY, shown, 30, mono=True, bold=True)


def _paint_button_row(image: Image.Image, draw: ImageDraw.ImageDraw, labels: tuple[str, ...]) -> None:
    x0, _, x1, y1 = _SCREEN
    width, gap = 150, 20
    total = len(labels) * width + (len(labels) - 1) * gap
    start = (x0 + x1 - total) / 2
    for index, label in enumerate(labels):
        bx = start + index * (width + gap)
        _screen_button(draw, (bx, y1 - 76, bx + width, y1 - 36), label)


def _paint_status(image: Image.Image, draw: ImageDraw.ImageDraw, message: str) -> None:
    x0, _, x1, y1 = _SCREEN
    if message:
        centered_text(draw, (x0, y1 - 32, x1, y1 - 6), message, 16, fill=_STATUS, bold=True)


_INNER_LEFT, _INNER_RIGHT = _SCREEN[0] + 5, _SCREEN[2] - 4


# Each layer is made once per key and reused: the scene and the patch cache recognise an
# unchanged layer, and find a changed one's patch, by identity (no key to hash).
@lru_cache(maxsize=256)
def _title_layer(title: str) -> Layer:
    return Layer((_INNER_LEFT, _SCREEN[1] + 5, _INNER_RIGHT, _SCREEN[1] + 44), title, _paint_title)


@lru_cache(maxsize=256)
def _body_layer(body: BodyKey) -> Layer:
    return Layer((_INNER_LEFT, _SCREEN[1] + 44, _INNER_RIGHT, _SCREEN[3] - 77), body, _paint_body)


@lru_cache(maxsize=8)
def _pin_entry_layer(digits: int | None) -> Layer:
    return Layer((_PIN_ENTRY[0], _PIN_ENTRY[1], _PIN_ENTRY[2] + 1, _PIN_ENTRY[3] + 1), digits, _paint_pin_entry)


@lru_cache(maxsize=64)
def _buttons_layer(labels: tuple[str, ...]) -> Layer:
    return Layer((_INNER_LEFT, _SCREEN[3] - 77, _INNER_RIGHT, _SCREEN[3] - 34), labels, _paint_button_row)


@lru_cache(maxsize=64)
def _status_layer(message: str) -> Layer:
    return Layer((_INNER_LEFT, _SCREEN[3] - 34, _INNER_RIGHT, _SCREEN[3] - 4), message, _paint_status)


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    labels = tuple(state["on_screen_buttons"])
    amounts: tuple[str, ...] = ()
    if state["screen"] == "amount":
        amounts, labels = labels[:-1], labels[-1:]
    body = (state["screen"], state["balance"], (state["selected_transaction"] or "").capitalize(), amounts)
    digits = int(state["pin_digits_entered"]) if state["screen"] == "pin_entry" else None
    return {
        "title": _title_layer(_screen_title(state)),
        "body": _body_layer(body),
        "pin_entry": _pin_entry_layer(digits),
        "buttons": _buttons_layer(labels),
        "status": _status_layer(state["status_message"] or ""),
        **cell_text_layer("pin", _PIN_FIELD, f"PIN: {state['pin_on_card']}", _PIN_CHARS, 20, _background),
    }


draw_atm = Scene(AtmPuzzle.image_size, _background, _layers)
