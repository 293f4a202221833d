"""Provide's candidate pool in one statement: the person's facts nearest the turn by vector (both kinds), plus the
facts holding one of the turn's rarer terms and the nearest facts of the times the turn names, each with its cosine
and its content terms; and the person's term statistics for BM25 (domain/bm25.py): their live facts and, per term
of the turn, how many contain it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import asyncpg

from factmemory.adapters.postgres.read.fact_memo import FactMemo, Held
from factmemory.adapters.postgres.rows import DISPUTED_BY, FACT_COLUMNS
from factmemory.domain.bm25 import Stats
from factmemory.ports import Pool, Similar

# $1 agent, $2 entity (the person), $3 the turn's vector, $4 how many nearest facts, $5 the turn's content terms
# (the language layer's, as stored in facts.lexemes), $6 a term in at most this many of the person's facts brings
# the facts holding it into the pool, at most $7 of them, $8 and $9 the starts and ends of the times the turn names
# (language.date_spans): the $7 facts nearest the turn whose time (valid_at, else created_at) falls in one of them
# join the pool too. $10: LEXEME_SCAN_MAX_FACTS.
#
# worded (the facts holding a rare term) by the cheaper of two plans, chosen at run time by the person's size: a
# person with at most $10 facts has their range read and filtered (the terms' GIN index covers every person, and a
# term rare for this person can be in thousands of other people's facts: 3.3 ms of a 4.1 ms statement at 100k
# facts, EXPLAIN of 2026-11-26); a larger person's through that index. The first filter is written so that the
# index cannot serve it.
#
# nearest: the exact order of the facts' search vectors by inner product with the turn's unit vector (migration 0072:
# the mean of the claim's unit vector and its source message's, in half precision, so the similarity is the mean of
# the two cosines; the claim's cosine for a fact without one), an index-only scan of facts_search_half_idx.
#
# The candidates' rows are then read by key, one lateral lookup each (OFFSET 0 keeps it apart): as a join on the
# person's rows, a plan that misjudged the person's size read all of them, once per candidate (a Citus worker whose
# shard had no statistics yet: 141 ms for a person of 20,000 facts against 14 on one PostgreSQL, 2026-11-27 log).
#
# pool: the candidates, each nearest or dated fact with the distance its scan computed. The search vector is stored
# out of line (TOAST: a fact's row is ~3.6 kB), so computing the similarity again from each row read a TOAST entry
# per fact: only the rare-term facts not among the nearest or dated pay that. Same values (the same expression on the
# same vectors); 529 -> 321 buffers and 0.50 -> 0.33 ms execution (min of 100) for a person of 60 facts, 2026-11-26
# log.
NEAREST = """nearest AS MATERIALIZED (
    SELECT id AS near_id, search_half <#> (SELECT $3::vector::halfvec) AS distance FROM facts
     WHERE agent_id = $1 AND entity_id = $2 AND archived_at IS NULL
     ORDER BY distance, id
     LIMIT $4),
"""

# The same from an in-process copy of the person's search vectors (vector_cache.py), as of the database snapshot $14:
# $13 the ids the copy found nearest, with $15 their distances as this statement would compute them (the copy
# computes them to the bit; it is used only where a check against the database's at build time says so,
# vector_cache.CHECK). `changed`: the person's rows written since $14 (by a transaction at or past its xmax or in
# progress in it: UNSEEN_AFTER, UNSEEN_DURING), whose vectors the copy does not hold: each live one is a candidate
# with its distance computed here (a proposed one too: its vector may be new), and all of them go back to the copy
# (COPY_CHECKS). So the copy needs no read of its own before it proposes, and the nearest $4 of the proposed and
# changed facts are the database's nearest whenever no other fact can be nearer (vector_cache._exact).
# `nearest` reads the candidates' rows in distance order, each by its key (a lateral subquery kept apart by OFFSET 0:
# as a join, the generic plan that a prepared statement switches to after five calls estimates every person at the
# table's average size and read the whole person's range, 13 ms for a person of 20,000 facts; EXPLAIN of
# 2026-11-27), and stops at the $4-th live one: a fact deleted since the copy's snapshot is skipped. Those rows are
# the statement's answer (COPY_ROWS): each nearest fact's row is read once.
NEAREST_OF_IDS = """changed AS MATERIALIZED (
    SELECT id, archived_at, search_half, at FROM ({after} UNION ALL {during}) AS unseen),
