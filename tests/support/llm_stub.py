"""The scripted OpenAI-compatible LLM (factmemory_tools.scripted_llm), re-exported for tests."""

from factmemory_tools.scripted_llm import Fault, Reply, ScriptedLLM, current_message, main

__all__ = ["Fault", "Reply", "ScriptedLLM", "current_message"]

if __name__ == "__main__":
    main()
