"""Provide's candidate pool with lexical evidence (migration 0009): nearest facts per kind by vector, the facts
sharing a rare English stem with the turn, and the facts one rare word away from the nearest ones (the second hop),
each with the share of the turn's word weight (idf over the person's own facts) it contains."""

from __future__ import annotations

from factmemory.adapters.postgres.nearest import NEAREST_CTES, nearest_of_kind
from factmemory.adapters.postgres.rows import DISPUTED_BY, FACT_COLUMNS


# Which of the entity's live facts contain one of `stems`, by the cheaper of two plans, chosen at run time by the
# entity's size ($14: LEXEME_SCAN_MAX_FACTS): a small entity's range is read whole and filtered (the stems' GIN
# index covers every entity, and a stem rare for this person can be in thousands of other people's facts); a large
# entity's through that index. The filter of the first plan is written so that the index cannot serve it.
def facts_with(stems: str, columns: str = "") -> str:
    extra = f", {columns}" if columns else ""
    return f"""
    SELECT id{extra} FROM facts
     WHERE agent_id = $1 AND entity_id = $2 AND archived_at IS NULL
       AND (SELECT facts FROM size) <= $14 AND (lexemes || '{{}}'::text[]) && {stems}
    UNION ALL
    SELECT id{extra} FROM facts
     WHERE agent_id = $1 AND entity_id = $2 AND archived_at IS NULL
       AND (SELECT facts FROM size) > $14 AND lexemes && {stems}"""


# Entities up to this many live facts are filtered row by row rather than looked up in the stems' index: reading
# 1,000 facts of one person costs about as much as one GIN lookup of a stem common across all people (a judgement
# from the plans of `factmemory-bench --explain`, not tuned on a data set).
LEXEME_SCAN_MAX_FACTS = 1_000

# Lexical evidence weighed by the person's facts (migration 0009): the turn's English stems ($8: the turn's text),
# each weighted by its inverse document frequency over the entity's live facts, ln(N / df) from entity_lexemes (a
# stem in every fact, such as the person's own name, weighs exactly 0); per candidate, the summed weight of the
# turn's stems it contains (`lexical`) and of all the turn's stems the person has (`lexical_total`). Candidates:
# nearest by vector per kind, plus every fact containing one of the turn's $10 rarest stems found in at most $9 of
# the entity's facts.
LEXICAL_CTES = """
turn AS MATERIALIZED (SELECT DISTINCT unnest(factmemory_lexemes($8)) AS lexeme),
counts AS MATERIALIZED (
    SELECT lexeme, facts FROM entity_lexemes
     WHERE agent_id = $1 AND entity_id = $2 AND lexeme = ANY (ARRAY(SELECT lexeme FROM turn) || ''::text)),
size AS MATERIALIZED (SELECT coalesce((SELECT facts FROM counts WHERE lexeme = ''), 0) AS facts),
weights AS MATERIALIZED (
    SELECT c.lexeme, c.facts AS df, ln(greatest(n.facts, c.facts)::float8 / c.facts) AS idf
      FROM counts c CROSS JOIN size AS n
     WHERE c.lexeme <> ''),
rare AS MATERIALIZED (
    SELECT array_agg(lexeme) AS stems
      FROM (SELECT lexeme FROM weights WHERE df <= $9 ORDER BY df, lexeme LIMIT $10) AS r),"""
RARE_STEMS = "(SELECT stems FROM rare)"
# The second hop: the $11 facts nearest the turn (of either kind) are seeds; a word of a seed that is not in the
# turn and is in at most $12 of the entity's facts (a name: "Ines has an aunt called Radomir") links the seed to
# the other facts containing it ("Radomir is training for an ironman"), at most $13 of them, each with its
# nearest seed (`via`). The facts with a rare stem of the turn (`rare_ids`, at most $9 * $10 in id order) and those
# with a link stem come from ONE read of the entity's facts (`worded`): two reads of the same range cost 1.4 ms more
# a call (factmemory-bench's 10k data, 2026-11-25; the candidate rows were identical on 600 queries).
LINK_STEMS = "(SELECT coalesce(array_agg(lexeme), '{}') FROM links)"
LINKED_CTES = f"""
seeds AS MATERIALIZED (
    SELECT id, distance
      FROM (SELECT id, distance FROM durable_half UNION ALL SELECT id, distance FROM current_half) AS s
     ORDER BY distance, id
     LIMIT $11),
seed_words AS MATERIALIZED (
    SELECT s.id AS seed, s.distance, l.lexeme
      FROM seeds s
      JOIN facts f ON f.agent_id = $1 AND f.entity_id = $2 AND f.id = s.id
     CROSS JOIN LATERAL unnest(f.lexemes) AS l(lexeme)
     WHERE l.lexeme NOT IN (SELECT lexeme FROM turn)),
links AS MATERIALIZED (
    SELECT w.seed, w.distance, w.lexeme
      FROM seed_words w
     WHERE (SELECT e.facts FROM entity_lexemes e
             WHERE e.agent_id = $1 AND e.entity_id = $2 AND e.lexeme = w.lexeme) <= $12),
worded AS MATERIALIZED (
    SELECT id, lexemes FROM ({facts_with(f"({RARE_STEMS} || {LINK_STEMS})", "lexemes")}) AS w),
rare_ids AS MATERIALIZED (
    SELECT id FROM worded WHERE lexemes && {RARE_STEMS} ORDER BY id LIMIT $9 * $10),
linked AS MATERIALIZED (
    SELECT DISTINCT ON (f.id) f.id, k.seed
      FROM worded f
      JOIN links k ON k.lexeme = ANY (f.lexemes)
     WHERE f.id NOT IN (SELECT id FROM seeds)
     ORDER BY f.id, k.distance, k.seed
     LIMIT $13)"""
LEXICAL_COLUMNS = """,
       (SELECT coalesce(sum(w.idf), 0) FROM weights w WHERE w.lexeme = ANY (facts.lexemes))::float8 AS lexical,
       (SELECT coalesce(sum(w.idf), 0) FROM weights w)::float8 AS lexical_total"""
UNLINKED = f"{LEXICAL_COLUMNS}, NULL::uuid AS via"
LEXICAL_BY_KIND = f"""
{NEAREST_CTES},{LEXICAL_CTES}{LINKED_CTES}
{nearest_of_kind("durable", "$4", UNLINKED)}
UNION ALL
{nearest_of_kind("current", "$5", UNLINKED)}
UNION ALL
(SELECT {FACT_COLUMNS}, {DISPUTED_BY}, 1 - (embedding <=> $3) AS similarity{UNLINKED}
   FROM facts
  WHERE agent_id = $1 AND entity_id = $2 AND id IN (SELECT id FROM rare_ids))
UNION ALL
(SELECT {FACT_COLUMNS}, {DISPUTED_BY}, 1 - (embedding <=> $3) AS similarity{LEXICAL_COLUMNS},
        (SELECT l.seed FROM linked l WHERE l.id = facts.id) AS via
   FROM facts
  WHERE agent_id = $1 AND entity_id = $2 AND id IN (SELECT l.id FROM linked l))
"""
