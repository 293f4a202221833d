"""docs/configuration.md is generated from the settings: the committed file is what the generator writes now, and
it names every setting."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from factmemory.api.settings_doc import settings_docs
from factmemory.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def test_the_committed_configuration_doc_is_the_generated_one() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_configuration.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-1000:]


def test_every_setting_has_a_row_and_a_meaning() -> None:
    doc = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    source = (ROOT / "server" / "factmemory" / "settings.py").read_text(encoding="utf-8")
    for setting in settings_docs(Settings, source):
        assert f"`{setting.env}`" in doc, setting.env
    # the two settings the hand-written page had missed, with their meaning
    assert "`FACTMEMORY_EMBEDDING_TIMEOUT_S` | `20.0` | `> 0` | Timeout of one call" in doc
    assert "`FACTMEMORY_DB_TIMEOUT_S` | `2` / `16` / `10.0` |" in doc
