"""Legacy import: facts from elsewhere stored as durable.uncategorized, embedded, once per original id.

The model sees them like any other fact; the first time it strengthens, decays or contradicts one it names its
proper category and the fact is reclassified then (evaluate.py)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from uuid import UUID

from factmemory.domain.confidence import ADD_CONFIDENCE
from factmemory.domain.models import UNCATEGORIZED, ImportReport, Kind, LegacyFact, Verification
from factmemory.domain.new_fact import new_fact
from factmemory.domain.resolutions import import_actor
from factmemory.domain.shared import refuse_subject
from factmemory.usecases.deps import Deps

BATCH = 256


async def import_facts(deps: Deps, facts: Sequence[LegacyFact], source: str, skipped: int = 0) -> ImportReport:
    """Embeds and stores the facts per (agent, entity), in batches; a repeated import adds nothing."""
    actor = import_actor(source)
    imported = forgotten = 0
    ordered = sorted(facts, key=lambda f: (f.agent_id, f.entity_id, f.created_at, f.source_id))
    await _refuse_subjects(deps, ordered)
    for (agent_id, entity_id), group in itertools.groupby(ordered, key=lambda f: (f.agent_id, f.entity_id)):
        items = list(group)
        # Read before anything of the person is stored, as Evaluate reads it: a ForgetEntity that completes while
        # the import runs makes every later batch of the person store nothing (each checks under the lock).
        epoch = await deps.bulk_store.forget_epoch(agent_id, entity_id)
        known = await deps.bulk_store.imported_ids(agent_id, entity_id, [f.source_id for f in items])
        fresh = [f for f in items if f.source_id not in known]  # nothing is embedded twice
        for start in range(0, len(fresh), BATCH):
            stored = await _store(deps, agent_id, entity_id, fresh[start : start + BATCH], actor, epoch)
            if stored is None:  # forgotten meanwhile: nothing more of this person
                forgotten += len(fresh) - start
                break
            imported += stored
    return ImportReport(
        read=len(facts) + skipped,
        imported=imported,
        already_imported=len(facts) - imported - forgotten,
        skipped=skipped,
        forgotten=forgotten,
    )


async def _refuse_subjects(deps: Deps, facts: Sequence[LegacyFact]) -> None:
    """InvalidInput, before anything is stored, when a row names a shared subject where a person is expected."""
    for agent_id, group in itertools.groupby(facts, key=lambda f: f.agent_id):
        ids = sorted({f.entity_id for f in group})
        recorded = await deps.bulk_store.shared_among(agent_id, ids)
        for entity_id in ids:
            refuse_subject(entity_id, agent_id, None, recorded)


async def _store(
    deps: Deps, agent_id: UUID, entity_id: UUID, batch: Sequence[LegacyFact], actor: str, epoch: int
) -> int | None:
    vectors = await deps.embedder.passages([f.text for f in batch])
    new = [
        new_fact(
            Kind.DURABLE,
            UNCATEGORIZED,
            f.text,
            confidence=ADD_CONFIDENCE,
            evidence=f"import:{f.source_id}",
            verification=Verification.SELF_REPORTED,
            at=f.created_at,
            embedding=vector,
            embedding_model=deps.embedder.model_name,
            import_source_id=f.source_id,
        )
        for f, vector in zip(batch, vectors, strict=True)
    ]
    return await deps.bulk_store.import_facts(agent_id, entity_id, new, actor, epoch)
