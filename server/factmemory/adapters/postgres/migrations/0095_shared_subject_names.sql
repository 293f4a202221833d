-- A world's name (docs/shared-facts.md, "A community view"): the name a caller gives the world of a message
-- (EvaluateRequest.world_name, elizaOS's world.name), kept on each of the world's shared subjects with the time of the
-- message that gave it (the latest wins); NULL when never named. Shown for the community in ListEntities, the
-- review page and the command line. The index finds a world's subjects when a turn names it.
ALTER TABLE shared_subjects ADD COLUMN name text, ADD COLUMN named_at timestamptz;
CREATE INDEX shared_subjects_world ON shared_subjects (agent_id, world_id);
