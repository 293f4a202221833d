-- Exact nearest facts for large entities (docs/bench.md, "Heavy entity: exact shortlist"): a half-precision copy of
-- each vector in a narrow covering index, read by an index-only scan; a shortlist by that distance is re-ranked by
-- the exact one.

-- The full vector stays in the row: when a row is too wide, other columns go to TOAST first (a vector out of line
-- makes every exact distance a TOAST fetch). Applies to the rows the rewrite below writes, and to new ones.
ALTER TABLE facts ALTER COLUMN embedding SET STORAGE MAIN;

-- The copy. In the heap it is stored out of line (the type's storage); the index holds it inline, where it is read.
-- Not a generated column: that is recomputed by every UPDATE (strengthen, decay, reclassify), which then writes a new
-- TOAST value and can no longer be a HOT update, so it inserted into every index, the HNSW graph included (~17 ms
-- instead of ~1 ms per update, measured). The trigger sets it only when the vector is written.
ALTER TABLE facts ADD COLUMN embedding_half halfvec({{EMBEDDING_DIMENSIONS}});

CREATE FUNCTION factmemory_embedding_half() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.embedding_half := NEW.embedding::halfvec({{EMBEDDING_DIMENSIONS}});
    RETURN NEW;
END
$$;
CREATE TRIGGER facts_embedding_half BEFORE INSERT OR UPDATE OF embedding ON facts
    FOR EACH ROW EXECUTE FUNCTION factmemory_embedding_half();

-- Backfill by a table rewrite (a USING expression forces one), which rebuilds the indexes once, instead of an UPDATE
-- of every row, which would insert each row again into every index.
ALTER TABLE facts ALTER COLUMN embedding_half TYPE halfvec({{EMBEDDING_DIMENSIONS}})
    USING embedding::halfvec({{EMBEDDING_DIMENSIONS}});

CREATE INDEX facts_nearest_half_idx ON facts (agent_id, entity_id, kind) INCLUDE (id, embedding_half)
    WHERE archived_at IS NULL;
