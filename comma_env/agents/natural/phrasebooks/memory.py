"""Memory in plain English: the stage, the display and the four labels, and recaps of earlier presses
(the expert also counts typed ones). Advice names a button by position, label or an earlier stage."""

from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np

from comma_env.agents.natural import grid
from comma_env.agents.natural.belief import settle
from comma_env.agents.natural.phrasebooks.base import Memory, Phrasebook, State, Steps, fact, meant, one_button, unknown
from comma_env.agents.natural.reading import HEDGES, ORDINAL, RELATIONS, ordinal, plain, sentences
from comma_env.agents.natural.tables import tables
from comma_env.agents.natural.words import ORDINALS, choose, say_number, say_ordinal
from comma_env.puzzles.memory import BUTTONS, STAGES

VOCABULARY = ("stage", "display", "screen", "buttons", "labels", "labelled", "position", "press", "pressed",
              "left", "right", "leftmost", "rightmost", "says", "shows", "label")
_RUN = re.compile(r"([1-4])[\s,;/|-]+(?:and\s+)?([1-4])[\s,;/|-]+(?:and\s+)?([1-4])(?:[\s,;/|-]+(?:and\s+)?([1-4]))?")
_RUN_TOGETHER = re.compile(r"\b([1-4])([1-4])([1-4])([1-4])\b")  # "labels 2143": four labels run together
_STAGE = re.compile(r"\b(?:stage|s)\s*[:#]?\s*([1-5])\b(?!\s*:\s*pos)|\b([1-5])\s*(?:/|of)\s*5\b", re.IGNORECASE)
_DISPLAY = re.compile(r"(?:\b(?:display|screen|disp)\b|(?<!button )(?<!position )(?<!label )(?<!pos )\bnumber\b"
                      r"(?=\W{0,3}(?:is\s+|:\s*)?[1-4]\b(?!\s*(?:button|key|one|label|pos)))|\bd(?=[1-4]\b)|🖥|"
                      r"\bstage\s*[1-5](?=\s+(?:shows|says|reads)\b))"
                      r"\W{0,3}(?:(?:is|s|shows?|says|sais|reads?|has|showing|displaying|(?:the )?number|a|an|on it|:)"
                      r"\W*)*([1-4])\b", re.IGNORECASE)  # "stage 3 shows 1": the display
_LABELS_AT = re.compile(r"\b(?:buttons?|labels?|labell?ed|read|l\s*->\s*r|left to right|from (?:the )?left|"
                        r"from the (right)\b(?:[^:]*?to the left)?|right to left|(?<![a-z])\|)", re.IGNORECASE)
_PRESSED = re.compile(r"\b(?:pressed|hit|pushed|clicked|tapped)\b", re.IGNORECASE)
_STAGE_MARK = re.compile(r"\bstage\s*([1-5])\b", re.IGNORECASE)
_LABEL = r"(?:\blabel(?:led)?\s*|\b(?:position|pos)\s*[1-4]\s*\(\s*(?:the\s+)?)([1-4])\b"  # "position 2 (the 4)"
_S_RECAP = re.compile(r"\bS([1-5])\s*:?\s*pos(?:ition)?\s*([1-4])\s*[/(,]?\s*label\s*([1-4])", re.IGNORECASE)


def _digit(pattern: str, text: str) -> int | None:
    found = re.search(pattern, text, re.IGNORECASE)
    return int(found.group(1)) if found else None


