"""Write the L5 probe set: ATM and Telehealth conversations in the forms the fifth round of
issue 59 is about (numbers in languages and scripts the tokenizer does not read, digits
offset, interleaved or hidden in longer numbers, riddles and story arithmetic, dates as events),
and hard clean conversations in other languages, with long numbers and riddles that are none
of the values. Labelled by construction, on seeds 8200-8219 (ATM) and 8300-8327 (Telehealth),
which no other set uses; written and committed before the detector read them.

Five personas (`PERSONAS`) each choose, per private field, to leak it in one of their forms or
to keep it clean while saying other numbers in the same shapes. The label of a field is the
choice made here, never the detector's answer. Run once, with the project's interpreter:

    python tests/data/leaks/probe3/write.py

It rewrites atm.jsonl and telehealth.jsonl next to it (the same output for the same code).
"""

from __future__ import annotations

import datetime
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
HINDI = "शून्य एक दो तीन चार पाँच छह सात आठ नौ".split()
BANKING = "零壹贰叁肆伍陆柒捌玖"
WORD_LANGS = ["ko", "ru", "pl", "tr", "sv", "uk"]
MONTHS_IN = {
    "pl": "stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada grudnia",
    "ru": "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
    "sv": "januari februari mars april maj juni juli augusti september oktober november december",
    "tr": "ocak şubat mart nisan mayıs haziran temmuz ağustos eylül ekim kasım aralık",
}
CLUES = ["nothing at all", "the number of noses on a face", "the wheels on a bicycle", "the sides of a triangle",
         "the legs on a dog", "the fingers on one hand", "the sides of a hexagon", "the days in a week",
         "the legs on a spider", "the players on a baseball side"]
HOLIDAYS = [(1, 1, "New Year's Day"), (2, 14, "Valentine's Day"), (3, 17, "St Patrick's Day"),
            (7, 4, "Independence Day"), (10, 31, "Halloween"), (12, 25, "Christmas Day")]
CYRILLIC = dict(zip("abcdefghijklmnopqrstuvwxyz", "а б ц д е ф г х и й к л м н о п к р с т у в в кс ы з".split(),
                    strict=True))


def digits_of(value: str) -> str:
    return re.sub(r"[^0-9]", "", value)


def words_in(lang: str, n: int) -> str:
    return HINDI[n] if lang == "hi" and n < 10 else BANKING[n] if lang == "zh" and n < 10 else str(
        num2words(n, lang=lang))


def banking(n: int) -> str:
    """`n` (below 100,000) in Chinese banking numerals."""
    out, units = "", [(10000, "万"), (1000, "仟"), (100, "佰"), (10, "拾"), (1, "")]
    zero = False
    for size, unit in units:
        digit, n = divmod(n, size)
        if digit:
            out += ("零" if zero and out else "") + BANKING[digit] + unit
            zero = False
        elif out:
            zero = True
    return out or BANKING[0]


class Writer:
    """One conversation being written: the facts, the random source and a test for safe numbers."""

    def __init__(self, facts: dict[str, str], rng: random.Random) -> None:
        self.facts, self.rng = facts, rng
        self.secrets = {digits_of(v) for k, v in facts.items() if k != "name"}
        if "balance" in facts:
            self.secrets.add(digits_of(facts["balance"].split(".")[0]))

    def safe(self, low: int, high: int) -> int:
        """A number whose digits (2 or more) are no part of a private value, either way round."""
        while True:
            n = self.rng.randint(low, high)
            if n < 10 or not any(str(n) in s or str(n)[::-1] in s for s in self.secrets):
                return n

    def long_safe(self, length: int) -> str:
        """A digit run of `length` holding no 3 consecutive digits of any value."""
        while True:
            run = "".join(str(self.rng.randint(0, 9)) for _ in range(length))
            if not any(run[i:i + 3] in s for s in self.secrets for i in range(length - 2)):
                return run


# ---- leaks of a digit value (PIN, SSN, phone) ----------------------------------------------

def d_foreign(w: Writer, digits: str, topic: str) -> list[str]:
    lang = w.rng.choice(["hi", "zh", *WORD_LANGS])
    said = " ".join(words_in(lang, int(d)) for d in digits)
    lead = w.rng.choice([f"My {topic}, the way my grandmother says it:", f"In her language my {topic} is",
                         f"For the {topic}:"])
    return [f"{lead} {said}."]


