"""A shared subject's words of deleted messages (their author forgotten, or the messages deleted), erased past the
facts themselves: the review items the messages raised (open or closed) and their pairs, the history entries they
made and the whole history of the facts that went with them, the copies in other people's stored evaluation results,
and the open agent-model tickets whose prompt showed a fact that went (docs/retention.md, "Shared facts")."""

from __future__ import annotations

import json
from collections.abc import Sequence
from uuid import UUID

import asyncpg

from factmemory.domain.forget_messages import Erased, scrubbed

# The review items the messages raised in the subject, whatever their status, with their texts (which go with them).
DELETE_RAISED_CANDIDATES = """
DELETE FROM fact_candidates WHERE agent_id = $1 AND entity_id = $2 AND evidence_message_id = ANY ($3::text[])
RETURNING proposed_claim
"""
DELETE_RAISED_PAIRS = """
DELETE FROM possible_duplicates WHERE agent_id = $1 AND entity_id = $2 AND evidence_message_id = ANY ($3::text[])
"""
# The entries the messages made ('message:<id>'), and every entry of the facts that went with them (their claims were
# the messages' words; the deletion's own entry included).
DELETE_HISTORY = """
DELETE FROM fact_history
 WHERE agent_id = $1 AND entity_id = $2 AND (actor = ANY ($3::text[]) OR fact_id = ANY ($4::uuid[]))
RETURNING fact_id, before ->> 'claim' AS before, after ->> 'claim' AS after
"""
# Other people's stored results that hold one of the messages or facts (as text: ids in evidence lists, fact ids).
RESULTS_HOLDING = """
SELECT entity_id, message_id, result FROM evaluations
 WHERE agent_id = $1 AND result IS NOT NULL
   AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS m WHERE strpos(result::text, m) > 0)
"""
SET_RESULT = "UPDATE evaluations SET result = $4::jsonb WHERE agent_id = $1 AND entity_id = $2 AND message_id = $3"
# Open tickets of anyone of the agent whose prompt showed a fact that went or an erased text (a proposed claim beside
# a fact): their content goes (presenting one is refused by name).
VOID_TICKETS_SHOWING = """
UPDATE evaluation_tickets SET body = NULL
 WHERE agent_id = $1 AND body IS NOT NULL AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS f WHERE strpos(body, f) > 0)
"""


async def erase(
    conn: asyncpg.Connection, agent_id: UUID, subject_id: UUID, message_ids: Sequence[str], deleted: Sequence[UUID]
) -> int:
    """Erases the words of `message_ids` from the subject (whose facts `deleted` went with them) and from everyone's
    stored results and open tickets; returns how many review items were deleted."""
    ids = sorted(set(message_ids))
    proposed = await conn.fetch(DELETE_RAISED_CANDIDATES, agent_id, subject_id, ids)
    await conn.execute(DELETE_RAISED_PAIRS, agent_id, subject_id, ids)
    actors = [f"message:{m}" for m in ids]
    history = await conn.fetch(DELETE_HISTORY, agent_id, subject_id, actors, list(deleted))
    gone = [r for r in history if r["fact_id"] in set(deleted)]  # a kept fact's claim is still the community's
    texts = {r["proposed_claim"] for r in proposed} | {t for r in gone for t in (r["before"], r["after"]) if t}
    erased = Erased(frozenset(ids), frozenset(str(f) for f in deleted), frozenset(texts))
    needles = [json.dumps(m) for m in ids] + [str(f) for f in deleted]
    for row in await conn.fetch(RESULTS_HOLDING, agent_id, needles):
        clean = scrubbed(row["result"], erased)
        if clean != row["result"]:
            await conn.execute(SET_RESULT, agent_id, row["entity_id"], row["message_id"], clean)
    shown = [str(f) for f in deleted] + [json.dumps(t, ensure_ascii=False)[1:-1] for t in texts]
    if shown:
        await conn.execute(VOID_TICKETS_SHOWING, agent_id, shown)
    return len(proposed)
