"""deploy/compose.yaml, read as the service would (no container engine runs here): the page and metrics are
published on loopback, both services restart, and its environment is a valid configuration."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from factmemory.app import check_bind
from factmemory.settings import Settings

COMPOSE = Path(__file__).resolve().parent.parent / "deploy" / "compose.yaml"


def service_block(text: str, name: str) -> str:
    found = re.search(rf"^  {name}:\n((?:    .*\n|\n)+)", text, re.MULTILINE)
    assert found, name
    return found.group(1)


def environment(block: str) -> dict[str, str]:
    """The service's variables, with ${VAR:-default} as its default and ${VAR:?message} as a placeholder value."""
    section = block.split("    environment:\n", 1)[1].split("    ports:", 1)[0]
    out = {}
    for key, value in re.findall(r"^      (\w+): (.*)$", section, re.MULTILINE):
        value = re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", value)
        out[key] = re.sub(r"\$\{\w+:\?[^}]*\}", "set-by-the-operator", value)
    return out


def test_the_page_and_metrics_are_published_on_loopback_and_both_services_restart(tmp_path: Path) -> None:
    text = COMPOSE.read_text(encoding="utf-8")
    app, database = service_block(text, "factmemory"), service_block(text, "postgres")
    assert "    restart: unless-stopped\n" in app and "    restart: unless-stopped\n" in database
    ports = re.findall(r'^      - "([\d.]+):(\d+):(\d+)"$', app, re.MULTILINE)
    assert {(host, outside) for host, outside, _ in ports} == {("127.0.0.1", p) for p in ("50051", "8080", "9464")}
    env = environment(app)
    values: dict[str, Any] = {k.removeprefix("FACTMEMORY_").lower(): v for k, v in env.items() if "FACTMEMORY_" in k}
    settings = Settings(**values)
    assert settings.http_listen == "0.0.0.0:8080" and settings.metrics_address == "0.0.0.0:9464"
    assert settings.auth_token and settings.log_format == "json"
    check_bind(settings)  # a token is required, so the page may listen on every interface inside the container
