"""Other languages: spelled-out numbers in `LANGUAGES` (text2num) and month names (dateparser's data
only: its parsers are far too slow for the step loop). Some number words are ordinary words
elsewhere ("once", "sept", "Otto"), so a language's reading counts only with its function words in
the text or when it turns at least two words into numbers."""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from comma_env.privacy.cyrillic import CYRILLIC
from comma_env.privacy.lexicon import ascii_fold, english_words
from comma_env.privacy.relations import MONTHS

LANGUAGES = ("fr", "es", "de", "it", "pt")
# Common words of each language that are rare in English text (lower case, accents kept).
_FUNCTION_WORDS = {
    "fr": frozenset("le la les est mon ma mes je suis et du des une sur numéro ai né née compte solde c'est "
                    "j'ai code: appelle habite".split()),
    "es": frozenset("el es mi mis tengo con los las del número nací saldo soy vivo mío cuenta".split()),
    "de": frozenset("ist mein meine meinen der und ich bin geboren wohne lautet auf kontostand geheimzahl "
                    "nummer hausnummer habe".split()),
    "it": frozenset("il è mio mia sono al di nata nato numero saldo abito codice dollari ho lo".split()),
    "pt": frozenset("é meu minha em um uma nasci moro saldo telefone número código dólares tenho".split()),
}
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
_LETTERS = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=65_536)
def _number_word_languages(word: str) -> frozenset[str]:
    """The languages in which `word` alone is a number word (memoised: a conversation's
    vocabulary is small, so most messages cost one dictionary lookup per word)."""
    from text_to_num import alpha2digit  # imported on the first text with words

    found = set()
    for lang in LANGUAGES:
        try:
            if alpha2digit(word, lang, threshold=0) != word:
                found.add(lang)
        except Exception:  # noqa: BLE001 - a word the library refuses is no number word
            continue
    return frozenset(found)


def foreign_numbers_to_digits(text: str) -> str:
    """Lower-case `text` (accents kept) with other languages' spelled-out numbers as digits: of the
    readings that count (see the module's docstring), the one that turns the most words into numbers."""
    words = _LETTERS.findall(text)
    candidates = set().union(*map(_number_word_languages, set(words)))
    if not candidates:
        return text
    from text_to_num import alpha2digit

    said = set(_WORD.findall(text))
    present = {lang for lang in LANGUAGES if said & _FUNCTION_WORDS[lang]}  # languages whose function words it uses
    best, best_words = text, len(words)
    for lang in sorted(candidates):
        try:
            converted = alpha2digit(text, lang)
        except Exception:  # noqa: BLE001 - the library refusing a text leaves it as it was
            continue
        if converted == text:
            continue
        left = len(_LETTERS.findall(converted))
        if left < best_words and (lang in present or len(words) - left >= 2):
            best, best_words = converted, left
    return best


# Short forms of other languages that are English words or too short to trust ("set", "ago", "dic").
_UNSAFE_NAMES = frozenset("set ago dic gen mag lug ott abr ene out dez mar ian marco".split())


@lru_cache(maxsize=1)
def foreign_month_names() -> dict[str, int]:
    """Folded month names of four Latin letters or more (and "mai") of every language dateparser knows
    -> month number; outside `LANGUAGES`, English words and names of two months are left out."""
    spec = importlib.util.find_spec("dateparser")  # its data modules only: dateparser's import is not needed
    assert spec is not None and spec.submodule_search_locations, "dateparser is a dependency"
    folder = Path(list(spec.submodule_search_locations)[0]) / "data" / "date_translation_data"
    others = sorted(p.stem for p in folder.glob("*.py") if p.stem not in LANGUAGES and not p.stem.startswith("_"))
    names: dict[str, int] = {}
    core: set[str] = set()  # the names of `LANGUAGES`, kept whatever other languages say
    clashes: set[str] = set()
    for lang in [*LANGUAGES, *others]:
        info: dict = {}
        path = folder / f"{lang}.py"
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), info)  # noqa: S102 - a data module
        for number, key in enumerate(MONTHS, start=1):
            for name in (info.get("info") or {}).get(key, ()):
                folded = "".join(ch for ch in unicodedata.normalize("NFKD", str(name).lower())
                                 if not unicodedata.combining(ch)).rstrip(".")
                if CYRILLIC.search(folded):  # read by its transliteration, as the text is
                    folded = ascii_fold(folded).replace("'", "")
                short = len(folded) < 4 and folded != "mai"
                if short or folded in _UNSAFE_NAMES or not (folded.isascii() and folded.isalpha()):
                    continue
                if lang in LANGUAGES:
                    core.add(folded)
                elif folded in english_words() or names.get(folded, number) != number:
                    clashes.add(folded)
                names.setdefault(folded, number)
    return {name: number for name, number in names.items() if name in core or name not in clashes}
