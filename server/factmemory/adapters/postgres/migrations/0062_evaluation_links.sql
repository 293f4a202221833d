-- The people whose relationships and identities an evaluated message's turn wrote (the sources of its relationships
-- and the people of its identities), kept with the message's evaluation. On a database distributed by person
-- (docs/scaling.md, "One shard per call") ForgetMessages finds the links citing a deleted message on those people's
-- shards alone, instead of reading every shard. NULL: not known (evaluated before this migration), so every link of
-- the agent is looked at, as on one PostgreSQL, which does not read this column.
ALTER TABLE evaluations ADD COLUMN linked_entities uuid[];
