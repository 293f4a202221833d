"""Which neighbour of an add is plausibly the same fact: it must stand out from the person's other facts. Pure.

With a small embedder every short claim of one person sits close to every other (e5: unrelated claims at cosine
0.82-0.89), and held-out paraphrases start at 0.87, so no global cosine separates them (docs/dedup.md). What does
separate them is how far the nearest neighbour rises above the add's similarity to the *rest* of the person's
facts, read in the same query (the 8 nearest of the kind plus earlier adds of the reply): a paraphrase stands
out, a filler does not. That margin ("stand-out") decides whether a pair is recorded and orders the open pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from factmemory.domain.limits import MIN_OTHERS

# Minimum stand-out (nearest minus the mean of the other candidates read) for a possible-duplicate pair.
# TUNED on the new set of issue 25 (tests/data/dedup-heldout-fillers.tsv: 40 unrelated adds, the largest 0.080,
# one above) and the labelled pairs (tests/data/dedup-pairs.tsv: paraphrases 0.099 and up), after the held-out
# pairs (tests/data/dedup-heldout.tsv) had been looked at; `scripts/measure_dedup.py --stand-out` prints them all.
MIN_STAND_OUT: Final = 0.07


def stand_out(similarities: Sequence[float], index: int, threshold: float) -> float:
    """How far candidate `index` rises above the mean similarity of the other candidates (padded, see MIN_OTHERS)."""
    others = [s for i, s in enumerate(similarities) if i != index]
    others += [threshold] * max(0, MIN_OTHERS - len(others))
    return similarities[index] - sum(others) / len(others)


def stands_out(value: float) -> bool:
    """A pair worth showing the model: the neighbour is plausibly the same fact, not just the same person."""
    return value >= MIN_STAND_OUT
