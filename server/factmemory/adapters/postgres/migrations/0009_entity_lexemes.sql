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

CREATE FUNCTION factmemory_count_lexemes(agent uuid, entity uuid, stems text[], delta integer)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    -- In stem order, so two writers of one entity lock its rows in the same order.
    INSERT INTO entity_lexemes AS l (agent_id, entity_id, lexeme, facts)
    SELECT agent, entity, s, delta FROM (SELECT DISTINCT unnest(stems || ''::text) AS s) AS t ORDER BY s
    ON CONFLICT (agent_id, entity_id, lexeme) DO UPDATE SET facts = l.facts + excluded.facts;
    IF delta < 0 THEN
        DELETE FROM entity_lexemes
         WHERE agent_id = agent AND entity_id = entity AND lexeme = ANY (stems || ''::text) AND facts <= 0;
    END IF;
END
$$;

CREATE FUNCTION factmemory_entity_lexemes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.archived_at IS NULL THEN
        PERFORM factmemory_count_lexemes(OLD.agent_id, OLD.entity_id, OLD.lexemes, -1);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.archived_at IS NULL THEN
        PERFORM factmemory_count_lexemes(NEW.agent_id, NEW.entity_id, NEW.lexemes, 1);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER facts_entity_lexemes_insert AFTER INSERT OR DELETE ON facts
    FOR EACH ROW EXECUTE FUNCTION factmemory_entity_lexemes();
CREATE TRIGGER facts_entity_lexemes_update AFTER UPDATE OF claim, archived_at, agent_id, entity_id ON facts
    FOR EACH ROW
    WHEN (OLD.claim IS DISTINCT FROM NEW.claim OR (OLD.archived_at IS NULL) <> (NEW.archived_at IS NULL)
          OR OLD.agent_id <> NEW.agent_id OR OLD.entity_id <> NEW.entity_id)
    EXECUTE FUNCTION factmemory_entity_lexemes();

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
