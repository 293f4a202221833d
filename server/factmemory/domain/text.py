"""Caller and model text made safe for where it goes: stored (one line), or shown in a prompt or the provider text
(one line that cannot form a tag of any kind). Pure."""

from __future__ import annotations

import re

_WHITESPACE = re.compile(r"\s+")
# Look-alikes for the angle brackets: no text of ours or theirs can open or close a block, whatever its spelling.
_NO_TAGS = str.maketrans({"<": "\u2039", ">": "\u203a"})


def one_line(text: str) -> str:
    """One line, single spaces, no control characters."""
    printable = text if text.isprintable() else "".join(c if c.isprintable() else " " for c in text)
    return _WHITESPACE.sub(" ", printable).strip()


def inert(text: str) -> str:
    """One line without angle brackets: safe inside a prompt block or the provider text."""
    return one_line(text).translate(_NO_TAGS)


def estimate_tokens(text: str) -> int:
    """Tokens of text, estimated as UTF-8 bytes / 4: exact enough for English, an under-estimate for scripts
    that take more tokens per byte (CJK takes about 1 token per 3-byte character)."""
    return (len(text.encode("utf-8")) + 3) // 4


def bound_tokens(text: str, max_tokens: int) -> str:
    """text cut to about max_tokens (estimated), marked with an ellipsis when cut."""
    data = text.encode("utf-8")
    if len(data) <= max_tokens * 4:
        return text
    return data[: max(0, max_tokens * 4 - 4)].decode("utf-8", "ignore").rstrip() + " \u2026"
