"""A claim the message says of another person, added as the speaker's: found in the message's text. Pure.

Small models attribute facts about people the speaker mentions to the speaker: "My room-mate Jake plays the cello"
becomes the speaker's `plays the cello`. Stored, such a fact is wrong about the person and takes a place in what
the agent is given about them. The defense reads the message the add comes from: when the clause that grounds the
claim best is one whose subject is another person named by a relation ("my room-mate Jake", "my sister"), with no
first-person word in it, and the claim names neither that person nor the relation, the claim says of the speaker
what the message says of someone else, and the add is not stored (the op says why).

Deliberately narrow (docs/dedup.md, "Room-mate's facts"): a clause whose subject is a bare name ("Jake plays the
cello") is not read as another person's (a bare capitalised word also starts sentences), and a claim with no
grounding in its message (a model's inference, a fact restated from earlier) is left alone. A claim that keeps the
other person in its words ("room-mate plays the cello", "sister Mia is visiting"), or names someone that clause does
not name ("has a neighbour named Lazlo ..." beside "My room-mate Priya has a neighbour named Augustin ..."), is
stored as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from factmemory.domain.dedup.claims import analyse
from factmemory.domain.language import expand, words
from factmemory.domain.language.tables import word_rows, word_set
from factmemory.domain.ops import Planned, PlannedAdd, RejectedOp

# Relation words that name another person when they follow "my"/"our" at the start of a clause (words/relations.txt).
RELATIONS: Final = frozenset(row[0] for row in word_rows("relations"))
_FIRST_PERSON: Final = word_set("first_person")  # compared with the words of a clause, contractions expanded
_OPENERS: Final = word_set("possessive_first_person")
_ADJECTIVES: Final = word_set("relation_adjectives")
_CLAUSE_WORDS: Final = "|".join(sorted(word_set("clause_conjunctions")))
# Where a clause ends: sentence punctuation, or a conjunction that starts a new subject ("..., and I ...").
_CLAUSES: Final = re.compile(rf"[.!?;\n]+|,?\s+(?:{_CLAUSE_WORDS})\s+(?=(?:I|I'm|I've|we|my|My)\b)|,\s+(?=I\b)")
# The share of a claim's content words a clause must hold to ground it: half, chosen before any run (not tuned);
# checked on the recall data sets (tools/factmemory_tools/recall/data: none of their 6,332 stated facts is flagged)
# and on the replay's room-mate case (docs/dedup.md).
MIN_GROUNDING: Final = 0.5


@dataclass(frozen=True)
class _Clause:
    words: frozenset[str]  # content keys (the dedup rule's stems)
    other: str | None  # "my room-mate Jake": the other person the clause is about, or None
    names: frozenset[str]  # the relation word and the name, as keys


def _keys(text: str) -> frozenset[str]:
    return frozenset(t.key for t in analyse(text).content)


def _subject(written: Sequence[str]) -> tuple[str, str | None] | None:
    """ "my (best|older|little ...)? <relation> (<Name>)?" opening a clause's words: (relation, name or None)."""
    at = 1 if written and written[0].lower() in _OPENERS else 0
    if at and len(written) > at + 1 and written[at].lower() in _ADJECTIVES:
        at += 1
    if not at or at >= len(written) or written[at].lower() not in RELATIONS:
        return None
    after = written[at + 1].split("'")[0] if at + 1 < len(written) else ""
    return written[at], after if after[:1].isupper() else None


def _clause(text: str) -> _Clause:
    keys = _keys(text)
    written = words(text)
    subject = _subject(written)
    if subject is None or {w.lower() for word in written for w in expand(word)} & _FIRST_PERSON:
        return _Clause(keys, None, frozenset())
    relation, name = subject
    other = " ".join(p for p in ("my", relation, name) if p)
    return _Clause(keys, other, _keys(relation) | (_keys(name) if name else frozenset()) | {relation.lower()})


def other_person(claim: str, text: str) -> str | None:
    """The other person ("my room-mate Jake") when the message says the claim of them, not of the speaker."""
    claim_words = _keys(claim)
    if not claim_words:
        return None
    clauses = [_clause(part) for part in _CLAUSES.split(text) if part and part.strip()]
    grounding = [(len(claim_words & c.words) / len(claim_words), c) for c in clauses]
    best = max((share for share, _ in grounding), default=0.0)
    if best < MIN_GROUNDING:
        return None
    grounded = [c for share, c in grounding if share == best]
    if any(c.other is None for c in grounded):
        return None
    about = grounded[0]
    if {t.key for t in analyse(claim).content if t.name} - about.words:  # it names someone that clause does not
        return None
    mentioned = claim_words | {w.lower() for w in words(claim)}
    return None if mentioned & about.names else about.other


def screen_adds(planned: Sequence[Planned], texts: Sequence[str]) -> list[Planned]:
    """The planned ops, with each add the message says of another person (`other_person`) rejected, saying why;
    texts[i] is the text of the message planned[i] comes from."""
    screened: list[Planned] = []
    for item, text in zip(planned, texts, strict=True):
        if isinstance(item, PlannedAdd) and (who := other_person(item.claim, text)) is not None:
            item = RejectedOp(item.op, f"not stored: the message says this of {who}, not of the speaker")
        screened.append(item)
    return screened
