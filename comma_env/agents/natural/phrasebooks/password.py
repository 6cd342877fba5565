"""Password in plain English: the letter each window shows now, and maybe every letter a window has
shown ("#1 R/S/Q"). Advice spells the password or gives presses window by window."""

from __future__ import annotations

import copy
import re
from typing import Any

import numpy as np

from comma_env.agents.natural import grid, phonetic
from comma_env.agents.natural.phrasebooks.base import Memory, Phrasebook, State, Steps, fact
from comma_env.agents.natural.reading import ORDINAL, number, ordinal, plain
from comma_env.agents.natural.retractions import retracts
from comma_env.agents.natural.tables import tables
from comma_env.agents.natural.words import ORDINALS, choose, say_number, say_ordinal, times
from comma_env.puzzles.password import ALPHABET, POSITIONS, WORDS, moves_between

VOCABULARY = ("window", "windows", "letter", "letters", "press", "submit", "first", "second", "third", "fourth",
              "fifth", "arrow", "down", "once", "twice", "times", "cycle", "spell", "password", "then", "and", "the")
_SLOT = r"[A-Za-z](?:\s*/\s*[A-Za-z])?\??"
_GAP = r"(?:[\s,;\]\[|]+|\s*-\s*)(?:and\s+)?"
_FIVE = re.compile(rf"(?<![A-Za-z])({_SLOT}){_GAP}({_SLOT}){_GAP}({_SLOT}){_GAP}({_SLOT}){_GAP}({_SLOT})(?![A-Za-z])")
_COLUMN = re.compile(r"(?m)(?:^[ \t]*(?:[-*][ \t]*)?[A-Za-z][ \t]*(?:\n|$)){5}")
"""Five letters one a line ("- G\n- N\n..."), read as one line."""
_RUN_TOGETHER = re.compile(r"(?<![A-Za-z])([A-Z]{5})(?![A-Za-z])")
_PER_WINDOW = re.compile(r"\b(?:window|slot|letter|#)\s*([1-5])\b\s*[:=\-]?\s*(?:shows?|is|reads?|has|displays?)?\s*"
                         r"`?([A-Za-z])`?(?![A-Za-z])", re.IGNORECASE)
_ORDINAL_LETTER = re.compile(rf"\b((?i:{ORDINAL}))\s*(?i:window|one|letter)?\s*(?i:is|:|=)?\s*([A-Z])(?![A-Za-z])")
_NUMBERED = re.compile(r"(?m)^\s*([1-5])\s*[.):]\s*`?([A-Za-z])`?\s*$")
_SEEN = re.compile(r"(?:\bwindow\s*|#)([1-5])\s*(?:[:=]|\b(?:showed|has shown|went))?\s*"
                   r"((?:[A-Za-z]\s*[,/]\s*|[A-Za-z] (?=[A-Za-z]\b))+[A-Za-z])"
                   r"(?![A-Za-z])(?:\s*\((?:now |currently )?(?:showing )?([A-Za-z])(?: now)?\))?",
                   re.IGNORECASE)  # "window 2: D/E/F", "window 2 D E F", "(showing L now)"
_NOW = re.compile(r"\b(?:currently|now)\b[^.\n]{0,25}?\b(?:reads?|shows?|says?|spells?|is)\s+\**((?:[A-Za-z][ ,|]?){4}"
                  r"[A-Za-z])\b", re.IGNORECASE)
_NOW_LIST = re.compile(r"\b(?:showing\s+|shows?\s+|see\s+)?(?:right\s+)?(?:now|current(?:ly)?|at the moment)\s*:?\s+"
                       r"([A-Za-z](?:[ ,|]+[A-Za-z]){4})(?![A-Za-z])", re.IGNORECASE)
"""The five letters after "now" ("Showing right now: C T C R Z", "now E O U L C", "Summary: current X F J C I")."""
_PAIRS = re.compile(r"(?<![\w#])([1-5])\s*[:=.)-]?\s*([A-Za-z])(?![A-Za-z]|\s*/)")
"""Windows numbered one by one ("1 U, 2 I, 3 K, 4 O, 5 M", "1 T | 2 H | ..."): read when all five are there."""
_SHOWN_LIST = re.compile(r"\bwindows?\s+((?:[1-5]\s*,?\s*(?:and\s+)?)+)\s*(?:now\s+)?show\s+((?:[A-Za-z]\s*,"
                         r"?\s*(?:and\s+)?)+)", re.IGNORECASE)
