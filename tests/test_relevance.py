"""Relevance on [0, 1] from the pool's cosines and the turn's words (relevance.py), pure."""

from __future__ import annotations

import math

from factmemory.domain.relevance import (
    MAX_TERMS,
    fuse,
    names,
    query_terms,
    stretched,
    text_relevance,
    tsquery_terms,
    word_overlap,
)


def test_query_terms_drop_function_words_and_keep_names_and_numbers() -> None:
    terms = query_terms("Remind me: did Bertha pay $150 for the headphones?")
    assert tsquery_terms(terms) == ["150", "berth:*", "headpho:*", "pay"]


def test_query_terms_are_bounded_and_safe_for_tsquery() -> None:
    terms = query_terms(" ".join(f"word{n}x" for n in range(40)) + " a|b & c:* 'd' !e")
    assert len(terms) == MAX_TERMS
    assert all(t.text.replace("_", "").isalnum() for t in terms)


def test_long_words_match_by_prefix_short_ones_exactly() -> None:
    (restoring,) = query_terms("restoring")
    assert restoring.matches("restores") and restoring.matches("restored") and not restoring.matches("rest")
    (cat,) = query_terms("cat")
    assert cat.matches("cat") and not cat.matches("cats")


def test_stretched_spans_the_pool_from_median_to_best() -> None:
    cosines = [0.80, 0.81, 0.82, 0.86, 0.92]  # a small embedder's narrow band
    out = stretched(cosines)
    assert out[-1] == 1.0 and out[0] == 0.0 and out[2] == 0.0
    assert math.isclose(out[3], 0.4)
    assert stretched([0.9]) == [1.0] and stretched([]) == []


def test_a_rare_word_weighs_more_than_a_common_one() -> None:
    claims = ["has a neighbour named Bertha", "works at the bank", "bank holiday trip", "bank loan", "likes jazz"]
    scores = text_relevance(claims, query_terms("Bertha at the bank"))
    assert scores[0] > scores[1] > 0 and scores[4] == 0.0
    assert math.isclose(scores[0], 1.0)


def test_fuse_is_a_bounded_noisy_or() -> None:
    assert fuse(0.0, 1.0, 0.5) == 0.5
    assert fuse(0.6, 0.0, 0.5) == 0.6
    assert 0.6 < fuse(0.6, 1.0, 0.5) <= 1.0
    assert fuse(1.0, 1.0, 1.0) == 1.0


def test_word_overlap() -> None:
    assert word_overlap("loves coffee", "Loves coffee.") == 1.0
    assert word_overlap("loves coffee", "plays chess") == 0.0


def test_names_and_numbers_are_the_words_fused_with_the_vector_search() -> None:
    terms = query_terms("What's my main work project now, did Bertha pay 150?")
    assert tsquery_terms(names(terms)) == ["150", "berth:*"]
    assert "work" in tsquery_terms(terms)  # still looked up when the embedder is down
