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
