"""Pages bounded by bytes as well as by count, and the position of an export page. Pure."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from factmemory.domain.errors import InvalidInput

# The export's lists, in the order pages walk them, and the types of the key each is ordered by.
EXPORT_SECTIONS: dict[str, tuple[str, str]] = {
    "facts": ("time", "uuid"),
    "candidates": ("time", "uuid"),
    "relationships": ("uuid", "uuid"),
    "identities": ("text", "text"),
    "evaluations": ("time", "text"),
    "history": ("time", "uuid"),
    "possible_duplicates": ("uuid", "uuid"),
}
# The JSON around the items of a page: keys, ids, brackets.
PAGE_OVERHEAD_BYTES = 512


@dataclass(frozen=True)
class ExportPosition:
    """Where an export page starts: a section, after the item with this key (None: the section's start)."""

    section: str
    after: tuple[str, str] | None = None


def fitting(sizes: Sequence[int], budget: int) -> int:
    """How many items, in order, fit in budget bytes; at least one, so a page always advances."""
    used = 0
    for count, size in enumerate(sizes):
        used += size
        if used > budget and count > 0:
            return count
    return len(sizes)


def json_bytes(item: Any) -> int:
    """The size of one item in a JSON page (with its separator)."""
    return len(json.dumps(item, ensure_ascii=False, sort_keys=True).encode("utf-8")) + 2


def check_position(section: str, after: Sequence[str] | None) -> ExportPosition:
    """A position read from a page token: the section must exist and the key must have its section's types."""
    if section not in EXPORT_SECTIONS:
        raise InvalidInput("page_token is not a token this service issued")
    if after is None:
        return ExportPosition(section)
    if len(after) != 2 or not all(isinstance(v, str) for v in after):
        raise InvalidInput("page_token is not a token this service issued")
    for kind, value in zip(EXPORT_SECTIONS[section], after, strict=True):
        try:
            if kind == "time":
                if datetime.fromisoformat(value).tzinfo is None:
                    raise ValueError
            elif kind == "uuid":
                UUID(value)
        except ValueError:
            raise InvalidInput("page_token is not a token this service issued") from None
    return ExportPosition(section, (after[0], after[1]))
