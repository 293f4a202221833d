"""FactMemory side by side with mem0: the same PostgreSQL build, facts, embedding endpoint and scripted LLM latency,
measured in alternating blocks. `python -m factmemory_tools.vs_mem0 --help`; see docs/bench.md "Side by side with mem0".

mem0 runs in its own virtual environment (its protobuf pin conflicts with ours), driven over stdin/stdout by
`mem0_side.py`; nothing here imports mem0.
"""
