-- A possible-duplicate pair not shown within PAIR_TTL_TURNS turns of the person is no longer offered (0040); it is
-- now closed as 'expired' by the turn that ages it out, so the open pairs in the table are the queue (issue 25).
ALTER TABLE possible_duplicates DROP CONSTRAINT possible_duplicates_status_check;
ALTER TABLE possible_duplicates ADD CONSTRAINT possible_duplicates_status_check
    CHECK (status IN ('open', 'closed', 'expired'));

-- Pairs already aged out (20 = PAIR_TTL_TURNS when this ran) close now; the rest close on the turn that ages them.
UPDATE possible_duplicates p SET status = 'expired', closed_at = now()
  FROM entity_revisions r
 WHERE r.agent_id = p.agent_id AND r.entity_id = p.entity_id AND p.status = 'open'
   AND p.created_revision IS NOT NULL AND p.created_revision <= r.revision - 20;
