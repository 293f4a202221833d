"""A reviewer's transaction, a fact's history, the agent-wide queue and entity list."""
