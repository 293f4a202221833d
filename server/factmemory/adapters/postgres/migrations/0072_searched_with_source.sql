-- Provide searches a fact by what it says and by what the person said (docs/recall.md, round three, "The person's
-- own words"): the claim is the model's paraphrase, a question echoes the person's words. Written by Evaluate for
-- a fact it inserts, from the message the fact came from:
--   search_half   the mean of the claim's unit vector and the message's (its query vector, which the turn's read
--                 already computed), in half precision: its inner product with the turn's unit vector, which
--                 Provide ranks by, is the mean of the two cosines; the claim's own vector for a fact with no
--                 message (imports, a reviewer's fact) and after the claim changes;
--   source_terms  the content terms of the message's bounded excerpt (domain/excerpts.py) that the claim lacks (the
--                 language layer's); facts.lexemes holds the claim's terms and these, so BM25 and the stem counts
--                 see both.
-- Deleting the message (ForgetMessages) takes both away from a fact that stays (adapters/postgres/messages.py):
-- nothing derived from a deleted message is kept.
ALTER TABLE facts ADD COLUMN source_terms text[] NOT NULL DEFAULT '{}';
ALTER TABLE facts ADD COLUMN search_half halfvec({{EMBEDDING_DIMENSIONS}});

-- A writer that gives no search vector, or changes the claim's vector and leaves the search vector as it was,
-- gets the claim's; a claim changed with the source terms left as they were loses them (its lexemes are then the
-- new claim's, written with it).
CREATE FUNCTION factmemory_search_half() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NEW.search_half IS NULL THEN
            NEW.search_half := NEW.embedding::halfvec({{EMBEDDING_DIMENSIONS}});
        END IF;
        RETURN NEW;
    END IF;
    IF NEW.embedding IS DISTINCT FROM OLD.embedding AND NEW.search_half IS NOT DISTINCT FROM OLD.search_half THEN
        NEW.search_half := NEW.embedding::halfvec({{EMBEDDING_DIMENSIONS}});
    END IF;
    IF NEW.claim IS DISTINCT FROM OLD.claim AND NEW.source_terms IS NOT DISTINCT FROM OLD.source_terms THEN
        NEW.source_terms := '{}';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER facts_search_half BEFORE INSERT OR UPDATE OF embedding, claim ON facts
    FOR EACH ROW EXECUTE FUNCTION factmemory_search_half();

-- The facts already stored search by their claim (a table rewrite, as in migration 0008, rebuilds the indexes once).
ALTER TABLE facts ALTER COLUMN search_half TYPE halfvec({{EMBEDDING_DIMENSIONS}}) USING embedding_half;
ALTER TABLE facts ALTER COLUMN search_half SET NOT NULL;

-- Provide's nearest facts: an index-only scan of the person's search vectors (as facts_nearest_half_idx for the
-- claim's vectors, which the write path's neighbours keep using).
CREATE INDEX facts_search_half_idx ON facts (agent_id, entity_id) INCLUDE (id, search_half)
    WHERE archived_at IS NULL;

-- The stem counts follow the terms, not the claim: deleting a message changes a fact's terms and not its claim.
CREATE OR REPLACE FUNCTION factmemory_lexemes_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM factmemory_apply_lexemes(coalesce((
        SELECT jsonb_agg(c) FROM (
            SELECT jsonb_build_object('a', o.agent_id, 'e', o.entity_id, 'l', o.lexemes, 'd', -1) AS c
              FROM old_rows o JOIN new_rows n ON n.id = o.id
             WHERE o.archived_at IS NULL
               AND (o.lexemes IS DISTINCT FROM n.lexemes OR n.archived_at IS NOT NULL
                    OR o.agent_id <> n.agent_id OR o.entity_id <> n.entity_id)
            UNION ALL
            SELECT jsonb_build_object('a', n.agent_id, 'e', n.entity_id, 'l', n.lexemes, 'd', 1)
              FROM old_rows o JOIN new_rows n ON n.id = o.id
             WHERE n.archived_at IS NULL
               AND (o.lexemes IS DISTINCT FROM n.lexemes OR o.archived_at IS NOT NULL
                    OR o.agent_id <> n.agent_id OR o.entity_id <> n.entity_id)) AS changed), '[]'));
    RETURN NULL;
END
$$;
