"""Database URLs described for logs and errors by the parser that connects (asyncpg's), never showing a secret.

Only what asyncpg will connect to is shown: hosts, ports, socket directories and the database; never the user or
the password. A string asyncpg cannot parse (a keyword-form `host=... password=...` string, a password with an
unescaped `/`), or one it would parse into a host holding part of the password (an unescaped `@`), is not shown at
all: any part of it might be the secret."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from asyncpg import connect_utils

UNPARSABLE = (
    "(a database URL that does not parse, not shown: use postgresql://user:password@host:port/database with "
    "@, / and : in the password percent-encoded as %40, %2F and %3A)"
)


class _Params(Protocol):
    database: str | None


# asyncpg's own parse of a DSN, the one asyncpg.connect runs (private: its stubs leave it out).
_parse_dsn: Callable[..., tuple[list[str | tuple[str, int]], _Params]] = connect_utils._parse_connect_dsn_and_args  # type: ignore[attr-defined]
_PARAMETERS = tuple(inspect.signature(_parse_dsn).parameters)


@dataclass(frozen=True)
class Target:
    """Where a URL leads: 'host:port' or a socket directory per address, and the database."""

    addresses: tuple[str, ...]
    database: str


def target(url: str) -> Target | None:
    """What asyncpg would connect to, or None when it cannot parse the URL or the parse shows a mangled host."""
    try:
        # Every parameter but the DSN left unset: the parse of the URL alone, as asyncpg.connect does it.
        addresses, params = _parse_dsn(**{**dict.fromkeys(_PARAMETERS), "dsn": url})
    except Exception:  # any failure: the string's parts are not trusted to be free of the secret
        return None
    shown: list[str] = []
    for address in addresses:
        if isinstance(address, str):  # a Unix socket path: its directory
            shown.append(address.rsplit("/", 1)[0] or "/")
        else:
            host, port = address
            if "@" in str(host) or "/" in str(host):  # an unescaped @ in the password moved part of it here
                return None
            shown.append(f"{host}:{port}")
    return Target(tuple(shown), str(params.database or ""))


def describe_url(url: str) -> str:
    """host:port/database (several hosts comma-separated), never the user or password; UNPARSABLE otherwise."""
    found = target(url)
    if found is None:
        return UNPARSABLE
    return f"{','.join(found.addresses)}/{found.database or '(default database)'}"
