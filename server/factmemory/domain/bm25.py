"""BM25 over one person's facts, and its fusion with vector similarity. Pure.

Okapi BM25 with the statistics of the person's own live facts: N (their facts), df (their facts containing the
term, entity_lexemes), and each fact's length in content terms against the pool's mean length. A term is counted
once per fact (claims are one sentence: a repeated term is rare and says little), so a fact's score is

    sum over the turn's terms t in the fact of  idf(t) x (k1 + 1) / (1 + k1 x (1 - b + b x len / mean_len))
    idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))

A word in every fact of the person (their own name) weighs ~0; a word in one of their 300 facts weighs ~5.3.
k1 and b are the usual defaults (Robertson and Zaragoza 2009; Lucene's), not tuned.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

K1 = 1.2
B = 0.75


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
        norm = K1 * (1.0 - B + B * len(document) / mean)
        out.append(sum(w for t, w in wanted if t in held) * (K1 + 1.0) / (1.0 + norm))
    return out


def fused(similarities: Sequence[float], lexical: Sequence[float], dated: Sequence[float]) -> list[float]:
    """Relevance on [0, 1], the mean of three signals: the cosine stretched between the pool's median (0) and its
    best (1); BM25 over the pool's best BM25; and 1 for a fact of a time the turn names (language.date_spans), else 0.
    A turn naming no time has two signals, averaged alike. Equal weights, tuned on locomo-tune only in that they were
    kept: BM25 at 0.5 within 2 questions, the date signal at 0.5 gave 0.697 against 0.703 (docs/recall.md)."""
    if not similarities:
        return []
    best, floor = max(similarities), statistics.median(similarities)
    spread = best - floor
    vector = [min(1.0, max(0.0, (s - floor) / spread)) if spread > 1e-9 else 1.0 for s in similarities]
    top = max(lexical, default=0.0)
    words = [x / top if top > 0 else 0.0 for x in lexical]
    signals = 3.0 if any(dated) else 2.0
    return [(v + w + d) / signals for v, w, d in zip(vector, words, dated, strict=True)]
