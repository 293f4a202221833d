"""What each ranking misses on the hard set, question by question, sorted by cause.

For every evidence fact a ranking did not show, the first cause that applies:
* second_fact: a question needing two facts, where the other one was shown and this one shares no content word
  with the question (it can only be reached through the first);
* no_shared_words: no content word (English stem, the person's own name left out) in common with the question;
* other_section: Provide only: its own kind's six were full of facts scoring lower than facts shown in the other
  kind's section (a free top-12 by score would have shown it);
* near_duplicates: at least two pairs of the facts shown above it in its section are near-duplicates (half of
  their words in common), so slots went to repeats of one topic;
* below_cut: it ranked just below the cut (Provide: 7th-12th of its kind in a deeper ranking; cosine: 13th-24th);
* other: anything else (far down, or not among the candidates at all).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from factmemory.public import ChatMessage, Deps, ProvideInput, provide, word_overlap

CAUSES = ("second_fact", "no_shared_words", "other_section", "near_duplicates", "below_cut", "other")
LIMIT = 6
DEEP = 12  # per kind, for "just below the cut"
STEMS = "SELECT coalesce(array_agg(lexeme), '{}') FROM unnest(to_tsvector('english', $1)) AS t"


@dataclass
class Misses:
    """part -> ranking -> cause -> count, and the questions behind each count (for the docs)."""

    counts: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)
    evidence: dict[str, int] = field(default_factory=dict)

    def _add(self, part: str, ranking: str, cause: str, text: str) -> None:
        by = self.counts.setdefault(part, {}).setdefault(ranking, dict.fromkeys(CAUSES, 0))
        by[cause] += 1
        examples = self.examples.setdefault(f"{ranking}/{cause}", [])
        if len(examples) < 6:
            examples.append(text)

    async def study(
        self,
        deps: Deps,
        conn: Any,
        agent: str,
        person: dict[str, Any],
        question: dict[str, Any],
        entity: str,
        evidence: Sequence[tuple[str, str]],
        ranked: Sequence[str],
        sections: dict[str, Sequence[str]],
        cosine: Sequence[str],
    ) -> None:
        part = person.get("part", "all")
        self.evidence[part] = self.evidence.get(part, 0) + len(evidence)
        missing = [(e, k) for e, k in evidence if e not in ranked]
        missing_cosine = [(e, k) for e, k in evidence if e not in cosine[: 2 * LIMIT]]
        if not missing and not missing_cosine:
            return
        own = {w for w in await _stems(conn, person["name"])}
        asked = set(await _stems(conn, question["text"])) - own
        claims = await _claims(conn, [e for e, _ in evidence])
        deep = await _deep(deps, agent, question, entity)
        for e, kind in missing:
            cause = _cause(e, kind, evidence, ranked, claims, asked - own, set(await _stems(conn, claims[e])) - own)
            if cause is None:
                cause = _provide_cause(e, kind, deep, claims[e])
            self._add(part, "provide", cause, f"{question['text']} -> {claims[e]}")
        for e, kind in missing_cosine:
            cause = _cause(
                e, kind, evidence, cosine[: 2 * LIMIT], claims, asked, set(await _stems(conn, claims[e])) - own
            )
            if cause is None:
                cause = "below_cut" if e in cosine else "other"
            self._add(part, "cosine", cause, f"{question['text']} -> {claims[e]}")

    def summary(self) -> dict[str, Any]:
        return {"counts": self.counts, "evidence": self.evidence, "examples": self.examples}


def _cause(
    e: str,
    kind: str,
    evidence: Sequence[tuple[str, str]],
    shown: Sequence[str],
    claims: dict[str, str],
    asked: set[str],
    stems: set[str],
) -> str | None:
    if not asked & stems:
        others_shown = any(o in shown for o, _ in evidence if o != e)
        return "second_fact" if len(evidence) > 1 and others_shown else "no_shared_words"
    return None


def _provide_cause(e: str, kind: str, deep: dict[str, list[tuple[str, str, float]]], claim: str) -> str:
    """deep: kind -> [(id, claim, score)] best first, DEEP per kind."""
    mine = deep[kind]
    other = deep["current" if kind == "durable" else "durable"][:LIMIT]
    position = next((n for n, (i, _, _) in enumerate(mine) if i == e), None)
    if position is None:
        return "other"
    score = mine[position][2]
    if other and score > min(s for _, _, s in other):
        return "other_section"
    above = [c for _, c, _ in mine[:position]]
    pairs = sum(
        1 for a in range(len(above)) for b in range(a + 1, len(above)) if word_overlap(above[a], above[b]) >= 0.5
    )
    if pairs >= 2:
        return "near_duplicates"
    return "below_cut" if position < DEEP else "other"


async def _stems(conn: Any, text: str) -> list[str]:
    return list(await conn.fetchval(STEMS, text))


async def _claims(conn: Any, ids: Sequence[str]) -> dict[str, str]:
    rows = await conn.fetch("SELECT id, claim FROM facts WHERE id = ANY($1::uuid[])", [uuid.UUID(i) for i in ids])
    return {str(r["id"]): r["claim"] for r in rows}


async def _deep(
    deps: Deps, agent: str, question: dict[str, Any], entity: str
) -> dict[str, list[tuple[str, str, float]]]:
    """Provide's own ranking, DEEP facts per kind."""
    asked = datetime.fromisoformat(question["asked_at"])
    request = ProvideInput(
        agent_id=uuid.UUID(agent),
        entity_id=uuid.UUID(entity),
        room_id=None,
        now=asked,
        recent_messages=(ChatMessage(id=question["id"], text=question["text"], created_at=asked),),
        durable_limit=DEEP,
        current_limit=DEEP,
    )
    result = await provide(deps, request)
    return {
        "durable": [(str(s.fact.id), s.fact.claim, s.score) for s in result.durable],
        "current": [(str(s.fact.id), s.fact.claim, s.score) for s in result.current],
    }


def misses_table(summary: dict[str, Any]) -> str:
    lines = [
        "| part | ranking | evidence facts | missed | " + " | ".join(CAUSES) + " |",
        "|---|---|---:|---:|" + "---:|" * len(CAUSES),
    ]
    for part, by in sorted(summary["counts"].items()):
        for ranking, counts in sorted(by.items()):
            total = sum(counts.values())
            cells = " | ".join(str(counts[c]) for c in CAUSES)
            lines.append(f"| {part} | {ranking} | {summary['evidence'][part]} | {total} | {cells} |")
    return "\n".join(lines)
