"""The LLM contract: pydantic models whose descriptions instruct the model, and the strict JSON schema sent."""

from __future__ import annotations

import copy
import functools
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from factmemory.domain.models import Item

DurableCategory = Literal["identity", "health", "relationship", "life_event", "business_role", "preference", "goal"]
CurrentCategory = Literal["feeling", "physical_state", "working_on", "going_through", "schedule_context"]

CLAIM_HELP = "Short third-person claim without the person's name, e.g. 'lives in Berlin'."
HANDLE_HELP = "Handle of a known fact exactly as shown, e.g. 'D1' or 'C2'."
RECLASSIFY_HELP = "Only for a fact shown as uncategorized: its proper category."


class Strict(BaseModel):
    model_config = ConfigDict(extra="ignore")


class StructuredField(Strict):
    key: str
    value: str


class AddDurable(Strict):
    op: Literal["add_durable"]
    claim: str = Field(description=CLAIM_HELP)
    category: DurableCategory
    structured_fields: list[StructuredField] = Field(default_factory=list)
    verification_status: Literal["self_reported", "confirmed"] | None = Field(
        default=None, description="'confirmed' only when an outside source (lab, document) confirmed it."
    )


class AddCurrent(Strict):
    op: Literal["add_current"]
    claim: str = Field(description=CLAIM_HELP)
    category: CurrentCategory
    structured_fields: list[StructuredField] = Field(default_factory=list)
    valid_at: str | None = Field(default=None, description="ISO date the state began, if the user said so.")


class Strengthen(Strict):
    op: Literal["strengthen"]
    fact: str = Field(description=HANDLE_HELP)
    reason: str | None = None
    # Names the proper category (and so the kind) of an imported, uncategorized fact; ignored otherwise.
    category: DurableCategory | CurrentCategory | None = Field(default=None, description=RECLASSIFY_HELP)


class Decay(Strict):
    op: Literal["decay"]
    fact: str = Field(description=HANDLE_HELP)
    reason: str | None = None
    category: DurableCategory | CurrentCategory | None = Field(default=None, description=RECLASSIFY_HELP)


class Contradict(Strict):
    op: Literal["contradict"]
    fact: str = Field(description=HANDLE_HELP)
    proposed_claim: str = Field(description="The claim that would replace it.")
    reason: str | None = None
    category: DurableCategory | CurrentCategory | None = Field(default=None, description=RECLASSIFY_HELP)


ModelOp = Annotated[AddDurable | AddCurrent | Strengthen | Decay | Contradict, Field(discriminator="op")]


class FactsReply(Strict):
    ops: list[dict[str, Any]] = Field(description="Operations on facts; an empty list when nothing changes.")


class OpSchema(Strict):
    # Advertised to the model instead of the five-way union: one flat object is a third of the schema's input
    # tokens. Each op is still parsed with ModelOp (ops.plan_op), so a field that does not belong is ignored
    # and a missing one rejects only that op.
    op: Literal["add_durable", "add_current", "strengthen", "decay", "contradict"]
    claim: str | None
    category: Literal[DurableCategory, CurrentCategory] | None
    structured_fields: list[StructuredField] | None
    verification_status: Literal["self_reported", "confirmed"] | None
    valid_at: str | None = Field(description="add_current: ISO date it began")
    fact: str | None = Field(description="a handle, e.g. D1")
    proposed_claim: str | None
    reason: str | None


class FactsSchema(Strict):
    ops: list[OpSchema]


class RelationshipReply(Strict):
    source_entity_id: str
    target_entity_id: str
    tags: list[str] = Field(default_factory=list)


class IdentityReply(Strict):
    entity_id: str
    platform: str
    handle: str
    confidence: float


class SuccessReply(Strict):
    completed: bool
    reason: str


_ITEM_FIELDS: dict[Item, tuple[Any, Any]] = {
    Item.FACTS: (FactsReply, FactsSchema),
    Item.RELATIONSHIPS: (list[RelationshipReply], list[RelationshipReply]),
    Item.IDENTITIES: (list[IdentityReply], list[IdentityReply]),
    Item.SUCCESS: (SuccessReply, SuccessReply),
}
ITEM_ORDER = (Item.FACTS, Item.RELATIONSHIPS, Item.IDENTITIES, Item.SUCCESS)


@functools.cache
def reply_model(items: frozenset[Item]) -> type[BaseModel]:
    """The model that parses one reply: one property per active item."""
    fields: dict[str, Any] = {i.value: (_ITEM_FIELDS[i][0], ...) for i in ITEM_ORDER if i in items}
    return create_model("ExtractionReply", __base__=Strict, **fields)


@functools.cache
def _schema_model(items: frozenset[Item]) -> type[BaseModel]:
    fields: dict[str, Any] = {i.value: (_ITEM_FIELDS[i][1], ...) for i in ITEM_ORDER if i in items}
    return create_model("Extraction", __base__=Strict, **fields)


def strict_schema(items: frozenset[Item]) -> dict[str, Any]:
    """A JSON schema in the strict subset OpenAI accepts: every property required, no extras, no oneOf."""
    return copy.deepcopy(_strict_schema(items))


@functools.cache
def _strict_schema(items: frozenset[Item]) -> dict[str, Any]:
    # Built once per item set: generating it takes milliseconds of CPU on the event loop, on every turn.
    raw = _schema_model(items).model_json_schema()
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
