-- Retention (see README, "What leaves the store"): stale current facts are archived, then optionally deleted;
-- evaluations older than the idempotency window are reduced; old resolved candidates are archived.

-- An archived fact is out of ranking (Provide) and out of the extraction prompt (Evaluate's known facts), but
-- stays in export, history and on the review page until the retention period deletes it.
ALTER TABLE facts ADD COLUMN archived_at timestamptz;
-- The sweep walks live current facts in small keyset batches, and archived ones by age for deletion.
CREATE INDEX facts_retention_live_idx ON facts (agent_id, entity_id, id) WHERE kind = 'current' AND archived_at IS NULL;
CREATE INDEX facts_retention_archived_idx ON facts (archived_at) WHERE archived_at IS NOT NULL;

-- Reduced evaluations keep the message id, entity and token counts (what idempotency needs) and drop the result.
ALTER TABLE evaluations ADD COLUMN reduced_at timestamptz;
CREATE INDEX evaluations_unreduced_idx ON evaluations (created_at) WHERE reduced_at IS NULL;

-- A resolved candidate archived after a while: kept with its history, out of the default queue.
ALTER TABLE fact_candidates ADD COLUMN archived_at timestamptz;
CREATE INDEX fact_candidates_resolved_idx ON fact_candidates (resolved_at)
    WHERE status <> 'pending' AND archived_at IS NULL;

-- The history snapshot names the archive time, so an archive is a visible change (not "nothing changed").
CREATE OR REPLACE FUNCTION factmemory_fact_snapshot(f facts) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_object('claim', f.claim, 'category', f.category, 'kind', f.kind,
                              'confidence', f.confidence, 'verification_status', f.verification_status)
           || CASE WHEN f.archived_at IS NULL THEN '{}'::jsonb
                   ELSE '{"archived": true}'::jsonb END
$$;
