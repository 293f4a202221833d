"""Duplicate facts, pure: `lexicon` (word tables), `rule` (the write-time SAME/CONFLICT/DISTINCT decision on two
claims), `planning` (what the write path does with each add: exact key, rule, possible-duplicate pairs; merges;
which open pairs a prompt shows). See docs/dedup.md.
"""
