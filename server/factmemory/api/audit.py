"""The audit trail: every state-changing action of a person or a tool (the review page, the review RPCs, the
CLI's import) is ONE log line on the `factmemory.audit` logger: who, what, where it came from, which agent /
entity / fact, and the result. Never a claim, a message or a secret: ids, names of actions and counts only."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from factmemory.api.logs import escaped
from factmemory.domain.errors import Conflict, FactMemoryError, InvalidInput, NotConfigured, NotFound, Unavailable

log = logging.getLogger("factmemory.audit")

MAX_FIELD_CHARS = 80
MAX_ERROR_CHARS = 200
RESULTS: tuple[tuple[type[Exception], str], ...] = (
    (InvalidInput, "invalid_input"),
    (NotFound, "not_found"),
    (Conflict, "conflict"),
    (NotConfigured, "not_configured"),
    (Unavailable, "unavailable"),
)


@dataclass
class AuditEntry:
    """One action being done; `note` adds what is learnt on the way (the new fact's id, counts)."""

    action: str
    via: str
    actor: str
    target: dict[str, str] = field(default_factory=dict)
    result: str = "ok"
    error: str = ""

    def failed(self, exc: BaseException) -> None:
        """Records a failure the block handled itself (the page shows the form again with the reason)."""
        self.result = result_of(exc)
        self.error = escaped(str(exc))[:MAX_ERROR_CHARS] if isinstance(exc, FactMemoryError) else type(exc).__name__

    def note(self, **fields: object) -> None:
        self.target.update({k: bounded(v) for k, v in fields.items() if v not in (None, "")})


def bounded(value: object) -> str:
    """A field as one short line, control characters shown escaped (api/logs.py): caller-supplied ids are not
    trusted to be short or well-formed, and an ESC or a newline in one must not reach an operator's terminal."""
    return escaped(str(value).strip())[:MAX_FIELD_CHARS]


def result_of(exc: BaseException) -> str:
    """The result word of a failed action: the kind of domain error, else 'error'."""
    return next((word for kind, word in RESULTS if isinstance(exc, kind)), "error")


def line(entry: AuditEntry) -> str:
    """The text form: `audit: <action> by <actor> via <via>: <result> (agent=… entity=…)`."""
    where = " ".join(f"{k}={v}" for k, v in entry.target.items())
    return f"audit: {entry.action} by {entry.actor} via {entry.via}: {entry.result}" + (f" ({where})" if where else "")


def emit(entry: AuditEntry) -> None:
    extra: dict[str, object] = {"audit": True, "action": entry.action, "via": entry.via, "actor": entry.actor}
    extra.update(entry.target)
    extra["result"] = entry.result
    if entry.error:
        extra["error"] = entry.error
    # A refused login is a warning (someone may be guessing); the rest is INFO whatever the result, which `result`
    # says: a reviewer's typo is not an operator's problem.
    log.log(logging.WARNING if entry.result == "refused" else logging.INFO, line(entry), extra=extra)


@contextmanager
def audited(action: str, via: str, actor: str, **target: object) -> Iterator[AuditEntry]:
    """Logs exactly one audit line when the block ends: result 'ok' (or what the block set), or the error's kind."""
    entry = AuditEntry(action=action, via=via, actor=bounded(actor) or "unknown")
    entry.note(**target)
    try:
        yield entry
    except BaseException as exc:
        entry.failed(exc)
        emit(entry)
        raise
    emit(entry)
