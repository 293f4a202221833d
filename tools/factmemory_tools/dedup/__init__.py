"""Duplicates on unseen data: the held-out pair check and the erring-model replay (issue 25, docs/dedup.md)."""
