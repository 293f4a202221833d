"""Evaluate's write path: what it reads first, its write transaction, the import ledger, and an export stored back."""
