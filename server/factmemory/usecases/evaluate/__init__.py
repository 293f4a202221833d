"""The write path: messages in, facts learned with one model call, applied in one transaction.

Read top to bottom: run.py (orchestration with the service's own model) -> prompting.py (the call composed: what the
model is shown, its handles, the prompt and schema) -> applying.py (the reply validated per op and written under
the per-entity lock; writes.py holds each op's write) -> results.py (what is answered and kept). agent_model.py
is the same prompting and applying around the caller's own model (PrepareEvaluation / CompleteEvaluation)."""

from factmemory.usecases.evaluate.agent_model import Prepared, complete_evaluation, prepare_evaluation
from factmemory.usecases.evaluate.results import bounded_evidence, stored_form
from factmemory.usecases.evaluate.run import evaluate, evaluate_batch

__all__ = [
    "Prepared",
    "bounded_evidence",
    "complete_evaluation",
    "evaluate",
    "evaluate_batch",
    "prepare_evaluation",
    "stored_form",
]
