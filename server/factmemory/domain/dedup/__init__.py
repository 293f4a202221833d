"""Duplicate facts, pure: `lexicon` (word tables), `rule` (the write-time SAME/CONFLICT/DISTINCT decision on two
claims, built from `claims` (one claim read into tokens), `structure` (who-did-what checks), `differences` (the
typed details that must agree) and `additions` (harmless additions)), `prefilter` (does a neighbour stand out),
`planning` (what the write path does with each add: exact key, rule, possible-duplicate pairs; merges; which open
pairs a prompt shows). See docs/dedup.md.
"""
