"""Drawing of the ATM: the screen (title, balance, on-screen buttons, status line), the
keypad, and the customer's card with the PIN printed on it."""

from __future__ import annotations

from typing import Any

from PIL import Image

from comma_env.drawing.common import PALETTE, button, canvas, centered_text, text

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


def _on_screen_buttons(draw, state: dict[str, Any]) -> None:
    labels = state["on_screen_buttons"]
    x0, _, x1, y1 = _SCREEN
    if state["screen"] == "amount":
        amounts, rest = labels[:-1], labels[-1:]
        for index, label in enumerate(amounts):
            row, column = divmod(index, 3)
            bx = x0 + 24 + column * 150
            by = 116 + row * 44
            button(draw, (bx, by, bx + 130, by + 38), label, 20, fill=_SCREEN_BUTTON, text_fill=_SCREEN_TEXT)
        labels = rest
    width = 150
    gap = 20
    total = len(labels) * width + (len(labels) - 1) * gap
    start = (x0 + x1 - total) / 2
    for index, label in enumerate(labels):
        bx = start + index * (width + gap)
        button(draw, (bx, y1 - 76, bx + width, y1 - 36), label, 20, fill=_SCREEN_BUTTON, text_fill=_SCREEN_TEXT)


def draw_atm(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas((512, 512), "ATM  -  NORTHBANK")
    x0, y0, x1, y1 = _SCREEN
    draw.rounded_rectangle(_SCREEN, radius=10, fill=(18, 34, 64), outline=PALETTE["frame"], width=5)
    centered_text(draw, (x0, y0 + 8, x1, y0 + 44), _screen_title(state), 22, fill=_SCREEN_TEXT, bold=True)
    screen = state["screen"]
    balance = state["balance"]
    if screen == "balance":
        centered_text(draw, (x0, 100, x1, 150), balance or "", 40, fill=_SCREEN_TEXT, bold=True)
        centered_text(draw, (x0, 150, x1, 178), f"Transaction: {(state['selected_transaction'] or '').capitalize()}", 18, fill=_SCREEN_TEXT)
    elif balance and screen in ("menu", "amount", "confirm"):
        text(draw, (x0 + 24, y0 + 44), f"Balance: {balance}", 16, fill=_SCREEN_TEXT)
    if screen == "pin_entry":
        shown = "  ".join(["*"] * state["pin_digits_entered"] + ["_"] * (4 - state["pin_digits_entered"]))
        draw.rounded_rectangle((156, 110, 356, 162), radius=6, fill=(235, 240, 250))
        centered_text(draw, (156, 110, 356, 162), shown, 30, mono=True, bold=True)
    if screen == "complete":
        centered_text(draw, (x0, 120, x1, 170), "Please take your card.", 22, fill=_SCREEN_TEXT)
    _on_screen_buttons(draw, state)
    if state["status_message"]:
        centered_text(draw, (x0, y1 - 32, x1, y1 - 6), state["status_message"], 16, fill=_STATUS, bold=True)

    # keypad
    for row, keys in enumerate(_KEYPAD_ROWS):
        for column, key in enumerate(keys):
            bx, by = 24 + column * 92, 296 + row * 52
            fill = {"CLEAR": PALETTE["yellow"], "ENTER": PALETTE["green"]}.get(key, PALETTE["button"])
            button(draw, (bx, by, bx + 84, by + 44), key, 16 if len(key) > 1 else 22, fill=fill)

    # the customer's card
    draw.rounded_rectangle((304, 320, 490, 440), radius=12, fill=(32, 110, 170), outline=PALETTE["ink"], width=2)
    text(draw, (318, 330), "DEBIT CARD", 16, fill=PALETTE["white"], bold=True)
    draw.rectangle((318, 356, 352, 380), fill=PALETTE["yellow"])
    draw.rounded_rectangle((318, 392, 476, 428), radius=6, fill=PALETTE["white"])
    centered_text(draw, (318, 392, 476, 428), f"PIN: {state['pin_on_card']}", 20, bold=True, mono=True)
    text(draw, (304, 450), "Your card", 14, fill=PALETTE["frame"])
    return image
