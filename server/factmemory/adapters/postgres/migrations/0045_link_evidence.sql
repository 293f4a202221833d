-- Relationships and identities cite the messages they were learned from, so that deleted messages take them along
-- (ForgetMessages, docs/elizaos-server.md). evidence_message_ids: the messages of the turns (or batches) that wrote
-- the row, oldest first, at most MAX_LINK_EVIDENCE (domain/limits.py) of the newest. evidence_complete: every turn
-- that wrote the row is among them. A deletion takes its ids out of every row; a row left with none is deleted when
-- its evidence was complete. Rows written before this migration, and rows whose evidence outgrew the cap, also
-- stand on messages nobody recorded: a deletion never deletes them.
ALTER TABLE relationships ADD COLUMN evidence_message_ids text[] NOT NULL DEFAULT '{}',
                          ADD COLUMN evidence_complete boolean NOT NULL DEFAULT false;
ALTER TABLE relationships ALTER COLUMN evidence_complete SET DEFAULT true;

ALTER TABLE identities ADD COLUMN evidence_message_ids text[] NOT NULL DEFAULT '{}',
                       ADD COLUMN evidence_complete boolean NOT NULL DEFAULT false;
ALTER TABLE identities ALTER COLUMN evidence_complete SET DEFAULT true;
