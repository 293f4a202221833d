"""The word tables: data files in `words/`, read once (at the import of the module that asks). Pure.

Every hand-kept list of English words the service reads is a file here, one concept a file (its header says what the
words are for and who reads them). Format: `#` starts a comment; a table is its words, whitespace-separated
(`word_set`), or its rows, one a line (`word_rows`: antonym pairs, equivalence groups, number words, rewrites
"<words> = <words>"). The files ship in the wheel (pyproject's package-data).

    word_set(name)    the file's words, as a set
    word_rows(name)   the file's rows, each a tuple of its words
    rewrites(name)    rows "<words> = <words>" as (left words, right words)
"""

from __future__ import annotations

import functools
from importlib import resources


@functools.cache
def _lines(name: str) -> tuple[str, ...]:
    text = resources.files(__package__).joinpath("words", f"{name}.txt").read_text(encoding="utf-8")
    return tuple(line for raw in text.splitlines() if (line := raw.split("#", 1)[0].strip()))


def word_set(name: str) -> frozenset[str]:
    """Every word of words/<name>.txt."""
    return frozenset(word for line in _lines(name) for word in line.split())


def word_rows(name: str) -> tuple[tuple[str, ...], ...]:
    """The rows of words/<name>.txt, each as its words in order."""
    return tuple(tuple(line.split()) for line in _lines(name))


def rewrites(name: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """The rows "<words> = <words>" of words/<name>.txt, as (left, right)."""
    out = []
    for line in _lines(name):
        left, sep, right = line.partition("=")
        if not sep or not left.split() or not right.split():
            raise ValueError(f"words/{name}.txt: {line!r} is not '<words> = <words>'")
        out.append((tuple(left.split()), tuple(right.split())))
    return tuple(out)
