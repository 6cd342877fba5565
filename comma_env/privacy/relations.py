"""Values told as a computation: `calculate` rewrites a folded text (numbers already digits) with
explicit operations done (``5400 plus 29`` -> ``5429``), slang amounts as dollars, the amounts a
sentence relating two amounts could mean appended (``$d.cc``, never read as a PIN), and a day of
the year or a weekday of a month written as the date (docs/privacy.md lists the forms)."""

from __future__ import annotations

import calendar
import datetime
import re

from comma_env.privacy.lexicon import alternation

_NUMBER = r"([0-9](?<![0-9,].)(?:[0-9]{0,2}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]*(?:\.[0-9]+)?))"  # a number, not its tail
_OPERATIONS = (  # in order of precedence; each with the words (or signs) it needs
    (("squared",), re.compile(rf"{_NUMBER}[ \t]+squared\b()"), lambda a, b: a * a),
    (("cubed",), re.compile(rf"{_NUMBER}[ \t]+cubed\b()"), lambda a, b: a ** 3),
    (("quarter",), re.compile(rf"{_NUMBER}[ \t]+quarters?[ \t]+of[ \t]+{_NUMBER}"), lambda a, b: a * b / 4),
    (("times", "multiplied", "x", "*"),
     re.compile(rf"{_NUMBER}(?:[ \t]+(?:times|multiplied[ \t]+by)[ \t]+|[ \t]*[x*][ \t]*){_NUMBER}"),
     lambda a, b: a * b),
    (("product",), re.compile(rf"\bproduct[ \t]+of[ \t]+{_NUMBER}[ \t]+and[ \t]+{_NUMBER}"), lambda a, b: a * b),
    (("than", "short", "shy"),
     re.compile(rf"{_NUMBER}[ \t]+(?:less[ \t]+than|short[ \t]+of|shy[ \t]+of)[ \t]+{_NUMBER}"), lambda a, b: b - a),
    (("than",), re.compile(rf"{_NUMBER}[ \t]+more[ \t]+than[ \t]+{_NUMBER}"), lambda a, b: a + b),
    (("difference",), re.compile(rf"\bdifference[ \t]+(?:between|of)[ \t]+{_NUMBER}[ \t]+and[ \t]+{_NUMBER}"),
     lambda a, b: abs(a - b)),
    (("plus", "+"), re.compile(rf"{_NUMBER}(?:[ \t]+plus[ \t]+|[ \t]*\+[ \t]*){_NUMBER}"), lambda a, b: a + b),
    (("more",), re.compile(rf"{_NUMBER}[ \t]+and[ \t]+{_NUMBER}[ \t]+more\b"), lambda a, b: a + b),
    (("minus", "less", "take"), re.compile(rf"{_NUMBER}[ \t]+(?:minus|less|take[ \t]+away)[ \t]+{_NUMBER}"),
     lambda a, b: a - b),
    ((" - ",), re.compile(rf"(?<![0-9][ \t]-[ \t])(?<![0-9]-){_NUMBER}[ \t]+-[ \t]+{_NUMBER}"
                          r"(?![0-9]|[ \t]*-[ \t]*[0-9])"), lambda a, b: a - b),  # "9000 - 414", not "739 - 80 - 3674"
    (("double", "twice"), re.compile(rf"\b(?:double|twice)[ \t]+(?:of[ \t]+)?{_NUMBER}()"), lambda a, b: a * 2),
    (("triple", "thrice"), re.compile(rf"\b(?:triple|thrice)[ \t]+(?:of[ \t]+)?{_NUMBER}()"), lambda a, b: a * 3),
    (("doubled",), re.compile(rf"{_NUMBER}[ \t]+doubled\b()"), lambda a, b: a * 2),
    (("tripled",), re.compile(rf"{_NUMBER}[ \t]+tripled\b()"), lambda a, b: a * 3),
    (("halved",), re.compile(rf"{_NUMBER}[ \t]+halved\b()"), lambda a, b: a / 2),
    (("divided",), re.compile(rf"{_NUMBER}[ \t]+divided[ \t]+by[ \t]+{_NUMBER}"), lambda a, b: a / b if b else -1),
    (("half",), re.compile(rf"\bhalf[ \t]+(?:of[ \t]+)?{_NUMBER}()"), lambda a, b: a / 2),
    (("add", "sum"),
     re.compile(rf"\b(?:add|sum)[ \t]+(?:up[ \t]+|of[ \t]+)?{_NUMBER}[ \t]+(?:and|to|with)[ \t]+{_NUMBER}"),
     lambda a, b: a + b),
    (("subtract",), re.compile(rf"\bsubtract[ \t]+{_NUMBER}[ \t]+from[ \t]+{_NUMBER}"), lambda a, b: b - a),
)
_DOZEN = re.compile(r"\ba dozen\b")
# slang amounts with the rest said: "2 grand and 320 bucks", "4 benjamins and 29", "1k 810"
_SLANG_UNIT = re.compile(r"(?:[0-9]|\ba)[ \t]*(?:grand|large|k|g'?s|benjamins?|c-notes?)\b")
_SLANG = re.compile(r"(?<![0-9.,])([0-9]{1,3}|\ba)[ \t]*(grand|large|k|g'?s|benjamins?|c-notes?)\b"
                    r"(?:[ \t,]+(?:and[ \t]+)?([0-9]{1,3})(?![0-9.,]))?")
