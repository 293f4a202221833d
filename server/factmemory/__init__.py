"""FactMemory: long-term memory about people for AI agents."""
