"""The language layer: every operation on words goes through here. Pure.

    tokens(text)         lower-case word tokens (letters and digits of any script), in order
    is_stop_word(word)   an English function word (data file stopwords_en.txt)
    stem(word)           the word's Snowball English stem (library: snowballstemmer)
    terms(text)          the text's content terms: tokens less stop words, stemmed, in order (repeats kept)
    content_terms(text)  the distinct content terms, in first-seen order

Stemmer: Snowball's English stemmer ("Porter2", snowballstemmer, pure Python: nothing native in the service's
process), with Snowball's English stop word list. PostgreSQL's `english` text search configuration is the same
stemmer with the same stop list, so the stems the database keeps for each claim (`facts.lexemes`, migration 0009)
are the terms computed here; tests/test_language.py checks the two agree on real claims. Chosen over a lemmatiser
(simplemma) on the LoCoMo tune half (docs/recall.md, "The language layer").
"""

from __future__ import annotations

import functools
import re
from importlib import resources

import snowballstemmer

_WORD = re.compile(r"\w+")
_STEMMER = snowballstemmer.stemmer("english")
STEM_MEMO = 65_536


def _load_stop_words() -> frozenset[str]:
    text = resources.files(__package__).joinpath("stopwords_en.txt").read_text(encoding="utf-8")
    return frozenset(w for line in text.splitlines() if (w := line.strip()) and not w.startswith("#"))


STOP_WORDS = _load_stop_words()


def tokens(text: str) -> list[str]:
    """Lower-case word tokens; an apostrophe splits a word ("Caroline's" -> "caroline", "s")."""
    return [w.lower() for w in _WORD.findall(text)]


def is_stop_word(word: str) -> bool:
    return word.lower() in STOP_WORDS


@functools.lru_cache(maxsize=STEM_MEMO)
def stem(word: str) -> str:
    """Snowball English: "running" -> "run", "stories" -> "stori", "Caroline" -> "carolin"."""
    return str(_STEMMER.stemWord(word.lower()))


def terms(text: str) -> list[str]:
    """Content terms in order: "She went running with her kids" -> ["went", "run", "kid"]."""
    return [stem(w) for w in tokens(text) if w not in STOP_WORDS]


def content_terms(text: str) -> tuple[str, ...]:
    """Distinct content terms in first-seen order."""
    return tuple(dict.fromkeys(terms(text)))
