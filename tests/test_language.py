"""The language layer (domain/language), pure: terms and the times a turn names."""

from __future__ import annotations

from datetime import UTC, datetime

from factmemory.domain.language import STOP_WORDS, content_terms, date_spans, stem, terms, tokens

NOW = datetime(2023, 10, 23, 10, 0, tzinfo=UTC)


def test_terms_are_stemmed_content_words() -> None:
    assert tokens("Caroline's LGBTQ support-group") == ["caroline", "s", "lgbtq", "support", "group"]
    assert terms("She went running with her kids") == ["went", "run", "kid"]
    assert stem("organizing") == stem("organize") == "organiz"  # Snowball 3: no "organ"
    assert content_terms("runs and running, run") == ("run",)
    assert {"the", "and", "her", "s"} <= STOP_WORDS and "kid" not in STOP_WORDS


def days(spans: list[tuple[datetime, datetime]]) -> list[tuple[str, str]]:
    return [(a.date().isoformat(), b.date().isoformat()) for a, b in spans]


def test_the_times_a_turn_names_with_three_days_either_side() -> None:
    assert days(date_spans("When did Melanie go camping in June?", NOW)) == [("2023-05-29", "2023-07-04")]
    assert days(date_spans("What did she show me on October 13, 2023?", NOW)) == [("2023-10-10", "2023-10-17")]
    assert days(date_spans("on the evening of 7 July, 2023", NOW)) == [("2023-07-04", "2023-07-11")]
    assert days(date_spans("back in November", NOW)) == [("2022-10-29", "2022-12-04")]  # the latest November
    assert days(date_spans("in 2022", NOW)) == [("2021-12-29", "2023-01-04")]


def test_words_that_are_not_times_name_none() -> None:
    assert date_spans("It may be late, shall we march on?", NOW) == []
    assert date_spans("What is Caroline's identity?", NOW) == []
    assert date_spans("February 30", NOW) == []
