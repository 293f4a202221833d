"""Bad input at scale: random and hostile requests and model replies never crash the service or half-write.

Requests go over the real gRPC channel to the session server; model replies are scripted through the llm fixture.
Properties checked on every example:
- the status is one the contract defines (never INTERNAL / UNKNOWN from a crash);
- a rejected request changes nothing stored for its agent (facts, candidates, evaluations, relationships, identities);
- an accepted Evaluate stores exactly one evaluation and a repeat of it is a pure replay;
- the pure parsers (ops.plan_ops / plan_op, extractor.parse_reply, dedup.decide) raise nothing but BadModelReply.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import grpc
import pytest
from google.protobuf.message import DecodeError
from google.protobuf.timestamp_pb2 import Timestamp
from hypothesis import HealthCheck, Phase, assume, event, given, settings
from hypothesis import strategies as st

from factmemory.domain.dedup.rule import DedupVerdict, decide
from factmemory.domain.errors import BadModelReply
from factmemory.domain.extraction import reply_model
from factmemory.domain.limits import Limits
from factmemory.domain.models import (
    ALL_ITEMS,
    CURRENT_CATEGORIES,
    DURABLE_CATEGORIES,
    Fact,
    Item,
    Kind,
    OpType,
    Verification,
)
from factmemory.domain.new_fact import NewFact
from factmemory.domain.ops import PlannedAdd, PlannedChange, RejectedOp, clean_text, plan_op, plan_ops
from factmemory.domain.reply import parse_reply
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import LIMITS, NOW, Person, facts_reply, new_id
from tests.support.llm_stub import Fault, Reply, ScriptedLLM

NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
ALLOWED = frozenset(
    {
        grpc.StatusCode.OK,
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.UNAVAILABLE,
    }
)
TABLES = (
    "facts",
    "fact_candidates",
    "evaluations",
    "relationships",
    "identities",
    "fact_history",
    "entities",
    "kept_pairs",
)
# Requests that store something when they succeed.
WRITES = (pb.EvaluateRequest, pb.AddFactRequest)
# Everything stored for one agent, as comparable text (embeddings and the generated search column left out).
SNAPSHOT = (
    "SELECT coalesce(jsonb_agg(to_jsonb(t) - 'embedding' - 'search' ORDER BY to_jsonb(t)::text), '[]') "
    "FROM {table} t WHERE agent_id = $1"
)
EVALUATIONS_OF_MESSAGE = "SELECT count(*) FROM evaluations WHERE agent_id = $1 AND message_id = $2"

# No shrinking against the server: an example is a round trip, and shrinking one can take minutes. A failure
# prints its (unshrunk) example and the seed to reproduce it.
SERVICE_SETTINGS = settings(
    max_examples=40,
    deadline=None,
    database=None,
    phases=NO_SHRINK,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
PURE_SETTINGS = settings(max_examples=300, deadline=None, database=None)

MIN_SECONDS, MAX_SECONDS = -62_135_596_800, 253_402_300_799  # 0001-01-01 .. 9999-12-31T23:59:59
INT32_EDGES = [0, 1, -1, 5, 6, 49, 50, 51, 99, 100, 101, 999, 1000, 1001, 2**31 - 1, -(2**31)]

# --- strategies -------------------------------------------------------------------------------------------

# Protobuf strings must be valid UTF-8, so no surrogates on the wire; everything else, NUL included.
wire_text = st.text(st.characters(codec="utf-8"), max_size=30)
int32s = st.one_of(st.sampled_from(INT32_EDGES), st.integers(-(2**31), 2**31 - 1))
int64s = st.integers(-(2**63), 2**63 - 1)


def around(limit: int, unit: str = "é") -> st.SearchStrategy[str]:
    """Strings just under, at and just over a length limit."""
    return st.integers(limit - 1, limit + 1).map(lambda n: (unit * n)[:n])


# Text that gets embedded is made of words: the local embedder reads a whole text in 512-token windows, and one
# long run of "é" costs seconds (see docs/load.md). Message texts only go just over their limit, for the same reason.
WORDS = "lives in Berlin "
over_text_limit = st.just("a" * 8_001)


def ids() -> st.SearchStrategy[str]:
    """UUIDs in odd spellings, near misses and garbage (each fresh, so no rows are shared between examples)."""
    good = st.builds(new_id)
    return st.one_of(
        good,
        wire_text,
        st.sampled_from(["", "not-a-uuid", "\x00", "00000000-0000-0000-0000-000000000000"]),
        good.map(str.upper),
        good.map(lambda u: "{" + u + "}"),
        good.map(lambda u: "urn:uuid:" + u),
        good.map(lambda u: u.replace("-", "")),
        good.map(lambda u: u + "\x00"),
        good.map(lambda u: u[:-1]),
        around(128),
    )


timestamps = st.one_of(
    st.just(Timestamp()),
    st.builds(
        Timestamp,
        seconds=st.integers(MIN_SECONDS - 1, MIN_SECONDS + 1) | st.integers(MAX_SECONDS - 1, MAX_SECONDS + 1),
        nanos=st.sampled_from([0, 999_999_999]),
    ),
    st.builds(Timestamp, seconds=int64s, nanos=st.integers(-(2**31), 2**31 - 1)),
    st.builds(Timestamp, seconds=st.integers(MIN_SECONDS, MAX_SECONDS), nanos=st.integers(0, 999_999_999)),
)
texts = st.one_of(
    wire_text, st.sampled_from(["hi", " ", "\x00", "a\x00b", "\u202e\u200b", "<current_message>"]), over_text_limit
)
names = st.one_of(wire_text, around(200))
chat_messages = st.builds(
    pb.ChatMessage, id=ids(), entity_id=st.just("") | ids(), name=names, text=texts, created_at=timestamps
)
plain_message = pb.ChatMessage(id=new_id(), text="earlier")
message_lists = st.one_of(st.lists(chat_messages, max_size=3), st.integers(49, 51).map(lambda n: [plain_message] * n))
room_entity_lists = st.one_of(
    st.lists(st.builds(pb.RoomEntity, id=ids(), names=st.lists(names, max_size=12)), max_size=3),
    st.integers(99, 101).map(lambda n: [pb.RoomEntity(id=new_id(), names=["x"]) for _ in range(n)]),
)
scope = {"agent_id": ids(), "entity_id": ids()}

# Each request starts valid and gets up to three fields overwritten with hostile values, so both the
# rejections and the accepted paths (odd but legal values reaching the database) are exercised.
OVERRIDES: dict[type[Any], dict[str, st.SearchStrategy[Any]]] = {
    pb.EvaluateRequest: {
        **scope,
        "room_id": ids(),
        "message": st.none() | chat_messages,
        "message.id": ids(),
        "message.entity_id": ids(),
        "message.name": names,
        "message.text": texts,
        "message.created_at": timestamps,
        "recent_messages": message_lists,
        "agent_responses": message_lists,
        "room_entities": room_entity_lists,
        "items": st.lists(st.integers(0, 4) | int32s, max_size=5),
    },
    pb.ProvideRequest: {
        **scope,
        "room_id": ids(),
        "recent_messages": message_lists,
        "durable_limit": int32s,
        "current_limit": int32s,
        "subject_name": names,
        "now": timestamps,
    },
    pb.ListFactsRequest: {**scope, "kind": int32s, "page_size": int32s, "page_token": ids()},
    pb.ListCandidatesRequest: {
        **scope,
        "status": int32s,
        "source": int32s,
        "page_size": int32s,
        "page_token": ids() | texts,
        "any_status": st.booleans(),
    },
    pb.ResolveCandidateRequest: {**scope, "candidate_id": ids(), "decision": int32s, "resolution": int32s},
    pb.AddFactRequest: {
        **scope,
        "kind": int32s,
        "category": names,
        "claim": texts | around(500, WORDS),
        "confidence": st.floats(),
    },
    pb.UpdateFactRequest: {
        **scope,
        "fact_id": ids(),
        "claim": texts,
        "category": names,
        "kind": int32s,
        "confidence": st.floats(),
        "verification_status": int32s,
    },
    pb.DeleteFactRequest: {**scope, "fact_id": ids()},
    pb.GetFactRequest: {**scope, "fact_id": ids()},
    pb.ListEntitiesRequest: {"agent_id": ids(), "query": names, "page_size": int32s, "page_token": ids() | texts},
    pb.ForgetEntityRequest: scope,
    pb.ExportEntityRequest: scope,
}


def valid_request(kind: type[Any]) -> Any:
    person = Person()
    if kind is pb.EvaluateRequest:
        return person.evaluate(
            "I live in Berlin and I love coffee",
            recent_messages=[person.message("hello")],
            room_entities=[pb.RoomEntity(id=new_id(), names=["Ann"])],
        )
    if kind is pb.ProvideRequest:
        return person.provide("hello", "where do I live?")
    if kind is pb.ResolveCandidateRequest:
        return kind(
            agent_id=person.agent_id, entity_id=person.entity_id, candidate_id=new_id(), decision=pb.DECISION_ACCEPT
        )
    if kind is pb.AddFactRequest:
        return kind(
            agent_id=person.agent_id,
            entity_id=person.entity_id,
            kind=pb.KIND_DURABLE,
            category="identity",
            claim="lives in Berlin",
        )
    if kind in (pb.UpdateFactRequest, pb.DeleteFactRequest, pb.GetFactRequest):
        extra = {"claim": "lives in Rome"} if kind is pb.UpdateFactRequest else {}
        return kind(agent_id=person.agent_id, entity_id=person.entity_id, fact_id=new_id(), **extra)
    if kind is pb.ListEntitiesRequest:
        return kind(agent_id=person.agent_id, query="sam")
    return kind(agent_id=person.agent_id, entity_id=person.entity_id)


def override(request: Any, path: str, value: Any) -> None:
    *parents, name = path.split(".")
    target = request
    for parent in parents:
        target = getattr(target, parent)
    if value is None:
        target.ClearField(name)
    elif isinstance(value, list):
        del getattr(target, name)[:]
        getattr(target, name).extend(value)
    elif hasattr(value, "CopyFrom"):
        getattr(target, name).CopyFrom(value)
    else:
        setattr(target, name, value)


@st.composite
def hostile_requests(draw: st.DrawFn, kind: type[Any]) -> Any:
    request = valid_request(kind)
    fields = OVERRIDES[kind]
    for path in draw(st.lists(st.sampled_from(sorted(fields)), max_size=3, unique=True)):
        override(request, path, draw(fields[path]))
    return request


# Model output may carry any code point, lone surrogates included (JSON escapes them as \udXXX). But NUL and lone
# surrogates in free text, and valid_at dates before year 1 in UTC, still crash the write path: each crash is
# pinned by an xfail case of test_unclean_model_text_is_not_a_crash. Set this to True when those are fixed.
UNCLEAN_MODEL_TEXT_IS_HANDLED = True
SAMPLES = ["", " ", "\x00", "\ud800", "D1\x00", "\u0085", "\u2028"]
model_text = st.one_of(
    st.text(max_size=40)
    if UNCLEAN_MODEL_TEXT_IS_HANDLED
    else st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=40),
    st.sampled_from(SAMPLES if UNCLEAN_MODEL_TEXT_IS_HANDLED else [t for t in SAMPLES if t.isprintable() or t == " "]),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | model_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(model_text, inner, max_size=4),
    max_leaves=12,
)
OP_NAMES = [o.value for o in OpType]
CATEGORIES = [*DURABLE_CATEGORIES, *CURRENT_CATEGORIES, "uncategorized"]
HANDLES = ["D1", "D2", "C1", "d1", " c1 ", "D9", "C0", "", "D1 ", "D01"]
ISO_DATES = [
    "2026-11-19",
    "2026-11-19T08:00:00+02:00",
    "9999-12-31T23:59:59-14:00",
    "0001-01-01",
    "2027-01-01",
    "yesterday",
    "2026-13-40",
    *(["0001-01-01T00:00:00+14:00"] if UNCLEAN_MODEL_TEXT_IS_HANDLED else []),
]
op_dicts = st.fixed_dictionaries(
    {"op": st.one_of(st.sampled_from(OP_NAMES), model_text, json_values)},
    optional={
        "claim": st.one_of(model_text, around(500, WORDS), json_values),
        "category": st.one_of(st.sampled_from(CATEGORIES), model_text),
        "fact": st.one_of(st.sampled_from(HANDLES), model_text, json_values),
        "reason": st.one_of(st.none(), model_text),
        "proposed_claim": st.one_of(model_text, around(500, WORDS)),
        "structured_fields": st.one_of(
            st.lists(st.fixed_dictionaries({"key": model_text, "value": model_text}), max_size=12),
            st.dictionaries(model_text, json_values, max_size=12),
            json_values,
        ),
        "verification_status": st.one_of(
            st.sampled_from(["self_reported", "confirmed", "contradicted", None]), model_text
        ),
        "valid_at": st.one_of(st.none(), st.sampled_from(ISO_DATES), model_text),
    },
)
object_ops = st.one_of(
    st.lists(op_dicts | st.dictionaries(model_text, json_values, max_size=4), max_size=8),
    st.integers(29, 32).map(lambda n: [{"op": "strengthen", "fact": "D1"}] * n),
)
raw_ops = st.one_of(object_ops, st.lists(st.one_of(op_dicts, json_values), max_size=8))


def replies(room: list[str]) -> st.SearchStrategy[Any]:
    """Whole model replies: well-formed, wrong-shaped, or plain JSON values."""
    entity = st.one_of(st.sampled_from(room), model_text)
    relationships = st.lists(
        st.fixed_dictionaries(
            {"source_entity_id": entity, "target_entity_id": entity, "tags": st.lists(model_text, max_size=12)}
        ),
        max_size=3,
    )
    identities = st.lists(
        st.fixed_dictionaries(
            {
                "entity_id": entity,
                "platform": model_text,
                "handle": model_text,
                "confidence": st.floats() | st.integers(),
            }
        ),
        max_size=3,
    )
    well_formed = st.fixed_dictionaries(
        {
            "facts": st.fixed_dictionaries({"ops": object_ops}),
            "relationships": relationships,
            "identities": identities,
            "success": st.fixed_dictionaries({"completed": st.booleans(), "reason": model_text}),
        }
    )
    wrong_ops = st.fixed_dictionaries({"facts": st.fixed_dictionaries({"ops": raw_ops})})
    return st.one_of(
        well_formed,
        well_formed,
        well_formed,
        wrong_ops,
        st.dictionaries(st.sampled_from([i.value for i in Item]), json_values),
        json_values,
    )


@st.composite
def reply_contents(draw: st.DrawFn, room: list[str]) -> Reply | Fault:
    """What the scripted model sends: a JSON reply (maybe wrapped or truncated), prose, or an HTTP failure."""
    value = draw(replies(room))
    text = json.dumps(value, allow_nan=True)
    shape = draw(st.sampled_from(["object", "object", "text", "fenced", "truncated", "prose", "fault"]))
    if shape == "object" and isinstance(value, dict):
        return Reply(value)
    if shape == "fenced":
        return Reply(f"Here you go:\n```json\n{text}\n```")
    if shape == "truncated":
        return Reply(text[: draw(st.integers(0, max(0, len(text) - 1)))])
    if shape == "prose":
        return Reply(draw(model_text))
    if shape == "fault":
        # No 408/409/429/5xx here: the client retries those with backoff (a separate, smaller test covers them).
        return Fault(
            status=draw(st.sampled_from([400, 401, 403, 404, 422])),
            body=draw(st.sampled_from(['{"error": {"message": "no"}}', "", "not json", "{"])),
        )
    return Reply(text)


# --- helpers ----------------------------------------------------------------------------------------------


async def call(service: Service, request: Any) -> tuple[grpc.StatusCode, Any]:
    """The status code and the reply (None when not OK) of one RPC."""
    method = {
        pb.EvaluateRequest: service.stub.Evaluate,
        pb.ProvideRequest: service.stub.Provide,
        pb.ListFactsRequest: service.stub.ListFacts,
        pb.ListCandidatesRequest: service.stub.ListCandidates,
        pb.ResolveCandidateRequest: service.stub.ResolveCandidate,
        pb.ForgetEntityRequest: service.stub.ForgetEntity,
        pb.ExportEntityRequest: service.stub.ExportEntity,
        pb.AddFactRequest: service.stub.AddFact,
        pb.UpdateFactRequest: service.stub.UpdateFact,
        pb.DeleteFactRequest: service.stub.DeleteFact,
        pb.GetFactRequest: service.stub.GetFact,
        pb.ListEntitiesRequest: service.stub.ListEntities,
    }[type(request)]
    try:
        return grpc.StatusCode.OK, await method(request, timeout=30)
    except grpc.aio.AioRpcError as error:
        return error.code(), error


def as_uuid(text: str) -> UUID | None:
    try:
        return UUID(text)
    except ValueError:
        return None


async def snapshot(service: Service, agent: str) -> dict[str, str]:
    """Every row stored for the agent, per table ({} when the id is not a UUID: nothing can be stored for it)."""
    agent_id = as_uuid(agent)
    if agent_id is None:
        return {}
    async with service.pool.acquire() as conn:
        return {table: await conn.fetchval(SNAPSHOT.format(table=table), agent_id) for table in TABLES}


def check_status(code: grpc.StatusCode, reply: Any, request: Any) -> None:
    assert code in ALLOWED, f"{code}: {getattr(reply, 'details', lambda: '')()} for {request!r:.600}"


SEEDS = (
    (Kind.DURABLE, "identity", "lives in Berlin"),
    (Kind.DURABLE, "preference", "loves coffee"),
    (Kind.CURRENT, "feeling", "anxious this morning"),
)


async def seed(service: Service, person: Person) -> None:
    """Known facts for the model to reference (D1, D2, C1), written straight through the store."""
    vectors = await service.deps.embedder.passages([claim for _, _, claim in SEEDS])
    async with service.store.writing(UUID(person.agent_id), UUID(person.entity_id)) as turn:
        for (kind, category, claim), vector in zip(SEEDS, vectors, strict=True):
            await turn.insert_fact(
                NewFact(
                    kind=kind,
                    category=category,
                    claim=claim,
                    structured_fields={},
                    confidence=0.7,
                    message_id=new_id(),
                    verification=Verification.SELF_REPORTED,
                    at=NOW,
                    valid_at=NOW if kind is Kind.CURRENT else None,
                    embedding=vector,
                    embedding_model=service.deps.embedder.model_name,
                )
            )


# --- hostile requests over gRPC ------------------------------------------------------------------------------


@SERVICE_SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("kind", list(OVERRIDES), ids=lambda k: k.__name__)
async def test_hostile_requests_get_a_defined_status_and_rejections_store_nothing(
    service: Service, llm: ScriptedLLM, kind: type[Any], data: st.DataObject
) -> None:
    request = data.draw(hostile_requests(kind))
    llm.default = Reply(
        facts_reply(
            {"op": "add_durable", "claim": "likes odd input", "category": "preference"},
            {"op": "add_current", "claim": "testing limits", "category": "working_on"},
        )
    )
    before = await snapshot(service, request.agent_id)
    code, reply = await call(service, request)
    event(code.name)
    check_status(code, reply, request)
    after = await snapshot(service, request.agent_id)
    if code != grpc.StatusCode.OK or kind not in WRITES:
        assert after == before, f"{kind.__name__} -> {code} changed stored rows"
        return
    if kind is pb.AddFactRequest:
        assert len(after["facts"]) == len(before["facts"]) + 1
        return
    async with service.pool.acquire() as conn:
        # Stored under the id's one spelling, however the request spelled it.
        stored = await conn.fetchval(EVALUATIONS_OF_MESSAGE, UUID(request.agent_id), str(UUID(request.message.id)))
    assert stored == 1


def varint(value: int) -> bytes:
    out = bytearray()
    while True:
        out.append((value & 0x7F) | (0x80 if value > 0x7F else 0))
        value >>= 7
        if not value:
            return bytes(out)


# One wire-format field: any field number (known or not) with a varint or a length-delimited payload.
wire_fields = st.one_of(
    st.tuples(st.integers(1, 20), st.integers(0, 2**64 - 1)).map(lambda f: varint(f[0] << 3) + varint(f[1])),
    st.tuples(st.integers(1, 20), wire_text.map(str.encode) | st.binary(max_size=40)).map(
        lambda f: varint(f[0] << 3 | 2) + varint(len(f[1])) + f[1]
    ),
)


@settings(SERVICE_SETTINGS, max_examples=40)
@given(fields=st.lists(wire_fields, max_size=8))
async def test_random_wire_messages_that_decode_get_a_defined_status(service: Service, fields: list[bytes]) -> None:
    payload = b"".join(fields)
    try:
        pb.ProvideRequest.FromString(payload)
    except DecodeError:
        assume(False)
    method: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = service.channel.unary_unary(
        "/factmemory.v1.FactMemoryService/Provide"
    )
    try:
        await method(payload, timeout=30)
    except grpc.aio.AioRpcError as error:
        assert error.code() in ALLOWED, error


@pytest.mark.parametrize(
    "payload", [b"\x0a\x03\xff\xfe\xfd", b"\xff\xff\xff", b"\x0a\xff"], ids=["bad utf-8", "bad tag", "truncated length"]
)
async def test_undecodable_request_is_invalid_argument(service: Service, payload: bytes) -> None:
    method: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = service.channel.unary_unary(
        "/factmemory.v1.FactMemoryService/ListFacts"
    )
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await method(payload, timeout=30)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT


# --- hostile model replies -----------------------------------------------------------------------------------

ROOM = [new_id(), new_id()]


@settings(SERVICE_SETTINGS, max_examples=60)
@given(reply=reply_contents(ROOM), items=st.sampled_from([[], [pb.ITEM_FACTS], [pb.ITEM_SUCCESS, pb.ITEM_FACTS]]))
async def test_hostile_model_replies_get_a_defined_status_and_never_half_apply(
    service: Service, llm: ScriptedLLM, reply: Reply | Fault, items: list[int]
) -> None:
    person = Person()
    await seed(service, person)
    llm.default = reply
    request = person.evaluate(
        f"hostile reply {new_id()}", items=items, room_entities=[pb.RoomEntity(id=e, names=["x"]) for e in ROOM]
    )
    before = await snapshot(service, person.agent_id)
    code, response = await call(service, request)
    event(f"{type(reply).__name__} -> {code.name} {response.details()[:50] if code != grpc.StatusCode.OK else ''}")
    check_status(code, response, reply)
    after = await snapshot(service, person.agent_id)
    if code != grpc.StatusCode.OK:
        assert after == before
        return
    assert len(after["evaluations"]) == 1
    again_code, again = await call(service, request)
    assert again_code == grpc.StatusCode.OK and again.replayed
    assert list(again.ops) == list(response.ops)
    assert await snapshot(service, person.agent_id) == after


@settings(SERVICE_SETTINGS, max_examples=4)
@given(fault=st.builds(Fault, status=st.sampled_from([429, 500, 502, 503]), truncate=st.booleans()))
async def test_transient_llm_failures_are_unavailable(service: Service, llm: ScriptedLLM, fault: Fault) -> None:
    person = Person()
    llm.default = fault
    before = await snapshot(service, person.agent_id)
    code, _ = await call(service, person.evaluate("the model is down"))
    assert code == grpc.StatusCode.UNAVAILABLE
    assert await snapshot(service, person.agent_id) == before


# --- the pure parsers --------------------------------------------------------------------------------------


def _fact(handle: str) -> Fact:
    kind = Kind.CURRENT if handle.startswith("C") else Kind.DURABLE
    return Fact(
        id=UUID(int=hash(handle) % 2**64),
        agent_id=UUID(int=1),
        entity_id=UUID(int=2),
        kind=kind,
        category="feeling" if kind is Kind.CURRENT else "identity",
        claim=f"claim {handle}",
        confidence=0.7,
        created_at=NOW,
        last_confirmed_at=NOW,
    )


SHOWN = {h: _fact(h) for h in ("D1", "D2", "C1")}
limits_strategy = st.builds(
    lambda claim, ops: replace(LIMITS, max_claim_chars=claim, max_ops=ops), st.integers(20, 600), st.integers(1, 40)
)
message_times = st.datetimes(timezones=st.just(UTC)) | st.just(NOW)


@PURE_SETTINGS
@given(ops=raw_ops, limits=limits_strategy, at=message_times)
def test_plan_ops_never_raises_and_respects_its_rules(ops: list[Any], limits: Limits, at: datetime) -> None:
    planned = plan_ops(ops, SHOWN, at, limits)
    assert len(planned) == min(len(ops), limits.max_ops)
    changed = [p.handle for p in planned if isinstance(p, PlannedChange)]
    assert len(changed) == len(set(changed)) and set(changed) <= set(SHOWN)
    for index, item in enumerate(planned):
        assert isinstance(item, PlannedAdd | PlannedChange | RejectedOp)
        if index >= limits.max_ops:
            assert isinstance(item, RejectedOp)
        if isinstance(item, PlannedAdd):
            assert item.claim and len(item.claim) <= limits.max_claim_chars and item.claim == clean_text(item.claim)
            assert item.category in (DURABLE_CATEGORIES if item.kind is Kind.DURABLE else CURRENT_CATEGORIES)
            assert item.valid_at is None or item.valid_at <= at
            assert all(k and k.isprintable() and v.isprintable() for k, v in item.structured_fields.items())
        if isinstance(item, PlannedChange) and item.op is OpType.CONTRADICT:
            assert item.proposed_claim and len(item.proposed_claim) <= limits.max_claim_chars


@PURE_SETTINGS
@given(raw=st.one_of(op_dicts, json_values), at=message_times)
def test_plan_op_accepts_any_value(raw: Any, at: datetime) -> None:
    assert isinstance(plan_op(raw, SHOWN, at, LIMITS), PlannedAdd | PlannedChange | RejectedOp)


@st.composite
def reply_texts(draw: st.DrawFn) -> str:
    text = json.dumps(draw(replies(ROOM)), allow_nan=True)
    return draw(
        st.sampled_from(
            [
                text,
                text[: draw(st.integers(0, len(text)))],
                f"prose {text} more prose",
                "```json\n" + text + "\n```",
                draw(model_text),
                "{" + draw(model_text),
                draw(model_text) + "}",
                "NaN",
                "[]",
                "{}",
            ]
        )
    )


@PURE_SETTINGS
@given(content=reply_texts(), items=st.frozensets(st.sampled_from(list(Item)), min_size=1))
def test_parse_reply_returns_the_contract_or_raises_bad_model_reply(content: str, items: frozenset[Item]) -> None:
    try:
        reply = parse_reply(content, items)
    except BadModelReply as exc:
        assert str(exc)
        return
    assert isinstance(reply, reply_model(items))


@PURE_SETTINGS
@given(
    new=model_text.map(clean_text),
    existing=model_text.map(clean_text),
    similarity=st.floats(-1.5, 1.5),
    threshold=st.floats(0, 1),
)
def test_dedup_decide_is_total(new: str, existing: str, similarity: float, threshold: float) -> None:
    assert isinstance(decide(new, existing, similarity, threshold).verdict, DedupVerdict)


def test_full_reply_round_trips_through_the_parser() -> None:
    """The strategies above are not vacuous: a well-formed reply parses and plans into adds and changes."""
    reply = facts_reply(
        {"op": "add_durable", "claim": "likes tea", "category": "preference"}, {"op": "strengthen", "fact": "D1"}
    )
    parsed = parse_reply(json.dumps(reply), ALL_ITEMS)
    assert parsed.facts is not None
    planned = plan_ops(parsed.facts.ops, SHOWN, NOW, LIMITS)
    assert [type(p) for p in planned] == [PlannedAdd, PlannedChange]


# --- found by the properties above: model text that reaches the database unchecked -------------------------

UNCLEAN_REPLIES: dict[str, dict[str, Any]] = {
    "NUL in success.reason": {"success": {"completed": True, "reason": "done\x00"}},
    "surrogate in success.reason": {"success": {"completed": True, "reason": "\ud800"}},
    "NUL in an unknown handle": {"facts": {"ops": [{"op": "strengthen", "fact": "D1\x00"}]}},
    "surrogate in an unknown handle": {"facts": {"ops": [{"op": "decay", "fact": "\udfff"}]}},
    "NUL in an invalid op name": {"facts": {"ops": [{"op": "add\x00"}]}},
    "surrogate in an invalid op name": {"facts": {"ops": [{"op": "\ud800"}]}},
    "NUL in the handle of an invalid op": {"facts": {"ops": [{"op": "add_durable", "fact": "x\x00"}]}},
    "valid_at before year 1 in UTC": {
        "facts": {
            "ops": [
                {
                    "op": "add_current",
                    "claim": "on a long trip",
                    "category": "going_through",
                    "valid_at": "0001-01-01T00:00:00+14:00",
                }
            ]
        }
    },
}


@pytest.mark.parametrize("case", list(UNCLEAN_REPLIES))
async def test_unclean_model_text_is_not_a_crash(service: Service, llm: ScriptedLLM, case: str) -> None:
    person = Person()
    await seed(service, person)
    reply = facts_reply() | UNCLEAN_REPLIES[case]
    llm.default = Reply(reply)
    code, response = await call(service, person.evaluate(f"unclean {new_id()}"))
    assert code == grpc.StatusCode.OK, response
