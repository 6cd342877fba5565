"""Drawing of the ATM: the screen (title, balance, on-screen buttons, status line), the
keypad, and the customer's card with the PIN printed on it."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, button, canvas, cell_text, centered_text, text
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
_PIN_FIELD = (318, 392, 476, 428)
_PIN_CHARS = "PIN: 0123456789"
_PIN_ENTRY = (156, 110, 356, 162)
"""The field that shows the PIN digits typed so far."""


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


def _screen_button(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], label: str) -> None:
    button(draw, box, label, 20, fill=_SCREEN_BUTTON, text_fill=_SCREEN_TEXT)


def _machine(draw: ImageDraw.ImageDraw) -> None:
    """The empty screen, the keypad and the card without its PIN."""
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


def _screen_body(draw: ImageDraw.ImageDraw, state: dict[str, Any], amounts: tuple[str, ...]) -> None:
    """The screen's balance, amount buttons or farewell, and the PIN entry field."""
    screen, balance = state["screen"], state["balance"]
    x0, y0, x1, _ = _SCREEN
    if screen == "balance":
        transaction = (state["selected_transaction"] or "").capitalize()
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
    if screen == "pin_entry":
        digits = int(state["pin_digits_entered"])
        shown = "  ".join(["*"] * digits + ["_"] * (4 - digits))
        draw.rounded_rectangle(_PIN_ENTRY, radius=6, fill=(235, 240, 250))
        centered_text(draw, _PIN_ENTRY, shown, 30, mono=True, bold=True)


def draw_atm(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas(AtmPuzzle.image_size, "ATM  -  NORTHBANK", _machine)
    x0, y0, x1, y1 = _SCREEN
    centered_text(draw, (x0, y0 + 8, x1, y0 + 44), _screen_title(state), 22, fill=_SCREEN_TEXT, bold=True)
    labels = tuple(state["on_screen_buttons"])
    amounts: tuple[str, ...] = ()
    if state["screen"] == "amount":  # the amounts in rows on the screen, the last button below them
        amounts, labels = labels[:-1], labels[-1:]
    _screen_body(draw, state, amounts)
    width, gap = 150, 20
    start = (x0 + x1 - (len(labels) * width + (len(labels) - 1) * gap)) / 2
    for index, label in enumerate(labels):
        bx = start + index * (width + gap)
        _screen_button(draw, (bx, y1 - 76, bx + width, y1 - 36), label)
    if state["status_message"]:
        centered_text(draw, (x0, y1 - 32, x1, y1 - 6), state["status_message"], 16, fill=_STATUS, bold=True)
    cell_text(draw, _PIN_FIELD, f"PIN: {state['pin_on_card']}", _PIN_CHARS, 20)
    return image
