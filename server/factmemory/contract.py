"""The LLM contract: pydantic models whose descriptions instruct the model, and the strict JSON schema sent."""

from __future__ import annotations

import copy
import functools
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from factmemory.models import Item

DurableCategory = Literal["identity", "health", "relationship", "life_event", "business_role", "preference", "goal"]
CurrentCategory = Literal["feeling", "physical_state", "working_on", "going_through", "schedule_context"]

CLAIM_HELP = "Short third-person claim without the person's name, e.g. 'lives in Berlin'."
HANDLE_HELP = "Handle of a known fact exactly as shown, e.g. 'D1' or 'C2'."


class Strict(BaseModel):
    model_config = ConfigDict(extra="ignore")


class StructuredField(Strict):
    key: str = Field(description="e.g. 'date', 'pattern', 'name', 'since'")
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


class Decay(Strict):
    op: Literal["decay"]
    fact: str = Field(description=HANDLE_HELP)
    reason: str | None = None


class Contradict(Strict):
    op: Literal["contradict"]
    fact: str = Field(description=HANDLE_HELP)
    proposed_claim: str = Field(description="The claim that would replace it.")
    reason: str


ModelOp = Annotated[AddDurable | AddCurrent | Strengthen | Decay | Contradict, Field(discriminator="op")]


class FactsReply(Strict):
    ops: list[dict[str, Any]] = Field(description="Operations on facts; an empty list when nothing changes.")


class FactsSchema(Strict):
    """The shape advertised to the model; ops are validated one by one so one bad op rejects only itself."""

    ops: list[ModelOp] = Field(description="Operations on facts; an empty list when nothing changes.")


class RelationshipReply(Strict):
    source_entity_id: str
    target_entity_id: str
    tags: list[str] = Field(default_factory=list, description="e.g. 'friend', 'colleague', 'family'")


class IdentityReply(Strict):
    entity_id: str
    platform: str = Field(description="e.g. 'twitter', 'github', 'email'")
    handle: str
    confidence: float = Field(description="0 to 1")


class SuccessReply(Strict):
    completed: bool = Field(description="Was the user's task completed this turn?")
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
    schema: dict[str, Any] = _strictify(copy.deepcopy(_schema_model(items).model_json_schema()))
    return schema


def _strictify(node: Any) -> Any:
    if isinstance(node, list):
        return [_strictify(n) for n in node]
    if not isinstance(node, dict):
        return node
    node.pop("default", None)
    node.pop("discriminator", None)
    node.pop("title", None)
    if "oneOf" in node:
        node["anyOf"] = node.pop("oneOf")
    if "const" in node:
        node["enum"] = [node.pop("const")]
    if "properties" in node:
        node["required"] = list(node["properties"])
        node["additionalProperties"] = False
    return {key: _strictify(value) for key, value in node.items()}
