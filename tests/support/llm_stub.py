"""The scripted OpenAI-compatible LLM (factmemory_tools.scripted_llm), re-exported for tests."""

from factmemory_tools.scripted_llm import (
    Fault,
    Reply,
    ScriptedLLM,
    batch_messages,
    current_message,
    main,
    per_message,
    toy_embedding,
)

__all__ = ["Fault", "Reply", "ScriptedLLM", "batch_messages", "current_message", "per_message", "toy_embedding"]

if __name__ == "__main__":
    main()
