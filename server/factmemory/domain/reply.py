"""Reads a model's reply without trusting it: the JSON object in it (also wrapped in prose or a code fence),
validated against the contract of the active items. The one parser of replies, whoever called the model."""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from factmemory.domain.errors import BadModelReply
from factmemory.domain.extraction import ExtractionReply, validate_reply
from factmemory.domain.models import Item


def loads(text: str | bytes, what: str) -> Any:
    """JSON, or BadModelReply for anything the parser refuses (deep nesting and giant integers included)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise BadModelReply(f"{what} is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, and integers beyond the interpreter's digit limit
        raise BadModelReply(f"{what} is not valid JSON: {str(exc)[:80]}") from None


def extract_json(content: str) -> Any:
    """The JSON object in a reply, also when wrapped in prose or a code fence."""
    try:
        return json.loads(content)
    except RecursionError:
        raise BadModelReply("the model's reply is nested too deeply") from None
    except ValueError:
        start, end = content.find("{"), content.rfind("}")
        if start < 0 or end <= start:
            raise BadModelReply("the model's reply contains no JSON object") from None
        return loads(content[start : end + 1], "the model's reply")


def parse_reply(content: str, items: frozenset[Item]) -> ExtractionReply:
    """The reply validated against the contract of the active items."""
    data = extract_json(content)
    if not isinstance(data, dict):
        raise BadModelReply("the model's reply is not a JSON object")
    try:
        return validate_reply(data, items)
    except RecursionError:
        raise BadModelReply("the model's reply is nested too deeply") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        raise BadModelReply(f"the model's reply has the wrong shape at {where}: {first['msg']}") from None
