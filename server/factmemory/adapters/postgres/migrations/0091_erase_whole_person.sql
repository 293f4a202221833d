-- ForgetEntity erases a whole person set-based (adapters/postgres/forgetting.py): it deletes the person's history,
-- stem counts, candidates and possible duplicates itself, each by one statement, and names the person in the
-- transaction-local setting `factmemory.erasing` ('<agent id>/<entity id>') before it deletes the facts. The row
-- triggers that would maintain those tables for each deleted fact are skipped for that person's rows by a WHEN
-- condition (evaluated per row without calling the function, and no event queued).
-- Why: on Citus (docs/scaling.md, "Forgetting a large person") every row trigger's statements ran through Citus on
-- the worker inside one transaction, whose memory was held until it ended: forgetting a person of 20,000 facts ran
-- 11 minutes and grew a worker's backend to 7.6 GB. On one PostgreSQL it saves a statement per deleted fact.
-- Every other delete (no setting, or another person named) runs the triggers as before. The same condition is
-- written out in each trigger (built-in functions only: a function of ours would have to exist on the workers
-- before the trigger is propagated to the shards); citus.py's stem-count row trigger of the cluster has it too.

-- The pending candidates a deleted fact leaves (0004, 0007; on Citus the references too: citus.py).
DROP TRIGGER facts_close_candidates ON facts;
CREATE TRIGGER facts_close_candidates BEFORE DELETE ON facts FOR EACH ROW
    WHEN (current_setting('factmemory.erasing', true) IS DISTINCT FROM OLD.agent_id::text || '/' || OLD.entity_id::text)
    EXECUTE FUNCTION factmemory_close_orphaned_candidates();

-- History (0004, 0060): a WHEN condition on a trigger of several events cannot name OLD, so the delete has its own.
DROP TRIGGER facts_history ON facts;
CREATE TRIGGER facts_history AFTER INSERT OR UPDATE ON facts
    FOR EACH ROW EXECUTE FUNCTION factmemory_record_fact_change();
CREATE TRIGGER facts_history_deleted AFTER DELETE ON facts FOR EACH ROW
    WHEN (current_setting('factmemory.erasing', true) IS DISTINCT FROM OLD.agent_id::text || '/' || OLD.entity_id::text)
    EXECUTE FUNCTION factmemory_record_fact_change();

-- The stem counts of one PostgreSQL (0009, a statement trigger: no WHEN on OLD): the erased person's rows are left
-- out of the statement's changes (their counts are deleted by ForgetEntity itself).
CREATE OR REPLACE FUNCTION factmemory_lexemes_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM factmemory_apply_lexemes(coalesce((
        SELECT jsonb_agg(jsonb_build_object('a', agent_id, 'e', entity_id, 'l', lexemes, 'd', -1))
          FROM old_rows
         WHERE archived_at IS NULL
           AND current_setting('factmemory.erasing', true) IS DISTINCT FROM agent_id::text || '/' || entity_id::text),
        '[]'));
    RETURN NULL;
END
$$;
