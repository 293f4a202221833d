"""The language layer: every operation on words goes through here. Pure.

    words(text)          the words as written: letters and digits of any script, with inner apostrophes and hyphens
                         ("don't", "room-mate") and a number's inner marks ("3.5", "10:30", "50%") kept
    spelled(text)        the word tokens as written: words split at those inner marks (case kept)
    tokens(text)         lower-case word tokens: spelled(text) lower-cased
    expand(word)         a contraction as its words (words/contractions.txt): "doesn't" -> ("does", "not")
    is_stop_word(word)   an English function word (data file words/stopwords_en.txt)
    stem(word)           the word's Snowball English stem (library: snowballstemmer)
    terms(text)          the text's content terms: tokens less stop words, stemmed, in order (repeats kept)
    content_terms(text)  the distinct content terms, in first-seen order
    content_terms_of(texts) the same of several texts (a turn's messages), each text's terms memoized
    refers_back(text)    the text holds a word pointing back to something said before ("how did that go?")
    date_spans(text, now, slack) the times the text names ("in June", "on 7 July, 2023", "in 2022") as [start, end)

One tokenizer: `words` finds the words; `spelled` and `tokens` are the same words cut at their inner marks (\\w+ runs,
tests/test_language.py checks the two agree). Word tables (stop words, the dedup rule's words, relations) are data
files in words/, read by `tables`.

Stemmer: Snowball's English stemmer ("Porter2", snowballstemmer, pure Python: nothing native in the service's
process), with Snowball's English stop word list. The service writes the terms computed here with each claim
(`facts.lexemes`, migration 0055), and the read path's stems (BM25, and the text search when the embedder is down)
are computed here too; PostgreSQL's own `english` stems (an older Snowball) are only the fallback for a writer that
supplies none. The exact-duplicate key (migration 0003) cuts claims into these words without stemming
(tests/test_claim_key.py). Chosen over a lemmatiser (simplemma) on the LoCoMo tune half (docs/recall.md, "The
language layer").
"""

from __future__ import annotations

import calendar
import functools
import re
from collections.abc import Sequence
from datetime import datetime, timedelta

import snowballstemmer

from factmemory.domain.language.tables import rewrites, word_set

_WORD = re.compile(r"\w+")
# A word: \w runs joined by an inner apostrophe or hyphen, or by a number's inner mark between digits; a number may
# end in "%". Every \w run of the text is inside exactly one word, so cutting words at non-\w gives `tokens`.
_WORDS = re.compile(r"\w+(?:(?:['’-]|(?<=\d)[.,:/](?=\d))\w+)*(?:(?<=\d)%)?")
_STEMMER = snowballstemmer.stemmer("english")
STEM_MEMO = 65_536
# Messages whose terms are kept (the last turns' windows), each at most MEMO_TEXT_CHARS long: at most ~4 MB.
TERMS_MEMO = 1_024
MEMO_TEXT_CHARS = 4_000


STOP_WORDS = word_set("stopwords_en")


def words(text: str) -> list[str]:
    """The words as written, curly apostrophes made straight: "Caroline's room-mate paid $3.50" ->
    ["Caroline's", "room-mate", "paid", "3.50"]."""
    return [w.replace("’", "'") for w in _WORDS.findall(text)]


def spelled(text: str) -> list[str]:
    """Word tokens as written (case kept); an apostrophe, a hyphen or a mark in a number splits a word."""
    return _WORD.findall(text)


def tokens(text: str) -> list[str]:
    """Lower-case word tokens; an apostrophe splits a word ("Caroline's" -> "caroline", "s")."""
    return [w.lower() for w in _WORD.findall(text)]


_CONTRACTIONS = rewrites("contractions")
_WHOLE_WORDS = {left[0]: right for left, right in _CONTRACTIONS if not left[0].startswith("-")}
_ENDINGS = tuple((left[0][1:], right) for left, right in _CONTRACTIONS if left[0].startswith("-"))


def expand(word: str) -> tuple[str, ...]:
    """A contraction as its words, the head as written: "can't" -> ("can", "not"), "I'm" -> ("I", "am"); any other
    word (a possessive "Mia's" too) as itself."""
    lower = word.lower().replace("’", "'")
    if lower in _WHOLE_WORDS:
        return _WHOLE_WORDS[lower]
    for ending, expansion in _ENDINGS:
        if lower.endswith(ending) and len(lower) > len(ending):
            return (word[: -len(ending)], *expansion)
    return (word,)


