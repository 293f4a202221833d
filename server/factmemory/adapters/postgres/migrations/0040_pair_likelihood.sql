-- Possible-duplicate pairs are offered likeliest first, and a pair not offered within a few of the person's turns
-- expires, so an import or a long history cannot keep newer pairs out of the prompt (docs/dedup.md, issue 25).

-- The pair's stand-out when it was recorded (domain/dedup/prefilter.py): how far the neighbour rose above the add's
-- similarity to the person's other facts. Pairs recorded before this migration count as the least likely.
ALTER TABLE possible_duplicates ADD COLUMN likelihood double precision NOT NULL DEFAULT 0;

-- The entity's revision (entity_revisions) of the turn that recorded the pair; a pair is offered while the entity's
-- revision is within PAIR_TTL_TURNS of it. NULL never expires (pairs written outside the write path). Open pairs of
-- before this migration start their time now.
ALTER TABLE possible_duplicates ADD COLUMN created_revision bigint;
UPDATE possible_duplicates p SET created_revision = r.revision
  FROM entity_revisions r
 WHERE r.agent_id = p.agent_id AND r.entity_id = p.entity_id AND p.status = 'open';

CREATE INDEX possible_duplicates_likely_idx ON possible_duplicates (agent_id, entity_id, likelihood DESC, created_at)
    WHERE status = 'open';
