"""The scripted OpenAI-compatible LLM (factmemory.scripted_llm), re-exported for tests and runnable as a script."""

from factmemory.scripted_llm import Fault, Reply, ScriptedLLM, current_message, main

__all__ = ["Fault", "Reply", "ScriptedLLM", "current_message"]

if __name__ == "__main__":
    main()
