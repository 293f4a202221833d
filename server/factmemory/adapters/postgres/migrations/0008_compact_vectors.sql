-- Exact nearest facts for large entities (docs/bench.md, "Heavy entity"): a half-precision copy of each vector in
-- a narrow covering index, read by an index-only scan; a shortlist by that distance is re-ranked by the exact one.

-- The full vector stays in the row: when a row is too wide, other columns go to TOAST first (a vector out of line
-- makes every exact distance a TOAST fetch). Applies to the rows the rewrite below writes, and to new ones.
ALTER TABLE facts ALTER COLUMN embedding SET STORAGE MAIN;

-- Rewrites the table (backfills every row). In the heap the copy is stored out of line (the type's storage);
-- the index holds it inline, which is where it is read.
ALTER TABLE facts ADD COLUMN embedding_half halfvec({{EMBEDDING_DIMENSIONS}})
    GENERATED ALWAYS AS (embedding::halfvec({{EMBEDDING_DIMENSIONS}})) STORED;

CREATE INDEX facts_nearest_half_idx ON facts (agent_id, entity_id, kind) INCLUDE (id, embedding_half)
    WHERE archived_at IS NULL;
