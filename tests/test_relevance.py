"""Relevance on [0, 1] from the turn's words when the embedder is down, and word overlap (relevance.py), pure."""

from __future__ import annotations

import math

from factmemory.domain.language import stem
from factmemory.domain.limits import MAX_TERMS
from factmemory.domain.relevance import (
    query_terms,
    text_relevance,
    tsquery_terms,
    word_overlap,
)


def test_query_terms_drop_function_words_and_keep_names_and_numbers() -> None:
    terms = query_terms("Remind me: did Bertha pay $150 for the headphones?")
    assert tsquery_terms(terms) == ["150", "bertha", "headphon", "pay"]  # the language layer's stems


def test_query_terms_are_bounded_and_safe_for_tsquery() -> None:
    terms = query_terms(" ".join(f"word{n}x" for n in range(40)) + " a|b & c:* 'd' !e")
    assert len(terms) == MAX_TERMS
    assert all(t.text.replace("_", "").isalnum() for t in terms)


def test_words_match_by_their_stem() -> None:
    (restoring,) = query_terms("restoring")
    assert restoring.matches(stem("restores")) and restoring.matches(stem("restored"))
    assert not restoring.matches(stem("rest"))
    (cats,) = query_terms("cats")
    assert cats.matches(stem("cat")) and not cats.matches(stem("category"))
    scores = text_relevance(["restored a bike", "rests a lot", "has a story"], query_terms("restoring stories"))
    assert scores[0] > 0 and scores[1] == 0 and scores[2] > 0  # "stories" and "story": one stem, not a prefix


def test_a_rare_word_weighs_more_than_a_common_one() -> None:
    claims = ["has a neighbour named Bertha", "works at the bank", "bank holiday trip", "bank loan", "likes jazz"]
    scores = text_relevance(claims, query_terms("Bertha at the bank"))
    assert scores[0] > scores[1] > 0 and scores[4] == 0.0
    assert math.isclose(scores[0], 1.0)


def test_word_overlap() -> None:
    assert word_overlap("loves coffee", "Loves coffee.") == 1.0
    assert word_overlap("loves coffee", "plays chess") == 0.0
    assert word_overlap("loved the stories", "loves a story") == 0.5  # stems ("love", "stori"), not 5-letter prefixes


def test_names_and_numbers_are_marked_and_every_word_is_looked_up_when_the_embedder_is_down() -> None:
    terms = query_terms("What's my main work project now, did Bertha pay 150?")
    assert [t.tsquery for t in terms if t.name] == ["150", "bertha"]
    assert "work" in tsquery_terms(terms)
