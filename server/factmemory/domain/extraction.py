"""The extraction reply the model must give (the LLM's side; the gRPC contract is proto/factmemory/v1): pydantic models
whose descriptions instruct the model, and the strict JSON schema sent."""

from __future__ import annotations

import copy
import functools
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from factmemory.domain.models import CURRENT_CATEGORIES, DURABLE_CATEGORIES, Item

if TYPE_CHECKING:  # to the type checker a category is a string; at run time only the table's values validate
    DurableCategory = str
    CurrentCategory = str
    AnyCategory = str
else:
    DurableCategory = Literal[DURABLE_CATEGORIES]
    CurrentCategory = Literal[CURRENT_CATEGORIES]
    AnyCategory = Literal[DURABLE_CATEGORIES + CURRENT_CATEGORIES]

CLAIM_HELP = "Short third-person claim without the person's name, e.g. 'lives in Berlin'."
HANDLE_HELP = "Handle of a known fact exactly as shown, e.g. 'D1' or 'C2'."
RECLASSIFY_HELP = "Only for a fact shown as uncategorized: its proper category."


class Lenient(BaseModel):
    """A part of the model's reply: fields the model adds beyond the contract are ignored, not an error."""

    model_config = ConfigDict(extra="ignore")


class StructuredField(Lenient):
    key: str
    value: str


class AddDurable(Lenient):
    op: Literal["add_durable"]
    claim: str = Field(description=CLAIM_HELP)
    category: DurableCategory
    structured_fields: list[StructuredField] = Field(default_factory=list)
    verification_status: Literal["self_reported", "confirmed"] | None = Field(
        default=None, description="'confirmed' only when an outside source (lab, document) confirmed it."
    )


class AddCurrent(Lenient):
    op: Literal["add_current"]
    claim: str = Field(description=CLAIM_HELP)
    category: CurrentCategory
    structured_fields: list[StructuredField] = Field(default_factory=list)
    valid_at: str | None = Field(default=None, description="ISO date the state began, if the user said so.")


class Strengthen(Lenient):
    op: Literal["strengthen"]
    fact: str = Field(description=HANDLE_HELP)
    reason: str | None = None
    # Names the proper category (and so the kind) of an imported, uncategorized fact; ignored otherwise.
    category: DurableCategory | CurrentCategory | None = Field(default=None, description=RECLASSIFY_HELP)


class Decay(Lenient):
    op: Literal["decay"]
    fact: str = Field(description=HANDLE_HELP)
    reason: str | None = None
    category: DurableCategory | CurrentCategory | None = Field(default=None, description=RECLASSIFY_HELP)


class Contradict(Lenient):
    op: Literal["contradict"]
    fact: str = Field(description=HANDLE_HELP)
    proposed_claim: str = Field(description="The claim that would replace it.")
    reason: str | None = None
    category: DurableCategory | CurrentCategory | None = Field(default=None, description=RECLASSIFY_HELP)


class Merge(Lenient):
    op: Literal["merge"]
    fact: str = Field(description="Handle of the fact to keep.")
    duplicate: str = Field(description="Handle of the fact that says the same; it is folded into `fact`.")
    reason: str | None = None


ModelOp = Annotated[AddDurable | AddCurrent | Strengthen | Decay | Contradict | Merge, Field(discriminator="op")]


class FactsReply(Lenient):
    ops: list[dict[str, Any]] = Field(description="Operations on facts; an empty list when nothing changes.")


class OpSchema(Lenient):
    # Advertised to the model instead of the five-way union: one flat object is a third of the schema's input
    # tokens. Each op is still parsed with ModelOp (ops.plan_op), so a field that does not belong is ignored
    # and a missing one rejects only that op.
    op: Literal["add_durable", "add_current", "strengthen", "decay", "contradict", "merge"]
    claim: str | None
    category: AnyCategory | None
    structured_fields: list[StructuredField] | None
    verification_status: Literal["self_reported", "confirmed"] | None
    valid_at: str | None = Field(description="add_current: ISO date it began")
    fact: str | None
    proposed_claim: str | None
    duplicate: str | None
    reason: str | None


class BatchOpSchema(OpSchema):
    # Only in a call over several messages (EvaluateBatch): the message the op comes from.
    message: str | None = Field(description="M1, M2, ...: the message it comes from")


SCOPE_HELP = "add: 'shared' for a fact about the community (not the speaker), else 'speaker'"


class SharedOpSchema(OpSchema):
    # Only when the message has a world (domain/shared.py): an add may be about the world, not the speaker.
    scope: Literal["speaker", "shared"] | None = Field(description=SCOPE_HELP)


class BatchSharedOpSchema(BatchOpSchema):
    scope: Literal["speaker", "shared"] | None = Field(description=SCOPE_HELP)


class FactsSchema(Lenient):
    ops: list[OpSchema]


class BatchFactsSchema(Lenient):
    ops: list[BatchOpSchema]


class SharedFactsSchema(Lenient):
    ops: list[SharedOpSchema]


