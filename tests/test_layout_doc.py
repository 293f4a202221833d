"""docs/layout.md against the code: every module or package its tree names exists where the tree puts it, and every
package of the service is named in it. Reads the tree's name column (the text before the description column)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = ROOT / "docs" / "layout.md"
PACKAGE = ROOT / "server" / "factmemory"
DESCRIPTION_COLUMN = 28  # where the tree's descriptions start


def tree(text: str) -> list[str]:
    """The lines of the first fenced block: the tree."""
    return text.split("```", 2)[1].splitlines()[1:]


def named(lines: list[str]) -> list[Path]:
    """Every path the name column names, relative to the repository: a folder ends with '/', a module is `name` or
    `name.py` below the folder whose line holds it (by indentation)."""
    paths: list[Path] = []
    stack: list[tuple[int, Path]] = []
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if not line.strip() or indent >= DESCRIPTION_COLUMN:
            continue  # a description's continuation
        names = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        names = re.sub(r"\s*\(.*?\)", "", names)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else Path()
        for name in (n.strip() for n in names.split(",")):
            path = parent / name
            paths.append(path if name.endswith((".py", "/")) else path.with_name(name + "?"))
            if name.endswith("/"):
                stack.append((indent, path))
    return paths


def missing(paths: list[Path]) -> list[str]:
    gone = []
    for path in paths:
        if path.name.endswith("?"):  # a module or a package
            path = path.with_name(path.name[:-1])
            found = path.with_suffix(".py").is_file() or path.is_dir()
        else:
            found = path.exists()
        if not found:
            gone.append(path.as_posix())
    return gone


def test_every_module_the_layout_names_exists() -> None:
    paths = [ROOT / p for p in named(tree(LAYOUT.read_text(encoding="utf-8")))]
    assert len(paths) > 60
    assert missing(paths) == []


def test_every_package_of_the_service_is_named_in_the_layout() -> None:
    block = "\n".join(tree(LAYOUT.read_text(encoding="utf-8")))
    packages = [p.parent for p in PACKAGE.rglob("__init__.py") if p.parent != PACKAGE]
    assert packages
    assert [p.relative_to(PACKAGE).as_posix() for p in packages if f"{p.name}/" not in block] == []


def test_the_reading_of_the_tree_follows_its_indentation(tmp_path: Path) -> None:
    lines = [
        "server/pkg/                 the service",
        "  inner/                    a folder",
        "    mod, other (why)        two modules",
        "                            continued, not/ a name",
        "  top.py                    beside inner",
    ]
    assert [p.as_posix() for p in named(lines)] == [
        "server/pkg",
        "server/pkg/inner",
        "server/pkg/inner/mod?",
        "server/pkg/inner/other?",
        "server/pkg/top.py",
    ]
    (tmp_path / "inner").mkdir()
    (tmp_path / "inner" / "mod.py").write_text("")
    assert missing([tmp_path / "inner/mod?", tmp_path / "inner/other?", tmp_path / "inner"]) == [
        (tmp_path / "inner/other").as_posix()
    ]