def is_stop_word(word: str) -> bool:
    return word.lower() in STOP_WORDS


@functools.lru_cache(maxsize=STEM_MEMO)
def stem(word: str) -> str:
    """Snowball English: "running" -> "run", "stories" -> "stori", "Caroline" -> "carolin"."""
    return str(_STEMMER.stemWord(word.lower()))


def terms(text: str) -> list[str]:
    """Content terms in order: "She went running with her kids" -> ["went", "run", "kid"]."""
    return [stem(w) for w in tokens(text) if w not in STOP_WORDS]


def content_terms(text: str) -> tuple[str, ...]:
    """Distinct content terms in first-seen order."""
    return tuple(dict.fromkeys(terms(text)))


def content_terms_of(texts: Sequence[str]) -> tuple[str, ...]:
    """content_terms of the texts joined by line breaks (no word spans two texts), each text's terms memoized: a
    turn's window of messages shares all but its newest with the turn before (Provide)."""
    return tuple(dict.fromkeys(t for text in texts for t in _message_terms(text)))


def _message_terms(text: str) -> tuple[str, ...]:
    return _memo_terms(text) if len(text) <= MEMO_TEXT_CHARS else tuple(terms(text))


@functools.lru_cache(maxsize=TERMS_MEMO)
def _memo_terms(text: str) -> tuple[str, ...]:
    return tuple(terms(text))


_REFERENCES = word_set("references_en")


def refers_back(text: str) -> bool:
    """A word of the text points back to something said before: "How did that go?", "And her sister?" -> True;
    "What about my job?" -> False."""
    return any(t in _REFERENCES for t in tokens(text))


# --- dates a turn names ------------------------------------------------------------------------------------------
# A hand-kept rule: English month names with an optional day and year, or a year alone. The library alternative,
# dateparser's search_dates, costs ~4 ms a text (steady state; Provide's whole server budget is 10 ms) and turns
# "in June" into one day (the 23rd, today's day of month) instead of the month (docs/recall.md, "Dates").
_MONTHS = {m.lower(): n for n, m in enumerate(calendar.month_name) if m} | {
    m.lower(): n for n, m in enumerate(calendar.month_abbr) if m
}
_VERBS = word_set("month_verbs")  # month names that are also English verbs
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATE = re.compile(
    rf"\b(?:(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?)?({_MONTH})\b\.?(?:\s+(\d{{1,2}})(?:st|nd|rd|th)?\b)?,?"
    rf"(?:\s+((?:19|20)\d{{2}})\b)?|\b((?:19|20)\d{{2}})\b",
    re.IGNORECASE,
)


def date_spans(text: str, now: datetime, slack: timedelta) -> list[tuple[datetime, datetime]]:
    """The times the text names, each as [start, end) in `now`'s time zone, widened by `slack` either side
    (Provide's: provide_tuning.DATE_SLACK): "in June" (now 2023-10-23) -> June 2023; "on October 13, 2023" and
    "7 July, 2023" -> that day; "in 2022" -> the year. A month without a year is the latest one not after `now`'s
    month; "may" and "march" in lower case and alone are the verbs."""
    spans = []
    for match in _DATE.finditer(text):
        before, month, after, year, lone = match.groups()
        if month in _VERBS and not (before or after or year):
            continue  # "may", "march": in lower case and alone, the verbs
        span = _span(now, month, before or after, year) if month else _year(now, int(lone))
        if span is not None:
            spans.append((span[0] - slack, span[1] + slack))
    return spans


def _span(now: datetime, month: str, day: str | None, year: str | None) -> tuple[datetime, datetime] | None:
    number = _MONTHS[month.lower()]
    y = int(year) if year else (now.year if number <= now.month else now.year - 1)
    if day is None:
        start = datetime(y, number, 1, tzinfo=now.tzinfo)
        return start, datetime(y + number // 12, number % 12 + 1, 1, tzinfo=now.tzinfo)
    try:
        start = datetime(y, number, int(day), tzinfo=now.tzinfo)
    except ValueError:  # "February 30"
        return None
    return start, start + timedelta(days=1)


def _year(now: datetime, year: int) -> tuple[datetime, datetime]:
    return datetime(year, 1, 1, tzinfo=now.tzinfo), datetime(year + 1, 1, 1, tzinfo=now.tzinfo)