_WINDOW = rf"(?:the\s+)?(?:({ORDINAL})\s+(?:window|slot|one|letter)|(?:window|slot)\s*([1-5]))\b"
_UNREAD = re.compile(rf"{_WINDOW}[^.!?\n]{{0,60}}?(?:\b(?:can'?t|cannot|couldn'?t)\s+(?:read|see|make out|tell)\b|"
                     rf"\b(?:unreadable|illegible)\b)|\b(?:can'?t|cannot|couldn'?t)\s+(?:read|see|make out)\s+"
                     rf"{_WINDOW}", re.IGNORECASE)
"""A window said to be unreadable ("the first window has a crack, I can't read it", "can't make out slot 1")."""
_OTHERS = re.compile(r"\b(?:the\s+)?(?:other|remaining|rest)(?:\s+(?:four|4|ones|windows))?\s*(?:are|show|say|read)?"
                     r"\s*:?\s*([A-Za-z](?:[ ,|]+[A-Za-z]){3})(?![A-Za-z])", re.IGNORECASE)
"""The four letters of the other windows ("the other four: H F R E")."""
_NOT_LETTERS = {"WORD", "WORDS", "NOW", "THE", "LETTERS"}


def _cycle_candidates(seen: list[str]) -> list[str]:
    """Letters a window can show given the letters it has shown (three in a row)."""
    if not seen:
        return list(ALPHABET)
    values = [ALPHABET.index(c) for c in seen]
    return [c for i, c in enumerate(ALPHABET) if max(values + [i]) - min(values + [i]) <= 2]


def _table_with_now(text: str) -> list[list[str]] | None:
    """A table of the windows with a "now" column ("| window | 1st | now |"): each window's letters, now's last."""
    for table in tables(text.upper()):
        now = next((k for k, c in enumerate(table.header) if re.fullmatch(r"NOW|CURRENT(LY)?|LATEST|SHOWS? NOW", c)), 0)
        rows = [row for row in table.rows if now and len(row) > now and re.fullmatch(r"[A-Z]", row[now])]
        if len(rows) == len(table.rows) == POSITIONS:
            return [[c for c in row[1:now] if re.fullmatch(r"[A-Z]", c)] + [row[now]] for row in rows]
    return None


