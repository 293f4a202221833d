"""One claim as the dedup rule reads it: words, contractions, names, light verbs, stems and equivalents. Pure."""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from dataclasses import dataclass
from typing import Final

from factmemory.domain.dedup.lexicon import (
    ANTONYM_PAIRS,
    CONJUNCTIONS,
    EQUIVALENT_GROUPS,
    FILLERS,
    LIGHT_VERBS,
    NEGATIONS,
    NUMBER_WORDS,
    PHRASES,
    PREPOSITIONS,
    SYMMETRIC_RELATIONS,
    WORK_NOUNS,
    WORK_PREPOSITIONS,
    TokenKind,
)
from factmemory.domain.language import expand, stem, words
from factmemory.domain.limits import CLAIM_ANALYSIS_MEMO


@dataclass(frozen=True)
class Word:
    """A lower-case word with what its original spelling tells us."""

    text: str
    capitalised: bool  # a proper name or acronym in the original claim
    possessive: bool


@dataclass(frozen=True)
class Token:
    kind: TokenKind
    surface: str  # lower-case word, for reasons
    raw: str  # stem before equivalents
    key: str  # stem after equivalents (and the possessive mark)
    name: bool = False
    number: bool = False


@dataclass(frozen=True)
class Claim:
    tokens: tuple[Token, ...]

    @property
    def content(self) -> tuple[Token, ...]:
        return tuple(t for t in self.tokens if t.kind == "content")

    def of_kind(self, kind: TokenKind) -> Counter[str]:
        return Counter(t.key for t in self.tokens if t.kind == kind)


_MARKED_ENDINGS: Final = ("ed", "ly")


@functools.lru_cache(maxsize=CLAIM_ANALYSIS_MEMO)
def _stem(word: str) -> str:
    """The word's stem (the language layer's Snowball English), marked when Snowball took a past "-ed" or an "-ly"
    off: tense must stay visible ("moved" is not "moves"), and an adverb or adjective in -ly is not its root ("lovely"
    is not "love", "weekly" not "week")."""
    base = stem(word)
    for ending in _MARKED_ENDINGS:
        if word.endswith(ending) and not base.endswith(ending):
            return f"{base}+{ending}"
    return base


def loose(word: str) -> str:
    """The word's stem without the tense mark (Snowball drops -ed), for matching opposites and tense pairs only."""
    return stem(word)


_EQUIVALENTS: Final[dict[str, str]] = {_stem(word): _stem(group[0]) for group in EQUIVALENT_GROUPS for word in group}
ANTONYMS: Final[frozenset[tuple[str, str]]] = frozenset(
    pair for a, b in ANTONYM_PAIRS for pair in ((loose(a), loose(b)), (loose(b), loose(a)))
)


def _split_words(claim: str) -> list[Word]:
    """The claim's words (the language layer's, cut at hyphens) with contractions expanded; capitalisation noted
    before it is lost."""
    parts = [part for word in words(claim) for part in word.split("-") if part]
    out: list[Word] = []
    for index, part in enumerate(parts):
        out.extend(_expand(part, first=index == 0))
    return out


def _expand(original: str, first: bool) -> list[Word]:
    lower = original.lower()
    capitalised = _looks_like_name(original, first)
    expanded = expand(original)
    if len(expanded) > 1:  # a contraction: only a head kept as written ("Mia'll") can be a name
        head, *rest = expanded
        named = capitalised and original.startswith(head)
        return [Word(head.lower(), named, False), *(Word(w, False, False) for w in rest)]
    if lower.endswith("'s"):
        return [Word(lower[:-2], capitalised, True)]
    return [Word(lower.replace("'", ""), capitalised, False)]


def _looks_like_name(original: str, first: bool) -> bool:
    """Capitalised mid-claim (Berlin, Mia), an acronym (MIT, CTO) or a code with digits (Q4)."""
    letters = [c for c in original if c.isalpha()]
    if not letters or original in ("I", "I'm", "I've"):
        return False
    acronym = len(letters) >= 2 and all(c.isupper() for c in letters)
    return acronym or (not first and original[0].isupper())


def _rewrite_phrases(words: list[Word]) -> list[Word]:
    out: list[Word] = []
    i = 0
    while i < len(words):
        for pattern, replacement in PHRASES:
            if tuple(w.text for w in words[i : i + len(pattern)]) == pattern:
                out.extend(Word(r, False, False) for r in replacement)
                i += len(pattern)
                break
        else:
            out.append(words[i])
            i += 1
    return out


def _drop_light_work(words: list[Word]) -> list[Word]:
    """'works as a nurse' -> 'as a nurse': the opening verb says nothing the role does not."""
    first = next((i for i, w in enumerate(words) if w.text not in FILLERS and w.text not in LIGHT_VERBS), None)
    if first is None or first + 1 >= len(words):
        return words
    if words[first].text in WORK_NOUNS and words[first + 1].text in WORK_PREPOSITIONS:
        return words[:first] + words[first + 1 :]
    return words


_MARKER_TABLES: Final[tuple[tuple[TokenKind, frozenset[str]], ...]] = (
    ("prep", PREPOSITIONS),
    ("neg", NEGATIONS),
    ("conj", CONJUNCTIONS),
)


def _classify(word: Word) -> Token | None:
    text = word.text
    if text in FILLERS or not text:
        return None
    if text in LIGHT_VERBS:
        return Token("light", text, LIGHT_VERBS[text], LIGHT_VERBS[text])
    for kind, table in _MARKER_TABLES:
        if text in table:
            return Token(kind, text, text, text)
    number = NUMBER_WORDS.get(text)
    if number is not None or any(c.isdigit() for c in text):
        value = number or text
        return Token("content", text, value, value, name=word.capitalised, number=True)
    stem = _stem(text)
    key = _EQUIVALENTS.get(stem, stem)
    mark = "'s" if word.possessive else ""
    return Token("content", text + mark, stem, key + mark, name=word.capitalised)


def _resolve_symmetric_possessives(tokens: list[Token]) -> list[Token]:
    """'Alex's husband' == 'husband of Alex': drop the possessive before a symmetric relation."""
    out = list(tokens)
    content_at = [i for i, t in enumerate(out) if t.kind == "content"]
    for here, after in itertools.pairwise(content_at):
        token = out[here]
        if token.key.endswith("'s") and out[after].surface in SYMMETRIC_RELATIONS:
            out[here] = Token("content", token.surface[:-2], token.raw, token.key[:-2], token.name, token.number)
    return out


# A pure function of the text, asked for the same claims again and again (each add against its neighbours, every
# Provide's duplicate check): kept per process.
@functools.lru_cache(maxsize=CLAIM_ANALYSIS_MEMO)
def analyse(claim: str) -> Claim:
    words = _drop_light_work(_rewrite_phrases(_split_words(claim)))
    tokens = [t for t in (_classify(w) for w in words) if t is not None]
    return Claim(tuple(_resolve_symmetric_possessives(tokens)))
