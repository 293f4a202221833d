"""The command line: what it prints without starting anything."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from factmemory.api.logs import ANNOUNCE_LOGGER
from factmemory.cli import describe, main

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


def test_serve_help_lists_every_setting_with_its_variable_and_default(capsys: pytest.CaptureFixture[str]) -> None:
    from factmemory.settings import Settings

    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    for name, info in Settings.model_fields.items():
        alias = getattr(info.validation_alias, "choices", None)
        assert f"\n  {alias[0] if alias else 'FACTMEMORY_' + name.upper()}=" in out, name
    assert "  FACTMEMORY_NATIVE_STDERR=json  [json | silence | raw]\n" in out
    assert "  FACTMEMORY_READ_RETRY_S=10.0  [> 0]\n" in out
    assert "      The review page (HTTP, host:port); off when unset.\n" in out  # its comment in settings.py
    assert "docs/configuration.md" in out


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (
            FileNotFoundError(2, "No such file or directory", "/etc/fm/k.pem"),
            "cannot read /etc/fm/k.pem: no such file or directory",
        ),
        (PermissionError(13, "Permission denied"), "permission denied"),
        (json.JSONDecodeError("Expecting value", "x", 0), "not valid JSON: Expecting value at line 1 column 1"),
    ],
)
def test_expected_failures_read_as_one_plain_line(error: BaseException, line: str) -> None:
    assert describe(error) == line


@pytest.fixture
def own_logging() -> Iterator[None]:
    """main() configures logging for the process: put the test process's handlers back afterwards."""
    loggers = [logging.getLogger(), logging.getLogger(ANNOUNCE_LOGGER)]
    saved = [(lg.handlers[:], lg.level, lg.propagate) for lg in loggers]
    yield
    for lg, (handlers, level, propagate) in zip(loggers, saved, strict=True):
        lg.handlers[:], lg.level, lg.propagate = handlers, level, propagate


def test_a_missing_import_file_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, own_logging: None
) -> None:
    missing = tmp_path / "nope.json"
    code = main(["import", "--file", str(missing)])
    err = capsys.readouterr().err
    assert code == 1
    assert err.splitlines()[-1] == f"factmemory: import failed: cannot read {missing}: no such file or directory"
