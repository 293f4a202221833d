"""Evaluate with the service's own model: compose the call (planning), make it, apply the reply (applying); a
turn that lost one of its messages to a concurrent call is composed again for what is left."""

from __future__ import annotations

from factmemory.domain.errors import NotConfigured, Unavailable
from factmemory.domain.models import EvaluateBatchResult, EvaluateInput, EvaluateResult, Usage
from factmemory.usecases.deps import Deps
from factmemory.usecases.evaluate.applying import AlreadyEvaluated, apply_reply
from factmemory.usecases.evaluate.prompting import compose
from factmemory.usecases.evaluate.results import batch, plus
from factmemory.usecases.stopwatch import Stopwatch

# A batch whose messages other calls keep evaluating first is re-planned with what is left, at most this often.
RETRIES_AFTER_A_LOST_RACE = 2


async def evaluate(deps: Deps, request: EvaluateInput) -> EvaluateResult:
    """Evaluates one message once; a repeat of the same (agent, message id) returns the stored result."""
    return (await evaluate_batch(deps, request)).results[-1]


async def evaluate_batch(deps: Deps, request: EvaluateInput) -> EvaluateBatchResult:
    """Evaluates `request.messages` (a batch, or one message) with one LLM call, each message exactly once.

    Messages evaluated before (by any call) are not sent to the model: their stored results are returned, and
    they join the context of the others. The ops of the reply are applied in one transaction under the
    per-entity lock; each message's result holds the ops whose evidence it is, the last one also the
    relationships, identities, verdict and usage of the call."""
    extractor = deps.extractor
    if extractor is None:
        raise NotConfigured("no LLM is configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for other endpoints)")
    usage = Usage()
    for _ in range(1 + RETRIES_AFTER_A_LOST_RACE):
        watch = Stopwatch()
        stored, call = await compose(deps, request, watch)
        if call is None:
            return batch(request, stored, usage)
        with watch.stage("llm"):
            reply, spent = await extractor.extract(call.prompt, call.shown.turn.items)
        try:
            new = await apply_reply(deps, call.shown, reply, spent, watch)
        except AlreadyEvaluated as lost:
            usage = plus(usage, lost.usage)
            continue
        deps.stages.record("evaluate", watch)
        return batch(request, stored | new, plus(usage, spent))
    raise Unavailable("the messages of this call kept being evaluated by concurrent calls; retry it")