def _recaps(text: str) -> tuple[dict[int, list[Any]], list[list[Any]], str]:
    """Earlier presses recapped stage by stage ("stage 1 I pressed position 4 (label 1), stage 2 position 4") and
    in a list ("the labels I pressed were 3, 3, 3 and then 1", "position 4 with label 2, ..."), and `text` without
    them: stage -> [position, label], the list from stage 1, the rest."""
    staged: dict[int, list[Any]] = {}
    listed: list[list[Any]] = []
    spans: list[tuple[int, int]] = []
    for sentence in re.finditer(r"[^.\n]+", text):
        said, base = sentence.group(0), sentence.start()
        verb = _PRESSED.search(said)
        start = max([0, *(b.end() for b in re.finditer(r",|\band\b", said[:verb.start()]))]) if verb else 0
        end = start + next((m.start() for m in re.finditer(r"\bnow\b", said[start:])), len(said) - start)
        if verb and not _STAGE_MARK.search(said[start:end]):  # a list with no stage in it, from stage 1
            values: dict[str, list[int]] = {"label": [], "pos": []}
            kind = None
            tokens = r"\b(label|pos)\w*|\b([1-4])\b|\(\s*(?:the\s+)?([1-4])\s*\)"
            for token in re.finditer(tokens, said[start:end], re.IGNORECASE):
                kind = token.group(1).lower() if token.group(1) else kind
                if (token.group(2) or token.group(3)) and kind:  # "position 2 (the 4)": label 4
                    values["label" if token.group(3) else kind].append(int(token.group(2) or token.group(3)))
            count = max(map(len, values.values()))
            if count > 1 or not _STAGE_MARK.search(said):  # one press after "stage 1: display 3," is stage 1's
                listed = [[values["pos"][k] if k < len(values["pos"]) else None,
                           values["label"][k] if k < len(values["label"]) else None] for k in range(count)]
                spans.append((base + start, base + end))
                said = said[:start]
        marks = list(_STAGE_MARK.finditer(said))
        for mark, after in zip(marks, [*marks[1:], None], strict=False):
            part = re.split(r"\bnow\b", said[mark.start():after.start() if after else len(said)])[0]
            if _PRESSED.search(part) or re.search(r"\b(?:position|pos|label(?:led)?)\s*[1-4]\b", part, re.I) \
                    and not re.search(r"\b(?:display|screen)\b", part, re.IGNORECASE):
                staged[int(mark.group(1))] = [_digit(r"\b(?:position|pos)\s*([1-4])\b", part),
                                              _digit(_LABEL, part)]
                spans.append((base + mark.start(), base + mark.start() + len(part)))
    cuts = [0, *(i for span in sorted(spans) for i in span), len(text)]
    rest = "".join(text[a:b] if k % 2 == 0 else " " * (b - a) for k, (a, b) in enumerate(itertools.pairwise(cuts)))
    return staged, listed, rest


def _stage_table(text: str) -> str:
    """A table of earlier stages ("| stage | position pressed | label |") as one recap line a row."""
    lines = text.splitlines()
    for table in [t for t in tables(text.lower()) if t.header[0].startswith("stage")][::-1]:
        names = ["position" if "pos" in c else "label" if "label" in c else None for c in table.header]
        lines[table.lines] = [f"stage {row[0]}: " + ", ".join(f"{n} {c}" for n, c in zip(names, row, strict=True) if n)
                              for row in table.rows if row[0].isdigit() and len(row) == len(names)]
    return "\n".join(lines)


def _short_recaps(text: str) -> list[tuple[int, list[Any]]]:
    """Recaps written short ("S1: pos 3 / label 3", "S1 pos 2 (label 2)"): stage, [position, label]."""
    return [(int(m.group(1)), [int(m.group(2)), int(m.group(3))]) for m in _S_RECAP.finditer(text)]


