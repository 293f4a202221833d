-- The stem counts of migration 0009 dropped their zero rows with `DELETE ... WHERE facts <= 0 AND (agent_id,
-- entity_id) IN (the statement's entities)`: the planner read the whole entity_lexemes table for it (hundreds of
-- thousands of rows at 100k facts), so every write transaction grew with the table (Evaluate's `apply` stage:
-- 27 ms at 10k facts, 69 ms at 100k, factmemory-bench 2026-11-25). Now the upsert returns the keys it brought to
-- zero, and exactly those rows are deleted, each by its primary key.
CREATE OR REPLACE FUNCTION factmemory_apply_lexemes(changes jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    emptied text[];
BEGIN
    -- In key order, so two writers of one entity lock its rows in the same order.
    WITH counted AS (
        INSERT INTO entity_lexemes AS l (agent_id, entity_id, lexeme, facts)
        SELECT (c->>'a')::uuid, (c->>'e')::uuid, s, sum((c->>'d')::integer)
          FROM jsonb_array_elements(changes) AS c
         CROSS JOIN LATERAL unnest(ARRAY(SELECT jsonb_array_elements_text(c->'l')) || ''::text) AS s
         GROUP BY 1, 2, 3
        HAVING sum((c->>'d')::integer) <> 0
         ORDER BY 1, 2, 3
        ON CONFLICT (agent_id, entity_id, lexeme) DO UPDATE SET facts = l.facts + excluded.facts
        RETURNING l.agent_id, l.entity_id, l.lexeme, l.facts
    )
    SELECT array_agg(agent_id::text || '/' || entity_id::text || '/' || lexeme) INTO emptied
      FROM counted WHERE facts <= 0;
    IF emptied IS NOT NULL THEN
        DELETE FROM entity_lexemes l
         USING (SELECT split_part(k, '/', 1)::uuid AS a, split_part(k, '/', 2)::uuid AS e,
                       substr(k, 75) AS lexeme
                  FROM unnest(emptied) AS k) AS z
         WHERE l.agent_id = z.a AND l.entity_id = z.e AND l.lexeme = z.lexeme AND l.facts <= 0;
    END IF;
END
$$;