class PasswordPhrases(Phrasebook):
    def restart(self, text: str, memory: Memory) -> bool:
        """A correction restating the windows ("typo - ... So W P R L D.") replaces what they show now, not the
        letters seen before the last cycling."""
        trial = copy.deepcopy(memory)
        snapshots = trial["state"].get("snapshots") or []
        if len(snapshots) < 2 or not retracts(text):
            return super().restart(text, memory)
        trial["state"]["snapshots"], trial["state"]["typed_since"] = snapshots[:-1], True
        self.read(text, trial)
        if not all(trial["state"].get("shown") or [None]):  # a part only ("sorry, the last is D"): not a restatement
            return super().restart(text, memory)
        memory.update(trial)
        return True

    def read(self, text: str, memory: Memory) -> None:
        state, notes = memory["state"], memory["notes"]
        rows = _table_with_now(text)
        text = re.sub(r"\bslots?\b", "window", plain(phonetic.spelled(text), VOCABULARY), flags=re.IGNORECASE)
        text = re.sub(r"\b(?:not|isn'?t)\s+(?:an?\s+)?[A-Za-z](?![A-Za-z])", " ", text)
        text = re.sub(r"(?i)\b(letters?|they|windows?)\s+r\b", r"\1 are", text)  # texting: "letters r D Q T N E"
        text = re.sub(r"(?<![A-Za-z])['\"`]([A-Za-z])['\"`](?![A-Za-z])", r"\1", text)  # "'F', 'S', ..."
        text = re.sub(r"(?m)^\s*[A-Za-z](?:\s*/\s*[A-Za-z]){4}\s*$", lambda m: m.group(0).replace("/", " "),
                      text)  # "T / I / F / P / C": five windows, not one window's two letters
        text = _COLUMN.sub(lambda m: " ".join(re.findall(r"([A-Za-z])\s*$", m.group(0), re.MULTILINE)) + "\n", text)
        summary = notes.setdefault("summary", [[] for _ in range(POSITIONS)])
        shown: list[tuple[str, ...] | None] | None = None
        for match in _SEEN.finditer(text):
            window = int(match.group(1)) - 1
            summary[window] = list(dict.fromkeys(c.upper() for c in re.findall(r"[A-Za-z]", match.group(2))))
            if match.group(3):
                shown = shown or [None] * POSITIONS
                shown[window] = (match.group(3).upper(),)
        now = _NOW.search(text) or _NOW_LIST.search(text)
        unread, others = _UNREAD.search(text), _OTHERS.search(text)
        if unread:  # that window's letter stays open, and is asked for
            nth, digit = next(m for m in re.finditer(_WINDOW, unread.group(0), re.IGNORECASE)).groups()
            k = int(digit) if digit else ordinal(nth, POSITIONS) or 1
        if unread and others:
            letters: list[tuple[str, ...] | None] = [(c.upper(),) for c in re.findall(r"[A-Za-z]", others.group(1))]
            shown = [*letters[:k - 1], None, *letters[k - 1:]]
        elif rows:
            shown = [(row[-1],) for row in rows]
            summary[:] = [list(dict.fromkeys(row)) for row in rows]
        elif now:
            shown = [(c.upper(),) for c in re.sub(r"[ ,|]", "", now.group(1))]
        elif shown is None and not any(summary) or shown is None and not _SEEN.search(text):
            shown = self._shown(text)
        if unread and shown:  # "S G J M F, but I can't read the second letter"
            shown = [None if window == k - 1 else letter for window, letter in enumerate(shown)]
        if shown:
            snapshots = state.setdefault("snapshots", [])
            if not snapshots or state.get("typed_since"):
                snapshots.append([None] * POSITIONS)
            snapshots[-1] = [new or old for new, old in zip(shown, snapshots[-1], strict=True)]
            state["shown"] = snapshots[-1]
            state["typed_since"] = False
        self._remember(memory)

    def _remember(self, memory: Memory) -> None:
        """The letters each window has shown: every description so far, and any summary."""
        notes = memory["notes"]
        seen: list[list[str]] = [list(letters) for letters in notes.get("summary") or [[] for _ in range(POSITIONS)]]
        for snapshot in memory["state"].get("snapshots") or []:
            for window, options in enumerate(snapshot):
                if options and len(options) == 1 and options[0] not in seen[window]:
                    seen[window].append(options[0])
        notes["letters_seen"] = seen

    def _shown(self, text: str) -> list[tuple[str, ...] | None] | None:
        """The letter each window shows now (options for an unsure one), or None."""
        slots: list[tuple[str, ...] | None] = [None] * POSITIONS
        for pattern in (_PER_WINDOW, _NUMBERED):
            for match in pattern.finditer(text):
                slots[int(match.group(1)) - 1] = (match.group(2).upper(),)
        for match in _ORDINAL_LETTER.finditer(text):
            index = ordinal(match.group(1), POSITIONS)
            if index and 1 <= index <= POSITIONS:
                slots[index - 1] = (match.group(2).upper(),)
        listed = _SHOWN_LIST.search(text)
        if listed:
            windows = [int(w) for w in re.findall(r"[1-5]", listed.group(1))]
            letters = re.findall(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])", listed.group(2))
            for window, letter in zip(windows, letters, strict=False):
                slots[window - 1] = (letter.upper(),)
        table = re.search(r"\|\s*window\s*\|([^\n]*)\n[^\n]*\n?\|\s*letter\s*\|([^\n]*)", text, re.IGNORECASE)
        if table:
            for window, letter in zip(re.findall(r"[1-5]", table.group(1)), re.findall(r"[A-Za-z]", table.group(2)),
                                      strict=False):
                slots[int(window) - 1] = (letter.upper(),)
        if any(slots):
            return slots
        for line in text.splitlines():
            five = _FIVE.search(line)
            before = re.split(r"\b(?:see|shows?|reads?|is|are)\b|:", line[:five.start() if five else 0][-15:])[-1]
            if five and not re.search(r"\b(?:up|down)\b", before.lower()):  # "up A B C D E", not "up, I see A ..."
                return [tuple(dict.fromkeys(c.upper() for c in re.findall(r"[A-Za-z]", g))) for g in five.groups()]
        for match in _RUN_TOGETHER.finditer(text):  # a word of the manual only if said to be shown ("I see WATER")
            before = text[max(0, match.start() - 12):match.start()]  # a few words back: linear on long text
            seen = re.search(r"\b(?:see|shows?|showing|reads?|reading)\s*:?\s*$", before, re.IGNORECASE)
            if match.group(1) not in _NOT_LETTERS and (match.group(1).lower() not in WORDS or seen):
                return [(c,) for c in match.group(1)]
        pairs = _PAIRS.findall(text)
        return [(letter.upper(),) for _, letter in sorted(pairs)] if sorted(int(w) for w, _ in pairs) == [
            1, 2, 3, 4, 5] else None

    def typed(self, actions: list[str], memory: Memory) -> None:
        """Cycling changes the letters: what the windows show now is for the solver to say."""
        if any(a.startswith("cycle_") for a in actions):
            memory["state"].pop("shown", None)
            memory["state"]["typed_since"] = True

    def belief(self, memory: Memory) -> State:
        seen = memory["notes"].get("letters_seen") or [[] for _ in range(POSITIONS)]
        shown = memory["state"].get("shown") or [None] * POSITIONS
        letters = [fact(options, f"window {window} shows", f"the letter window {window} shows now",
                        _cycle_candidates(seen[window - 1])) for window, options in enumerate(shown, start=1)]
        return {"letters_shown_left_to_right": letters}

    def possible(self, state: State, notes: dict[str, Any]) -> bool:
        seen = notes.get("letters_seen") or [[] for _ in range(POSITIONS)]
        return all(shown in _cycle_candidates(letters)
                   for letters, shown in zip(seen, state["letters_shown_left_to_right"], strict=True))

    # -- the expert's words ----------------------------------------------------------------------------
    def countable(self, action: str) -> bool:
        return action.startswith("cycle_")

    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        if action == "submit":
            return choose(rng, ("Then press submit.", "Now press the submit button.", "Submit it.",
                                "That spells the password: press submit."))
        up = action.startswith("cycle_up_")
        k = int(action.rsplit("_", 1)[1])
        direction = choose(rng, ("up", "forward")) if up else choose(rng, ("down", "back"))
        return choose(rng, (
            f"Cycle the {say_ordinal(k, rng)} letter {direction} {times(count, rng)}.",
            f"Press {'up' if up else 'down'} on window {say_number(k, rng)}, {times(count, rng)}.",
            f"Press the {'up' if up else 'down'} arrow of the {say_ordinal(k, rng)} window {times(count, rng)}.",
        ))

    def say(self, advice: list[str], seen: State, rng: np.random.Generator) -> list[str]:
        if advice == [f"cycle_up_{k}" for k in range(1, POSITIONS + 1)]:
            return [choose(rng, ("Press the up arrow of every window once.",
                                 "Press up once on each of the five windows.", "Cycle all five windows up once."))]
        return super().say(advice, seen, rng)

    # -- the solver describes and reads advice -------------------------------------------------------
    def describe(self, state: State, rng: np.random.Generator) -> str:
        letters = state["letters_shown_left_to_right"]
        return choose(rng, (f"The five windows show {', '.join(letters)} from left to right.",
                            "Windows: " + ", ".join(f"window {k} {c}" for k, c in enumerate(letters, start=1)) + ".",
                            f"Right now the letters read {' '.join(letters)} (left to right)."))

    def understand(self, text: str, puzzle: Any) -> Steps:
        shown = [str(c).upper() for c in puzzle.visible_state()["letters_shown_left_to_right"]]
        said = text = phonetic.spelled(text)  # "sierra papa echo lima lima": S P E L L
        text = plain(text, VOCABULARY)  # "Spell THREE": the word as said, not the number it makes
        submit = bool(re.search(r"\b(?:submit|enter it|lock (?:it )?in)\b", text, re.IGNORECASE))
        named = {w.upper() for w in WORDS
                 if re.search(rf"(?<![A-Za-z]){w.upper()}(?![A-Za-z]){_NO_WORD_NEXT}|[\"']{w}[\"']", f"{said}\n{text}")}
        if len(named) > 1:
            return Steps.unclear(f"Which word is it: {' or '.join(sorted(named))}?")
        if named:
            return _spelled(named.pop(), shown, submit)
        text = re.sub(r"(?im)^\s*([1-5])\s*[:.)=-]\s*(up|down)\b", r"window \1 \2", text)  # "1: down"
        text = _LISTED.sub(lambda m: "windows " + "+".join(re.findall(r"[1-5]", m.group(1))), text)  # "windows 2, 3, 4"
        each = _EACH.match(text)
        if each:  # "Up, down, up, down, up, one press per window from the left"
            text = ", ".join(f"window {k} {d}" for k, d in enumerate(re.findall(r"up|down", each.group(1), re.I), 1))
        text, problem = grid.landmarks(text, {(0, k): rf"window\s*#?\s*{k + 1}\b|{ORDINALS[k]}\s+window\b"
                                              for k in range(len(shown))}, lambda rc: f"window {rc[1] + 1}")
        steps = Steps.unclear(problem) if problem else _presses(text)
        if steps.actions and set(steps.actions) == {"submit"}:
            steps = Steps(["submit"])  # "enter it and submit" is one submission, and maybe a word before it
        if steps.actions and steps.actions != ["submit"]:  # presses said window by window
            return steps
        spelled = _LETTER_BY_LETTER.sub(lambda m: re.sub(r"[^A-Za-z]", "", m.group(0)), text)  # "R, I, G, H, T"
        within = {w.upper() for w in WORDS if re.search(rf"\b{w}\b{_NO_WORD_NEXT}", f"{spelled}\n{said}", re.I)
                  and all(abs(ord(t) - ord(c)) <= 2 for c, t in zip(shown, w.upper(), strict=True))}
        if len(within) > 1:
            return Steps.unclear(f"Which word is it: {' or '.join(sorted(within))}?")
        if not within and steps.actions == ["submit"] and re.search(
                r"\b(?:change|cycle|move|scroll|flip|switch|adjust|roll|rotate)\b", text, re.IGNORECASE):
            return Steps.unclear("Which window should I change, up or down, and how many presses?")  # no direction
        return _spelled(within.pop(), shown, submit) if within else steps


