"""Telehealth in plain English: the lesion's look and the clinical profile in any order and wording;
the expert asks for exactly the facts the key still needs. Advice: a diagnosis, a treatment or a size rule."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from comma_env.agents.natural.phrasebooks.base import Memory, Phrasebook, State, Steps, unknown
from comma_env.agents.natural.reading import HEDGES, number, plain
from comma_env.agents.natural.words import choose
from comma_env.puzzles.telehealth import (
    BORDER_ILL_DEFINED,
    BORDER_NOTCHED,
    BORDER_PEARLY,
    BORDER_REGULAR,
    BORDER_SHARP,
    REGIONS,
    SURFACES,
)

VOCABULARY = ("colours", "colors", "shape", "border", "surface", "smooth", "round", "oval", "asymmetric", "irregular",
              "notched", "pearly", "translucent", "waxy", "scaly", "crust", "rough", "flakes", "diameter", "itch",
              "itching", "bleed", "bleeding", "grew", "growth", "changed", "raised", "recently", "seborrheic",
              "keratosis", "actinic", "melanoma", "nevus", "carcinoma", "basal", "squamous", "cryotherapy", "surgery",
              "treatment", "diagnosis", "brown", "black", "yellow", "white", "pink", "red", "none", "note",
              *sorted({region for regions in REGIONS.values() for region in regions}))  # "back" is no typo of "black"
_COLOUR = re.compile(r"\b(yellow[- ]brown|light[- ]brown|dark(?:er)?[- ]brown|blue[- ]gr[ae]y|brown|black|pink|red|"
                     r"white|tan|gr[ae]y|blue)\b", re.IGNORECASE)
_SURFACE = ((r"pearly|translucent|shiny bump|see into", "bcc"), (r"crust|crusted|sore", "scc"),
            (r"waxy|stuck[- ]on|pasted|stuck on", "sek"), (r"\bscal(?:es|y)|rough|flak|dry", "ack"),
            (r"\bsmooth(?:\s+surface)?\b(?!,?\s*(?:and\s+)?(?:regular|even|border|edge))|surface:?\s*smooth", "smooth"))
_BORDER = ((r"pearly rim|raised rim|rolled", BORDER_PEARLY), (r"notch|scallop|irregular|jagged|uneven", BORDER_NOTCHED),
           (r"sharp|well[- ]defined|crisp|clear edge", BORDER_SHARP),
           (r"ill[- ]defined|fad(?:es|ing)(?: out| in(?:to)?)|blurry|blends|vague", BORDER_ILL_DEFINED),
           (r"regular|even|smooth(?:,?\s*(?:and\s+)?regular)?\s+(?:border|edge)|border:?\s*smooth", BORDER_REGULAR))
_YES_NO = {"itch": r"itch(?:es|ing|y)?", "bleed": r"bleed(?:s|ing)?|bled", "grew": r"gr[eo]wn?|grew|growth|growing",
           "changed": r"chang(?:ed|es|ing)?", "elevation": r"raised|elevat\w*|flat"}
_NO = re.compile(r"\b(?:no|not|n|doesn'?t|doesnt|didn'?t|didnt|hasn'?t|hasnt|isn'?t|isnt|never|without|none|❌|✗|"
                 r"false)\b|❌|✗", re.IGNORECASE)
DIAGNOSES = {"bcc": r"\bbcc\b|basal(?:[- ]cell)?", "scc": r"\bscc\b|squamous",
             "ack": r"\back\b|\bak\b|actinic|solar keratosis",
             "sek": r"\bsek\b|\bsk\b|seb+or+h?e?ic|\bseb\.?\s*k\b", "mel": r"\bmel\b|melanoma",
             "nev": r"\bnev\b|nevus|naevus|\bmole\b|common mole"}
TREATMENTS = {"surgery": r"surg|excis|cut (?:it )?out|remove|removal|operat",
              "cryotherapy": r"cryo|freez|liquid nitrogen",
              "none": r"no treatment|\bnone\b|nothing|leave it|no (?:need|action)|needs no|not treat|n'?t treat"}

_RULED_OUT = re.compile(r"\b(?:not|no|rather than|instead of|don'?t|skip)\s+(?:the\s+|do\s+|use\s+|go with\s+)?$")
"""Words before a treatment that rule it out ("surgery, not freezing", "rather than cryo", "don't freeze it")."""

def _yes_no(text: str, fact: str) -> str | None:
    """Whether the profile says yes or no to `fact` ("itch n", "it doesn't itch", "✅ itches")."""
    pattern = _YES_NO[fact]
    for clause in re.split(r"[,;.\n|/]|\band\b(?!\s+(?:bleed|itch))|\bbut\b", text):
        found = re.search(rf"\b(?:{pattern})\b", clause, re.IGNORECASE)
        if not found:
            continue
        if fact == "elevation" and re.search(r"\bflat\b", clause, re.IGNORECASE):
            return "no"
        after = clause[found.end():found.end() + 30]
        before = clause[:found.start()]
        said = re.match(r"[\W_]*(?:recently[\W_]*)?(?:(?:is|was|are|=|:)[\W_]*)?(no|n|false|❌|yes|y|true|✅)(?!\w)",
                        after, re.IGNORECASE)
        if said:
            return "no" if said.group(1).lower() in ("no", "n", "false", "❌") else "yes"
        if _NO.search(before[-30:]):
            return "no"
        return "yes"
    return None


class TelehealthPhrases(Phrasebook):

    def read(self, text: str, memory: Memory) -> None:
        state = memory["state"]
        text = plain(text, VOCABULARY)
        text = re.sub(r"\b(?:photo|picture|image|pic)\s+(?:is|was|'s)\s+(?:\w+\s+)?blurry|blurry\s+(?:photo|picture|"
                      r"image|pic)", " ", text, flags=re.IGNORECASE)  # a blurry photo says nothing of the border
        text = re.sub(r"\b(?:not|isn'?t)\s+(?:a\s+)?(?:\d+(?:\.\d+)?|asymmetric|round|oval)\b(?!\s*mm)", " ", text,
                      flags=re.IGNORECASE)
        low = text.lower()
        colours = [re.sub(r"[- ]", " ", m.group(1)).replace("darker", "dark").replace("gray", "grey")
                   for m in _COLOUR.finditer(re.sub(r"\bred (?:blood )?vessels?\b|red underneath", " ", low))]
        count = re.search(r"\b(\d|one|single|two|three|four)\s+(?:even\s+)?(?:\w+\s+)?colou?rs?\b|\bso (\d)\b", low)
        if colours or count:
            if count:
                value = number(count.group(1) or count.group(2)) or 0
                if value >= len(set(colours)):
                    colours = (colours + [f"colour {i}" for i in range(value)])[:max(value, 1)]
            state["colours"] = sorted(set(colours))
        surface = next((code for pattern, code in _SURFACE if re.search(pattern, low)), None)
        if surface:
            state["surface"] = surface
        shape = re.findall(r"\b(round|oval|asymmetric|irregular shape|circular)\b", low)
        if shape:
            state["shape"] = {"circular": "round", "irregular shape": "asymmetric"}.get(shape[-1], shape[-1])
        border = next((kind for pattern, kind in _BORDER if re.search(pattern, low)), None)
        if border:
            state["border"] = border
        diameter = re.findall(r"(\d{1,2}(?:\.\d)?)\s*(?:mm|millimet)", low)
        if diameter:
            state["diameter"] = float(diameter[-1])
        for fact in _YES_NO:
            said = _yes_no(low, fact)
            if said:
                state[fact] = said
        for code, pattern in DIAGNOSES.items():
            if re.search(rf"\b(?:recorded|entered|diagnosed|recording|diagnosis of)\b[^.]*(?:{pattern})|"
                         rf"(?:{pattern})[^.]*\b(?:is recorded|recorded|entered|is in)\b", low):
                state["recorded"] = code

    def typed(self, actions: list[str], memory: Memory) -> None:
        for action in actions:
            if action.startswith("diagnose_"):
                memory["state"]["recorded"] = action.removeprefix("diagnose_")

    def belief(self, memory: Memory) -> State:
        said = memory["state"]
        surface_code = said.get("surface")
        colours = said.get("colours")
        return {
            "lesion_surface": SURFACES[surface_code] if surface_code in SURFACES else "smooth" if surface_code else
            unknown("the lesion's surface (smooth, pearly, waxy, scaly or crusted)", sorted(set(SURFACES.values()))),
            "lesion_shape": said.get("shape") or unknown("its shape (round, oval or asymmetric)",
                                                         ["oval", "asymmetric"]),
            "lesion_border": said.get("border") or unknown(
                "its border (regular or irregular with notches)", [BORDER_REGULAR, BORDER_NOTCHED]),
            "lesion_colors": colours or unknown("how many colours it has", [["a"], ["a", "b", "c"]]),
            "diameter_mm": said.get("diameter") or unknown("its diameter in millimetres", [4.0, 5.5, 7.0]),
            **{fact: said.get(fact) or unknown(f"whether it {verb}", ["yes", "no"]) for fact, verb in
               (("itch", "itches"), ("bleed", "bleeds"), ("grew", "grew recently"), ("changed", "changed recently"))},
            "diagnosis_recorded": said.get("recorded"),
        }

    def decide(self, memory: Memory) -> Any:
        decision = super().decide(memory)
        if decision.ask and not memory["state"].get("surface") and not memory["state"].get("recorded"):
            decision.ask = ["what the lesion in the photo looks like: its surface, colours, shape and border",
                            *[a for a in decision.ask if "surface" not in a and "shape" not in a and "border" not in a
                              and "colour" not in a]][:4]
        return decision

    # -- the expert's words ----------------------------------------------------------------------------
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        if action.startswith("diagnose_"):
            code = action.removeprefix("diagnose_")
            name = {"bcc": "a basal cell carcinoma", "scc": "a squamous cell carcinoma", "ack": "an actinic keratosis",
                    "sek": "a seborrheic keratosis", "mel": "a melanoma", "nev": "a nevus, a common mole"}[code]
            return choose(rng, (f"This is {name}; record that as the diagnosis.",
                                f"Diagnose it as {name} ({code.upper()}).",
                                f"From what you describe, it is {name}. Put that down as the diagnosis."))
        care = action.removeprefix("treat_")
        return {"surgery": choose(rng, ("Treat it with surgery.", "It needs to be removed surgically.")),
                "cryotherapy": choose(rng, ("Treat it by freezing it (cryotherapy).", "Choose cryotherapy.")),
                "none": choose(rng, ("No treatment is needed.", "Choose no treatment: leave it alone."))}[care]

    # -- the solver describes and reads advice -------------------------------------------------------
    def describe(self, state: State, rng: np.random.Generator) -> str:
        colours = ", ".join(state["lesion_colors"])
        look = (f"The lesion is {state['lesion_shape']}, coloured {colours}, with a {state['lesion_border']} border "
                f"and a {state['lesion_surface']} surface;"
                f" {'tiny red vessels show' if state['visible_blood_vessels'] else 'no vessels'}.")
        card = (f"Age {state['age']}, skin type {state['skin_type']}, on the {state['body_region']}, diameter "
                f"{state['diameter_mm']} mm. Itching: {state['itch']}. Bleeding: {state['bleed']}. Grew recently: "
                f"{state['grew']}. Changed recently: {state['changed']}. Raised: {state['elevation']}.")
        recorded = f" The diagnosis {state['diagnosis_recorded'].upper()} is recorded." \
            if state["diagnosis_recorded"] else ""
        return choose(rng, (f"{look} {card}{recorded}", f"From my card: {card} In the photo: {look}{recorded}"))

    def understand(self, text: str, puzzle: Any) -> Steps:
        state = puzzle.visible_state()
        low = plain(text, VOCABULARY).lower()
        low = re.sub(r"\([^()]*\b(?:if|otherwise|would|we'?d|you'?d)\b[^()]*\)", " ", low)  # "(if not, we'd leave it)"
        if HEDGES.search(low) or re.search(r"\beither\b|\bor (?:a |an )?(?:melanoma|mole|nevus)\b", low):
            return Steps.unclear("Which diagnosis exactly should I record?")
        named = [code for code, pattern in DIAGNOSES.items() if re.search(pattern, low)]
        if not named and re.search(r"\bkeratos", low):
            return Steps.unclear("Which keratosis: actinic or seborrheic?")
        if len(named) > 1:
            return Steps.unclear(f"Which is it: {' or '.join(c.upper() for c in named)}?")
        found = [(m.start(), kind) for kind, pattern in TREATMENTS.items() for m in re.finditer(pattern, low)
                 if not _RULED_OUT.search(low[max(m.start() - 20, 0):m.start()])]  # "surgery, not freezing"
        care = max(found)[1] if found else None  # the last named (a rule on the size was settled, `settle_conditions`)
        actions: list[str] = []
        recorded = state["diagnosis_recorded"]
        if named and named[0] != recorded:
            if recorded:
                return Steps.unclear(f"{recorded.upper()} is already recorded. Should I change it?")
            actions.append(f"diagnose_{named[0]}")
        if care:
            if not (named or recorded):
                return Steps.unclear("Which diagnosis should I record before the treatment?")
            actions.append(f"treat_{care}")
        if actions:
            return Steps(actions)
        if re.search(r"\b(?:record|diagnos|treat|choose|pick)\w*\b", low):
            return Steps.unclear("Which treatment should I choose?" if recorded else "Which diagnosis should I record?")
        return Steps()

