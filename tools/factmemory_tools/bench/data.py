"""Synthetic but realistic data for the benchmark: claims, chat lines, and bulk loading of facts with COPY."""

from __future__ import annotations

import itertools
import random
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import numpy as np

NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)

# (kind, category, template, fillers): every combination is one distinct, plausible claim.
TEMPLATES: tuple[tuple[str, str, str, dict[str, tuple[str, ...]]], ...] = (
    (
        "durable",
        "identity",
        "lives in {city}, {country}",
        {
            "city": ("Berlin", "Lisbon", "Porto", "Austin", "Osaka", "Lagos", "Quito", "Krakow", "Lyon", "Denver"),
            "country": ("near the old town", "with a flatmate", "in a small flat", "since last year", "alone"),
        },
    ),
    (
        "durable",
        "identity",
        "speaks {language} at home and {other} at work",
        {
            "language": ("Portuguese", "German", "Spanish", "Japanese", "Polish", "French", "Yoruba", "Italian"),
            "other": ("English", "German", "French", "Spanish", "Dutch"),
        },
    ),
    (
        "durable",
        "health",
        "allergic to {allergen}, reacts with {reaction}",
        {
            "allergen": ("penicillin", "peanuts", "cat hair", "pollen", "shellfish", "latex", "bee stings", "dust"),
            "reaction": ("hives", "a swollen throat", "sneezing fits", "a rash", "headaches"),
        },
    ),
    (
        "durable",
        "health",
        "has {condition} and manages it with {treatment}",
        {
            "condition": (
                "asthma",
                "type 1 diabetes",
                "migraines",
                "a flat cortisol curve",
                "lower back pain",
                "insomnia",
                "ADHD",
                "celiac disease",
            ),
            "treatment": ("medication", "a strict diet", "physiotherapy", "daily walks", "therapy"),
        },
    ),
    (
        "durable",
        "relationship",
        "has a {relation} named {name} who lives in {city}",
        {
            "relation": ("sister", "brother", "daughter", "son", "partner", "best friend", "cousin"),
            "name": ("Mia", "Jonas", "Ana", "Kenji", "Lea", "Tomas", "Ines", "Omar"),
            "city": ("Berlin", "Madrid", "Tokyo", "Chicago", "Lisbon"),
        },
    ),
    (
        "durable",
        "life_event",
        "moved to {city} in {year} for {reason}",
        {
            "city": ("Berlin", "Lisbon", "Toronto", "Seoul", "Melbourne", "Zurich", "Dublin", "Mexico City"),
            "year": ("2015", "2018", "2020", "2022", "2024"),
            "reason": ("a new job", "university", "family", "a fresh start"),
        },
    ),
    (
        "durable",
        "business_role",
        "works as a {job} at {company}",
        {
            "job": (
                "backend engineer",
                "product designer",
                "nurse",
                "teacher",
                "data analyst",
                "founder",
                "lawyer",
                "chef",
                "sales manager",
                "researcher",
            ),
            "company": (
                "a fintech startup",
                "a hospital",
                "a public school",
                "a logistics company",
                "Acme",
                "a design studio",
                "a university lab",
                "their own company",
            ),
        },
    ),
    (
        "durable",
        "preference",
        "prefers {pref} and dislikes {dislike}",
        {
            "pref": (
                "concise answers",
                "dark roast coffee",
                "morning runs",
                "jazz",
                "board games",
                "long hikes",
                "cooking at home",
                "sci-fi novels",
            ),
            "dislike": ("small talk", "crowded places", "spicy food", "early meetings", "loud music"),
        },
    ),
    (
        "durable",
        "goal",
        "wants to {goal} by {year}",
        {
            "goal": (
                "launch an indie product",
                "run a marathon",
                "learn Japanese",
                "buy a house",
                "change careers",
                "write a novel",
                "get a pilot licence",
                "pay off student loans",
            ),
            "year": ("2027", "2028", "2030", "the end of next year"),
        },
    ),
    (
        "current",
        "feeling",
        "feeling {feeling} about {topic}",
        {
            "feeling": ("anxious", "excited", "exhausted", "hopeful", "frustrated", "calm", "overwhelmed", "proud"),
            "topic": (
                "the product launch",
                "the move",
                "the exam",
                "work this week",
                "the family visit",
                "the new job",
                "the doctor's results",
            ),
        },
    ),
    (
        "current",
        "physical_state",
        "has {ailment} since {when}",
        {
            "ailment": ("a headache", "a sore knee", "a cold", "a stiff neck", "back pain", "a fever", "jet lag"),
            "when": ("this morning", "yesterday", "the weekend", "two days ago"),
        },
    ),
    (
        "current",
        "working_on",
        "working on {task} for {whom}",
        {
            "task": (
                "debugging the auth flow",
                "a migration to Postgres",
                "the quarterly report",
                "a grant proposal",
                "the onboarding redesign",
                "a conference talk",
                "their thesis",
                "a kitchen renovation",
            ),
            "whom": ("their team", "a client", "the board", "themselves", "a friend"),
        },
    ),
    (
        "current",
        "going_through",
        "going through {situation}",
        {
            "situation": (
                "a divorce",
                "a job search",
                "a house move",
                "a hard breakup",
                "burnout",
                "a visa process",
                "their father's illness",
                "a reorganisation at work",
            )
        },
    ),
    (
        "current",
        "schedule_context",
        "traveling to {city} {when} for {reason}",
        {
            "city": ("Tokyo", "Paris", "New York", "Nairobi", "Lima", "Oslo", "Hanoi", "Rome"),
            "when": ("next week", "on Friday", "this weekend", "at the end of the month"),
            "reason": ("a conference", "a wedding", "holidays", "a client meeting"),
        },
    ),
)

