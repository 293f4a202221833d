"""What a turn is about (domain/turn.py), pure: the current message leads; the messages before it count only as
much as the current message leans on them."""

from __future__ import annotations

from datetime import UTC, datetime

from factmemory.domain import language, provide_tuning, turn
from factmemory.domain.models import ChatMessage

AGENT = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
SAM = "3f1b2c4d-5e6f-4a1b-8c2d-9e0f1a2b3c4d"
AT = datetime(2026, 11, 20, tzinfo=UTC)


def said(*texts: str, by: str = SAM) -> list[ChatMessage]:
    return [ChatMessage(id=str(n), entity_id=by, text=t, created_at=AT) for n, t in enumerate(texts)]


def weights(messages: list[ChatMessage]) -> dict[str, float]:
    return {p.text: p.weight for p in turn.parts(messages, AGENT)}


def test_a_question_with_a_topic_of_its_own_is_the_whole_query() -> None:
    messages = said("We painted the fence all weekend.", "It looks great now!", "When did I start the pottery class?")
    assert weights(messages) == {"When did I start the pottery class?": 1.0}


def test_a_follow_up_with_no_topic_leans_on_the_message_before_it_most() -> None:
    messages = said("We painted the fence.", "I started a pottery class in May.", "When was that?")
    got = weights(messages)
    assert got["When was that?"] == 1.0
    assert got["I started a pottery class in May."] == provide_tuning.CONTEXT
    assert got["We painted the fence."] == provide_tuning.CONTEXT * provide_tuning.FADE


def test_a_short_message_leans_partly() -> None:
    (lean,) = {turn.needs_context("And her sister?")}
    assert 0.0 < lean < 1.0
    assert turn.needs_context("How did it go?") > turn.needs_context("How did the pottery class go?")
    assert turn.needs_context("When did Caroline go to the LGBTQ support group?") == 0.0


def test_a_short_message_that_points_nowhere_is_a_new_topic() -> None:
    assert turn.needs_context("What about my job?") == 0.0  # short, but no word points back
    assert turn.needs_context("Is it still there?") == 1.0  # "still" asks; "it" and "there" point back
    assert language.refers_back("How did that go?") and not language.refers_back("What about my job?")


def test_the_agents_own_reply_weighs_less_than_the_persons_words() -> None:
    messages = [
        *said("I adopted a dog last spring."),
        *said("That's lovely! Dogs are great company.", by=AGENT),
        *said("Why?"),
    ]
    got = weights(messages)
    assert got["That's lovely! Dogs are great company."] == provide_tuning.CONTEXT * provide_tuning.AGENT
    assert got["I adopted a dog last spring."] == provide_tuning.CONTEXT * provide_tuning.FADE


def test_the_window_is_the_last_messages_and_blank_ones_do_not_count() -> None:
    messages = said(*(f"message {n}" for n in range(9)), "  ", "why?")
    texts = [p.text for p in turn.parts(messages, AGENT)]
    assert texts[-1] == "why?" and len(texts) == provide_tuning.WINDOW
    assert turn.parts(said(" ", ""), AGENT) == []


def test_terms_and_named_times_follow_the_weights() -> None:
    own = said("We went hiking in June.", "I bought a kayak in March.", "Where did I go camping with my sister?")
    terms = turn.term_weights(turn.parts(own, AGENT))
    assert terms["camp"] == 1.0 and "kayak" not in terms  # a question with its own topic: the context is dropped
    assert turn.dated_texts(turn.parts(own, AGENT)) == ["Where did I go camping with my sister?"]
    follow = turn.parts(said("I bought a kayak in March.", "When?"), AGENT)
    assert turn.term_weights(follow)["kayak"] == provide_tuning.CONTEXT
    assert turn.dated_texts(follow) == ["I bought a kayak in March.", "When?"]