_BUCK_AND = re.compile(r"\b(?:a|([0-9]+))[ \t]+bucks?[ \t]+([0-9]{2})\b(?![ \t]*cents?)")  # "a buck fifty"
_SLANG_VALUE = {"g": 1000, "l": 1000, "k": 1000, "b": 100, "c": 100}
_DOLLARS_AND_CENTS = re.compile(r"\b([0-9]+)[ \t]+(?:dollars?|bucks)[ \t]+(?:and[ \t]+)?([0-9]{1,2})[ \t]+cents?\b")
_AMOUNT_RELATION = re.compile(r"\b(?:after|more|reach|short|over|under|half|double|twice|off|left|still|leaves?|"
                              r"owe|spent|minus|plus|less|cents?)\b")
_AMOUNT = re.compile(r"(\$)?([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]{1,2}))?(?![0-9])(\s*cents?\b)?")
_SENTENCE = re.compile(r"[^.!?;\n]+(?:[.!?;](?=[0-9])[^.!?;\n]*)*")
_CENTS = re.compile(r"\b([0-9]{1,3}(?:,[0-9]{3})+|[0-9]{3,})[ \t]*cents?\b")
_MONEY = re.compile(r"\$|\bcents?\b|\bdollars?\b|\bbucks\b|[0-9]\.[0-9]{2}\b")
_DAY_OF_YEAR = re.compile(r"\b([0-9]{1,3})(?:st|nd|rd|th)[ \t]+day[ \t]+of[ \t]+(?:the[ \t]+year[ \t]+)?([0-9]{4})\b")
_DAY_N_OF = re.compile(r"\bday[ \t]+([0-9]{1,3})(?=[ \t]+of[ \t]+(?:the[ \t]+year[ \t]+)?[0-9]{4}\b)")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_WEEKDAY_OF_MONTH = re.compile(rf"\b(last|[1-5](?:st|nd|rd|th))[ \t]+({'|'.join(_WEEKDAYS)})[ \t]+(?:of|in)[ \t]+"
                               rf"({'|'.join(MONTHS)})[ \t,]+([0-9]{{4}})\b")


def _slang(match: re.Match[str]) -> str:
    if match.group(1) == "a" and match.group(2) != "grand":
        return match.group(0)  # "a large coffee"
    return f"${int(match.group(1).replace('a', '1')) * _SLANG_VALUE[match.group(2)[0]] + int(match.group(3) or 0)}"


def _operations(text: str) -> str:
    if "dozen" in text:
        text = _DOZEN.sub("12", text)
    if _SLANG_UNIT.search(text):
        text = _SLANG.sub(_slang, text)
    if "buck" in text:
        text = _BUCK_AND.sub(lambda m: f"${m.group(1) or 1}.{m.group(2)} or ${int(m.group(1) or 1)}{m.group(2)}", text)
    if "cent" in text:
        text = _DOLLARS_AND_CENTS.sub(lambda m: f"${m.group(1)}.{int(m.group(2)):02d}", text)
    for needs, pattern, operation in _OPERATIONS:
        if not any(word in text for word in needs):
            continue

        def result(match: re.Match[str], op=operation) -> str:
            value = op(float(match.group(1).replace(",", "")),
                       float(match.group(2).replace(",", "")) if match.group(2) else 0.0)
            return f"{value:.2f}".rstrip("0").rstrip(".") if value >= 0 else match.group(0)
        for _ in range(3):  # "9000 minus 414 minus 1": the result is an operand again
            text, done = pattern.subn(result, text)
            if not done:
                break
    return text


