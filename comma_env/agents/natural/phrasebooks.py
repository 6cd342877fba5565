"""How the natural-language oracle expert words the manual's advice, and how the oracle
solver understands that wording against what it sees, one phrasebook per puzzle.

The expert never writes an action name: it refers to things the solver can see (the third
wire, the button that says "FIRST", the square in row 2, column 3, the "♠" symbol), with a
seeded choice among several wordings. The solver resolves each reference against its own
view of the puzzle (a label to the button that shows it, "the last wire" to the wire count,
a colour to the only wire of that colour), so a learner in the solver's seat cannot succeed
by copying tokens.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import numpy as np

from comma_env.agents.natural.words import (
    choose,
    number,
    ordinal,
    position_words,
    quoted,
    read_count,
    read_number_after,
    read_ordinal,
    read_position,
    times,
    unquoted,
)
from comma_env.protocol.puzzle import Puzzle

State = dict[str, Any]


class Phrasebook:
    """Words advice for one puzzle (`say`) and reads it back (`understand`)."""

    def say(self, advice: list[str], seen: State, rng: np.random.Generator) -> list[str]:
        """One sentence per instruction; runs of the same action become one sentence with a
        count ("go forward three squares")."""
        sentences: list[str] = []
        index = 0
        while index < len(advice):
            action = advice[index]
            count = 1
            while self.countable(action) and index + count < len(advice) and advice[index + count] == action:
                count += 1
            sentences.append(self.instruction(action, count, seen, rng))
            index += count
        return sentences

    def countable(self, action: str) -> bool:
        return False

    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        raise NotImplementedError

    def understand(self, line: str, state: State) -> list[str]:
        """The actions one line of advice asks for, resolved against `state` ([] if none)."""
        raise NotImplementedError


class WirePhrases(Phrasebook):
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        k = int(action.rsplit("_", 1)[1])
        colors = seen["wire_colors_top_to_bottom"]
        color = colors[k - 1]
        options = [
            f"Cut the {ordinal(k, rng)} wire.",
            f"The one you want is wire {number(k, rng)}.",
            f"Snip the {ordinal(k, rng)} wire from the top.",
            f"Cut the {color} wire, the {ordinal(k, rng)} one from the top.",
            f"Go for wire number {number(k, rng)}.",
        ]
        if k == len(colors):
            options.append(choose(rng, ("Cut the last wire.", "Cut the bottom wire, the last one.")))
        if colors.count(color) == 1:
            options.append(choose(rng, (f"Cut the {color} wire.", f"Cut the only {color} wire.")))
        return choose(rng, options)

    def understand(self, line: str, state: State) -> list[str]:
        colors = state["wire_colors_top_to_bottom"]
        text = unquoted(line).lower()
        if "wire" not in text and "one" not in text:
            return []
        if re.search(r"\b(last|bottom)\b", text):
            k: int | None = len(colors)
        else:
            k = read_ordinal(text) or read_number_after(text, "wire")
        if k is None:
            named = [c for c in set(colors) if re.search(rf"\b{re.escape(c)}\b", text)]
            if len(named) == 1 and colors.count(named[0]) == 1:
                k = colors.index(named[0]) + 1
        return [f"cut_wire_{k}"] if k and 1 <= k <= len(colors) else []


class LabelledButtonPhrases(Phrasebook):
    """Buttons at named positions that show a label, symbol or letter (Who, Keypad, LED)."""

    field: ClassVar[str]
    noun: ClassVar[str]

    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        position = action.removeprefix("press_")
        shown = seen[self.field][position]
        where = position_words(position, rng)
        options = [
            f'Press the button that says "{shown}", {where}.',
            f"Press the {where} button.",
            f'The one you want is "{shown}", {where}.',
            f'Go for the {where} one, the button showing "{shown}".',
        ]
        if list(seen[self.field].values()).count(shown) == 1:  # the label alone identifies it
            options += [f'Press the button with the {self.noun} "{shown}".', f'Hit "{shown}".']
        return choose(rng, options)

    def understand(self, line: str, state: State) -> list[str]:
        shown = state[self.field]
        for text in quoted(line):
            matches = [position for position, value in shown.items() if str(value) == text]
            if len(matches) == 1:
                return [f"press_{matches[0]}"]
        position = read_position(line)
        return [f"press_{position}"] if position in shown else []


class WhoPhrases(LabelledButtonPhrases):
    field = "button_labels"
    noun = "label"


class KeypadPhrases(LabelledButtonPhrases):
    field = "button_symbols"
    noun = "symbol"


class LedPhrases(LabelledButtonPhrases):
    field = "button_letters"
    noun = "letter"


class MemoryPhrases(Phrasebook):
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        k = int(action.rsplit("_", 1)[1])
        labels = seen["button_labels_left_to_right"]
        label = labels[k - 1]
        options = [
            f"Press the {ordinal(k, rng)} button from the left.",
            f"Press the button in position {number(k, rng)}.",
            f'Hit the {ordinal(k, rng)} button, the one showing "{label}".',
        ]
        if labels.count(label) == 1:
            options += [f'Press the button labelled "{label}".', f'Press "{label}".']
        return choose(rng, options)

    def understand(self, line: str, state: State) -> list[str]:
        labels = [str(v) for v in state["button_labels_left_to_right"]]
        for text in quoted(line):
            if labels.count(text) == 1:
                return [f"press_position_{labels.index(text) + 1}"]
        k = read_ordinal(line) or read_number_after(line, "position")
        return [f"press_position_{k}"] if k and 1 <= k <= len(labels) else []


class PasswordPhrases(Phrasebook):
    def countable(self, action: str) -> bool:
        return action.startswith("cycle_")

    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        if action == "submit":
            return choose(rng, ("Send the word in.", "Enter the word now.", "Lock in the word.",
                                "That spells the password: enter it."))
        up = action.startswith("cycle_up_")
        k = int(action.rsplit("_", 1)[1])
        direction = choose(rng, ("up", "forward", "upward")) if up else choose(rng, ("down", "back", "downward"))
        return choose(rng, (
            f"Cycle the {ordinal(k, rng)} letter {direction} {times(count, rng)}.",
            f"Roll window {number(k, rng)} {direction} {times(count, rng)}.",
            f"Scroll the {ordinal(k, rng)} window {direction}, {times(count, rng)}.",
        ))

    def understand(self, line: str, state: State) -> list[str]:
        text = unquoted(line).lower()
        if re.search(r"\b(send|enter|lock in)\b", text) and "word" in text or "spells the password" in text:
            return ["submit"]
        k = read_ordinal(text) or read_number_after(text, "window|letter")
        windows = len(state["letters_shown_left_to_right"])
        if not k or not 1 <= k <= windows:
            return []
        if re.search(r"\b(up|upward|forward)\b", text):
            direction = "up"
        elif re.search(r"\b(down|downward|back)\b", text):
            direction = "down"
        else:
            return []
        return [f"cycle_{direction}_{k}"] * read_count(text)


class MazePhrases(Phrasebook):
    def countable(self, action: str) -> bool:
        return action != "press_button"

    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        if action == "press_button":
            return choose(rng, ("Push the button.", "Hit the button now.", "Now the button: push it.",
                                "You're at the right sphere: use the button."))
        if action.startswith("turn_"):
            side = action.removeprefix("turn_")
            return choose(rng, (f"Turn {side} {times(count, rng)}." if count > 1 else f"Turn {side}.",
                                f"Rotate to your {side} {times(count, rng)}.",
                                f"Face {side} by turning {times(count, rng)}."))
        squares = f"{number(count, rng)} {'square' if count == 1 else 'squares'}"
        if action == "move_forward":
            return choose(rng, (f"Go forward {squares}.", f"Move ahead {times(count, rng)}.",
                                f"Walk forward {number(count, rng)} {'step' if count == 1 else 'steps'}."))
        return choose(rng, (f"Step back {squares}.", f"Back up {times(count, rng)}.",
                            f"Reverse {number(count, rng)} {'step' if count == 1 else 'steps'}, facing the same way."))

    def understand(self, line: str, state: State) -> list[str]:
        text = unquoted(line).lower()
        count = read_count(re.sub(r"\b(\d+|[a-z]+) (step|square)\b", r"\1 \2s", text))
        if re.search(r"\b(turn|turning|rotate)\b", text):
            side = "left" if re.search(r"\bleft\b", text) else "right" if re.search(r"\bright\b", text) else None
            return [f"turn_{side}"] * count if side else []
        if re.search(r"\b(back|reverse|backward|backwards)\b", text):
            return ["move_backward"] * count
        if re.search(r"\b(forward|ahead)\b", text):
            return ["move_forward"] * count
        if re.search(r"\bbutton\b", text):
            return ["press_button"]
        return []


class ColorPhrases(Phrasebook):
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        _, row, col = action.split("_")
        r, c = int(row), int(col)
        color = seen["square_colors_by_row"][r - 1][c - 1]
        return choose(rng, (
            f"Press the square in row {number(r, rng)}, column {number(c, rng)}.",
            f"Tap the {ordinal(c, rng)} square of the {ordinal(r, rng)} row.",
            f"Hit the {color} square at row {r}, column {c}.",
            f"Press row {number(r, rng)} column {number(c, rng)}, the {color} one.",
        ))

    def understand(self, line: str, state: State) -> list[str]:
        text = unquoted(line).lower()
        row = read_number_after(text, "row")
        col = read_number_after(text, "column")
        if row is None or col is None:
            match = re.search(r"\b(\w+) square of the (\w+) row\b", text)
            if match:
                col, row = read_ordinal(match.group(1)), read_ordinal(match.group(2))
        grid = state["square_colors_by_row"]
        if row and col and 1 <= row <= len(grid) and 1 <= col <= len(grid[0]):
            return [f"press_{row}_{col}"]
        return []


class ExpandingPhrasebook(Phrasebook):
    """A phrasebook that hands some understood sentences to the puzzle's own
    `expand_advice` (PIN entry, balance rules, timer moments)."""

    def __init__(self, puzzle_cls: type[Puzzle]) -> None:
        self.puzzle_cls = puzzle_cls


class AtmPhrases(ExpandingPhrasebook):
    """ATM advice is mostly sentences (the PIN, the balance rule) that a customer turns into
    key presses with the puzzle's own `expand_advice`; the menu choice is worded here."""

    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        if action == "select_withdraw":
            return choose(rng, ("Choose the option to take money out.", "Pick withdrawal on the menu.",
                                "Open the cash withdrawal screen."))
        if action == "select_deposit":
            return choose(rng, ("Choose the option to put money in.", "Pick deposits on the menu."))
        if "PIN" in action:
            return choose(rng, ("Log in: key in your PIN, then hit the enter key.",
                                "Type your PIN on the keypad and finish with enter.",
                                "Enter your PIN on the keypad, then press enter."))
        if "balance" in action and "500" in action:
            return choose(rng, ("Look at your balance: if it is $500 or more, take out $300; if not, put in $100.",
                                "If your balance is at least $500, withdraw $300; otherwise deposit $100.",
                                "With a balance of $500 or more, withdraw $300. With less, deposit $100 instead."))
        return action  # a sentence this phrasebook has no other wording for

    def understand(self, line: str, state: State) -> list[str]:
        text = unquoted(line).lower()
        if ("balance" in text and "500" in text) or "pin" in text:
            return self.puzzle_cls.expand_advice(line, state)
        if re.search(r"take money out|\bwithdrawal", text):
            return ["select_withdraw"]
        if re.search(r"put money in|\bdeposits\b", text):
            return ["select_deposit"]
        expanded = self.puzzle_cls.expand_advice(line, state)
        return [] if expanded == [line] else expanded


