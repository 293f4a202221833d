"""The embeddings edge: embedders, and the local engine's worker processes, job queue and text bounds."""
