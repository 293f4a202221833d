"""Imported elizaOS facts follow the one rule for times (domain/times.py). Pure."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from factmemory.adapters.eliza import parse_memory


def memory(created_at: object) -> dict[str, object]:
    return {
        "id": str(uuid.uuid4()),
        "type": "facts",
        "agentId": str(uuid.uuid4()),
        "entityId": str(uuid.uuid4()),
        "content": {"text": "likes tea"},
        "createdAt": created_at,
    }


@pytest.mark.parametrize(
    "edge", ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z", -62135596800000, "2200-01-01T00:00:00Z"]
)
def test_an_edge_or_future_import_time_becomes_now(edge: object) -> None:
    before = datetime.now(UTC)
    fact = parse_memory(memory(edge))
    assert fact is not None and before <= fact.created_at <= datetime.now(UTC)


def test_a_normal_import_time_is_kept() -> None:
    fact = parse_memory(memory(1_700_000_000_000))
    assert fact is not None and fact.created_at == datetime.fromtimestamp(1_700_000_000, tz=UTC)