DIAGNOSIS_WORDS = {
    "bcc": "a basal cell carcinoma", "scc": "a squamous cell carcinoma", "ack": "an actinic keratosis",
    "sek": "a seborrheic keratosis", "mel": "a melanoma", "nev": "a nevus, a common mole",
}
DIAGNOSIS_NAMES = {
    "bcc": ("basal cell carcinoma",),
    "scc": ("squamous cell carcinoma",),
    "ack": ("actinic keratosis",),
    "sek": ("seborrheic keratosis",),
    "mel": ("melanoma",),
    "nev": ("nevus", "common mole"),
}


class TelehealthPhrases(Phrasebook):
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        if action.startswith("diagnose_"):
            code = action.removeprefix("diagnose_")
            name = DIAGNOSIS_WORDS[code]
            return choose(rng, (
                f"This is {name}; record that as the diagnosis.",
                f"Diagnose it as {name} ({code.upper()}).",
                f"From what you describe, it is {name}. Put that down as the diagnosis.",
            ))
        care = action.removeprefix("treat_")
        return {
            "surgery": choose(rng, ("Treat it with surgery.", "It needs to be removed surgically.")),
            "cryotherapy": choose(rng, ("Treat it by freezing it (cryotherapy).", "Freeze it off.")),
            "none": choose(rng, ("No treatment is needed.", "Leave it alone: it needs no treatment.")),
        }[care]

    def understand(self, line: str, state: State) -> list[str]:
        text = unquoted(line).lower()
        for code, names in DIAGNOSIS_NAMES.items():
            if any(re.search(rf"\b{name}\b", text) for name in names):
                return [f"diagnose_{code}"]
        if re.search(r"\bsurg", text):
            return ["treat_surgery"]
        if re.search(r"\b(freez|cryo)", text):
            return ["treat_cryotherapy"]
        if re.search(r"\bno treatment\b", text):
            return ["treat_none"]
        return []


