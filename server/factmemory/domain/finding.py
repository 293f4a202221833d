"""Which of a person's facts a request of theirs names ("forget that I'm vegetarian"). Pure.

The ranking is Provide's (the API asks it with the request as the turn); this only splits its answer: a fact matches
when it shares a content term (language.content_terms: stemmed, stop words dropped) with the request's topic, the
words that only make the request ("forget", "remember", "wrong": words/memory_requests.txt) and the words a turn uses
to ask (words/query_words.txt) aside. A verb common in claims ("like", "live": words/common_claim_verbs.txt) names
no fact alone: a fact sharing only such words matches when it holds the whole topic. The claim and the category's
words count ("forget my health stuff").
"""

from __future__ import annotations

from collections.abc import Sequence

from factmemory.domain import language
from factmemory.domain.language.tables import word_set
from factmemory.domain.models import ScoredFact

REQUEST_TERMS = frozenset(language.stem(w) for w in word_set("memory_requests") | word_set("query_words"))
COMMON_TERMS = frozenset(language.stem(w) for w in word_set("common_claim_verbs"))


def terms(text: str) -> frozenset[str]:
    """Content terms with contractions spelled out first ("I'm" is "I am", two stop words, not a term "m")."""
    spelled = " ".join(part for word in language.words(text) for part in language.expand(word))
    return frozenset(language.content_terms(spelled))


def topic_terms(text: str) -> frozenset[str]:
    """The request's content terms less the request words: "forget that I'm vegetarian" -> {"vegetarian"}."""
    return terms(text) - REQUEST_TERMS


def fact_terms(fact: ScoredFact) -> frozenset[str]:
    """A fact's claim and category as content terms ("business_role" counts as "business role")."""
    return terms(f"{fact.fact.claim} {fact.fact.category.replace('_', ' ')}")


def names(topic: frozenset[str], fact: frozenset[str]) -> bool:
    """The fact shares a telling word of the topic, or holds all of it: "like coffee" names "likes coffee" and
    "drinks coffee", not "likes tea"; "live" names "lives in Lisbon"."""
    shared = topic & fact
    return bool(shared - COMMON_TERMS) or (bool(topic) and topic <= fact)


def split(text: str, ranked: Sequence[ScoredFact]) -> tuple[list[ScoredFact], list[ScoredFact]]:
    """(matches, near): the ranked facts sharing a topic term with the request, then the others, each in the given
    order."""
    topic = topic_terms(text)
    matches = [s for s in ranked if names(topic, fact_terms(s))]
    chosen = {s.fact.id for s in matches}
    return matches, [s for s in ranked if s.fact.id not in chosen]