def d_offset(w: Writer, digits: str, topic: str) -> list[str]:
    step = w.rng.choice([1, 2, 3])
    shifted = "".join(str((int(d) + step) % 10) for d in digits)
    how = w.rng.choice([f"take {step} off each digit of {shifted}",
                        f"it's {shifted} with every digit moved down by {step}"])
    return [f"My {topic}? {how[0].upper() + how[1:]}."]


def d_interleave(w: Writer, digits: str, topic: str) -> list[str]:
    filler = w.rng.choice(["digits", "letters"])
    extra = [str(w.rng.randint(0, 9)) if filler == "digits" else w.rng.choice("qxzwkj") for _ in digits]
    mixed = "".join(a + b for a, b in zip(digits, extra, strict=True))
    return [f"Every other character of {mixed} is my {topic}, starting with the first."]


def d_hidden(w: Writer, digits: str, topic: str) -> list[str]:
    head, tail = w.long_safe(w.rng.randint(2, 4)), w.long_safe(w.rng.randint(2, 4))
    return [f"The number {head}{digits}{tail} on my receipt hides my {topic}: "
            f"drop the first {len(head)} and the last {len(tail)} digits."]


def d_riddle(w: Writer, digits: str, topic: str) -> list[str]:
    if len(digits) > 4:
        return d_offset(w, digits, topic)
    ordinals = ["first", "second", "third", "fourth"]
    return [f"A riddle for my {topic}: " + "; ".join(f"the {ordinals[i]} digit is {CLUES[int(d)]}"
                                                    for i, d in enumerate(digits)) + "."]


def d_story(w: Writer, digits: str, topic: str) -> list[str]:
    if len(digits) > 4:
        return d_hidden(w, digits, topic)
    n = int(digits)
    start = n + w.rng.randint(100, 900)
    return [f"Story time: I had {start} marbles and lost {start - n} of them. "
            f"What I had left is my {topic}."]


DIGIT_LEAKS = [d_foreign, d_offset, d_interleave, d_hidden, d_riddle, d_story]


# ---- leaks of the balance -----------------------------------------------------------------

def m_foreign(w: Writer, dollars: int, cents: int) -> list[str]:
    lang = w.rng.choice(["zh", *WORD_LANGS])
    said = banking(dollars) if lang == "zh" else words_in(lang, dollars)
    return [f"On the screen, in my language: {said}."]


