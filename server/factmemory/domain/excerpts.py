"""The source of a fact, pure: the bounded excerpt of a message kept with its evaluation, and the sentence of it
shown beside a fact. Kept only in the evaluations table (never sent to the model, a client or a log): erased
with the entity (ForgetEntity) and dropped when retention reduces the evaluation (evaluation_window_days)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from factmemory.domain.dedup.claims import analyse
from factmemory.domain.limits import MAX_EXCERPT_CHARS
from factmemory.domain.ops import clean_text

ELLIPSIS = "…"
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")


@dataclass(frozen=True)
class EvidenceSource:
    """What a message said, as kept with its evaluation."""

    message_id: str
    excerpt: str
    evaluated_at: datetime


def excerpt(text: str, max_chars: int = MAX_EXCERPT_CHARS) -> str:
    """The message as one line of at most max_chars, cut at a word boundary (ending in '…' when cut)."""
    line = clean_text(text)
    if len(line) <= max_chars:
        return line
    cut = line[: max_chars - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > max_chars // 2 else cut).rstrip() + ELLIPSIS


def sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


def _words(text: str) -> set[str]:
    """The content words of a text, lightly stemmed ("live" and "lives" meet), through the claim analyser that
    folds duplicates (domain/dedup/claims.py), so the page and the write path read words the same way."""
    return {token.key for token in analyse(text).content}


def best_sentence(stored: str, claims: Sequence[str]) -> str:
    """The sentence of the excerpt that carries the fact: the one sharing the most content words with the claims
    the fact has had (its current claim, earlier claims, the claim this message gave it). When no sentence shares
    a word, the whole excerpt: a first sentence chosen by default ("Hi, I'm Ana.") is not the source."""
    parts = sentences(stored)
    wanted = set().union(*(_words(claim) for claim in claims)) if claims else set()
    scored = [(len(_words(part) & wanted), part) for part in parts]
    best = max(scored, key=lambda pair: pair[0], default=(0, ""))
    return best[1] if best[0] > 0 else stored
