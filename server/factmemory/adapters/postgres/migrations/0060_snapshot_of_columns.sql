-- A fact's history snapshot (migrations 0004 and 0006) from its columns, not from a row of type `facts`: on Citus
-- (docs/scaling.md, `factmemory distribute`) a statement runs on a shard, whose rows are of the shard's own type
-- (facts_102008), which the function of 0004 does not take. The old function now calls this one: one definition.
-- The history trigger reads the row's columns for the same reason (what it records is unchanged).
CREATE FUNCTION factmemory_snapshot(claim text, category text, kind text, confidence double precision,
                                    verification_status text, archived_at timestamptz)
    RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_object('claim', claim, 'category', category, 'kind', kind,
                              'confidence', confidence, 'verification_status', verification_status)
           || CASE WHEN archived_at IS NULL THEN '{}'::jsonb ELSE '{"archived": true}'::jsonb END
$$;

CREATE OR REPLACE FUNCTION factmemory_fact_snapshot(f facts) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT factmemory_snapshot(f.claim, f.category, f.kind, f.confidence, f.verification_status, f.archived_at)
$$;

CREATE OR REPLACE FUNCTION factmemory_record_fact_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_action text := nullif(current_setting('factmemory.action', true), '');
    v_actor  text := coalesce(current_setting('factmemory.actor', true), '');
    v_reason text := coalesce(current_setting('factmemory.reason', true), '');
    v_agent  uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.agent_id ELSE NEW.agent_id END;
    v_entity uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.entity_id ELSE NEW.entity_id END;
    v_fact   uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
    v_before jsonb := CASE WHEN TG_OP = 'INSERT' THEN NULL
                           ELSE factmemory_snapshot(OLD.claim, OLD.category, OLD.kind, OLD.confidence,
                                                    OLD.verification_status, OLD.archived_at) END;
    v_after  jsonb := CASE WHEN TG_OP = 'DELETE' THEN NULL
                           ELSE factmemory_snapshot(NEW.claim, NEW.category, NEW.kind, NEW.confidence,
                                                    NEW.verification_status, NEW.archived_at) END;
BEGIN
    IF v_action = 'forgotten' THEN  -- erasure leaves no trace, by design
        RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' AND v_before = v_after
       AND OLD.evidence_message_ids = NEW.evidence_message_ids AND OLD.previous_claims = NEW.previous_claims THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.category = 'uncategorized' AND NEW.category <> 'uncategorized' THEN
        v_action := 'reclassified';
    END IF;
    v_action := coalesce(v_action, CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'UPDATE' THEN 'edited'
                                              ELSE 'deleted' END);
    UPDATE fact_history h SET after = v_after
     WHERE h.agent_id = v_agent AND h.entity_id = v_entity AND h.fact_id = v_fact
       AND h.tx = pg_current_xact_id() AND h.action = v_action;
    IF NOT FOUND THEN
        INSERT INTO fact_history (agent_id, entity_id, fact_id, action, actor, reason, before, after)
        VALUES (v_agent, v_entity, v_fact, v_action, v_actor, v_reason, v_before, v_after);
    END IF;
    RETURN NULL;
END
$$;
