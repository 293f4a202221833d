"""Word relevance for the read path when the embedder is down, and the word overlap of two claims. Pure.

With the embedder up, Provide's relevance is BM25 over the person's facts fused with the stretched cosine
(domain/bm25.py, through the language layer). With it down there is no vector: the turn's words (PostgreSQL
`simple` tokens, no stemming: a light prefix match instead) are looked up by full-text search, and each candidate's
relevance is the noisy-or of the specificity of the words it contains within the pool (a word in one fact counts 1,
a word in every fact ~0). Terms written as names or numbers are marked (`Term.name`).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from factmemory.domain.language import STOP_WORDS
from factmemory.domain.language.tables import word_set
from factmemory.domain.limits import CLAIM_ANALYSIS_MEMO
from factmemory.domain.limits import MAX_TERMS as MAX_TERMS  # re-exported

PREFIX_FROM = 6  # words this long or longer match by prefix (word minus its last 3 letters, at least 5)
_WORD = re.compile(r"\w+")

# Words that would otherwise pull in every claim: the language layer's stop words and the words a turn uses to ask or
# to talk (words/query_words.txt). Other languages' function words are frequent in the pool and weighted down by
# specificity instead.
STOPWORDS = STOP_WORDS | word_set("query_words")


@dataclass(frozen=True)
class Term:
    """One query word as matched against claims: exactly, or by prefix when long; `name` if written as a name
    or a number in the turn (a capital letter or a digit)."""

    text: str
    prefix: bool
    name: bool = False

    @property
    def tsquery(self) -> str:
        return f"{self.text}:*" if self.prefix else self.text

    def matches(self, word: str) -> bool:
        return word.startswith(self.text) if self.prefix else word == self.text


def words(text: str) -> list[str]:
    """Lower-case word tokens (letters and digits of any script)."""
    return [w.lower() for w in _WORD.findall(text)]


def query_terms(text: str) -> tuple[Term, ...]:
    """The words of the turn worth a full-text lookup: no function words, numbers and names first."""
    seen: dict[str, int] = {}
    for original in _WORD.findall(text):
        word = original.lower()
        if word in STOPWORDS or (len(word) < 3 and not word.isdigit()) or word in seen:
            continue
        seen[word] = 0 if any(c.isdigit() for c in word) else 1 if original[0].isupper() else 2
    ranked = sorted(seen, key=lambda w: (seen[w], -len(w), w))[:MAX_TERMS]
    return tuple(_term(w, seen[w] < 2) for w in sorted(ranked))


def _term(word: str, name: bool) -> Term:
    if len(word) >= PREFIX_FROM and not word.isdigit():
        return Term(word[: max(5, len(word) - 3)], prefix=True, name=name)
    return Term(word, prefix=False, name=name)


def tsquery_terms(terms: Sequence[Term]) -> list[str]:
    """One to_tsquery('simple', ...) operand per term (words are \\w+ only, so nothing needs quoting)."""
    return [t.tsquery for t in terms]


def text_relevance(claims: Sequence[str], terms: Sequence[Term]) -> list[float]:
    """Per claim: noisy-or of the specificity of the query terms it contains (specificity from pool counts)."""
    if not claims or not terms:
        return [0.0] * len(claims)
    tokens = [set(words(c)) for c in claims]
    hits = [[any(t.matches(w) for w in toks) for t in terms] for toks in tokens]
    size = len(claims)
    specificity = []
    for column in range(len(terms)):
        count = sum(1 for row in hits if row[column])
        specificity.append(0.0 if count == 0 else 1.0 - math.log(count) / math.log(size + 1))
    out = []
    for row in hits:
        missing = 1.0
        for hit, spec in zip(row, specificity, strict=True):
            if hit:
                missing *= 1.0 - spec
        out.append(1.0 - missing)
    return out


@functools.lru_cache(maxsize=CLAIM_ANALYSIS_MEMO)
def _prefixes(text: str) -> frozenset[str]:
    return frozenset(w[:5] for w in words(text))


def word_overlap(a: str, b: str) -> float:
    """Jaccard overlap of two texts' words, compared by their first five letters."""
    left, right = _prefixes(a), _prefixes(b)
    union = left | right
    return len(left & right) / len(union) if union else 1.0
