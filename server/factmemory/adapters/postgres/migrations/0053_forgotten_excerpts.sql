-- A deleted message keeps no text (issue 36): ForgetMessages now drops the excerpt (migration 0030) with the stored
-- response when it makes an evaluation a tombstone. Tombstones written before that kept theirs, and retention never
-- reduced them (a tombstone is already marked reduced): their excerpts go here. The constraint keeps it so: a
-- tombstone (forgotten_at set) can never hold an excerpt again, whatever code writes it.
UPDATE evaluations SET excerpt = NULL WHERE forgotten_at IS NOT NULL AND excerpt IS NOT NULL;

ALTER TABLE evaluations ADD CONSTRAINT evaluations_tombstone_no_excerpt
    CHECK (forgotten_at IS NULL OR excerpt IS NULL);
