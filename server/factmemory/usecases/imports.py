"""Imports. Legacy: facts from elsewhere stored as durable.uncategorized, embedded, once per original id; the model
sees them like any other fact, and the first time it strengthens, decays or contradicts one it names its proper
category and the fact is reclassified then (evaluate.py). Restore: FactMemory's own export stored back, ids kept
(domain/backup.py)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from uuid import UUID

from factmemory.domain.agents import agent_name
from factmemory.domain.backup import PersonBackup, Restored, forgotten_since, ledger_id, moved
from factmemory.domain.confidence import ADD_CONFIDENCE
from factmemory.domain.errors import InvalidInput
from factmemory.domain.models import UNCATEGORIZED, ImportReport, Kind, LegacyFact, Verification
from factmemory.domain.new_fact import new_fact
from factmemory.domain.resolutions import import_actor
from factmemory.domain.shared import refuse_subject
from factmemory.domain.vectors import Vector
from factmemory.usecases.deps import Deps, utc_now

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


@dataclass
class RestoreReport:
    """What a restore of a FactMemory export did, for the one line the command prints."""

    people: int = 0
    facts: int = 0
    already_there: int = 0
    candidates: int = 0
    relationships: int = 0
    identities: int = 0
    evaluations: int = 0
    # Not restored: forgotten by the agent since the export was written (names, or ids when nameless) ...
    forgotten_since: list[str] = field(default_factory=list)
    # ... or forgotten while this restore ran.
    forgotten_during: int = 0

    def line(self, read: int, seconds: float) -> str:
        """The one line the command prints."""
        people = "person" if self.people == 1 else "people"
        out = (
            f"restored {self.people} {people} of {read}: {self.facts} facts ({self.already_there} already there), "
            f"{self.candidates} review items, {self.relationships} relationships, {self.identities} identities, "
            f"{self.evaluations} evaluations in {seconds} s"
        )
        if self.forgotten_since:
            names = ", ".join(self.forgotten_since[:5]) + (" ..." if len(self.forgotten_since) > 5 else "")
            out += f"; not restored, forgotten since the export: {names} (--restore-forgotten restores them on purpose)"
        if self.forgotten_during:
            out += f"; {self.forgotten_during} forgotten while the import ran, not stored"
        return out


async def restore_backup(
    deps: Deps, people: Sequence[PersonBackup], into: UUID | None, source: str, restore_forgotten: bool = False
) -> RestoreReport:
    """Stores each person of an export back (into `into`, else the agent it came from); a person the agent forgot
    after the export was written is left out unless restore_forgotten; a second restore stores nothing again."""
    report = RestoreReport()
    named: set[UUID] = set()
    for given in people:
        backup = moved(given, into) if into is not None else given
        if backup.agent_id not in named:
            named.add(backup.agent_id)
            await _name_agent(deps, backup)
        epoch = await deps.bulk_store.forget_epoch(backup.agent_id, backup.entity_id)
        if forgotten_since(epoch, backup) and not restore_forgotten:
            report.forgotten_since.append(backup.name or str(backup.entity_id))
            continue
        done = await _restore_one(deps, backup, import_actor(source), epoch, restore_forgotten)
        if done is None:
            report.forgotten_during += 1
            continue
        report.people += 1
        report.facts += done.facts
        report.already_there += len(backup.facts) - done.facts
        report.candidates += done.candidates
        report.relationships += done.relationships
        report.identities += done.identities
        report.evaluations += done.evaluations
    return report


async def _name_agent(deps: Deps, backup: PersonBackup) -> None:
    """A database that has not met the agent learns the name it had registered where it was exported (so the page
    and the command line take it); a name the agent has here is kept."""
    if not backup.agent_name or deps.agents is None or await deps.agents.agent_name(backup.agent_id):
        return
    try:
        name = agent_name(backup.agent_name, deps.tuning.limits.max_name_chars)
    except InvalidInput:
        return  # a name this service would refuse: the agent stays known by its id
    await deps.agents.register(backup.agent_id, name, utc_now())


async def _restore_one(
    deps: Deps, backup: PersonBackup, actor: str, epoch: int, restore_forgotten: bool
) -> Restored | None:
    ids = [ledger_id(f.id) for f in backup.facts]
    known = set() if restore_forgotten else await deps.bulk_store.imported_ids(backup.agent_id, backup.entity_id, ids)
    fresh = [f for f in backup.facts if ledger_id(f.id) not in known]  # nothing is embedded twice
    vectors: dict[UUID, Vector] = {}
    for start in range(0, len(fresh), BATCH):
        batch = fresh[start : start + BATCH]
        vectors.update(zip([f.id for f in batch], await deps.embedder.passages([f.claim for f in batch]), strict=True))
    return await deps.bulk_store.restore(
        backup, vectors, deps.embedder.model_name, actor, epoch, ignore_ledger=restore_forgotten
    )
