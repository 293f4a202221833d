"""BM25 over one person's facts (the lexical signal of domain/fusion.py). Pure.

Okapi BM25 with the statistics of the person's own live facts: N (their facts), df (their facts containing the
term, entity_lexemes), and each fact's length in content terms against the pool's mean length. A term is counted
once per fact (claims are one sentence: a repeated term is rare and says little), so a fact's score is

    sum over the turn's terms t in the fact of  idf(t) x (k1 + 1) / (1 + k1 x (1 - b + b x len / mean_len))
    idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))

A word in every fact of the person (their own name) weighs ~0; a word in one of their 300 facts weighs ~5.3.
k1 and b are provide_tuning.BM25_K1 and BM25_B: the usual defaults (Robertson and Zaragoza 2009; Lucene's), not
tuned.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from factmemory.domain.provide_tuning import BM25_B, BM25_K1


@dataclass(frozen=True)
class Stats:
    """The person's term statistics for one turn: their live facts and, per term of the turn, how many contain it."""

    facts: int
    df: Mapping[str, int]

    def idf(self, term: str) -> float:
        df = self.df.get(term, 0)
        if df <= 0:
            return 0.0
        n = max(self.facts, df)
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def scores(
    turn: Sequence[str], documents: Sequence[Sequence[str]], stats: Stats, weights: Mapping[str, float] | None = None
) -> list[float]:
    """BM25 of each document (its distinct content terms) for the turn's terms; length relative to the pool's mean.
    `weights`: each term's weight in the turn (domain/turn.py; absent: 1), multiplying its idf."""
    if not documents:
        return []
    # The turn's terms the person's facts hold at all (a term in none weighs 0), summed in the turn's order.
    weight = weights or {}
    wanted = [(t, w) for t in dict.fromkeys(turn) if (w := stats.idf(t) * weight.get(t, 1.0)) > 0.0]
    if not wanted:
        return [0.0] * len(documents)
    mean = statistics.fmean(len(d) for d in documents) or 1.0
    keys = {t for t, _ in wanted}
    out = []
    for document in documents:
        held = keys.intersection(document)  # most facts hold none of the turn's terms
        if not held:
            out.append(0.0)
            continue
        norm = BM25_K1 * (1.0 - BM25_B + BM25_B * len(document) / mean)
        out.append(sum(w for t, w in wanted if t in held) * (BM25_K1 + 1.0) / (1.0 + norm))
    return out
