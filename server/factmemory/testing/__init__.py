"""Test doubles and harnesses for the tests and the developer tools (never imported by the service itself):
llm (the scripted OpenAI-compatible model, a real HTTP server) and service (the real service in the caller's
process). Import each from its module: `from factmemory.testing.llm import ScriptedLLM`."""
