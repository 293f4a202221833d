-- Repairs times outside [1900-01-01, 3000-01-01) (see domain/times.py). Before version 2 a message dated
-- 0001-01-01T00:00:00Z or 9999-12-31T23:59:59.999999Z, or a model valid_at of 0001-01-01, was stored by asyncpg
-- as -infinity/infinity and broke every later read of the entity. The true time is lost: such a time becomes
-- the time of this migration (a fact's valid_at becomes NULL, so its age counts from its creation).

UPDATE facts SET valid_at = NULL
 WHERE valid_at IS NOT NULL AND NOT (valid_at >= '1900-01-01+00' AND valid_at < '3000-01-01+00');
UPDATE facts SET created_at = now()
 WHERE NOT (created_at >= '1900-01-01+00' AND created_at < '3000-01-01+00');
UPDATE facts SET last_confirmed_at = now()
 WHERE NOT (last_confirmed_at >= '1900-01-01+00' AND last_confirmed_at < '3000-01-01+00');

UPDATE fact_candidates SET created_at = now()
 WHERE NOT (created_at >= '1900-01-01+00' AND created_at < '3000-01-01+00');
UPDATE fact_candidates SET resolved_at = now()
 WHERE resolved_at IS NOT NULL AND NOT (resolved_at >= '1900-01-01+00' AND resolved_at < '3000-01-01+00');

UPDATE relationships SET created_at = now()
 WHERE NOT (created_at >= '1900-01-01+00' AND created_at < '3000-01-01+00');
UPDATE relationships SET updated_at = now()
 WHERE NOT (updated_at >= '1900-01-01+00' AND updated_at < '3000-01-01+00');

UPDATE identities SET created_at = now()
 WHERE NOT (created_at >= '1900-01-01+00' AND created_at < '3000-01-01+00');
UPDATE identities SET updated_at = now()
 WHERE NOT (updated_at >= '1900-01-01+00' AND updated_at < '3000-01-01+00');

-- Message ids are keys in their one UUID spelling (lower case, hyphenated) from version 2 on. An evaluation stored
-- under another spelling ('{A...}', 'urn:uuid:...', no hyphens) takes the canonical one, so re-sending the message
-- replays it instead of applying it again. Where several spellings of one id were applied (the bug this repairs),
-- the earliest takes the canonical id and the others keep theirs.
WITH spelled AS (
    SELECT agent_id, message_id, created_at,
           regexp_replace(regexp_replace(lower(message_id), '^urn:uuid:', ''), '[{}-]', '', 'g')::uuid::text
               AS canonical
      FROM evaluations
     WHERE message_id ~* '^(urn:uuid:)?[{]?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}[}]?$'
), chosen AS (
    SELECT DISTINCT ON (s.agent_id, s.canonical) s.agent_id, s.message_id, s.canonical
      FROM spelled s
     WHERE s.message_id <> s.canonical
       AND NOT EXISTS (SELECT 1 FROM evaluations o WHERE o.agent_id = s.agent_id AND o.message_id = s.canonical)
     ORDER BY s.agent_id, s.canonical, s.created_at, s.message_id
)
UPDATE evaluations e SET message_id = chosen.canonical
  FROM chosen
 WHERE e.agent_id = chosen.agent_id AND e.message_id = chosen.message_id;

-- Facts dated in the future (a message dated 2200 made a current fact weigh 1.0 for ever) take the time of this
-- migration; from version 2 on, a message time later than the server's clock (beyond FACTMEMORY_CLOCK_SKEW_S) is
-- taken as the server's clock.
UPDATE facts SET valid_at = now() WHERE valid_at > now() + interval '1 day';
UPDATE facts SET created_at = now() WHERE created_at > now() + interval '1 day';
UPDATE facts SET last_confirmed_at = now() WHERE last_confirmed_at > now() + interval '1 day';
