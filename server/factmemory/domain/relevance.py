"""Word relevance for the read path when the embedder is down, and the word overlap of two claims. Pure.

With the embedder up, Provide's relevance is BM25 over the person's facts fused with the stretched cosine
(domain/bm25.py, through the language layer). With it down there is no vector: the turn's terms (the language layer's
stems) are looked up among each fact's stored stems (`facts.lexemes`, written by the same layer), and each candidate's
relevance is the noisy-or of the specificity of the terms it contains within the pool (a term in one fact counts 1,
a term in every fact ~0). Terms written as names or numbers are marked (`Term.name`). Word overlap compares two
texts' stems.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from factmemory.domain.language import STOP_WORDS, spelled, stem, tokens
from factmemory.domain.language.tables import word_set
from factmemory.domain.limits import CLAIM_ANALYSIS_MEMO, MAX_TERMS

# Words that would otherwise pull in every claim: the language layer's stop words and the words a turn uses to ask or
# to talk (words/query_words.txt). Other languages' function words are frequent in the pool and weighted down by
# specificity instead.
STOPWORDS = STOP_WORDS | word_set("query_words")


@dataclass(frozen=True)
class Term:
    """One query word as matched against claims: its stem (the language layer's); `name` if written as a name or a
    number in the turn (a capital letter or a digit)."""

    text: str
    name: bool = False

    @property
    def tsquery(self) -> str:
        return self.text

    def matches(self, word: str) -> bool:
        return word == self.text


def query_terms(text: str) -> tuple[Term, ...]:
    """The words of the turn worth a lookup, as stems: no function words, numbers and names first."""
    seen: dict[str, int] = {}
    for original in spelled(text):
        word = original.lower()
        if word in STOPWORDS or (len(word) < 3 and not word.isdigit()) or (term := stem(word)) in seen:
            continue
        seen[term] = 0 if any(c.isdigit() for c in word) else 1 if original[0].isupper() else 2
    ranked = sorted(seen, key=lambda w: (seen[w], -len(w), w))[:MAX_TERMS]
    return tuple(Term(w, name=seen[w] < 2) for w in sorted(ranked))


def tsquery_terms(terms: Sequence[Term]) -> list[str]:
    """One to_tsquery('simple', ...) operand per term, matched against the stored stems (stems of \\w+ words, so
    nothing needs quoting)."""
    return [t.tsquery for t in terms]


def text_relevance(claims: Sequence[str], terms: Sequence[Term]) -> list[float]:
    """Per claim: noisy-or of the specificity of the query terms it contains (specificity from pool counts)."""
    if not claims or not terms:
        return [0.0] * len(claims)
    hits = [[t.text in _stems(c) for t in terms] for c in claims]
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
def _stems(text: str) -> frozenset[str]:
    """The stems of every word of the text (function words too: word overlap compares whole texts)."""
    return frozenset(stem(w) for w in tokens(text))


def word_overlap(a: str, b: str) -> float:
    """Jaccard overlap of two texts' words, compared by their stems (the language layer's)."""
    left, right = _stems(a), _stems(b)
    union = left | right
    return len(left & right) / len(union) if union else 1.0