def _related_amounts(sentence: str) -> str:
    """The amounts a sentence relating amounts could mean, as ``$d.cc`` words: sums and
    differences of two amounts, halves and doubles when it says so, cents as dollars."""
    relation = _AMOUNT_RELATION.search(sentence)
    if not relation or not _MONEY.search(sentence):
        return ""
    amounts: list[int] = []  # in cents
    for match in _AMOUNT.finditer(sentence):
        whole = int(match.group(2).replace(",", ""))
        amounts.append(whole if match.group(4) else whole * 100 + int((match.group(3) or "0").ljust(2, "0")))
    amounts = amounts[:6]
    candidates: set[int] = set()
    if re.search(r"\b(?:half|double|twice)\b", sentence):
        candidates.update(c for a in amounts for c in (a // 2, a * 2) if a % 2 == 0 or c == a * 2)
    for i, a in enumerate(amounts):
        for b in amounts[i + 1:]:
            candidates.update({a + b, abs(a - b)})
    candidates.update(int(m.group(1).replace(",", "")) for m in _CENTS.finditer(sentence))
    return " ".join(f"${c // 100}.{c % 100:02d}" for c in sorted(candidates) if c >= 100)


def _dates(text: str) -> str:
    def day_of_year(match: re.Match[str]) -> str:
        day, year = int(match.group(1)), int(match.group(2))
        if not 1 <= day <= (366 if calendar.isleap(year) else 365):
            return match.group(0)
        date = datetime.date(year, 1, 1) + datetime.timedelta(days=day - 1)
        return f"{MONTHS[date.month - 1]} {date.day} {year}"

    def weekday_of_month(match: re.Match[str]) -> str:
        which, weekday = match.group(1), _WEEKDAYS.index(match.group(2))
        month, year = MONTHS.index(match.group(3)) + 1, int(match.group(4))
        days = [d for d in range(1, calendar.monthrange(year, month)[1] + 1)
                if datetime.date(year, month, d).weekday() == weekday]
        index = -1 if which == "last" else int(which[:-2]) - 1
        if not -len(days) <= index < len(days):
            return match.group(0)
        return f"{match.group(3)} {days[index]} {year}"

    if "day" not in text:
        return text
    text = _DAY_OF_YEAR.sub(day_of_year, _DAY_N_OF.sub(r"\1th day", text))
    return _WEEKDAY_OF_MONTH.sub(weekday_of_month, text)


_COMPUTING = alternation([*"grand benjamin benjamins c-note c-notes plus minus times multiplied divided add sum "
                           "subtract quarter quarters squared cubed dozen day doubled halved tripled thrice shy "
                           "difference product third after more reach short over under half double triple twice "
                           "off left still leave leaves owe spent less cent cents last".split(), "take away", "a buck",
                           *_WEEKDAYS])
COMPUTED = re.compile(rf"[0-9](?:[ \t]+-[ \t]+[0-9]|[ \t]*(?:k|g'?s|large)\b|[ \t]*x[ \t]*[0-9])|\b{_COMPUTING}\b|[+*×]"
                      r"|\b(?:one|two|three|four|five|six|seven|eight|nine|ten)[ \t]*(?:k|g'?s|large)\b")
"""Words (and signs) without which `calculate` (and "double"/"triple" digits) change nothing."""


_STEP_WORDS = (r"plus|add(?:ed)?|minus|subtract|take[ \t]+away|remove|less|times|multipl(?:y|ied)|divided?|"
               r"double|twice|triple|halve|half")
STEP_WORD = re.compile(rf"\b(?:{_STEP_WORDS})\b")
_STEP = re.compile(rf"\b({_STEP_WORDS})\b|([0-9]{{1,3}}(?:,[0-9]{{3}})+|[0-9]+(?:\.[0-9]+)?)")
_STEPS = {"plus": lambda a, b: a + b, "add": lambda a, b: a + b, "minus": lambda a, b: a - b,
          "subtract": lambda a, b: a - b, "take": lambda a, b: a - b, "remove": lambda a, b: a - b,
          "less": lambda a, b: a - b,
          "times": lambda a, b: a * b, "multipl": lambda a, b: a * b, "divide": lambda a, b: a / b if b else 0.5}
_UNARY = {"double": 2.0, "twice": 2.0, "triple": 3.0, "halve": 0.5, "half": 0.5}


def running_totals(text: str) -> set[int]:
    """Whole numbers a text reaches when its operation words are applied left to right to the
    numbers around them, across sentences ("Take 9000. Now subtract 414." -> 8586)."""
    totals: set[int] = set()
    total: float | None = None
    pending = ""
    for match in _STEP.finditer(text):
        word, number = match.group(1), match.group(2)
        if number is not None:
            value = float(number.replace(",", ""))
            computed = bool(pending) and total is not None
            total = _STEPS[pending](total, value) if computed and total is not None else value
            pending = ""
            if not computed:
                continue  # a number as said is read by the other rules (and may count things)
        elif word in _UNARY and total is not None:
            total *= _UNARY[word]
        else:
            pending = next((key for key in _STEPS if word.startswith(key)), "")
            continue
        if total == int(total) and total > 0:
            totals.add(int(total))
    return totals


def calculate(text: str) -> str:
    """`text` with the computations above done (see the module's docstring)."""
    text = _dates(_operations(text))

    def with_amounts(match: re.Match[str]) -> str:
        extra = _related_amounts(match.group(0))
        return f"{match.group(0)} {extra}" if extra else match.group(0)

    return _SENTENCE.sub(with_amounts, text) if _AMOUNT_RELATION.search(text) else text
