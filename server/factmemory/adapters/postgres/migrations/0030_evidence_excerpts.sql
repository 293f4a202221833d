-- The source of a fact (docs/operating.md, "Where a fact came from"): a bounded one-line excerpt of the message
-- (domain/excerpts.py, at most 280 characters), kept with its evaluation and shown on the review page beside the
-- facts it is evidence for. It leaves with the evaluation: ForgetEntity deletes the row, retention's reduction
-- (evaluation_window_days) sets it to NULL with the stored result. Never sent to the model, a client or a log.
ALTER TABLE evaluations ADD COLUMN excerpt text CHECK (char_length(excerpt) <= 1000);