_TIMER_PHRASE = re.compile(r"\b(?:shows a|appears|countdown shows a)\b")
_ANY_DIGIT = re.compile(r"\d")
_LONE_DIGIT = re.compile(r"\b(\d)\b")
_LET_GO = re.compile(r"\blet go\b")


def _release_digit(text: str) -> str | None:
    """The digit of "let go when the timer shows a 4" / "4 ..., then let go", in one pass:
    the first digit after the first timer phrase, or the first lone digit before the line's
    last "let go", whichever comes first (a backtracking regex for this was quadratic: 1.3 s
    on 8,000 characters of "1 1 1 ...")."""
    for line in text.split("\n"):  # the old regex's "." stopped at line ends
        phrase = _TIMER_PHRASE.search(line)
        digit = _ANY_DIGIT.search(line, phrase.end()) if phrase else None
        candidates = [(phrase.start(), digit.group())] if phrase and digit else []
        let_gos = list(_LET_GO.finditer(line))
        if let_gos:
            lone = _LONE_DIGIT.search(line, 0, let_gos[-1].start())
            if lone:
                candidates.append((lone.start(), lone.group(1)))
        if candidates:
            return min(candidates)[1]
    return None


class ButtonPhrases(ExpandingPhrasebook):
    """COMMA v1 Button: a quick press, a press held down, and letting go at a timer digit
    (the puzzle's own `expand_advice` turns the digit into a wait)."""

    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        if action == "tap":
            return choose(rng, ("Give the button a quick press and let go right away.",
                                "Press it briefly, then let go at once."))
        if action == "hold":
            return choose(rng, ("Press the button and keep it pressed down.",
                                "Push it in and keep your finger on it."))
        match = re.search(r"(\d)\s*$", action)
        if match:
            digit = match.group(1)
            return choose(rng, (f"Let go when the timer shows a {digit} anywhere.",
                                f"Keep it down until a {digit} appears on the timer, then let go.",
                                f"The moment the countdown shows a {digit}, let go."))
        return choose(rng, ("Let go of the button now.", "Take your finger off the button."))

    def understand(self, line: str, state: State) -> list[str]:
        text = unquoted(line).lower()
        digit = _release_digit(text)
        if "let go" in text and digit and not re.search(r"\b(quick|briefly)\b", text):
            return self.puzzle_cls.expand_advice(f"release when the timer shows a {digit}", state)
        if re.search(r"\b(keep it pressed|keep your finger)\b", text):
            return ["hold"]
        if re.search(r"\b(quick press|briefly)\b", text):
            return ["tap"]
        if re.search(r"\b(let go of the button now|take your finger off)\b", text):
            return ["release"]
        return []