def _labels_in(text: str) -> list[Any] | None:
    """The four labels from the left, with None for one the solver could not read."""
    for match in _LABELS_AT.finditer(text):
        window = text[match.end():match.end() + 60]
        run = _RUN.search(window) or _RUN_TOGETHER.search(window)
        if run and run.start() < 25:
            values = [int(g) for g in run.groups() if g]
            if len(values) == 3 and re.search(r"can'?t (?:make out|read|see)|last one|unreadable", window[run.end():]):
                values.append(None)  # type: ignore[arg-type]
            if len(values) == BUTTONS:
                said = match.group(0) + window[:run.start()]  # "labels from the right end are 2, 3, 1, 4"
                reverse = match.group(1) or re.search(r"right to left|from the right", said, re.IGNORECASE)
                return values[::-1] if reverse else values
    pairs = re.findall(r"\bposition\s*([1-4])\s*[:=]\s*(?:label\s*)?([1-4])\b", text, re.IGNORECASE)
    table = re.search(r"\|\s*position\s*\|([^\n]*)\n[^\n]*\n?\|\s*label\s*\|([^\n]*)", text, re.IGNORECASE)
    if len({p for p, _ in pairs}) != BUTTONS and table:  # "| position | 1 | 2 |...", "| label | 3 | 1 |..."
        heads, cells = re.findall(r"[1-4]", table.group(1)), re.findall(r"[1-4]", table.group(2))
        pairs = list(zip(heads, cells, strict=True)) if len(heads) == len(cells) == BUTTONS else []
    if pairs and (table or len({p for p, _ in pairs}) == BUTTONS):
        labels: list[Any] = [None] * BUTTONS
        for position, label in pairs:
            labels[int(position) - 1] = int(label)
        return labels
    placed: dict[int, int] = {}
    for label, where in re.findall(r"\bthe\s+([1-4])\s+is\s+(leftmost|rightmost|in position\s*[1-4])", text,
                                   re.IGNORECASE):
        position = 1 if where.lower() == "leftmost" else 4 if where.lower() == "rightmost" else int(where[-1])
        placed[position] = int(label)
    if len(placed) >= BUTTONS - 1:
        return [placed.get(p) for p in range(1, BUTTONS + 1)]
    chain = re.search(r"\bthe\s+([1-4])\s+is\s+(?:the\s+)?(?:leftmost|(?:on|at) the (?:far )?left|far left|first)\b"
                      r"([^.\n]*)", text, re.IGNORECASE)  # "The 2 is leftmost, then the 1, ..."
    if chain and sorted(values := [int(chain.group(1)), *map(int, re.findall(r"\b[1-4]\b", chain.group(2)))]) == [
            1, 2, 3, 4]:
        return values
    for run in _RUN.finditer(text):  # four different labels with no word before them ("3 1 4 2 (left -> right)")
        values = [int(g) for g in run.groups() if g]
        if len(set(values)) == BUTTONS:
            reverse = re.match(r"\W*\(?\s*(?:from the )?right\s*(?:->|to)\s*left", text[run.end():], re.IGNORECASE)
            return values[::-1] if reverse else values
    return None