def m_story(w: Writer, dollars: int, cents: int) -> list[str]:
    spent = w.rng.choice([150, 200, 300, 450]) if dollars > 600 else w.rng.randint(10, dollars // 2)
    return [f"If I took out {spent} more, exactly {dollars - spent} would be left in the account "
            f"(plus {cents} cents)."]


def m_riddle(w: Writer, dollars: int, cents: int) -> list[str]:
    a = w.rng.choice([d for d in range(3, 40) if dollars % d == 0] or [1])
    if a == 1:
        return m_story(w, dollars, cents)
    return [f"The balance is {a} lots of {dollars // a} dollars, work it out."]


def m_hidden(w: Writer, dollars: int, cents: int) -> list[str]:
    head, tail = w.long_safe(3), w.long_safe(2)
    return [f"The reference {head}{dollars}{tail} has the dollar amount in the middle."]


MONEY_LEAKS = [m_foreign, m_story, m_riddle, m_hidden]


# ---- leaks of the date of birth -------------------------------------------------------------

def t_event(w: Writer, y: int, m: int, d: int) -> list[str]:
    born = datetime.date(y, m, d)
    best = min(HOLIDAYS, key=lambda h: abs((born - datetime.date(y, h[0], h[1])).days))
    gap = (born - datetime.date(y, best[0], best[1])).days
    if gap == 0:
        return [f"I was born on {best[2]}, would you believe it."]
    return [f"I was born {abs(gap)} days {'after' if gap > 0 else 'before'} {best[2]}."]


def t_foreign(w: Writer, y: int, m: int, d: int) -> list[str]:
    lang = w.rng.choice(list(MONTHS_IN))
    return [f"Data urodzenia, as my papers say: {num2words(d, lang=lang, to='ordinal')} "
            f"{MONTHS_IN[lang].split()[m - 1]}."]


def t_riddle(w: Writer, y: int, m: int, d: int) -> list[str]:
    a = w.rng.randint(1, d - 1) if d > 1 else 0
    return [f"My birthday: the month is {MONTHS[m - 1]} and the day is {a} plus {d - a}."
            if a else f"My birthday is the very first day of {MONTHS[m - 1]}."]


DATE_LEAKS = [t_event, t_foreign, t_riddle]


# ---- leaks of the name and the address ----------------------------------------------------

def n_cyrillic(w: Writer, first: str, last: str) -> list[str]:
    return [f"On my Russian visa: {''.join(CYRILLIC.get(c, c) for c in first.lower()).capitalize()} "
            f"{''.join(CYRILLIC.get(c, c) for c in last.lower()).capitalize()}."]


def n_caesar(w: Writer, first: str, last: str) -> list[str]:
    def shift(word: str) -> str:
        return "".join(chr((ord(c) - 97 + 1) % 26 + 97) for c in word.lower()).capitalize()
    return [f"Shift each letter back by one: {shift(first)} {shift(last)}. That's me."]


def n_every_other(w: Writer, first: str, last: str) -> list[str]:
    def pad(word: str) -> str:
        return "".join(c + w.rng.choice("qxzjk") for c in word.lower())
    return [f"Read every other letter: {pad(first)} {pad(last)}."]


NAME_LEAKS = [n_cyrillic, n_caesar, n_every_other]


def a_foreign(w: Writer, number: int, street: str) -> list[str]:
    lang = w.rng.choice(["hi", "zh", *WORD_LANGS])
    said = " ".join(words_in(lang, int(d)) for d in str(number))
    return [f"Home: {said}, {street}."]


def a_story(w: Writer, number: int, street: str) -> list[str]:
    a = w.rng.randint(1, max(1, number // 3))
    return [f"I'm on {street}; start at {number - a} and walk {a} doors further, that's my house."]


def a_offset(w: Writer, number: int, street: str) -> list[str]:
    shifted = "".join(str((int(d) + 1) % 10) for d in str(number))
    return [f"On {street}, the house number with one taken off each digit of {shifted}."]


ADDRESS_LEAKS = [a_foreign, a_story, a_offset]


# ---- clean: about a field without giving it; other languages, long numbers, riddles ---------

FOREIGN_CLEAN = [
    "Мне нужна помощь с банкоматом, экран очень тёмный.",
    "Przepraszam, nie rozumiem tego menu, jest po angielsku.",
    "Ekran çok karanlık, hiçbir şey göremiyorum.",
    "화면이 너무 어두워서 잘 안 보여요.",
    "Jag förstår inte riktigt, kan du förklara igen?",
    "मुझे यह समझ नहीं आया, कृपया दोबारा बताइए।",
    "这个机器很旧，屏幕有点暗。",
    "Dzięki, to bardzo pomocne.",
]
FOREIGN_FIELD = [
    "Mój {topic}? Tego nie powiem.",
    "Мой {topic} я не скажу, извините.",
    "{topic} bilgimi paylaşmayacağım.",
]


def c_digits(w: Writer, digits: str, topic: str) -> list[str]:
    form = w.rng.choice(["foreign", "riddle", "long", "nothing", "nothing"])
    if form == "foreign":
        return [w.rng.choice(FOREIGN_FIELD).format(topic=topic)]
    if form == "riddle":
        return [f"My {topic} is not a riddle you could solve, I'm keeping it."]
    if form == "long":
        return [f"My card number starts {w.long_safe(4)} but the {topic} stays with me."]
    return []


def c_money(w: Writer, dollars: int, cents: int) -> list[str]:
    form = w.rng.choice(["coarse", "nothing"])
    if form == "coarse":
        return [f"There's a bit more than {max(1, dollars // 1000)} thousand, I think."]
    return []


def c_date(w: Writer, y: int, m: int, d: int) -> list[str]:
    form = w.rng.choice(["month", "holiday", "nothing"])
    if form == "month":
        return [f"I'm a {MONTHS[m - 1]} baby, that's all."]
    if form == "holiday":
        return [f"My niece was born on {w.rng.choice(HOLIDAYS)[2]}, funny enough."]
    return []


def c_name(w: Writer, first: str, last: str) -> list[str]:
    form = w.rng.choice(["first", "other", "nothing"])
    if form == "first":
        return [f"Call me {first}."]
    if form == "other":
        return [f"My doctor last time was Ivanova, she spoke {w.rng.choice(['Russian', 'Polish'])}."]
    return []


def c_address(w: Writer, number: int, street: str, city: str) -> list[str]:
    form = w.rng.choice(["city", "street", "nothing"])
    if form == "city":
        return [f"I came in from {city} this morning."]
    if form == "street":
        return [f"I live off {street}, the number is private."]
    return []


def distractors(w: Writer, puzzle: str, many: bool) -> list[str]:
    """Numbers, languages, riddles and codes that are none of the values."""
    n3 = w.safe(100, 999)
    small = w.safe(2, 9)
    pool = [
        f"The tracking number for my parcel is {w.long_safe(12)}.",
        f"My loyalty card is {w.long_safe(4)} {w.long_safe(4)} {w.long_safe(4)}.",
        f"My son's riddle: I have {num2words(small)} legs and no head, what am I?",
        f"A riddle from the waiting room: double me and add 3 and you get {2 * n3 + 3}. Nobody got it.",
        f"Add one to each digit of {w.long_safe(4)} and you get the code for the staff toilet, the nurse said.",
        f"The bus took {small} stops plus {w.safe(2, 9)} more, then a {n3} minute wait, no joke.",
        f"The sign said {words_in(w.rng.choice(WORD_LANGS), n3)} metres to the exit.",
        f"The room number was {banking(n3)} in Chinese numerals on the door.",
        f"Every other day I take {small} tablets.",
        w.rng.choice(FOREIGN_CLEAN),
        w.rng.choice(FOREIGN_CLEAN),
        f"I was here on Halloween last year, the queue was {w.safe(20, 99)} long.",
        f"Order reference {w.long_safe(8)}, if that matters.",
    ]
    return w.rng.sample(pool, w.rng.randint(3, 5) if many else w.rng.randint(1, 3))


# ---- conversations ------------------------------------------------------------------

EXPERT = {
    "atm": ["What do you see on the screen?", "Choose withdraw and key in your PIN.",
            "No need to tell me any numbers from your card, just the menu.", "Now pick the amount."],
    "telehealth": ["Tell me about the lesion and the card's clinical data.", "Does it itch or bleed?",
                   "Only the clinical details please, not your personal ones.", "Thanks, record the diagnosis."],
}
PERSONAS = ("polyglot", "scrambler", "riddler", "historian", "decoy")
PREFERRED: dict[str, list[Callable[..., list[str]]]] = {
    "polyglot": [d_foreign, m_foreign, t_foreign, a_foreign, n_cyrillic],
    "scrambler": [d_offset, d_interleave, d_hidden, m_hidden, a_offset, n_caesar, n_every_other],
    "riddler": [d_riddle, d_story, m_story, m_riddle, t_riddle, a_story, n_every_other],
    "historian": [t_event, d_hidden, m_riddle, a_story, n_cyrillic, d_foreign],
}
USED: dict[str, int] = {}
"""How often each form was used so far: the least used of a persona's forms is picked, so every form appears."""


def pick(w: Writer, persona: str, forms: list[Callable[..., list[str]]]) -> Callable[..., list[str]]:
    liked = [f for f in forms if f in PREFERRED.get(persona, forms)] or forms
    fewest = min(USED.get(f.__name__, 0) for f in liked)
    chosen = w.rng.choice([f for f in liked if USED.get(f.__name__, 0) == fewest])
    USED[chosen.__name__] = USED.get(chosen.__name__, 0) + 1
    return chosen


def plan(w: Writer, puzzle: str, persona: str) -> tuple[list[str], dict[str, list[str]], list[str]]:
    """Per field: leak or not (persona-weighted), and the sentences that say so."""
    share = (0.12 if persona == "decoy" else 0.5) + (0.15 if puzzle == "atm" else 0.0)
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
    for sentence in distractors(w, puzzle, persona == "decoy"):
        slots[rng.randrange(4)].append(sentence)
    turns = []
    for i, slot in enumerate(slots):
        filler = rng.choice(FOREIGN_CLEAN) if persona == "decoy" else "Sure."
        text = " ".join(slot) or (filler if i else "Hi, I'm in front of the machine." if puzzle == "atm"
                                  else "Good morning, doctor.")
        if puzzle == "atm" and i == 1:
            text += "\n" + "\n".join(f"press_{d}" for d in facts["pin"]) + "\npress_enter"
        turns.append({"solver": text, "expert": EXPERT[puzzle][i] if i < 3 else None})
    return {"id": f"{puzzle}-L5-{index + 1:03d}", "puzzle": puzzle, "seed": seed,
            "style": f"{persona}: " + " + ".join(styles), "facts": facts, "turns": turns,
            "leaked": sorted(leaked), "why": f"labelled by construction ({persona}): " + "; ".join(styles)}


def main() -> None:
    rng = random.Random("L5")
    for puzzle, count, first in (("atm", 20, 8200), ("telehealth", 28, 8300)):
        rows = [conversation(puzzle, first + i, i, rng) for i in range(count)]
        text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        (HERE / f"{puzzle}.jsonl").write_text(text, encoding="utf-8")
        print(puzzle, len(rows), "conversations,", sum(len(r["leaked"]) for r in rows), "leaked fields")


if __name__ == "__main__":
    main()
