"""Two claims with one frame about different things: the same preposition governs words they never share. Pure.

"feeling irritable about the family visit" / "... about the neighbours' renovation", "allergic to shellfish" /
"allergic to tree nuts", "tired after a night shift" / "after a long run": the words around the preposition agree,
what it governs does not, so the two are different facts whatever a model says. A merge of them would delete a
different fact (docs/dedup.md, "A merge the model may not make"). No threshold: on the labelled, held-out and blind
pairs (tests/data/dedup-*.tsv) it finds no paraphrase pair and 9 of the 40 different ones.
"""

from __future__ import annotations

from factmemory.domain.dedup.claims import Claim, Token, analyse
from factmemory.domain.dedup.differences import Diff, diff, fmt


def _objects(claim: Claim) -> dict[str, list[tuple[Token, ...]]]:
    """Per preposition, the content words it governs (up to the next preposition), once per occurrence."""
    out: dict[str, list[list[Token]]] = {}
    current: list[Token] | None = None
    for token in claim.tokens:
        if token.kind == "prep":
            current = []
            out.setdefault(token.key, []).append(current)
        elif token.kind == "content" and current is not None:
            current.append(token)
    return {prep: [tuple(words) for words in phrases] for prep, phrases in out.items()}


def governed(a: Claim, b: Claim, d: Diff | None = None) -> str | None:
    """ "what 'about' governs differs: family visit vs neighbours renovation" when a preposition both claims use once
    governs words in each and no word in common; else None."""
    objects_a, objects_b = _objects(a), _objects(b)
    for prep in sorted(objects_a.keys() & objects_b.keys()):
        if len(objects_a[prep]) != 1 or len(objects_b[prep]) != 1:
            continue
        (xa,), (xb,) = objects_a[prep], objects_b[prep]
        if xa and xb and not {t.key for t in xa} & {t.key for t in xb}:
            words_a, words_b = " ".join(t.surface for t in xa), " ".join(t.surface for t in xb)
            return f"what {prep!r} governs differs: {words_a} vs {words_b}"
    return None


def object_difference(claim_a: str, claim_b: str) -> str | None:
    """`governed` on two claims' texts."""
    return governed(analyse(claim_a), analyse(claim_b))


def number_in_one(a: Claim, b: Claim, d: Diff) -> str | None:
    """'2026 only in one' when a number (a count, an amount, a year) is stated by one claim and not the other.

    A merge keeps one claim; the other survives only in the fact's history. Numbers are the detail a merge must not
    add or drop: "started a new job as a translator at Veltrix Health in June 2026" is an event with a date, "works
    as a translator at Veltrix Health" the role it led to. Two facts, whatever a model says; kept both, they are a
    nuisance at worst. None of the 46 paraphrase pairs of tests/data/dedup-*.tsv differs so."""
    found = [t for t in (*d.only_a, *d.only_b) if t.number]
    return None if not found else f"{fmt(found)} only in one"


def number_only_in_one(claim_a: str, claim_b: str) -> str | None:
    """`number_in_one` on two claims' texts."""
    a, b = analyse(claim_a), analyse(claim_b)
    return number_in_one(a, b, diff(a, b))
