"""The I/O edges: PostgreSQL, the LLM, the embedding engine."""