class MemoryPhrases(Phrasebook):
    stage = "stage"
    relations = RELATIONS.replace("(?<!each )one of", "(?<!each )(?<!left )(?<!right )one of")  # "the left one of"

    def read(self, text: str, memory: Memory) -> None:
        state, notes = memory["state"], memory["notes"]
        text = plain(_stage_table(text), VOCABULARY)
        text = re.sub(r"\b(?:not|isn'?t)\s+(?:an?\s+)?[1-4]\b", " ", text)
        now = re.split(r"(?<![A-Za-z]\s)\bnow\s*:|\b(?:now|currently)\b[\s,:]*+(?:(?:we'?re|i'?m)\s+)?"
                       r"(?:(?:at|on|in)\s+)?(?=(?:stage|s)\s*[1-5]\b)", text, flags=re.I)  # "Log: S1 ... Now S4:"
        recap, current = (now[0], now[-1]) if len(now) > 1 else ("", text)
        pressed = notes.setdefault("pressed", [])
        staged, listed, rest = _recaps(recap or current)
        current = current if recap else rest
        for stage, (position, label) in [*_short_recaps(recap or current), *staged.items()]:
            pressed += [[None, None] for _ in range(stage - len(pressed))]
            old = pressed[stage - 1]
            pressed[stage - 1] = [position or old[0], label or old[1]]
        said_stage = next((int(next(g for g in m.groups() if g)) for m in _STAGE.finditer(current)), None)
        if said_stage:
            self._at_stage(said_stage, memory)
        if listed and len(listed) == len(pressed):  # the whole list, from stage 1
            pressed[:] = [[p or old[0], label or old[1]] for (p, label), old in zip(listed, pressed, strict=True)]
        display = _DISPLAY.search(current)
        options = re.search(r"\b([1-4])\s+or\s+(?:an?\s+)?([1-4])\b", current)
        if options and (HEDGES.search(current) or re.search(r"\beither\b", current, re.IGNORECASE)):
            state["display"] = (int(options.group(1)), int(options.group(2)))
        elif display:
            state["display"] = (int(display.group(1)),)
        labels = _labels_in(current)
        if labels:
            state["labels"] = labels

    def _at_stage(self, stage: int, memory: Memory) -> None:
        """A described stage: stage 1 is a new run; what was pressed after it no longer counts."""
        state, notes = memory["state"], memory["notes"]
        pressed = notes.setdefault("pressed", [])
        del pressed[stage - 1:]  # stage 1: a new run
        pressed += [[None, None] for _ in range(stage - 1 - len(pressed))]
        if state.get("stage") != stage:
            state.pop("display", None)
            state.pop("labels", None)
        state["stage"] = stage

    def typed(self, actions: list[str], memory: Memory) -> None:
        """Each press was the stage's (the expert cannot see a strike): note it, next stage."""
        state, notes = memory["state"], memory["notes"]
        pressed = notes.setdefault("pressed", [])
        for action in actions:
            match = re.fullmatch(r"press_position_([1-4])", action)
            if not match:
                continue
            position = int(match.group(1))
            stage = state.get("stage") or len(pressed) + 1
            labels = state.get("labels") or []
            label = labels[position - 1] if len(labels) == BUTTONS else None
            del pressed[stage - 1:]
            pressed += [[None, None] for _ in range(stage - 1 - len(pressed))]
            pressed.append([position, label])
            state.clear()
            state["stage"] = min(stage + 1, STAGES)

    def belief(self, memory: Memory) -> State:
        said = memory["state"]
        stage = said.get("stage") or len(memory["notes"].get("pressed", [])) + 1
        shown = fact(said.get("display"), "the display shows", "the number on the display", range(1, BUTTONS + 1))
        labels = said.get("labels")
        if not labels:
            board: Any = unknown("the labels of the four buttons from the left",
                                 [list(p) for p in itertools.permutations(range(1, BUTTONS + 1))])
        elif None in labels:
            missing = [v for v in range(1, BUTTONS + 1) if v not in labels]
            board = [v if v is not None else unknown(f"the label in position {k}", missing)
                     for k, v in enumerate(labels, start=1)]
        else:
            board = list(labels)
        return {"stage": stage, "stages_completed": stage - 1, "display_number": shown,
                "button_labels_left_to_right": board}

    def decide(self, memory: Memory) -> Any:
        pressed = [[position or unknown(f"the position you pressed in stage {k}", range(1, 5)),
                    label or unknown(f"the label of the button you pressed in stage {k}", range(1, 5))]
                   for k, (position, label) in enumerate(memory["notes"].get("pressed", []), start=1)]
        return settle(self.belief(memory), {"pressed": pressed}, self.answers, self.possible)

    def possible(self, state: State, notes: dict[str, Any]) -> bool:
        return sorted(state["button_labels_left_to_right"]) == list(range(1, BUTTONS + 1))

    def facts(self, memory: Memory) -> list[str]:
        pressed = memory["notes"].get("pressed")
        return [*super().facts(memory), f"pressed in earlier stages (position, label): {pressed}"]

    # -- the expert's words ----------------------------------------------------------------------------
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        k = int(action.rsplit("_", 1)[1])
        labels = seen["button_labels_left_to_right"]
        options = [f"Press the {say_ordinal(k, rng)} button from the left.",
                   f"Press the button in position {say_number(k, rng)}."]
        if isinstance(labels, list) and all(isinstance(v, int) for v in labels):
            label = labels[k - 1]
            options += [f'Hit the {say_ordinal(k, rng)} button, the one labelled {label}.',
                        f"Press the button labelled {label}.", f"Press the button with the label {label}, "
                                                               f"position {k}."]
        return choose(rng, options)

    # -- the solver describes and reads advice -------------------------------------------------------
    def describe(self, state: State, rng: np.random.Generator) -> str:
        stage, display = state["stage"], state["display_number"]
        labels = ", ".join(str(v) for v in state["button_labels_left_to_right"])
        return choose(rng, (f"Stage {stage}: the display shows {display}. Buttons from left to right: {labels}.",
                            f"We're at stage {stage} of 5. Display: {display}. Labels left to right: {labels}.",
                            f"The display says {display} (stage {stage}), and the buttons read {labels} "
                            "from the left."))

    def understand(self, text: str, puzzle: Any) -> Steps:
        labels = [int(v) for v in puzzle.visible_state()["button_labels_left_to_right"]]
        history = getattr(puzzle, "history", [])
        text = plain(text, VOCABULARY)
        text = re.sub(r"(?m)^\s*\d[.)]\s+(?=[A-Za-z])", "", text)  # a list's number: "1. Press the first one"
        text, problem = grid.landmarks(text, {(0, k): rf"(?:button |one )?(?:labell?ed |marked )?{label}(?![\d.])"
                                              for k, label in enumerate(labels)}, lambda rc: f"position {rc[1] + 1}")
        if problem:
            return Steps.unclear(problem)
        text = re.sub(r"#\s*([1-4])(?=\s+(?:counting\s+)?from the (?:left|right))",  # "#3 from the left"
                      lambda m: ORDINALS[int(m.group(1)) - 1], text)
        text = re.sub(r"\bnot\s+(?:the\s+)?(?:position|pos)\s*[1-4]\b", " ", text, flags=re.IGNORECASE)  # ruled out
        said = sentences(re.sub(r"\bi mean\b", ". ", text, flags=re.IGNORECASE))
        chosen, _ = meant(said, lambda s: _refers_to(s, labels, history))
        return one_button(chosen, lambda k: f"press_position_{k}",
                          "I don't have that button. Which position (1 to 4 from the left) do you mean?",
                          lambda ks: "Do you mean " + " or ".join(f"position {k} (label {labels[k - 1]})" for k in ks)
                          + "? Is that a label or a position?")


