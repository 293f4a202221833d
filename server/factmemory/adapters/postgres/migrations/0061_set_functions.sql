-- Three expressions of the write path as IMMUTABLE functions, so that a database distributed on Citus
-- (docs/scaling.md, `factmemory distribute`) takes the statements using them: Citus refuses a subquery inside an
-- INSERT ... ON CONFLICT DO UPDATE and a STABLE function over columns in an UPDATE. What they compute is unchanged.

-- A relationship's tags (write.UPSERT_RELATIONSHIP): at most max_tags, the ones it had first, then new ones while
-- room is left; sorted.
CREATE FUNCTION factmemory_merge_tags(old text[], added text[], max_tags integer) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT ARRAY(SELECT t FROM (SELECT t, min(o) AS first
                                  FROM unnest(old || added) WITH ORDINALITY AS u(t, o)
                                 GROUP BY t ORDER BY first LIMIT max_tags) AS kept
                  ORDER BY t)
$$;

-- Evidence without the deleted messages, in its order (messages.UNLINK_RELATIONSHIPS / UNLINK_IDENTITIES).
CREATE FUNCTION factmemory_without(ids text[], gone text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT ARRAY(SELECT m FROM unnest(ids) WITH ORDINALITY AS u(m, o) WHERE m <> ALL (gone) ORDER BY o)
$$;

-- A deleted message's tombstone (messages.TOMBSTONE_EVALUATED): what replays and retention keep, the token counts.
CREATE FUNCTION factmemory_tombstone(prompt_tokens integer, completion_tokens integer) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT jsonb_build_object('forgotten', true,
                              'usage', jsonb_build_object('prompt_tokens', prompt_tokens,
                                                          'completion_tokens', completion_tokens))
$$;

-- The newest `keep` message ids of a link's evidence (write.UPSERT_RELATIONSHIP / UPSERT_IDENTITY). An array slice
-- in ON CONFLICT DO UPDATE crashed the Citus coordinator (15.0devel, 2026-11-26), also inside an SQL function
-- (inlined into the statement); PL/pgSQL is never inlined.
CREATE FUNCTION factmemory_newest(ids text[], keep integer) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    RETURN ids[greatest(1, cardinality(ids) - keep + 1):];
END
$$;
