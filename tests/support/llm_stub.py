"""The scripted OpenAI-compatible LLM (factmemory.testing.llm) as the tests import it, and as a script for the
TypeScript tests (`python tests/support/llm_stub.py --port 0 --script ...`)."""

from factmemory.testing.llm import (
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
