"""The language layer (domain/language), pure: terms and the times a turn names."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from factmemory.domain.language import (
    STOP_WORDS,
    content_terms,
    content_terms_of,
    date_spans,
    expand,
    spelled,
    stem,
    terms,
    tokens,
    words,
)
from factmemory.domain.language.tables import rewrites, word_rows, word_set
from factmemory.domain.provide_tuning import DATE_SLACK

NOW = datetime(2023, 10, 23, 10, 0, tzinfo=UTC)


def test_terms_are_stemmed_content_words() -> None:
    assert tokens("Caroline's LGBTQ support-group") == ["caroline", "s", "lgbtq", "support", "group"]
    assert terms("She went running with her kids") == ["went", "run", "kid"]
    assert stem("organizing") == stem("organize") == "organiz"  # Snowball 3: no "organ"
    assert content_terms("runs and running, run") == ("run",)
    assert {"the", "and", "her", "s"} <= STOP_WORDS and "kid" not in STOP_WORDS


def test_a_turns_terms_are_the_terms_of_its_messages_joined() -> None:
    window = [*TEXTS, "Went running with the kids", "kids kids", "x" * 5_000 + " running"]
    for end in range(len(window) + 1):
        turn = window[max(0, end - 5) : end]
        assert content_terms_of(turn) == content_terms("\n".join(turn))
        assert content_terms_of(turn) == content_terms_of(turn)  # again, from the memo


TEXTS = (
    "Caroline's room-mate paid $3.50 at 10:30, 50% off; doesn't I’m can't Zürich 1,460 end.Next covid-19",
    "My room-mate Jake plays the cello, and I don't.",
    "  -- ’'  ",
)


def test_one_tokenizer_words_cut_at_their_inner_marks_are_the_tokens() -> None:
    assert words(TEXTS[0]) == [
        "Caroline's", "room-mate", "paid", "3.50", "at", "10:30", "50%", "off", "doesn't", "I'm", "can't",
        "Zürich", "1,460", "end", "Next", "covid-19",
    ]  # fmt: skip
    for text in TEXTS:
        cut = [part for word in words(text) for part in re.findall(r"\w+", word)]
        assert cut == spelled(text) and [w.lower() for w in cut] == tokens(text)


def test_contractions_expand_to_their_words() -> None:
    assert expand("doesn't") == ("does", "not")
    assert expand("I'm") == ("I", "am") and expand("we're") == ("we", "are")
    assert expand("Can't") == ("can", "not") and expand("won't") == ("will", "not")
    assert expand("Caroline's") == ("Caroline's",) and expand("room-mate") == ("room-mate",)


def test_the_word_tables_are_data_and_each_word_is_kept_once() -> None:
    assert {"not", "her", "and"} <= word_set("stopwords_en")
    assert ("be", "is", "am", "are", "be", "been", "being", "feel", "feels", "feeling") in word_rows("light_verbs")
    assert (("not", "like"), ("dislike",)) in rewrites("phrases")
    relations = [row[0] for row in word_rows("relations")]
    assert len(relations) == len(set(relations)) and {"room-mate", "sister", "spouse"} <= set(relations)
    assert all(row[1:] in ((), ("symmetric",)) for row in word_rows("relations"))
    assert not word_set("query_words") & STOP_WORDS  # the query words add to the stop words, never repeat them


def days(spans: list[tuple[datetime, datetime]]) -> list[tuple[str, str]]:
    return [(a.date().isoformat(), b.date().isoformat()) for a, b in spans]


def spans_of(text: str) -> list[tuple[datetime, datetime]]:
    """The times the text names, as Provide widens them (DATE_SLACK), on NOW."""
    return date_spans(text, NOW, DATE_SLACK)


def test_the_times_a_turn_names_with_three_days_either_side() -> None:
    assert days(spans_of("When did Melanie go camping in June?")) == [("2023-05-29", "2023-07-04")]
    assert days(spans_of("What did she show me on October 13, 2023?")) == [("2023-10-10", "2023-10-17")]
    assert days(spans_of("on the evening of 7 July, 2023")) == [("2023-07-04", "2023-07-11")]
    assert days(spans_of("back in November")) == [("2022-10-29", "2022-12-04")]  # the latest November
    assert days(spans_of("in 2022")) == [("2021-12-29", "2023-01-04")]


def test_words_that_are_not_times_name_none() -> None:
    assert spans_of("It may be late, shall we march on?") == []
    assert spans_of("What is Caroline's identity?") == []
    assert spans_of("February 30") == []