_NO_WORD_NEXT = rf"(?!\s+(?i:{'|'.join(WORDS)})\b)"
"""Not followed by a word of the manual: of two in a row the first is a verb ("spell small")."""
_LETTER_BY_LETTER = re.compile(r"(?<![A-Za-z'])[A-Za-z](?:[\s,./-]+[A-Za-z]){4}(?![A-Za-z'])")


def _spelled(word: str, shown: list[str], submit: bool) -> Steps:
    """The presses that set the windows from `shown` to `word` (and submit), or a question when a window can't."""
    actions: list[str] = []
    for k, (current, target) in enumerate(zip(shown, word, strict=True), start=1):
        try:
            moves = moves_between(current, target)
        except KeyError:
            return Steps.unclear(f"Window {k} shows {current}; I can't get it to {target}. Which word do you mean?")
        actions += [f"cycle_{'up' if m > 0 else 'down'}_{k}" for m in moves]
    return Steps(actions + (["submit"] if submit else []))


_EACH = re.compile(r"\s*((?:(?:up|down)\s*,?\s*(?:and\s+)?){5})[^.\n]*\b(?:per|each|every)\s+window\b[^.\n]*\.?\s*$",
                   re.IGNORECASE)
_LISTED = re.compile(r"\bwindows\s+([1-5](?:\s*(?:,|&|\+|and|,\s*and)\s*[1-5])+)\b", re.IGNORECASE)
"""Several windows by number ("windows 1, 2, 3 and 4"), joined with "+" so that no comma splits them."""
_DIRECTION = re.compile(r"\b(up|upwards?|forwards?|down|downwards?|back|backwards?)\b|(▲|▼|↑|↓)|"
                        r"\bto the (next|previous) letter\b", re.IGNORECASE)
