-- The HNSW index of migration 0001 answers no query any more: Provide's nearest facts come from the half-precision
-- shortlist of migration 0008 (exact), and Evaluate's write context now reads the same shortlist. It still cost
-- every insert a walk of one graph of all the table's vectors (Evaluate's `apply` grew with the table: docs/scaling.md),
-- and the planner still took it for the write context of a large person: an approximate neighbour list (pgvector's
-- relaxed_order iterative scan) for the duplicate check, and 9 ms per add for a person with 2,000 facts (EXPLAIN,
-- 2026-11-25). No other statement orders by `embedding <=>` without one person's range.
DROP INDEX IF EXISTS facts_embedding_hnsw_idx;
