-- Review and audit: the history of every fact, entity names, resolutions, kept pairs and imported ids.

-- One row per change of a fact. Written by the trigger below, so every statement that touches `facts`
-- (evaluations, reviews, imports, and any later code) is recorded without having to remember to.
-- The writer names the action, actor and reason for its transaction with
--   set_config('factmemory.action' | 'factmemory.actor' | 'factmemory.reason', ..., true).
-- No foreign key to facts: the history of a deleted fact stays until the entity is forgotten.
CREATE TABLE fact_history (
    id        uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    agent_id  uuid NOT NULL,
    entity_id uuid NOT NULL,
    fact_id   uuid NOT NULL,
    at        timestamptz NOT NULL DEFAULT clock_timestamp(),
    action    text NOT NULL,
    actor     text NOT NULL DEFAULT '',
    reason    text NOT NULL DEFAULT '',
    before    jsonb,
    after     jsonb,
    -- The writing transaction: repeated changes of one fact by one action in one transaction form one entry.
    tx        xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX fact_history_fact_idx ON fact_history (agent_id, entity_id, fact_id, at);

CREATE FUNCTION factmemory_fact_snapshot(f facts) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_object('claim', f.claim, 'category', f.category, 'kind', f.kind,
                              'confidence', f.confidence, 'verification_status', f.verification_status)
$$;

CREATE FUNCTION factmemory_record_fact_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_action text := nullif(current_setting('factmemory.action', true), '');
    v_actor  text := coalesce(current_setting('factmemory.actor', true), '');
    v_reason text := coalesce(current_setting('factmemory.reason', true), '');
    v_row    facts := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    v_before jsonb := CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE factmemory_fact_snapshot(OLD) END;
    v_after  jsonb := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE factmemory_fact_snapshot(NEW) END;
BEGIN
    IF v_action = 'forgotten' THEN  -- erasure leaves no trace, by design
        RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' AND v_before = v_after
       AND OLD.evidence_message_ids = NEW.evidence_message_ids AND OLD.previous_claims = NEW.previous_claims THEN
        RETURN NULL;  -- nothing a reader could see changed (a message supporting a fact it already supports)
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.category = 'uncategorized' AND NEW.category <> 'uncategorized' THEN
        v_action := 'reclassified';
    END IF;
    v_action := coalesce(v_action, CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'UPDATE' THEN 'edited'
                                              ELSE 'deleted' END);
    UPDATE fact_history h SET after = v_after
     WHERE h.agent_id = v_row.agent_id AND h.entity_id = v_row.entity_id AND h.fact_id = v_row.id
       AND h.tx = pg_current_xact_id() AND h.action = v_action;
    IF NOT FOUND THEN
        INSERT INTO fact_history (agent_id, entity_id, fact_id, action, actor, reason, before, after)
        VALUES (v_row.agent_id, v_row.entity_id, v_row.id, v_action, v_actor, v_reason, v_before, v_after);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER facts_history AFTER INSERT OR UPDATE OR DELETE ON facts
    FOR EACH ROW EXECUTE FUNCTION factmemory_record_fact_change();

-- The name a speaker used, per (agent, entity), so people can find an entity by name.
CREATE TABLE entities (
    agent_id      uuid NOT NULL,
    entity_id     uuid NOT NULL,
    name          text NOT NULL DEFAULT '',
    first_seen_at timestamptz NOT NULL,
    last_seen_at  timestamptz NOT NULL,
    PRIMARY KEY (agent_id, entity_id)
);

-- A resolved candidate outlives the facts it named (keep_new deletes the old fact): the reference is
-- cleared instead of the candidate being deleted with the fact.
ALTER TABLE fact_candidates ALTER COLUMN fact_id DROP NOT NULL;
ALTER TABLE fact_candidates DROP CONSTRAINT fact_candidates_fact_id_fkey;
ALTER TABLE fact_candidates ADD CONSTRAINT fact_candidates_fact_id_fkey
    FOREIGN KEY (fact_id) REFERENCES facts (id) ON DELETE SET NULL;

-- A pending candidate whose fact is deleted (decayed away, deleted by hand) has nothing left to decide:
-- it is closed, naming why, so the queue holds only decisions someone can make.
CREATE FUNCTION factmemory_close_orphaned_candidates() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE fact_candidates SET status = 'rejected', resolved_at = clock_timestamp(),
                               resolved_by = 'system:fact deleted'
     WHERE (fact_id = OLD.id OR related_fact_id = OLD.id) AND status = 'pending';
    RETURN OLD;
END
$$;

CREATE TRIGGER facts_close_candidates BEFORE DELETE ON facts
    FOR EACH ROW EXECUTE FUNCTION factmemory_close_orphaned_candidates();

-- How a candidate was resolved and by whom (status stays accepted/rejected for older readers).
ALTER TABLE fact_candidates ADD COLUMN resolution text;
ALTER TABLE fact_candidates ADD COLUMN resolved_by text;
CREATE INDEX fact_candidates_agent_queue_idx ON fact_candidates (agent_id, status, created_at, id);
-- The provider looks up a pending contradiction per shown fact.
CREATE INDEX fact_candidates_pending_fact_idx ON fact_candidates (fact_id) WHERE status = 'pending';

-- Two facts a reviewer declared both true: never flagged against each other again (fact_a < fact_b).
CREATE TABLE kept_pairs (
    agent_id  uuid NOT NULL,
    entity_id uuid NOT NULL,
    fact_a    uuid NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    fact_b    uuid NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    PRIMARY KEY (agent_id, entity_id, fact_a, fact_b),
    CHECK (fact_a < fact_b)
);

-- Where an imported fact came from: a second import of the same memory adds nothing.
ALTER TABLE facts ADD COLUMN import_source_id text;
CREATE UNIQUE INDEX facts_import_source_idx ON facts (agent_id, entity_id, import_source_id)
    WHERE import_source_id IS NOT NULL;
