"""One claim as the dedup rule reads it: words, contractions, names, light verbs, stems and equivalents. Pure."""

from __future__ import annotations

import functools
import itertools
import re
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
from factmemory.domain.language.tables import rewrites
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


@functools.lru_cache(maxsize=CLAIM_ANALYSIS_MEMO)
def _stem(word: str) -> str:
    """Light stemming: plural -s, -ies, -ing, final -e. Never -ed: tense must stay visible."""
    if any(c.isdigit() for c in word) or len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("ing") and len(word) >= 6:
        word = word[:-3]
        if len(word) > 2 and word[-1] == word[-2] and word[-1] not in "lsfz":
            word = word[:-1]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


@functools.lru_cache(maxsize=CLAIM_ANALYSIS_MEMO)
def loose(word: str) -> str:
    """A stem that also drops -ed, for matching opposites and tense pairs only."""
    stem = _stem(word)
    if stem.endswith("ed") and len(stem) > 4:
        stem = stem[:-2]
        if stem[-1] == stem[-2] and stem[-1] not in "lsfz":
            stem = stem[:-1]
    return stem[:-1] if stem.endswith("e") and len(stem) > 3 else stem


_EQUIVALENTS: Final[dict[str, str]] = {_stem(word): _stem(group[0]) for group in EQUIVALENT_GROUPS for word in group}
ANTONYMS: Final[frozenset[tuple[str, str]]] = frozenset(
    pair for a, b in ANTONYM_PAIRS for pair in ((loose(a), loose(b)), (loose(b), loose(a)))
)
_WORD_RE: Final = re.compile(r"\d+(?:[.,:/]\d+)*[a-z%]*|[a-z0-9]+(?:'[a-z]+)?", re.IGNORECASE)
# Contractions (words/contractions.txt): whole words ("can't") and endings ("n't", "'ve").
_CONTRACTION_ROWS: Final = rewrites("contractions")
_CONTRACTIONS: Final[dict[str, tuple[str, ...]]] = {
    " ".join(k): v for k, v in _CONTRACTION_ROWS if k[0][0] == "'" or k[0] == "n't"
}
_IRREGULAR_NEGATIONS: Final[dict[str, tuple[str, ...]]] = {
    " ".join(k): v for k, v in _CONTRACTION_ROWS if " ".join(k) not in _CONTRACTIONS
}


def _split_words(claim: str) -> list[Word]:
    """Words with contractions expanded; capitalisation noted before it is lost."""
    text = re.sub(r"(?<=[A-Za-z])-(?=[A-Za-z])", " ", claim.replace("’", "'"))
    words: list[Word] = []
    for index, match in enumerate(_WORD_RE.finditer(text)):
        words.extend(_expand(match.group(), first=index == 0))
    return words


def _expand(original: str, first: bool) -> list[Word]:
    lower = original.lower()
    capitalised = _looks_like_name(original, first)
    if lower in _IRREGULAR_NEGATIONS:
        return [Word(w, False, False) for w in _IRREGULAR_NEGATIONS[lower]]
    for suffix, expansion in _CONTRACTIONS.items():
        if lower.endswith(suffix) and len(lower) > len(suffix):
            head = lower[: -len(suffix)]
            return [Word(head, capitalised, False), *(Word(w, False, False) for w in expansion)]
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
