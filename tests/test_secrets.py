"""Database URLs are described by the parser that connects (asyncpg's): hosts, ports and the database only. A URL it
cannot parse (a keyword-form string, a password with an unescaped `/`) or parses into a host holding part of the
password (an unescaped `@`) is not shown at all; the service then fails in one line naming no part of it."""

from __future__ import annotations

import pytest

from factmemory.adapters.postgres.deployment.urls import UNPARSABLE, describe_url
from factmemory.app import startup_line
from factmemory.settings import Settings
from tests.test_operations import assert_one_line_failure, run_cli

# (URL, the parts of its secret that must never be printed)
UNSHOWABLE = [
    ("host=db.internal port=5432 user=fm password=kw-secret dbname=memory", ["kw-secret", "db.internal"]),
    ("postgresql://fm:at@secret@127.0.0.1:1/memory", ["at@secret", "secret@", "at@"]),
    ("postgresql://fm:slash/secret@127.0.0.1:1/memory", ["slash", "secret@", "/secret"]),
    ("postgresql://fm:colon:secret@127.0.0.1:notaport/memory", ["colon", "secret"]),
]


@pytest.mark.parametrize(("url", "secrets"), UNSHOWABLE)
def test_a_url_that_does_not_parse_is_never_shown(url: str, secrets: list[str]) -> None:
    assert describe_url(url) == UNPARSABLE
    line = startup_line(Settings(database_url=url, database_read_url=url), "127.0.0.1:1")
    assert not any(s in line for s in secrets), line


@pytest.mark.parametrize(("url", "secrets"), UNSHOWABLE)
def test_the_service_fails_in_one_line_without_any_part_of_it(url: str, secrets: list[str]) -> None:
    result = run_cli("migrate", FACTMEMORY_DATABASE_URL=url)
    assert_one_line_failure(result, "does not parse")
    assert not any(s in result.stderr + result.stdout for s in secrets), result.stderr


def test_what_asyncpg_connects_to_is_shown_and_nothing_else() -> None:
    assert describe_url("postgresql://fm:p%40ss%2Fword@db1:6432/memory") == "db1:6432/memory"
    assert describe_url("postgresql://fm:secret@db1:1,db2:2/memory") == "db1:1,db2:2/memory"
    assert describe_url("postgresql://fm:secret@/memory?host=/run/pg") == "/run/pg/memory"
    assert describe_url("postgres:///memory?host=/run/pg&password=q-secret") == "/run/pg/memory"
    assert "secret" not in describe_url("postgresql://fm:secret@db1/memory")
