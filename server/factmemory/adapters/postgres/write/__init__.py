"""Evaluate's write path: what it reads first, its write transaction, and the import ledger."""
