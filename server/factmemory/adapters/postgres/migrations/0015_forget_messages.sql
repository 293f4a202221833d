-- Deleted messages leave the memory (ForgetMessages, docs/elizaos-server.md). A deleted message's evaluation row
-- becomes its tombstone: the stored response goes (as retention reduces it) and forgotten_at is set. A message
-- deleted before it was evaluated gets a tombstone row of its own. Evaluate's idempotency key is
-- (agent_id, message_id), so a late or replayed Evaluate of a deleted message finds the tombstone and applies
-- nothing. A tombstone holds no content: the ids, the token counts, when. ForgetEntity removes it with the rest.
ALTER TABLE evaluations ADD COLUMN forgotten_at timestamptz;

-- A cleared channel: the messages evaluated in one room, per agent.
CREATE INDEX evaluations_room_idx ON evaluations (agent_id, room_id) WHERE room_id IS NOT NULL AND forgotten_at IS NULL;
