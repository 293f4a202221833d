"""The database cannot be used as configured: the errors of its setup (connection, migrations, distribution), each
said in one line for the operator."""

from __future__ import annotations


class DatabaseSetupError(RuntimeError):
    """The database cannot be used as configured (unreachable, missing privileges, wrong schema); said in one line."""


class SchemaMismatch(DatabaseSetupError):
    """The database was created for another embedding size than the one configured."""
