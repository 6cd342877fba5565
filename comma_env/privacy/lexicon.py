"""Words the detector knows, built on first use: common English words (pyspellchecker's list; a word
outside it cannot be read as English) and number words of many languages (num2words, and the
small table `_MORE_DIGIT_WORDS` for the few languages it does not write)."""

from __future__ import annotations

import gzip
import re
from functools import lru_cache
from importlib.resources import files

_MORE_ENGLISH = "mm cm km kg ml ok ish th st nd rd ssn pin dob atm usd lol"
_MORE_DIGIT_WORDS = {  # 0 to 9 in languages num2words does not write (a slash: another spelling)
    "hi": "shunya/sunya/suny ek do teen/tin char/chaar/car paanch/panch/pamc chhah/chhe/che/chh saat/sat "
          "aath/aat/ath nau",
    "sw": "sifuri moja mbili tatu nne tano sita saba nane tisa",
    "ja": "zero/rei ichi ni san yon/shi go roku nana/shichi hachi kyu/ku",
    "zh": "ling yi er san si wu liu qi ba jiu",
    "el": "miden ena dyo/dio tria tessera/tesera pente exi/exe epta/efta okto/ochto ennea/enia",
    "ga": "naid aon do tri ceathair cuig se seacht ocht naoi",
    "la": "nihil/nulla unus duo tres quattuor quinque sex septem octo novem",
    "tl": "sero isa dalawa tatlo apat lima anim pito walo siyam",
    "radio": "zero wun/one too/two tree/three fower/four fife/five six seven ait/eight niner/nine",
}


def alternation(words: list[str]) -> str:
    """A regex of any of `words` as a tree of their prefixes (the engine tries a flat alternation word by
    word at every place), a word before those it starts, as in a list sorted longest first."""
    heads: dict[str, list[str]] = {}
    for word in words:
        heads.setdefault(word[:1], []).append(word[1:])
    parts = [re.escape(head) + alternation(heads[head]) if head else "" for head in sorted(heads, key=lambda h: not h)]
    return parts[0] if len(parts) == 1 else f"(?:{'|'.join(parts)})"


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """English words (lower case, letters only), from pyspellchecker's word list."""
    data = gzip.decompress((files("spellchecker") / "resources" / "en.json.gz").read_bytes()).decode("utf-8")
    return frozenset(re.findall(r'"([a-z]+)":', data)) | frozenset(_MORE_ENGLISH.split())


def ascii_fold(text: str) -> str:
    """Lower-case ASCII transliteration (``dört`` -> ``dort``, ``девять`` -> ``devyat'``)."""
    if text.isascii():
        return text.lower()
    from anyascii import anyascii

    return anyascii(text).lower()


def num2words_languages() -> tuple[str, ...]:
    from num2words import CONVERTER_CLASSES

    return tuple(lang for lang in CONVERTER_CLASSES if "_" not in lang and lang != "en")  # English: english_numbers.py


@lru_cache(maxsize=1)
def small_numbers() -> tuple[dict[str, tuple[dict[int, str], dict[int, str]]], dict[str, list[tuple[str, int]]]]:
    """Language -> (0 to 99, and the ordinals 1st to 31st) as num2words writes them, folded,
    words joined by single spaces; and the first word of each of 0 to 99 -> (language, number)."""
    from num2words import num2words

    table: dict[str, tuple[dict[int, str], dict[int, str]]] = {}
    starts: dict[str, list[tuple[str, int]]] = {}
    for lang in num2words_languages():
        cardinals: dict[int, str] = {}
        ordinals: dict[int, str] = {}
        for numbers, to, out in ((range(100), "cardinal", cardinals), (range(1, 32), "ordinal", ordinals)):
            for number in numbers:
                try:
                    out[number] = " ".join(re.findall(r"[a-z']+", ascii_fold(num2words(number, lang=lang, to=to))))
                except Exception:  # noqa: BLE001 - a number a language cannot write adds nothing
                    break
        if cardinals:
            table[lang] = (cardinals, ordinals)
            for number, words in cardinals.items():
                starts.setdefault(words.split(" ")[0], []).append((lang, number))
    return table, starts


@lru_cache(maxsize=1)
def digit_word_languages() -> dict[str, dict[str, int]]:
    """Folded digit word -> the languages in which it is one -> its digit there ("ba" is 3 in
    Vietnamese, 8 in Chinese)."""
    table: dict[str, dict[str, int]] = {}  # language -> its digit words -> digit
    for lang, (cardinals, _) in small_numbers()[0].items():
        for digit in range(10):
            word = cardinals.get(digit, "").strip("'")
            if re.fullmatch(r"[a-z']{2,}", word):
                table.setdefault(lang, {})[word] = digit
    for lang, spelled in _MORE_DIGIT_WORDS.items():
        table[lang] = {word: digit for digit, spellings in enumerate(spelled.split()) for word in spellings.split("/")}
    found: dict[str, dict[str, int]] = {}
    for lang, words in table.items():
        for word, digit in words.items():
            found.setdefault(word, {})[lang] = digit
    return found


@lru_cache(maxsize=4096)
def number_forms(number: int) -> frozenset[str]:
    """`number` written out in every language num2words knows, folded, letters only (``2420`` ->
    ``ketezernegyszazhusz``); forms shorter than 6 letters are ordinary words somewhere, left out."""
    from num2words import num2words

    forms = set()
    for lang in num2words_languages():
        try:
            form = re.sub(r"[^a-z]+", "", ascii_fold(num2words(number, lang=lang)))
        except Exception:  # noqa: BLE001
            continue
        if len(form) >= 6:
            forms.add(form)
    return frozenset(forms)