class BatchSharedFactsSchema(Lenient):
    ops: list[BatchSharedOpSchema]


_FACTS_SCHEMAS: dict[tuple[bool, bool], type[Lenient]] = {
    (False, False): FactsSchema,
    (True, False): BatchFactsSchema,
    (False, True): SharedFactsSchema,
    (True, True): BatchSharedFactsSchema,
}


class RelationshipReply(Lenient):
    source_entity_id: str
    target_entity_id: str
    tags: list[str] = Field(default_factory=list)


class IdentityReply(Lenient):
    entity_id: str
    platform: str
    handle: str
    confidence: float


class SuccessReply(Lenient):
    completed: bool
    reason: str


_ITEM_FIELDS: dict[Item, tuple[Any, Any]] = {
    Item.FACTS: (FactsReply, FactsSchema),
    Item.RELATIONSHIPS: (list[RelationshipReply], list[RelationshipReply]),
    Item.IDENTITIES: (list[IdentityReply], list[IdentityReply]),
    Item.SUCCESS: (SuccessReply, SuccessReply),
}
ITEM_ORDER = (Item.FACTS, Item.RELATIONSHIPS, Item.IDENTITIES, Item.SUCCESS)


class ExtractionReply(Lenient):
    """One reply of the extraction call; an item the call did not ask for is None."""

    facts: FactsReply | None = None
    relationships: list[RelationshipReply] | None = None
    identities: list[IdentityReply] | None = None
    success: SuccessReply | None = None


@functools.cache
def reply_model(items: frozenset[Item]) -> type[ExtractionReply]:
    """The reply model for a set of active items: each active item required."""
    fields: dict[str, Any] = {i.value: (_ITEM_FIELDS[i][0], ...) for i in ITEM_ORDER if i in items}
    return create_model("ExtractionReply", __base__=ExtractionReply, **fields)


def validate_reply(data: dict[str, Any], items: frozenset[Item]) -> ExtractionReply:
    """The reply with its active items validated; whatever else the model sent is ignored."""
    active = {i.value for i in items}
    return reply_model(items).model_validate({k: v for k, v in data.items() if k in active})


@functools.cache
def _schema_model(items: frozenset[Item], batched: bool, shared: bool) -> type[BaseModel]:
    fields: dict[str, Any] = {i.value: (_ITEM_FIELDS[i][1], ...) for i in ITEM_ORDER if i in items}
    if Item.FACTS in items:
        fields[Item.FACTS.value] = (_FACTS_SCHEMAS[(batched, shared)], ...)
    return create_model("Extraction", __base__=Lenient, **fields)


def strict_schema(items: frozenset[Item], batched: bool = False, shared: bool = False) -> dict[str, Any]:
    """A JSON schema in the strict subset OpenAI accepts: every property required, no extras, no oneOf.
    `batched`: the call covers several messages and each fact op names its message. `shared`: the message has a
    world, and each op says whether it is about the speaker or shared."""
    return copy.deepcopy(_strict_schema(items, batched, shared))


@functools.cache
def _strict_schema(items: frozenset[Item], batched: bool, shared: bool) -> dict[str, Any]:
    # Built once per item set: generating it takes milliseconds of CPU on the event loop, on every turn.
    raw = _schema_model(items, batched, shared).model_json_schema()
    schema: dict[str, Any] = _strictify(_inline(raw, raw.get("$defs", {})))
    return schema


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """Every $ref replaced by its definition (each is used once or twice): no $defs block to spend tokens on."""
    if isinstance(node, list):
        return [_inline(n, defs) for n in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _inline(copy.deepcopy(defs[node["$ref"].rsplit("/", 1)[-1]]), defs)
    return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    """anyOf [X, null] written the short way: {"type": [X's type, "null"], ...} (an enum gains null)."""
    options = node["anyOf"]
    if len(options) != 2 or {"type": "null"} not in options:
        return node
    other = dict(next(o for o in options if o != {"type": "null"}))
    if not isinstance(other.get("type"), str):
        return node
    merged = {k: v for k, v in node.items() if k != "anyOf"} | other
    merged["type"] = [other["type"], "null"]
    if "enum" in merged:
        merged["enum"] = [*merged["enum"], None]
    return merged


def _strictify(node: Any) -> Any:
    if isinstance(node, list):
        return [_strictify(n) for n in node]
    if not isinstance(node, dict):
        return node
    node.pop("default", None)
    node.pop("discriminator", None)
    node.pop("title", None)
    if "properties" in node:
        node.pop("description", None)  # class docstrings are for readers of the code, not the model
    if "oneOf" in node:
        node["anyOf"] = node.pop("oneOf")
    if "anyOf" in node:
        node = _nullable(node)
    if "const" in node:
        node["enum"] = [node.pop("const")]
    if "properties" in node:
        node["required"] = list(node["properties"])
        node["additionalProperties"] = False
    return {key: _strictify(value) for key, value in node.items()}
