-- Provide marks a fact disputed by the newest pending contradiction of it (rows.DISPUTED_BY), once per fact it
-- returns. Without an index that matches that lookup and its order, the planner walked the agent's whole pending
-- queue backwards (fact_candidates_agent_queue_idx) for every fact: 37 pending items cost 20 buffers per fact,
-- 0.84 of a 2.3 ms statement for 60 facts (EXPLAIN of 2026-11-27), and the cost grows with the queue. This index
-- answers each lookup with one probe.
CREATE INDEX fact_candidates_disputed_idx ON fact_candidates (agent_id, entity_id, fact_id, created_at DESC, id DESC)
    WHERE status = 'pending' AND source = 'contradict';
