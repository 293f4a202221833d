"""TEMPORARY forwarder: the scripted model is `factmemory.testing.llm`. Only the tools on the layer test's
NOT_YET_PUBLIC list (recall, vs_mem0, bench: edited by the recall work while this moved) still import it here, and
bench/drive.py runs it as `python -m factmemory_tools.scripted_llm`; the integrator switches them to
`factmemory.testing.llm` and deletes this module with that list."""

from factmemory.testing.llm import Fault, Reply, ScriptedLLM, current_message, main, per_message

__all__ = ["Fault", "Reply", "ScriptedLLM", "current_message", "main", "per_message"]

if __name__ == "__main__":
    main()