proposed AS MATERIALIZED (
    SELECT d.fact_id, d.distance FROM unnest($13::uuid[], $15::float8[]) AS d(fact_id, distance)
     WHERE d.fact_id <> ALL (ARRAY(SELECT id FROM changed))
    UNION ALL
    SELECT id, search_half <#> (SELECT $3::vector::halfvec) FROM changed WHERE archived_at IS NULL),
nearest AS MATERIALIZED (
    SELECT p.fact_id AS near_id, p.distance, {fact_columns}, lexemes, version, known
      FROM (SELECT fact_id, distance FROM proposed ORDER BY distance, fact_id) AS p
     CROSS JOIN LATERAL (SELECT *, {versioned} FROM facts
                          WHERE agent_id = $1 AND id = p.fact_id AND entity_id = $2 AND archived_at IS NULL
                         OFFSET 0) AS f
     ORDER BY p.distance, p.fact_id
     LIMIT $4),
"""
# The person's rows written by a transaction that the snapshot {snapshot} did not see, with the columns the copy
# needs. Those transactions are exactly the ones at or past the snapshot's xmax and the ones it names in progress
# (xip): two ranges of facts_changed_tx_idx. Not `>= xmin`: one long transaction anywhere (a pg_dump, a report) holds
# xmin back, and every row written since would be read again at each Provide (2026-11-27 log). The in-progress ones
# are looked up one transaction at a time (a lateral subquery kept apart by OFFSET 0): written as
# `changed_tx = ANY (...)`, the generic plan that a prepared statement switches to after five calls estimates every
# person at the table's average size and read the whole person's range with a filter instead (14 ms for a person of
# 20,000 facts, 0.2 ms this way; EXPLAIN of 2026-11-27).
UNSEEN_AFTER = """SELECT id, archived_at, search_half, {at} AS at FROM facts
     WHERE agent_id = $1 AND entity_id = $2 AND changed_tx >= pg_snapshot_xmax({snapshot}::text::pg_snapshot)"""
UNSEEN_DURING = """SELECT f.id, f.archived_at, f.search_half, f.at
      FROM pg_snapshot_xip({snapshot}::text::pg_snapshot) AS x(tx)
     CROSS JOIN LATERAL (SELECT id, archived_at, search_half, {at} AS at FROM facts
                          WHERE agent_id = $1 AND entity_id = $2 AND changed_tx = x.tx OFFSET 0) AS f"""
# A fact's time as the turn's named times are compared with it, in microseconds since the epoch (exact: EXTRACT
# gives a numeric), as the copy keeps it; a time of +-infinity (only SQL by hand writes one) as the largest or
# smallest integer, which no named time holds either.
AT_MICROS = """CASE WHEN isfinite(coalesce(valid_at, created_at))
            THEN (EXTRACT(EPOCH FROM coalesce(valid_at, created_at)) * 1000000)::int8
            WHEN coalesce(valid_at, created_at) > 'epoch' THEN 9223372036854775807
            ELSE -9223372036854775808 END"""
# What the statement says once, not of a row, is sent on its first row only (`CASE WHEN row_number() OVER () = 1`,
# NULL on the others): the person's term statistics below, and the copy's checks. On each row they cost the client
# their decoding 60 times: 0.90 against 1.07 ms p50 for the 20,000-fact person's copy statement alone (300 calls
# each, alternating, 2026-11-27 speed7 log).
# For the copy: whether each row is one of the nearest (`near`), and, on the first row: which proposed facts are
# gone (those before the last nearest one in distance order, or all when fewer than $4 were found, that were not
# found live: deleted, archived or another person's now), the forget epoch, this statement's snapshot, the changed
# rows (their ids, vectors as pgvector sends a halfvec, its 4-byte header cut off, NULL when the fact is no longer
# live, and times, in the same order), and how many facts of the named times were found and the last one's distance.
COPY_CHECKS = """,
       near,
       CASE WHEN row_number() OVER () = 1
            THEN ARRAY(SELECT fact_id FROM proposed
                        WHERE (SELECT count(*) FROM nearest) < $4
                           OR (distance, fact_id) <= (SELECT distance, near_id FROM nearest
                                                       ORDER BY distance DESC, near_id DESC LIMIT 1)
                       EXCEPT SELECT near_id FROM nearest) END AS vanished,
       CASE WHEN row_number() OVER () = 1
            THEN coalesce((SELECT epoch FROM forget_epochs WHERE agent_id = $1 AND entity_id = $2), 0) END AS epoch,
       CASE WHEN row_number() OVER () = 1 THEN pg_current_snapshot()::text END AS snapshot,
       CASE WHEN row_number() OVER () = 1 THEN ARRAY(SELECT id FROM changed ORDER BY id) END AS changed_ids,
       CASE WHEN row_number() OVER () = 1
            THEN ARRAY(SELECT CASE WHEN archived_at IS NULL THEN substr(halfvec_send(search_half), 5) END
                         FROM changed ORDER BY id) END AS changed_vectors,
       CASE WHEN row_number() OVER () = 1 THEN ARRAY(SELECT at FROM changed ORDER BY id) END AS changed_times,
       CASE WHEN row_number() OVER () = 1 THEN (SELECT count(*) FROM dated) END AS dated_count,
       CASE WHEN row_number() OVER () = 1 THEN (SELECT max(distance) FROM dated) END AS dated_last"""
# The rows of the statement: each pool fact's row, read by its key (a lateral subquery kept apart by OFFSET 0, as
# above), with the distance the nearest scan computed.
ROWS = """pool CROSS JOIN LATERAL (SELECT *, {versioned} FROM facts
                                 WHERE agent_id = $1 AND id = pool.pool_id AND entity_id = $2 OFFSET 0) AS facts"""
# The same for the copy: the nearest facts' rows as `nearest` read them, and the rare-term and dated facts not among
# them read by key.
COPY_ROWS = """(SELECT distance, {fact_columns}, lexemes, version, known, NULL::halfvec AS search_half, true AS near
          FROM nearest
        UNION ALL
        SELECT pool.distance, {fact_columns}, lexemes, version, known, search_half, false
          FROM pool CROSS JOIN LATERAL (SELECT *, {versioned} FROM facts
                                         WHERE agent_id = $1 AND id = pool.pool_id AND entity_id = $2 OFFSET 0) AS f
         WHERE NOT pool.near) AS facts"""

# Whether a fact's time (valid_at, else created_at) falls in one of the times the turn names ($8 starts, $9 ends).
IN_NAMED_TIMES = """EXISTS (SELECT 1 FROM unnest($8::timestamptz[], $9::timestamptz[]) AS s(starts, ends)
                    WHERE coalesce(valid_at, created_at) >= s.starts AND coalesce(valid_at, created_at) < s.ends)"""
# dated: the $7 facts nearest the turn among those of the times it names.
DATED = f"""dated AS MATERIALIZED (
    SELECT id, search_half <#> (SELECT $3::vector::halfvec) AS distance FROM facts
     WHERE agent_id = $1 AND entity_id = $2 AND archived_at IS NULL AND cardinality($8::timestamptz[]) > 0
       AND {IN_NAMED_TIMES}
     ORDER BY distance, id
     LIMIT $7),
"""
# The same from the copy: $16 the ids it found nearest among the facts of those times, $17 their distances (as
# $13 and $15 for the nearest), and the changed rows, each read by key to check it is live and of those times (a
# year named for a person of 20,000 facts put ~10,000 of them through the scan above: 32-47 ms, 2026-11-27 speed7
# log). The copy's answer is used only when no fact of those times that it did not propose can be nearer than the
# $7-th (vector_cache._exact_of_times): `dated_count` and `dated_last` (COPY_CHECKS) say how many were found and
# how far.
DATED_OF_IDS = f"""dated AS MATERIALIZED (
    SELECT c.fact_id AS id, c.distance
      FROM (SELECT d.fact_id, d.distance FROM unnest($16::uuid[], $17::float8[]) AS d(fact_id, distance)
             WHERE d.fact_id <> ALL (ARRAY(SELECT id FROM changed))
            UNION ALL
            SELECT id, search_half <#> (SELECT $3::vector::halfvec) FROM changed WHERE archived_at IS NULL) AS c
     CROSS JOIN LATERAL (SELECT 1 FROM facts
                          WHERE agent_id = $1 AND id = c.fact_id AND entity_id = $2 AND archived_at IS NULL
                            AND {IN_NAMED_TIMES}
                         OFFSET 0) AS f
     WHERE cardinality($8::timestamptz[]) > 0
     ORDER BY c.distance, c.fact_id
     LIMIT $7),
"""

_CANDIDATES = """
WITH
held AS MATERIALIZED (
    SELECT * FROM unnest($11::uuid[], $12::text[]) AS h(id, version)),
person AS MATERIALIZED (
    SELECT coalesce((SELECT facts FROM entity_lexemes
                      WHERE agent_id = $1 AND entity_id = $2 AND lexeme = ''), 0) AS facts),
term_df AS MATERIALIZED (
    SELECT lexeme AS term, facts AS df FROM entity_lexemes
     WHERE agent_id = $1 AND entity_id = $2 AND lexeme = ANY ($5::text[]) AND lexeme <> ''),
{nearest}rare AS MATERIALIZED (
    SELECT ARRAY(SELECT term FROM term_df WHERE df <= $6) AS terms),
worded AS MATERIALIZED (
    (SELECT id FROM facts
      WHERE agent_id = $1 AND entity_id = $2 AND archived_at IS NULL
        AND (SELECT facts FROM person) <= $10
        AND (lexemes || '{{}}'::text[]) && (SELECT terms FROM rare)
      ORDER BY id
      LIMIT $7)
    UNION ALL
    (SELECT id FROM facts
      WHERE agent_id = $1 AND entity_id = $2 AND archived_at IS NULL
        AND (SELECT facts FROM person) > $10
        AND lexemes && (SELECT terms FROM rare)
      ORDER BY id
      LIMIT $7)),
{dated}pool AS MATERIALIZED (
    SELECT near_id AS pool_id, distance, true AS near FROM nearest
    UNION ALL
    SELECT id, min(distance), false
      FROM (SELECT id, NULL::float8 AS distance FROM worded UNION ALL SELECT id, distance FROM dated) AS other
     WHERE id <> ALL (ARRAY(SELECT near_id FROM nearest))
     GROUP BY id)
SELECT {UNLESS_KNOWN}, {DISPUTED_BY},
       -coalesce(distance, search_half <#> (SELECT $3::vector::halfvec)) AS similarity,
       CASE WHEN known THEN NULL ELSE lexemes END AS lexemes,
       version,
       known,
       CASE WHEN row_number() OVER () = 1 THEN (SELECT facts FROM person) END AS person_facts,
       CASE WHEN row_number() OVER () = 1 THEN ARRAY(SELECT term FROM term_df ORDER BY term) END AS terms,
       CASE WHEN row_number() OVER () = 1 THEN ARRAY(SELECT df FROM term_df ORDER BY term) END AS term_facts{checks}
  FROM {rows}
"""
# Each row read by key (ROWS, NEAREST_OF_IDS, COPY_ROWS) with its version (xmin: every change of a row writes a new
# one) and whether the caller holds its fact at that version (`known`: one of `held`, the ids and versions the caller
# passes; fact_memo.py). A known row sends only its id, version and per-call columns (UNLESS_KNOWN).
VERSIONED = "xmin::text AS version, (id, xmin::text) IN (SELECT id, version FROM held) AS known"
UNLESS_KNOWN = ", ".join(
    name if name == "id" else f"CASE WHEN known THEN NULL ELSE {name} END AS {name}"
    for name in (column.strip() for column in FACT_COLUMNS.split(","))
)

# $11 and $12: the held facts' ids and versions.
CANDIDATES = _CANDIDATES.format(
    UNLESS_KNOWN=UNLESS_KNOWN,
    DISPUTED_BY=DISPUTED_BY,
    nearest=NEAREST,
    dated=DATED,
    checks="",
    rows=ROWS.format(versioned=VERSIONED),
)
# $11 and $12: the held facts' ids and versions (of those the copy proposes); $13 to $15: NEAREST_OF_IDS; $16 and
# $17: DATED_OF_IDS.
COPY_CANDIDATES = _CANDIDATES.format(
    UNLESS_KNOWN=UNLESS_KNOWN,
    DISPUTED_BY=DISPUTED_BY,
    dated=DATED_OF_IDS,
    nearest=NEAREST_OF_IDS.format(
        after=UNSEEN_AFTER.format(snapshot="$14", at=AT_MICROS),
        during=UNSEEN_DURING.format(snapshot="$14", at=AT_MICROS),
        fact_columns=FACT_COLUMNS,
        versioned=VERSIONED,
    ),
    checks=COPY_CHECKS,
    rows=COPY_ROWS.format(fact_columns=FACT_COLUMNS, versioned=VERSIONED),
)

# Persons up to this many live facts are filtered row by row rather than looked up in the terms' index: reading
# 1,000 facts of one person costs about as much as one GIN lookup of a term common across all people (a judgement
# from the plans of `factmemory-bench --explain`, not tuned on a data set).
LEXEME_SCAN_MAX_FACTS = 1_000


def candidates_of(rows: Sequence[asyncpg.Record], memo: FactMemo, held: Held) -> Pool:
    """The statement's rows as Provide's pool: each row's fact (from `memo`, built or held), similarity and terms,
    and the person's term statistics (on the first row)."""
    stats = Stats(0, {})
    if rows:
        first = rows[0]
        stats = Stats(int(first["person_facts"]), dict(zip(first["terms"], first["term_facts"], strict=True)))
    built = [memo.fact(r, held) for r in rows]
    found = [Similar(fact, float(r["similarity"])) for (fact, _), r in zip(built, rows, strict=True)]
    return Pool(found, [terms for _, terms in built], stats)


def candidate_args(
    embedding: object,
    pool: int,
    terms: list[str],
    rare_df: int,
    rare_limit: int,
    spans: Sequence[tuple[datetime, datetime]] = (),
) -> tuple[object, ...]:
    """$3 to $10 of CANDIDATES (the held facts, $11 and $12, are the caller's)."""
    starts, ends = [s for s, _ in spans], [e for _, e in spans]
    return embedding, pool, terms, rare_df, rare_limit, starts, ends, LEXEME_SCAN_MAX_FACTS
