-- Lexical evidence weighed by the person's own facts (docs/recall.md, "Lexical evidence"): each claim's English
-- stems, and per (agent, entity) how many live facts contain each stem. A word every fact of the person shares
-- (their own name) then weighs nothing, a word in one of their 300 facts weighs a lot, whatever the candidate pool.

-- The claim's stems (PostgreSQL's `english` configuration: stop words out, words stemmed), as an array so the
-- lookup is an array overlap (no tsquery syntax to quote). Set by a trigger, not a generated column: a generated
-- column is recomputed by every UPDATE (strengthen, decay, reclassify), see migration 0008.
ALTER TABLE facts ADD COLUMN lexemes text[] NOT NULL DEFAULT '{}';

CREATE FUNCTION factmemory_lexemes(claim text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT tsvector_to_array(to_tsvector('english'::regconfig, claim))
$$;

CREATE FUNCTION factmemory_set_lexemes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.lexemes := factmemory_lexemes(NEW.claim);
    RETURN NEW;
END
$$;
CREATE TRIGGER facts_lexemes BEFORE INSERT OR UPDATE OF claim ON facts
    FOR EACH ROW EXECUTE FUNCTION factmemory_set_lexemes();

-- Per entity: live facts per stem; the row with the empty stem counts the entity's live facts. Rows at zero are
-- deleted, so a forgotten entity leaves nothing behind.
CREATE TABLE entity_lexemes (
    agent_id  uuid NOT NULL,
    entity_id uuid NOT NULL,
    lexeme    text NOT NULL,
    facts     integer NOT NULL,
    PRIMARY KEY (agent_id, entity_id, lexeme)
);

-- Maintained per statement from its transition tables (one upsert per statement, grouped by stem, instead of one
-- per fact and stem: a COPY of 100k facts, or an Evaluate's several adds, pay it once). Only live facts count, so
-- an update counts only when the claim, the liveness or the scope changed.
CREATE FUNCTION factmemory_apply_lexemes(changes jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    -- In key order, so two writers of one entity lock its rows in the same order.
    INSERT INTO entity_lexemes AS l (agent_id, entity_id, lexeme, facts)
    SELECT (c->>'a')::uuid, (c->>'e')::uuid, s, sum((c->>'d')::integer)
      FROM jsonb_array_elements(changes) AS c
     CROSS JOIN LATERAL unnest(ARRAY(SELECT jsonb_array_elements_text(c->'l')) || ''::text) AS s
     GROUP BY 1, 2, 3
    HAVING sum((c->>'d')::integer) <> 0
     ORDER BY 1, 2, 3
    ON CONFLICT (agent_id, entity_id, lexeme) DO UPDATE SET facts = l.facts + excluded.facts;
    DELETE FROM entity_lexemes
     WHERE facts <= 0
       AND (agent_id, entity_id) IN (SELECT DISTINCT (c->>'a')::uuid, (c->>'e')::uuid FROM jsonb_array_elements(changes) c);
END
$$;

CREATE FUNCTION factmemory_lexemes_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM factmemory_apply_lexemes(coalesce((
        SELECT jsonb_agg(jsonb_build_object('a', agent_id, 'e', entity_id, 'l', lexemes, 'd', 1))
          FROM new_rows WHERE archived_at IS NULL), '[]'));
    RETURN NULL;
END
$$;
CREATE FUNCTION factmemory_lexemes_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM factmemory_apply_lexemes(coalesce((
        SELECT jsonb_agg(jsonb_build_object('a', agent_id, 'e', entity_id, 'l', lexemes, 'd', -1))
          FROM old_rows WHERE archived_at IS NULL), '[]'));
    RETURN NULL;
END
$$;
CREATE FUNCTION factmemory_lexemes_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM factmemory_apply_lexemes(coalesce((
        SELECT jsonb_agg(c) FROM (
            SELECT jsonb_build_object('a', o.agent_id, 'e', o.entity_id, 'l', o.lexemes, 'd', -1) AS c
              FROM old_rows o JOIN new_rows n ON n.id = o.id
             WHERE o.archived_at IS NULL
               AND (o.claim IS DISTINCT FROM n.claim OR n.archived_at IS NOT NULL
                    OR o.agent_id <> n.agent_id OR o.entity_id <> n.entity_id)
            UNION ALL
            SELECT jsonb_build_object('a', n.agent_id, 'e', n.entity_id, 'l', n.lexemes, 'd', 1)
              FROM old_rows o JOIN new_rows n ON n.id = o.id
             WHERE n.archived_at IS NULL
               AND (o.claim IS DISTINCT FROM n.claim OR o.archived_at IS NOT NULL
                    OR o.agent_id <> n.agent_id OR o.entity_id <> n.entity_id)) AS changed), '[]'));
    RETURN NULL;
END
$$;
CREATE TRIGGER facts_lexemes_inserted AFTER INSERT ON facts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION factmemory_lexemes_inserted();
CREATE TRIGGER facts_lexemes_deleted AFTER DELETE ON facts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION factmemory_lexemes_deleted();
CREATE TRIGGER facts_lexemes_updated AFTER UPDATE ON facts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION factmemory_lexemes_updated();

-- Backfill: the stems by a table rewrite (see 0008 for why not an UPDATE), then the counts.
ALTER TABLE facts ALTER COLUMN lexemes TYPE text[] USING factmemory_lexemes(claim);
INSERT INTO entity_lexemes (agent_id, entity_id, lexeme, facts)
SELECT agent_id, entity_id, s, count(*)
  FROM facts CROSS JOIN LATERAL (SELECT DISTINCT unnest(lexemes || ''::text) AS s) AS t
 WHERE archived_at IS NULL
 GROUP BY agent_id, entity_id, s;

-- The facts of an entity containing a stem. The stems are looked up only when rare for the entity; a stem common
-- elsewhere is still checked against the entity's range first by the planner's choice (scope index or this one).
CREATE INDEX facts_lexemes_idx ON facts USING gin (lexemes) WHERE archived_at IS NULL;
