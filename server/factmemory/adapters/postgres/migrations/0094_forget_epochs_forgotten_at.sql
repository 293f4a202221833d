-- Each process looks for the people forgotten since its last look, every ten seconds (adapters/postgres/forgotten.py):
-- an index range of the recent forgets, not a scan of every person ever forgotten.
CREATE INDEX forget_epochs_forgotten_at_idx ON forget_epochs (forgotten_at);
