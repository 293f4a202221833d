"""The LLM edge: the extractor over an OpenAI-compatible chat endpoint, and reading its completions."""
