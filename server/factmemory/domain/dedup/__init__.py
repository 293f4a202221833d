"""Duplicate facts, pure: `lexicon` (the word tables, data in domain/language/words), `rule` (the write-time
SAME/CONFLICT/DISTINCT decision on two claims, built from `claims` (one claim read into tokens through the language
layer), the checks (`differences`: typed details; `structure`: who-did-what; `objects`: a frame about other things),
`additions` (harmless additions) and `policy` (the one table of what each finding does at each decision point)),
`prefilter` (does a neighbour stand out), `planning` (what the write path does with each add: exact key, rule,
possible-duplicate pairs; merges; which open pairs a prompt shows). See docs/dedup.md.
"""
