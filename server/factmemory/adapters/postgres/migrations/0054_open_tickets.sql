-- The ticket bounds count OPEN tickets only (issue 36): unused, holding their content, not expired. Used, expired
-- and voided tickets stay a little while, without content, only so that presenting one is refused by name; they
-- no longer take anyone's room. This index serves the count made at every issue (in all, and the agent's share).
CREATE INDEX evaluation_tickets_open_idx ON evaluation_tickets (agent_id, expires_at)
    WHERE used_at IS NULL AND body IS NOT NULL;
