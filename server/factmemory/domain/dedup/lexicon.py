"""The word tables the write-time rule (`rule.py`) reads: fillers, light verbs, markers, equivalents, opposites.

The words are data: one file per concept in domain/language/words/ (each file's header says what it is for), read
once here. Word-level and general, never claim pairs; each entry is a merge (or a block) we trust. See docs/dedup.md.
"""

from __future__ import annotations

from typing import Final, Literal

from factmemory.domain.language.tables import rewrites, word_rows, word_set

# Words that carry no fact in a claim. Not the stop words (stopwords_en.txt): those drop "not", "no", "him", "very"
# and the prepositions, which the rule must see.
FILLERS: Final = word_set("fillers")
# Light verbs, each form to the verb it stands for: "is" -> "be", "owns" -> "have".
LIGHT_VERBS: Final[dict[str, str]] = {form: row[0] for row in word_rows("light_verbs") for form in row[1:]}
WORK_NOUNS: Final = word_set("work_nouns")
WORK_PREPOSITIONS: Final = word_set("work_prepositions")
PREPOSITIONS: Final = word_set("prepositions")
NEGATIONS: Final = word_set("negations")
CONJUNCTIONS: Final = word_set("conjunctions")
TEMPORAL: Final = word_set("temporal")
STATUS_CHANGE: Final = word_set("status_change")
QUALIFIERS: Final = word_set("qualifiers")
TIME_ADDITIONS: Final = word_set("time_additions")
ADDITION_PREPOSITIONS: Final = word_set("addition_prepositions")
# Relations that read the same in both directions ("Alex's husband" == "husband of Alex"): the rows of
# relations.txt marked "symmetric" (the other rows are relations too, read by attribution).
SYMMETRIC_RELATIONS: Final = frozenset(row[0] for row in word_rows("relations") if row[1:] == ("symmetric",))
ROLES: Final = word_set("roles")
# Number words become digits ("two kids" == "2 kids"), ordinals "1st", "2nd", ...: each row is a value and its words.
NUMBER_WORDS: Final[dict[str, str]] = {word: row[0] for row in word_rows("numbers") for word in row[1:]}
EQUIVALENT_GROUPS: Final[tuple[tuple[str, ...], ...]] = word_rows("equivalents")
ANTONYM_PAIRS: Final[tuple[tuple[str, str], ...]] = tuple((a, b) for a, b in word_rows("antonyms"))
NEGATING_PREFIXES: Final = tuple(sorted(word_set("negating_prefixes"), key=lambda p: (-len(p), p)))
# Multi-word rewrites applied to the lower-case word list before classification.
PHRASES: Final = rewrites("phrases")

TokenKind = Literal["content", "prep", "neg", "conj", "light"]
