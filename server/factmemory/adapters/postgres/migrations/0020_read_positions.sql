-- Replica reads decided by position (docs/scaling.md, "Read replica"): each (agent, entity) has a version that
-- every change of its readable rows bumps IN THE SAME TRANSACTION, by the triggers below, so every writer keeps it
-- (Evaluate, edits, review, imports, ForgetEntity, retention) in every process, across restarts. A read may be
-- answered by a replica only when the replica's copy of this row, read in the same snapshot as the answer, has
-- reached the primary's: then the replica has replayed the entity's last write and its last forget. The row keeps
-- no personal data: the two ids and a counter.
CREATE TABLE read_positions (
    agent_id  uuid NOT NULL,
    entity_id uuid NOT NULL,
    version   bigint NOT NULL,
    PRIMARY KEY (agent_id, entity_id)
);

CREATE FUNCTION bump_read_positions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO read_positions AS p (agent_id, entity_id, version)
    SELECT DISTINCT agent_id, entity_id, 1 FROM changed_rows
    ON CONFLICT (agent_id, entity_id) DO UPDATE SET version = p.version + 1;
    RETURN NULL;
END $$;

-- relationships name two entities: a change is a change of both.
CREATE FUNCTION bump_read_positions_of_relationships() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO read_positions AS p (agent_id, entity_id, version)
    SELECT DISTINCT agent_id, entity_id, 1
      FROM (SELECT agent_id, source_entity_id AS entity_id FROM changed_rows
            UNION SELECT agent_id, target_entity_id FROM changed_rows) AS both_sides
    ON CONFLICT (agent_id, entity_id) DO UPDATE SET version = p.version + 1;
    RETURN NULL;
END $$;

DO $$
DECLARE
    t text;
    fn text;
BEGIN
    FOREACH t IN ARRAY ARRAY['facts', 'fact_candidates', 'fact_history', 'identities', 'evaluations', 'entities',
                             'possible_duplicates', 'relationships']
    LOOP
        fn := CASE WHEN t = 'relationships' THEN 'bump_read_positions_of_relationships'
                   ELSE 'bump_read_positions' END;
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION %I()', t || '_read_position_ins', t, fn);
        EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS changed_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION %I()', t || '_read_position_upd', t, fn);
        EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION %I()', t || '_read_position_del', t, fn);
    END LOOP;
END $$;