CHAT_LINES = (
    "Morning! Slept badly again, the neighbours had a party until three.",
    "I'm still debugging the auth flow, it keeps logging me out after ten minutes.",
    "Can you remind me what we said about the migration plan last week?",
    "My sister Mia is coming over on Saturday, I need to clean the flat.",
    "Honestly the launch is stressing me out more than I expected.",
    "I think I'll go for a run after work, my knee feels better today.",
    "Do you know any good ramen places in Berlin near Kreuzberg?",
    "The doctor said the allergy test came back positive for cat hair.",
    "We finally signed the lease! Moving in at the end of the month.",
    "Ugh, another meeting at 8am. Why do people do this.",
    "I want to learn Japanese before the trip to Tokyo next spring.",
    "Could you help me draft an email to my landlord about the heating?",
    "Work is calmer this week, so I'm catching up on my thesis.",
    "I keep forgetting to take my asthma meds in the morning.",
    "My manager wants the quarterly report by Thursday, no pressure.",
    "Thinking about switching careers, maybe into product design.",
    "Had a great dinner with Jonas yesterday, we talked for hours.",
    "The visa appointment got moved again, I'm so tired of this process.",
    "Can you summarise the article I sent you this morning?",
    "Feeling a bit lonely since the breakup, but it's getting better.",
    "I'm traveling to Paris on Friday for a client meeting.",
    "Remind me to call my dad tomorrow, he's not doing well.",
    "What's a good way to structure a grant proposal?",
    "Just got back from the marathon training, my legs are dead.",
)


# What a turn says of a time, added to the heavy person's messages in their own phase: each names a month or a year
# (language.date_spans), so a Provide also reads the person's facts of that time (a year holds half of them here).
TIME_PHRASES = ("back in 2025", "in March", "in June", "in 2024", "in January 2026")


@dataclass(frozen=True)
class Claim:
    kind: str
    category: str
    text: str


