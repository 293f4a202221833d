-- No duplicates pile up (docs/dedup.md): an exact-duplicate key, possible-duplicate pairs for the model to merge,
-- and a per-entity revision that lets the write path plan before taking the per-entity lock.

-- The exact-duplicate key: the claim with case, spacing, punctuation and unicode forms (NFKC) normalised. This
-- function is its one home; the write path asks it for the keys of its adds. Case folding beyond ASCII follows the
-- database's ctype (C.UTF-8 and the usual UTF-8 locales fold it; the plain "C" locale does not).
CREATE FUNCTION factmemory_claim_key(claim text) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT nullif(btrim(regexp_replace(
               lower(CASE WHEN current_setting('server_encoding') = 'UTF8' THEN normalize(claim, NFKC) ELSE claim END),
               '[^[:alnum:]]+', ' ', 'g')), '')
$$;

-- Set on every write of a claim, kind or category, whoever writes it (evaluations, reviews, imports). The write
-- path strengthens instead of inserting a second fact with the same key; a write that would still collide (a
-- reviewer's edit, a reclassification) keeps its fact without a key rather than failing.
ALTER TABLE facts ADD COLUMN claim_key text;
CREATE FUNCTION factmemory_set_claim_key() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.claim_key := factmemory_claim_key(NEW.claim);
    IF NEW.claim_key IS NOT NULL AND EXISTS (
        SELECT 1 FROM facts f
         WHERE f.agent_id = NEW.agent_id AND f.entity_id = NEW.entity_id AND f.kind = NEW.kind
           AND f.category = NEW.category AND f.claim_key = NEW.claim_key AND f.id <> NEW.id) THEN
        NEW.claim_key := NULL;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER facts_claim_key BEFORE INSERT OR UPDATE OF claim, kind, category ON facts
    FOR EACH ROW EXECUTE FUNCTION factmemory_set_claim_key();
-- Existing facts: the first of a set of exact duplicates takes the key, the others keep none.
UPDATE facts SET claim = claim;
CREATE UNIQUE INDEX facts_claim_key_idx ON facts (agent_id, entity_id, kind, category, claim_key);

-- Two facts of one kind that passed the similarity pre-filter but that the write-time rule kept apart. Stored once
-- per pair (fact_id < other_fact_id); shown to the model once, then closed; gone with either fact.
CREATE TABLE possible_duplicates (
    agent_id            uuid NOT NULL,
    entity_id           uuid NOT NULL,
    fact_id             uuid NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    other_fact_id       uuid NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    similarity          double precision NOT NULL,
    reason              text NOT NULL DEFAULT '',
    evidence_message_id text NOT NULL,
    status              text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    created_at          timestamptz NOT NULL,
    closed_at           timestamptz,
    PRIMARY KEY (fact_id, other_fact_id),
    CHECK (fact_id < other_fact_id)
);
CREATE INDEX possible_duplicates_open_idx ON possible_duplicates (agent_id, entity_id, created_at)
    WHERE status = 'open';
CREATE INDEX possible_duplicates_other_idx ON possible_duplicates (other_fact_id);

-- Bumped by every transaction that takes the per-entity lock: a write planned against revision r is still valid
-- when its own lock returns r + 1. Holds no personal data (a counter), so forgetting an entity keeps it.
CREATE TABLE entity_revisions (
    agent_id  uuid NOT NULL,
    entity_id uuid NOT NULL,
    revision  bigint NOT NULL,
    PRIMARY KEY (agent_id, entity_id)
);
