"""Provide's relevance as a list of signals (domain/fusion.py), pure: each signal's values, the weighted mean, an
optional signal counted only when it speaks, and a signal added by writing its function and putting it in the list."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from factmemory.domain import fusion
from factmemory.domain.bm25 import Stats
from factmemory.domain.language import content_terms
from factmemory.domain.provide_tuning import DATE_SLACK
from tests.test_ranking import NOW, fact

CLAIMS = ("enjoys pottery on weekends", "adopted a dog named Bertha", "works as a nurse", "went camping in June")


def pool(similarities: list[float], spans: list[tuple[datetime, datetime]] | None = None) -> fusion.Candidates:
    facts = [fact(c, days=10 * i, fid=i + 1) for i, c in enumerate(CLAIMS)]
    terms = [tuple(content_terms(c)) for c in CLAIMS]
    stats = Stats(facts=40, df={"bertha": 1, "dog": 3, "nurs": 2})
    return fusion.Candidates(
        facts=facts,
        similarities=similarities,
        terms=terms,
        stats=stats,
        turn_terms={"bertha": 1.0, "dog": 1.0},
        spans=spans or [],
    )


def test_each_signal_is_on_zero_to_one_and_relevance_is_their_mean() -> None:
    candidates = pool([0.80, 0.90, 0.70, 0.85])
    vector = fusion.vector(candidates)
    # Stretched between the median (0.825) and the best (0.90).
    assert vector == pytest.approx([0.0, 1.0, 0.0, (0.85 - 0.825) / 0.075])
    lexical = fusion.lexical(candidates)
    assert lexical[1] == 1.0 and lexical[0] == lexical[2] == lexical[3] == 0.0  # only the dog fact holds the terms
    assert fusion.dated(candidates) == [0.0, 0.0, 0.0, 0.0]  # the turn names no time
    # No time named: the dated signal does not count, the other two are averaged alike.
    assert fusion.relevance(candidates) == [(v + w) / 2.0 for v, w in zip(vector, lexical, strict=True)]


def test_a_time_the_turn_names_counts_as_a_third_signal() -> None:
    at = NOW - timedelta(days=30)  # the fourth fact's time
    spans = [(at - DATE_SLACK, at + DATE_SLACK)]
    candidates = pool([0.80, 0.90, 0.70, 0.85], spans)
    assert fusion.dated(candidates) == [0.0, 0.0, 0.0, 1.0]
    vector, lexical = fusion.vector(candidates), fusion.lexical(candidates)
    expected = [(v + w + d) / 3.0 for v, w, d in zip(vector, lexical, [0.0, 0.0, 0.0, 1.0], strict=True)]
    assert fusion.relevance(candidates) == expected
    empty = fusion.Candidates(facts=[], similarities=[], terms=[], stats=Stats(0, {}), turn_terms={}, spans=[])
    assert fusion.relevance(empty) == []


def test_a_signal_is_added_by_its_function_and_its_place_in_the_list() -> None:
    """The worked example of docs/read-path.md: a computed signal (here: a short claim), weighed 2."""

    def short(candidates: fusion.Candidates) -> list[float]:
        return [1.0 if len(f.claim) < 20 else 0.0 for f in candidates.facts]

    candidates = pool([0.80, 0.90, 0.70, 0.85])
    signals = (*fusion.SIGNALS, fusion.Signal("short", 2.0, short))
    before, after = fusion.relevance(candidates), fusion.relevance(candidates, signals)
    assert after == pytest.approx([(2 * b + 2 * s) / 4.0 for b, s in zip(before, short(candidates), strict=True)])
    assert after[2] > before[2]  # "works as a nurse" is short: it rises
    # A signal that gives every fact 0 still counts unless it is optional: it lowers everything alike.
    silent = fusion.Signal("silent", 1.0, lambda c: [0.0] * len(c.facts))
    assert fusion.relevance(candidates, (*fusion.SIGNALS, silent)) == pytest.approx([2 * b / 3 for b in before])
    optional = fusion.Signal("silent", 1.0, silent.values, optional=True)
    assert fusion.relevance(candidates, (*fusion.SIGNALS, optional)) == before
