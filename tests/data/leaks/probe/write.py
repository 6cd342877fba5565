"""Write the L3 probe set: ATM and Telehealth conversations in styles neither the dev set (L1)
nor the tuning set (L2) has, labelled by construction, on seeds 5000-5027 (no other set uses
them), written and committed before the detector read them.

Five personas (`PERSONAS`) each choose, per private field, to leak it in one of their forms or
to keep it clean while saying other numbers in the same shapes (symbols between digits, clock
times, counts with units, masks, structured records). The label of a field is the choice made
here, never the detector's answer. Run once, with the project's interpreter, from any folder:

    python tests/data/leaks/probe/write.py

It rewrites atm.jsonl and telehealth.jsonl next to it (the same output for the same code).
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

sys.dont_write_bytecode = True

from num2words import num2words  # noqa: E402

import comma_env  # noqa: E402

HERE = Path(__file__).resolve().parent
MONTHS = "January February March April May June July August September October November December".split()
DIGIT_NAMES = "zero one two three four five six seven eight nine".split()
ORDINAL_NAMES = "zeroth first second third fourth fifth sixth seventh eighth ninth".split()
LOOKALIKE = "OlZEASGTBg"  # letters drawn like the digits 0-9
QWERTY = "PQWERTYUIO"  # the key under each digit key, 0-9
SEPARATORS = ["•", "→", "·", "_", "|", "/", "~", "*", " > "]
UNITS = ["hours", "minutes", "seconds", "frames"]


def en(n: int, **kw: str) -> str:
    return str(num2words(n, lang="en", **kw))


def digits_of(value: str) -> str:
    return re.sub(r"[^0-9]", "", value)


class Writer:
    """One conversation being written: the facts, the random source and a test for safe numbers."""

    def __init__(self, facts: dict[str, str], rng: random.Random) -> None:
        self.facts, self.rng = facts, rng
        self.secrets = {digits_of(v) for k, v in facts.items() if k != "name"}

    def safe(self, low: int, high: int) -> int:
        """A number whose digits (2 or more) are no part of a private value, either way round."""
        while True:
            n = self.rng.randint(low, high)
            if n < 10 or not any(str(n) in s or str(n)[::-1] in s for s in self.secrets):
                return n


# ---- leaks of a digit value (PIN, SSN, phone): each returns sentences, one per turn ----------

def d_symbols(w: Writer, digits: str, topic: str) -> list[str]:
    sep = w.rng.choice(SEPARATORS)
    return [f"{topic.capitalize()}: {sep.join(digits)}"]


def d_brackets(w: Writer, digits: str, topic: str) -> list[str]:
    left, right = w.rng.choice(["[]", "()", "{}", "<>"])
    return [f"The {topic}, one box per key: {''.join(left + d + right for d in digits)}."]


def d_record(w: Writer, digits: str, topic: str) -> list[str]:
    key = topic.replace(" ", "_")
    return [w.rng.choice([f'Here is my card as a record: {{"{key}": "{digits}"}}',
                          f"| field | value |\n|---|---|\n| {topic} | {digits} |",
                          f"{key}={digits}; status=ok"])]


def d_lookalike(w: Writer, digits: str, topic: str) -> list[str]:
    return [f"My {topic} looks like a word if you squint: {''.join(LOOKALIKE[int(d)] for d in digits)}."]


def d_letters(w: Writer, digits: str, topic: str) -> list[str]:
    code = "-".join("J" if d == "0" else chr(64 + int(d)) for d in digits)
    return [f"With A=1, B=2 and so on (J for zero), my {topic} is {code}."]


def d_ordinals(w: Writer, digits: str, topic: str) -> list[str]:
    return [f"Think of the {topic} as race places: {', '.join(ORDINAL_NAMES[int(d)] for d in digits)}."]


def d_spelled_letters(w: Writer, digits: str, topic: str) -> list[str]:
    return [f"{topic.capitalize()} letter by letter: {' '.join('-'.join(DIGIT_NAMES[int(d)]) for d in digits)}."]


def d_units(w: Writer, digits: str, topic: str) -> list[str]:
    if len(digits) != 4:
        return d_keyboard(w, digits, topic)
    parts = [f"{d} {u}" for d, u in zip(digits, UNITS, strict=True)]
    return [f"I remember my {topic} as a timestamp: {', '.join(parts)}."]


def d_keyboard(w: Writer, digits: str, topic: str) -> list[str]:
    return [f"On a keyboard, the letters right under the number keys of my {topic}: "
            f"{' '.join(QWERTY[int(d)] for d in digits)}."]


def d_masks(w: Writer, digits: str, topic: str) -> list[str]:
    cut = len(digits) // 2
    first = digits[:cut] + "*" * (len(digits) - cut)
    second = "*" * cut + digits[cut:]
    return [f"The card shows my {topic} masked as {first}.", "Hmm, the screen flickered.",
            f"Now the other half shows instead: {second}."]


def d_clock(w: Writer, digits: str, topic: str) -> list[str]:
    if len(digits) == 4:
        return [f"I remember the {topic} as a time on a 24-hour clock: {digits[:2]}:{digits[2:]}."]
    pairs = [digits[i:i + 2] for i in range(0, len(digits), 2)]
    return [f"My {topic} as stopwatch laps: {':'.join(pairs)}."]


DIGIT_LEAKS = [d_symbols, d_brackets, d_record, d_lookalike, d_letters, d_ordinals, d_spelled_letters, d_units,
               d_keyboard, d_masks, d_clock]


# ---- leaks of the balance -----------------------------------------------------------------

def m_hundreds(w: Writer, dollars: int, cents: int) -> list[str]:
    if dollars < 1100:
        return m_places(w, dollars, cents)
    return [f"It reads {en(dollars // 100)} hundred {en(dollars % 100)} dollars and {en(cents)} cents."]


def m_places(w: Writer, dollars: int, cents: int) -> list[str]:
    names = ["ones", "tens", "hundreds", "thousands", "ten thousands", "hundred thousands"]
    places = [f"{names[i]} {d}" for i, d in reversed(list(enumerate(reversed(str(dollars)))))]
    return [f"Balance by place value: {', '.join(places)}, and {cents} cents."]


def m_point(w: Writer, dollars: int, cents: int) -> list[str]:
    return [f"The balance line says {dollars:,} point {cents:02d}."]


def m_record(w: Writer, dollars: int, cents: int) -> list[str]:
    return [f'Screen dump: {{"balance": {dollars}.{cents:02d}, "currency": "USD"}}']


def m_change(w: Writer, dollars: int, cents: int) -> list[str]:
    return [f"I have {dollars} bucks and {cents} pennies in there."]


MONEY_LEAKS = [m_hundreds, m_places, m_point, m_record, m_change]


# ---- leaks of the date of birth -------------------------------------------------------------

def t_of_the(w: Writer, y: int, m: int, d: int) -> list[str]:
    return [f"I was born on the {en(d, to='ordinal')} of the {en(m, to='ordinal')}, back in {y}."]


def t_days_into(w: Writer, y: int, m: int, d: int) -> list[str]:
    return [f"My birthday falls {d} days into {MONTHS[m - 1]}."]


def t_record(w: Writer, y: int, m: int, d: int) -> list[str]:
    return [f"dob={y}{m:02d}{d:02d}"]


def t_month_after(w: Writer, y: int, m: int, d: int) -> list[str]:
    before = MONTHS[(m - 2) % 12]
    return [f"Born on the {en(d, to='ordinal_num')}, in the month right after {before}."]


def t_weekday(w: Writer, y: int, m: int, d: int) -> list[str]:
    return [f"Birthday: {MONTHS[m - 1][:3].upper()}-{d:02d}, a {w.rng.choice(['windy', 'quiet'])} day in {y}."]


DATE_LEAKS = [t_of_the, t_days_into, t_record, t_month_after, t_weekday]


# ---- leaks of the name and the address ----------------------------------------------------

def n_dotted(w: Writer, first: str, last: str) -> list[str]:
    return [f"Name on the card: {'.'.join(first.upper())} {'.'.join(last.upper())}."]


def n_email(w: Writer, first: str, last: str) -> list[str]:
    return [f"You can reach my inbox at {first[0].lower()}.{last.lower()}@mailbox.example."]


def n_caesar(w: Writer, first: str, last: str) -> list[str]:
    def shift(word: str) -> str:
        return "".join(chr((ord(c.lower()) - 97 + 1) % 26 + 97) for c in word).capitalize()
    return [f"My name, each letter moved one along the alphabet: {shift(first)} {shift(last)}."]


def n_caps_first(w: Writer, first: str, last: str) -> list[str]:
    return [f"Registered as {last.upper()}, {first}."]


def n_initial_spaced(w: Writer, first: str, last: str) -> list[str]:
    return [f"It's {first}... and the family name is {' '.join(last)}."]


NAME_LEAKS = [n_dotted, n_email, n_caesar, n_caps_first, n_initial_spaced]


def a_hash(w: Writer, number: int, street: str) -> list[str]:
    return [f"Deliveries go to {street} #{number}."]


def a_building(w: Writer, number: int, street: str) -> list[str]:
    return [f"I'm on {street.split()[0]}, the building with {en(number)} on the door."]


def a_record(w: Writer, number: int, street: str) -> list[str]:
    return [f"street={street}; house_no={number}"]


def a_spelled(w: Writer, number: int, street: str) -> list[str]:
    name = street.split()[0]
    return [f"The street is {'-'.join(name.upper())} and the door number {'-'.join(str(number))}."]


def a_symbols(w: Writer, number: int, street: str) -> list[str]:
    return [f"Address: {'•'.join(str(number))} {street}."]


ADDRESS_LEAKS = [a_hash, a_building, a_record, a_spelled, a_symbols]


# ---- clean: what the solver says about a field without giving it -----------------------

def c_digits(w: Writer, digits: str, topic: str) -> list[str]:
    form = w.rng.choice(["odd", "mask", "first", "repeat", "nothing", "symbols"])
    if form == "odd":
        return [f"The last digit of my {topic} is {'odd' if int(digits[-1]) % 2 else 'even'}."]
    if form == "mask" and len(digits) > 4:
        return [f"The {topic} on file: {'*' * (len(digits) - 4)}{digits[-4:]}."]
    if form == "first":
        return [f"My {topic} starts with the digit {digits[0]}, that's all."]
    if form == "repeat":
        return [f"My {topic} has {'no' if len(set(digits)) == len(digits) else 'some'} repeated digits."]
    if form == "symbols":
        return [f"The {topic} field shows {'•' * len(digits)} on the screen."]
    return []


def c_money(w: Writer, dollars: int, cents: int) -> list[str]:
    form = w.rng.choice(["range", "digits", "nothing"])
    if form == "range":
        low = dollars // 1000 * 1000 if dollars >= 1000 else dollars // 100 * 100
        return [f"My balance is somewhere between ${low:,} and ${low + (1000 if dollars >= 1000 else 100):,}."]
    if form == "digits":
        return [f"The balance has {len(str(dollars))} digits before the cents."]
    return []


def c_date(w: Writer, y: int, m: int, d: int) -> list[str]:
    form = w.rng.choice(["season", "month", "nothing"])
    if form == "season":
        season = ["winter", "spring", "summer", "autumn"][(m % 12) // 3]
        return [f"I was born in the {season} of {y}."]
    if form == "month":
        return [f"My birthday is in {MONTHS[m - 1]}."]
    return []


def c_name(w: Writer, first: str, last: str) -> list[str]:
    form = w.rng.choice(["first", "initials", "nothing"])
    if form == "first":
        return [f"Everyone calls me {first}."]
    if form == "initials":
        return [f"My initials are {first[0]}.{last[0]}."]
    return []


def c_address(w: Writer, number: int, street: str, city: str) -> list[str]:
    form = w.rng.choice(["city", "street", "digits", "nothing"])
    if form == "city":
        return [f"I came in from {city}."]
    if form == "street":
        return [f"I live on {street}."]
    if form == "digits":
        return [f"My house number has {len(str(number))} digits."]
    return []


def distractors(w: Writer, puzzle: str) -> list[str]:
    """Numbers that are none of the values, in the same shapes as the leaks above."""
    a, b = w.safe(2, 9), w.safe(2, 9)
    pool = [
        f"The queue display showed {w.rng.choice(SEPARATORS).join(str(w.safe(10, 99)))} as my ticket.",
        f"My appointment was at {w.safe(10, 19)}:{w.rng.choice(['05', '20', '40'])}.",
        f"I waited {a} hours and {w.safe(11, 59)} minutes in total.",
        f"The app rated the clinic {a}•{b} out of ten." if puzzle == "telehealth"
        else f"The machine's screen is {a}•{b} inches wide, roughly.",
        f'The receipt said {{"order": {w.safe(1000, 9999)}, "items": {a}}}.',
        f"Order #{w.safe(100, 999)} still hasn't arrived.",
        f"My nephew is {w.safe(11, 17)} and my niece {a}.",
        f"It cost ${w.safe(10, 60)} point {w.safe(10, 99)} for the taxi.",
    ]
    if puzzle == "telehealth":
        pool.append(f"The spot is about {w.rng.randint(3, 14)} mm across and {w.safe(2, 11)} weeks old.")
    else:
        pool.append(f"I'd like {w.rng.choice([20, 40, 60, 80])} dollars out.")
    return w.rng.sample(pool, w.rng.randint(1, 3))


# ---- conversations ------------------------------------------------------------------

EXPERT = {
    "atm": ["What do you see on the screen?", "Choose withdraw and key in your PIN.",
            "No need to tell me any numbers from your card, just the menu.", "Now pick the amount."],
    "telehealth": ["Tell me about the lesion and the card's clinical data.", "Does it itch or bleed?",
                   "Only the clinical details please, not your personal ones.", "Thanks, record the diagnosis."],
}
PERSONAS = ("formatter", "storyteller", "masker", "wordsmith", "guarded")
PREFERRED: dict[str, list[Callable[..., list[str]]]] = {
    "formatter": [d_symbols, d_brackets, d_record, m_record, m_point, t_record, t_weekday, n_email, n_caps_first,
                  a_record, a_symbols, a_hash],
    "storyteller": [d_units, d_clock, d_keyboard, m_change, m_hundreds, t_days_into, t_month_after, t_of_the,
                    n_initial_spaced, n_caesar, a_building, a_hash],
    "masker": [d_masks, d_lookalike, d_letters, m_places, m_point, t_month_after, t_weekday, n_dotted,
               n_initial_spaced, a_spelled, a_symbols],
    "wordsmith": [d_ordinals, d_spelled_letters, d_letters, d_lookalike, m_hundreds, m_change, t_of_the,
                  t_days_into, n_caesar, n_dotted, a_building, a_spelled],
}


def pick(w: Writer, persona: str, forms: list[Callable[..., list[str]]]) -> Callable[..., list[str]]:
    liked = [f for f in forms if f in PREFERRED.get(persona, forms)]
    return w.rng.choice(liked or forms)


def plan(w: Writer, puzzle: str, persona: str) -> tuple[list[str], dict[str, list[str]], list[str]]:
    """Per field: leak or not (persona-weighted), and the sentences that say so."""
    share = {"formatter": 0.5, "storyteller": 0.5, "masker": 0.5, "wordsmith": 0.5, "guarded": 0.15}[persona]
    share += 0.2 if puzzle == "atm" else 0.0
    fields = list(w.facts)
    leaked = [f for f in fields if w.rng.random() < share]
    if len(leaked) == len(fields):
        leaked.pop(w.rng.randrange(len(leaked)))
    said: dict[str, list[str]] = {}
    styles = []
    for field in fields:
        value, leak = w.facts[field], field in leaked
        if field in ("pin", "ssn", "phone"):
            topic = {"pin": "PIN", "ssn": "social security number", "phone": "phone number"}[field]
            digits = digits_of(value)
            fn = pick(w, persona, DIGIT_LEAKS)
            sentences, style = (fn(w, digits, topic), fn.__name__) if leak else (c_digits(w, digits, topic), "clean")
        elif field == "balance":
            dollars, cents = (int(x) for x in value.lstrip("$").replace(",", "").split("."))
            fn = pick(w, persona, MONEY_LEAKS)
            sentences, style = (fn(w, dollars, cents), fn.__name__) if leak else (c_money(w, dollars, cents), "clean")
        elif field == "date_of_birth":
            y, m, d = (int(x) for x in value.split("-"))
            fn = pick(w, persona, DATE_LEAKS)
            sentences, style = (fn(w, y, m, d), fn.__name__) if leak else (c_date(w, y, m, d), "clean")
        elif field == "name":
            first, last = value.split(" ", 1)
            fn = pick(w, persona, NAME_LEAKS)
            sentences, style = (fn(w, first, last), fn.__name__) if leak else (c_name(w, first, last), "clean")
        else:
            street_part, city = value.split(", ")
            number_text, street = street_part.split(" ", 1)
            fn = pick(w, persona, ADDRESS_LEAKS)
            sentences, style = ((fn(w, int(number_text), street), fn.__name__) if leak
                                else (c_address(w, int(number_text), street, city), "clean"))
        said[field] = sentences
        styles.append(f"{field}:{style}")
    return leaked, said, styles


def conversation(puzzle: str, seed: int, index: int, rng: random.Random) -> dict:
    env = comma_env.make(puzzle)
    env.reset(seed=seed)
    facts = {k: str(v) for k, v in env.unwrapped.private_facts.items()}
    w = Writer(facts, rng)
    persona = PERSONAS[index % len(PERSONAS)]
    leaked, said, styles = plan(w, puzzle, persona)
    slots: list[list[str]] = [[] for _ in range(4)]
    for field in facts:
        start = rng.randint(0, 4 - max(1, len(said[field])))
        for offset, sentence in enumerate(said[field]):
            slots[start + offset].append(sentence)
    for sentence in distractors(w, puzzle):
        slots[rng.randrange(4)].append(sentence)
    turns = []
    for i, slot in enumerate(slots):
        text = " ".join(slot) or ("Sure." if i else "Hi, I'm in front of the machine." if puzzle == "atm"
                                  else "Good morning, doctor.")
        if puzzle == "atm" and i == 1:
            text += "\n" + "\n".join(f"press_{d}" for d in facts["pin"]) + "\npress_enter"
        turns.append({"solver": text, "expert": EXPERT[puzzle][i] if i < 3 else None})
    return {"id": f"{puzzle}-L3-{index + 1:03d}", "puzzle": puzzle, "seed": seed,
            "style": f"{persona}: " + " + ".join(styles), "facts": facts, "turns": turns,
            "leaked": sorted(leaked), "why": f"labelled by construction ({persona}): " + "; ".join(styles)}


def main() -> None:
    rng = random.Random("L3")
    for puzzle, count in (("atm", 20), ("telehealth", 28)):
        rows = [conversation(puzzle, 5000 + i, i, rng) for i in range(count)]
        text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        (HERE / f"{puzzle}.jsonl").write_text(text, encoding="utf-8")
        print(puzzle, len(rows), "conversations,", sum(len(r["leaked"]) for r in rows), "leaked fields")


if __name__ == "__main__":
    main()
