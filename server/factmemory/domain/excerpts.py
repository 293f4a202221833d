"""The source of a fact, pure: the bounded excerpt of a message kept with its evaluation, and the sentence of it
shown beside a fact. Kept only in the evaluations table (never sent to the model, a client or a log): erased
with the entity (ForgetEntity) and dropped when retention reduces the evaluation (evaluation_window_days)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from factmemory.domain.limits import MAX_EXCERPT_CHARS as MAX_EXCERPT_CHARS  # re-exported
from factmemory.domain.ops import clean_text

ELLIPSIS = "…"
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
_WORD = re.compile(r"\w{3,}")


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
    return {w.lower() for w in _WORD.findall(text)}


def best_sentence(stored: str, claim: str) -> str:
    """The sentence of the excerpt sharing the most words with the claim (the first on a tie)."""
    parts = sentences(stored)
    if not parts:
        return ""
    wanted = _words(claim)
    return max(parts, key=lambda s: len(_words(s) & wanted))