class DogPhrases(ExpandingPhrasebook):
    """COMMA v1 Dog: send the answer when the timer's last digit is the manual's."""

    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        match = re.search(r"(\d)\s*$", action)
        if match:
            digit = match.group(1)
            return choose(rng, (f"Send your answer when the timer's last digit is a {digit}.",
                                f"Wait until the seconds end in {digit}, then send it in.",
                                f"Enter it the moment the timer ends in {digit}."))
        return choose(rng, ("Send your answer now.", "Enter it right away."))

    def understand(self, line: str, state: State) -> list[str]:
        text = unquoted(line).lower()
        match = re.search(r"\b(?:last digit is a|end in|ends in)\s+(\d)\b", text)
        if match:
            return self.puzzle_cls.expand_advice(f"submit when the timer ends in {match.group(1)}", state)
        if re.search(r"\b(send your answer now|enter it right away)\b", text):
            return ["submit"]
        return []


SOUND_KEYS = {"press_dollar": ("$", "dollar"), "press_star": ("*", "star"),
              "press_ampersand": ("&", "ampersand"), "press_hash": ("#", "hash")}


class SoundPhrases(Phrasebook):
    """COMMA v1 Sound: four symbol keys."""

    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        symbol, name = SOUND_KEYS[action]
        return choose(rng, (f'Press the {name} key ("{symbol}").', f'Key in "{symbol}".',
                            f"Hit the {name} sign."))

    def understand(self, line: str, state: State) -> list[str]:
        for text in quoted(line):
            for action, (symbol, _) in SOUND_KEYS.items():
                if text == symbol:
                    return [action]
        words = unquoted(line).lower()
        for action, (_, name) in SOUND_KEYS.items():
            if re.search(rf"\b{name}\b", words):
                return [action]
        return []


def phrasebook(puzzle_cls: type[Puzzle]) -> Phrasebook:
    """The phrasebook of a puzzle class, named by its spec (``PuzzleSpec.phrasebook``)."""
    spec = getattr(puzzle_cls, "spec", None)
    if spec is None:
        raise KeyError(f"{puzzle_cls.__name__} has no PuzzleSpec, so no natural-language phrasebook")
    book = spec.load_phrasebook()
    return book(puzzle_cls) if issubclass(book, ExpandingPhrasebook) else book()
