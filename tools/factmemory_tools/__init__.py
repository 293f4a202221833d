"""Developer tools for FactMemory: benchmark, load test, scripted LLM. The service never imports them."""