_WINDOWS = re.compile(rf"\b(?:window|slot|letter|windwo|box)\s*#?\s*([1-5])\b|\b({ORDINAL})\s+(?:window|letter|slot|"
                      rf"box)\b|"
                      rf"\b(all|every|each)\s+(?:(?:one|1)\s+)?(?:of\s+)?(?:the\s+)?(?:5\s+|five\s+)?(?:windows?|letters?|slots?)\b|"
                      rf"\b(?:the\s+)?(middle|last)\s+(windows|window|letter|letters)\b|\bwindows ([1-5](?:\+[1-5])+)|"
                      rf"\b(?:the\s+)?(?:windows|letters)\b", re.IGNORECASE)


def _presses(text: str) -> Steps:
    """Presses said window by window, in order ("press down on window 1, then submit"); a gap is asked about."""
    actions: list[str] = []
    last_direction: str | None = None
    for clause in re.split(r"[,;\n]|\bthen\b|\band\b(?=\s+(?:press|hit|click|push|then|submit|the|window))|\.(?=\s|$)",
                           text, flags=re.IGNORECASE):
        clause = clause.strip()
        if not clause:
            continue
        submit = re.search(r"\b(?:submit|enter it|lock (?:it )?in)\b", clause, re.IGNORECASE)
        if submit and not _WINDOWS.search(clause[:submit.start()]):
            actions.append("submit")
            continue
        target = _WINDOWS.search(clause)
        found = _DIRECTION.search(clause)
        if not found and (not target or not (target.group(1) or target.group(2)) or re.search(
                r"\b(?:leave|don'?t (?:touch|change|move)|skip|stays?|alone|as it is|is (?:fine|right|ok))\b", clause,
                re.I)):
            continue  # "then tell me the letters", "leave window 2"
        direction = None
        if found:
            word = next(g for g in found.groups() if g).lower()
            direction = "up" if word.startswith(("up", "forward", "next")) or word in ("▲", "↑") else "down"
        elif re.search(r"\bsame\b", clause, re.IGNORECASE) or re.fullmatch(r"\W*window\s*[1-5]\W*", clause, re.I):
            direction = last_direction
        if target is None:
            return Steps.unclear("Which window should I cycle, and how many times?")
        windows = _window_numbers(target)
        if not windows:
            return Steps.unclear("Which windows do you mean exactly?")
        if direction is None:
            return Steps.unclear(f"Up or down on window {windows[0]}?")
        last_direction = direction
        count = _count(clause)
        if count is None:
            return Steps.unclear("How many times should I press it?")
        actions += [f"cycle_{direction}_{w}" for w in windows for _ in range(count)]
        if submit:
            actions.append("submit")
    return Steps(actions) if actions else Steps()


