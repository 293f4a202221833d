-- A model decay that would delete a confirmed or health fact becomes a review candidate instead (issue 25,
-- domain/protection.py): a third candidate source.
ALTER TABLE fact_candidates DROP CONSTRAINT fact_candidates_source_check;
ALTER TABLE fact_candidates ADD CONSTRAINT fact_candidates_source_check
    CHECK (source IN ('contradict', 'dedup_conflict', 'decay_floor'));
