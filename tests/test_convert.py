"""Protobuf <-> domain (api/grpc/convert.py): validation, one spelling per id, bounded responses. Pure."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from google.protobuf.timestamp_pb2 import Timestamp

from factmemory.api.grpc import convert
from factmemory.domain.errors import InvalidInput
from factmemory.domain.models import Fact, Kind
from factmemory.v1 import factmemory_pb2 as pb
from tests.support.fm import LIMITS, NOW, Person, ts

ID = "6f1c2b9a-3d4e-4f50-8a6b-7c8d9e0f1a2b"


@pytest.mark.parametrize("spelling", [ID, ID.upper(), "{" + ID + "}", "urn:uuid:" + ID, ID.replace("-", "")])
def test_every_spelling_of_a_uuid_is_one_key(spelling: str) -> None:
    assert convert.canonical_id(spelling) == ID
    person = Person()
    request = person.evaluate("hi", message_id=spelling)
    request.message.entity_id = person.entity_id.upper()
    parsed = convert.evaluate_input(request, NOW, LIMITS)
    assert parsed.message.id == ID and parsed.message.entity_id == person.entity_id


def test_ids_that_are_not_uuids_are_kept_as_sent() -> None:
    assert convert.canonical_id("msg-42") == "msg-42"


@pytest.mark.parametrize("seconds", [-62135596800, 253402300799, -2208988801, 32503680000])
def test_times_outside_the_stored_range_are_invalid(seconds: int) -> None:
    with pytest.raises(InvalidInput, match="between 1900-01-01 and 3000-01-01"):
        convert.to_datetime(Timestamp(seconds=seconds), "message.created_at", NOW)


def test_unset_time_is_the_default_and_a_normal_time_passes() -> None:
    assert convert.to_datetime(Timestamp(), "now", NOW) == NOW
    assert convert.to_datetime(ts(datetime(1999, 1, 1, tzinfo=UTC)), "now", NOW).year == 1999


def test_page_sizes_and_provide_limits_come_from_the_limits() -> None:
    assert convert.page_size(0, LIMITS) == LIMITS.default_page_size
    with pytest.raises(InvalidInput):
        convert.page_size(LIMITS.max_page_size + 1, LIMITS)
    tight = replace(LIMITS, max_page_size=5, default_page_size=2)
    assert convert.page_size(0, tight) == 2
    with pytest.raises(InvalidInput, match="between 0 and 5"):
        convert.page_size(6, tight)
    request = Person().provide("hi")
    request.durable_limit = LIMITS.max_provide_limit + 1
    with pytest.raises(InvalidInput, match="durable_limit"):
        convert.provide_input(request, NOW, LIMITS)


def test_request_text_limits_come_from_the_limits() -> None:
    person = Person()
    request = person.evaluate("x" * 200)
    convert.evaluate_input(request, NOW, LIMITS)
    with pytest.raises(InvalidInput, match=r"message\.text is longer than 100"):
        convert.evaluate_input(request, NOW, replace(LIMITS, max_text_chars=100))
    request.room_entities.append(pb.RoomEntity(id=ID, names=[f"n{i}" for i in range(30)]))
    parsed = convert.evaluate_input(request, NOW, LIMITS)
    assert len(parsed.room_entities[0].names) == LIMITS.max_names_per_entity


def test_a_fact_carries_its_latest_evidence_and_their_count() -> None:
    ids = tuple(str(uuid.uuid4()) for _ in range(500))
    fact = Fact(
        id=uuid.uuid4(),
        agent_id=uuid.uuid4(),
        entity_id=uuid.uuid4(),
        kind=Kind.DURABLE,
        category="preference",
        claim="likes tea",
        confidence=1.0,
        evidence_message_ids=ids,
        evidence_count=500,
        created_at=NOW,
        last_confirmed_at=NOW,
    )
    out = convert.fact_pb(fact, LIMITS)
    assert list(out.evidence_message_ids) == list(ids[-LIMITS.max_evidence_ids :])
    assert out.evidence_count == 500


def test_a_message_from_the_future_takes_the_server_clock() -> None:
    person = Person()
    future = person.evaluate("hi", when=datetime(2200, 1, 1, tzinfo=UTC))
    assert convert.evaluate_input(future, NOW, LIMITS).message.created_at == NOW
    within_skew = person.evaluate("hi", when=NOW + timedelta(seconds=LIMITS.clock_skew_s - 1))
    assert convert.evaluate_input(within_skew, NOW, LIMITS).message.created_at > NOW