def claim_pool(size: int, seed: int = 7) -> list[Claim]:
    """About `size` distinct claims, spread evenly over the categories."""
    rng = random.Random(seed)
    per_template = max(1, size // len(TEMPLATES))
    pool: list[Claim] = []
    for kind, category, template, fillers in TEMPLATES:
        keys = list(fillers)
        combos = list(itertools.product(*(fillers[k] for k in keys)))
        rng.shuffle(combos)
        for combo in combos[:per_template]:
            pool.append(Claim(kind, category, template.format(**dict(zip(keys, combo, strict=True)))))
    return pool


def chat_lines(rng: random.Random, count: int) -> list[str]:
    return [rng.choice(CHAT_LINES) for _ in range(count)]


@dataclass
class Population:
    """Who holds how many facts: probe entities (queried), one heavy entity, and the spread."""

    agent_id: uuid.UUID
    probes: list[uuid.UUID]
    heavy: uuid.UUID
    loaded: dict[uuid.UUID, int] = field(default_factory=dict)

    def total(self) -> int:
        return sum(self.loaded.values())


@dataclass(frozen=True)
class Shape:
    """How a target size is split; the heavy entity holds min(heavy_max, size // 5) facts."""

    probe_count: int = 64
    probe_facts: int = 60
    heavy_max: int = 20_000
    spread_min: int = 20
    spread_max: int = 80

    def heavy_facts(self, size: int) -> int:
        return min(self.heavy_max, size // 5)


def plan_additions(pop: Population, shape: Shape, size: int, rng: random.Random) -> list[tuple[uuid.UUID, int]]:
    """(entity, facts to add) to grow the population to `size` facts."""
    adds: list[tuple[uuid.UUID, int]] = []
    for probe in pop.probes:
        if probe not in pop.loaded:
            adds.append((probe, shape.probe_facts))
    heavy_missing = shape.heavy_facts(size) - pop.loaded.get(pop.heavy, 0)
    if heavy_missing > 0:
        adds.append((pop.heavy, heavy_missing))
    remaining = size - pop.total() - sum(n for _, n in adds)
    while remaining > 0:
        n = min(remaining, rng.randint(shape.spread_min, shape.spread_max))
        adds.append((uuid.uuid4(), n))
        remaining -= n
    return adds


COPY_COLUMNS = (
    "id",
    "agent_id",
    "entity_id",
    "kind",
    "category",
    "claim",
    "confidence",
    "evidence_message_ids",
    "verification_status",
    "created_at",
    "last_confirmed_at",
    "valid_at",
    "embedding",
    "embedding_model",
)

NOISE_SIGMA = 0.025  # per dimension: a stored vector keeps cosine ~0.9 to the embedding of its claim text


def fact_rows(
    agent_id: uuid.UUID,
    entity_id: uuid.UUID,
    count: int,
    pool: Sequence[Claim],
    vectors: np.ndarray[Any, np.dtype[np.float32]],
    model: str,
    rng: np.random.Generator,
    balanced: bool,
) -> Iterator[tuple[Any, ...]]:
    """COPY records for one entity: claims from the pool, vectors = their real embedding plus a little noise."""
    durable = [i for i, c in enumerate(pool) if c.kind == "durable"]
    current = [i for i, c in enumerate(pool) if c.kind == "current"]
    is_durable = np.arange(count) % 2 == 0 if balanced else rng.random(count) < 0.65
    picks = np.where(is_durable, rng.choice(durable, count), rng.choice(current, count))
    noisy = vectors[picks] + rng.normal(0.0, NOISE_SIGMA, (count, vectors.shape[1])).astype(np.float32)
    noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
    ages = rng.uniform(0, 730, count)
    confidences = rng.uniform(0.5, 1.0, count)
    for i in range(count):
        claim = pool[int(picks[i])]
        created = NOW - timedelta(days=float(ages[i]))
        valid_at = NOW - timedelta(days=float(ages[i]) % 30) if claim.kind == "current" else None
        yield (
            uuid.uuid4(),
            agent_id,
            entity_id,
            claim.kind,
            claim.category,
            claim.text,
            round(float(confidences[i]), 2),
            [f"bench-{uuid.uuid4().hex[:12]}"],
            "self_reported",
            created,
            created,
            valid_at,
            noisy[i],
            model,
        )


@dataclass(frozen=True)
class LoadResult:
    rows: int
    copy_s: float


async def load(
    conn: asyncpg.Connection,
    pop: Population,
    adds: list[tuple[uuid.UUID, int]],
    pool: Sequence[Claim],
    vectors: np.ndarray[Any, np.dtype[np.float32]],
    model: str,
    seed: int,
    chunk: int = 20_000,
) -> LoadResult:
    """COPY the planned facts, then VACUUM (ANALYZE) the table."""
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    batch: list[tuple[Any, ...]] = []
    rows = 0
    for entity_id, count in adds:
        balanced = entity_id in pop.probes
        batch.extend(fact_rows(pop.agent_id, entity_id, count, pool, vectors, model, rng, balanced))
        pop.loaded[entity_id] = pop.loaded.get(entity_id, 0) + count
        if len(batch) >= chunk:
            await conn.copy_records_to_table("facts", records=batch, columns=COPY_COLUMNS)
            rows += len(batch)
            batch = []
    if batch:
        await conn.copy_records_to_table("facts", records=batch, columns=COPY_COLUMNS)
        rows += len(batch)
    copied = time.perf_counter()
    await conn.execute("VACUUM (ANALYZE) facts")
    return LoadResult(rows=rows, copy_s=copied - started)