def _refers_to(sentence: str, labels: list[int], history: list[Any]) -> set[int] | None:
    """The positions (1-4) a sentence of advice could mean, or None when it names none."""
    low = sentence.lower()
    constraints: list[set[int]] = []
    same = re.search(r"\bsame\s+(position|label|button|place)\b[^.]*?(?:\bstage\s*([1-5])|\b(?:just|last|previous)\b)",
                     low)  # "same position as in stage 2", "... as the one you just pressed"
    if same:
        stage = int(same.group(2) or len(history))
        if stage > len(history):
            return set()
        position, label = history[stage - 1]
        return {position} if same.group(1) in ("position", "place", "button") else {labels.index(label) + 1}
    digit = r"([0-9]|one|two|three|four)"
    for match in re.finditer(rf"\blabell?ed\s*{digit}\b|\blabel\s*{digit}\b|\bmarked\s*{digit}\b|"
                             rf"\b(?:with|(?:that|which) (?:has|shows)|having|bearing) (?:the |a )?{digit} "
                             rf"(?:(?:written|printed|shown) )?on it\b|"
                             rf"\bthe (?:one|button|key) (?:with|showing|that says|that reads|reading|that shows) "
                             rf"(?:the |a |number )?{digit}\b", low):
        word = next(g for g in match.groups() if g)
        value = int(word) if word.isdigit() else ("one", "two", "three", "four").index(word) + 1
        constraints.append({labels.index(value) + 1} if value in labels else set())
    for match in re.finditer(r"\b(?:position|pos|place(?: number)?|slot)\s*([0-9])\b", low):
        value = int(match.group(1))
        constraints.append({value} if 1 <= value <= BUTTONS else set())
    for match in re.finditer(rf"\b({ORDINAL})\s*(?:(?:button|one|key)?\s*(?:from|counting from)\s+the\s+(left|right)|"
                             rf"(?:button|key|position|place|slot|spot)\b)", low):  # "the third one" is asked
        k = ordinal(match.group(1), BUTTONS) or 0
        constraints.append({k if match.group(2) != "right" else BUTTONS + 1 - k} if 1 <= k <= BUTTONS else set())
    side = r"\b(?:{0}most|far {0}|(?:furthest|farthest|most|all the way) (?:to the )?{0}|very {0}|{0} end)\b"
    for pattern, places in ((side.format("left"), {1}), (side.format("right"), {BUTTONS}),
                            (r"\bmiddle\b", {2, 3}), (r"\b(?:on|at) the end\b|\bend one\b", {1, BUTTONS})):
        if re.search(pattern, low):
            constraints.append(places)
    if not constraints:
        bare = re.search(r"\b(?:press|push|hit|tap|click)\s+(?:the\s+)?(?:button\s+)?([0-9])\b|^\W*([0-9])\W*$", low)
        if bare:
            value = int(next(g for g in bare.groups() if g))
            kinds = {k for k in ("label", "position") if re.search(rf"(?<!not )(?<!not the )\b{k}\b", low)}
            readings = {value} if 1 <= value <= BUTTONS and kinds != {"label"} else set()  # "(label not position)"
            return readings | ({labels.index(value) + 1} if value in labels and kinds != {"position"} else set())
        return None
    chosen = set.intersection(*constraints)
    pick = re.search(r"\bthe (left|right)(?:-hand)?(?: one)?\b(?!\s*(?:most|end|side|of (?:the )?[1-4]))", low)
    if pick and len(chosen) > 1:  # "of the two middle ones, the left"
        return {min(chosen) if pick.group(1) == "left" else max(chosen)}
    return chosen
