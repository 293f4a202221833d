-- The generated `search` column (to_tsvector('simple', claim), migration 0001) and its GIN index answer no query any
-- more: the text search when the embedder is down ranks the stored terms (`facts.lexemes`, migration 0055), and
-- Provide's candidates come from the search vectors and the terms (migration 0072). Both still cost every insert and
-- claim change a tsvector and a GIN update, and the table their bytes. Dropping a column rewrites nothing.
DROP INDEX IF EXISTS facts_search_idx;
ALTER TABLE facts DROP COLUMN IF EXISTS search;
