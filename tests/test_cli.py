"""The command line: what it prints without starting anything."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from factmemory.cli import main

REPO = Path(__file__).resolve().parent.parent


def declared_version() -> str:
    version: str = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    return version


def test_version_is_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"factmemory {declared_version()}\n"


def test_version_from_the_console_script() -> None:
    script = Path(sys.executable).with_name("factmemory")
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout == f"factmemory {declared_version()}\n"