def _window_numbers(match: re.Match[str]) -> list[int]:
    if match.group(1):
        return [int(match.group(1))]
    if match.group(2):
        index = ordinal(match.group(2), POSITIONS)
        return [index] if index and 1 <= index <= POSITIONS else []
    if match.group(3):
        return list(range(1, POSITIONS + 1))
    if match.group(6):
        return [int(k) for k in match.group(6).split("+")]
    if match.group(4) and match.group(4).lower() == "last" and not match.group(5).lower().endswith("s"):
        return [POSITIONS]
    return []


def _count(clause: str) -> int | None:
    low = clause.lower()
    if re.search(r"\bsome\s*times\b|\ba few times\b|\bseveral times\b", low):
        return None
    for found in re.finditer(r"\b(once|twice|thrice|\d+|one|two)\s*(?:times?|x)?\b(?!\s*(?:window|letter|slot))", low):
        if found.group(1) in ("once", "twice", "thrice") or re.search(r"times?|x", found.group(0)):
            return number(found.group(1))
    after = re.search(r"\b(?:up|down|forwards?|backwards?|back|ahead)\s+(?:by\s+)?(\d|one|two|three|four)\b"
                      r"(?!\s*(?:windows?|letters?|slots?)\b)|\bby\s+(\d|one|two|three|four)\b", low)  # "up 2"
    return number(after.group(1) or after.group(2)) if after else 1
