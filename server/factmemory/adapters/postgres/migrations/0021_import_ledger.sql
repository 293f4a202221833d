-- The import ledger (docs/operating.md, "Importing elizaOS facts"): every source row ever imported for an agent, so
-- that a second import adds nothing whatever happened to the fact since (deleted by a reviewer, decayed, merged,
-- archived, or its person forgotten). A row is a bare hash of the source id: no content, no entity id, nothing about
-- the person; ForgetEntity leaves it, so a forgotten person's legacy rows are not learned again by a re-import.
CREATE TABLE import_ledger (
    agent_id    uuid NOT NULL,
    source_hash text NOT NULL,
    imported_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, source_hash)
);

-- The rows imported before the ledger existed (still stored as facts).
INSERT INTO import_ledger (agent_id, source_hash)
SELECT DISTINCT agent_id, encode(sha256(convert_to(import_source_id, 'UTF8')), 'hex')
  FROM facts
 WHERE import_source_id IS NOT NULL
ON CONFLICT DO NOTHING;
