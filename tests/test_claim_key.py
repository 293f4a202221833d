"""The exact-duplicate key (migration 0003's factmemory_claim_key) cuts a claim into the language layer's words.

The key stays in SQL (docs/dedup.md, "One language layer"): a row trigger sets it on every write of a claim, whoever
writes it, and a unique index is built on it. It does not stem on purpose: two claims with one key are merged
without the rule's checks, so the key may only equate claims whose words are the same. This test holds its words to
the language layer's tokens, NFKC-normalised, so the key and the layer cannot drift apart. One difference is kept
and shown: "_" is a word character to the layer (\\w) and a separator to the key ([^[:alnum:]]).
"""

from __future__ import annotations

import csv
import unicodedata
from pathlib import Path

import asyncpg

from factmemory.adapters.postgres.deployment.database import migrate
from factmemory.domain.language import tokens

DATA = Path(__file__).parent / "data"
DIMENSIONS = 8
CLAIMS = (
    "Lives in Zürich, works at ÉCOLE 42!",
    "doesn't eat meat (since 2019)",
    "  Caroline's   room-mate  ",
    "ﬁle ①: ＦＵＬＬ-width",  # NFKC: "file 1: FULL-width"
    "...",
    "3.5 kg / 10:30am",
    "snake_case name",
)


def claims() -> list[str]:
    found = list(CLAIMS)
    for path in sorted(DATA.glob("dedup-*.tsv")):
        with path.open(encoding="utf-8") as f:
            found += [cell for row in csv.reader(f, delimiter="\t") for cell in row[:2] if not cell.startswith("#")]
    return found


async def test_the_exact_key_is_the_claims_language_layer_tokens(empty_database: str) -> None:
    await migrate(empty_database, DIMENSIONS)
    conn = await asyncpg.connect(empty_database)
    try:
        texts = claims()
        keys = await conn.fetch("SELECT factmemory_claim_key(c) AS key FROM unnest($1::text[]) AS c", texts)
    finally:
        await conn.close()
    assert len(texts) > 100
    for text, row in zip(texts, keys, strict=True):
        words = tokens(unicodedata.normalize("NFKC", text).replace("_", " "))
        assert row["key"] == (" ".join(words) or None), text
