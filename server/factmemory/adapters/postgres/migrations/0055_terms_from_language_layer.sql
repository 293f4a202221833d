-- A claim's content terms come from the service's language layer (server/factmemory/domain/language: Snowball
-- English, the same stop list as PostgreSQL's `english`), written with the claim by every statement that writes one
-- (INSERT_FACT, IMPORT_FACTS, CHANGE_FACT), so the turn's terms, computed by the same layer, match them exactly.
-- PostgreSQL's own stemmer is an older Snowball ("organizing" -> "organ", the layer's "organiz") and keeps hyphenated
-- compounds ("self-car"), so it stays only as the fallback for a writer that supplies no terms: an insert with none,
-- or an update that changes the claim and leaves the terms as they were. The stem counts (entity_lexemes) follow the
-- column as before (migration 0009's statement triggers). Facts stored before this migration keep the database's
-- stems until their claim changes.
CREATE OR REPLACE FUNCTION factmemory_set_lexemes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' AND cardinality(NEW.lexemes) > 0 THEN
        RETURN NEW;
    END IF;
    IF TG_OP = 'UPDATE' AND (NEW.claim IS NOT DISTINCT FROM OLD.claim OR NEW.lexemes IS DISTINCT FROM OLD.lexemes) THEN
        RETURN NEW;
    END IF;
    NEW.lexemes := factmemory_lexemes(NEW.claim);
    RETURN NEW;
END
$$;
