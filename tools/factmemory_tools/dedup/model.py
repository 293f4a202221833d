"""A scripted model that errs like small real models do, at rates the caller chooses, and knows the truth.

It answers each Evaluate with the adds the benchmark planned for that message, and reads the prompt the service
built: the known facts (handle -> claim) and the marked possible-duplicate pairs. Knowing which stored claim stands
for which fact of the data set (`truth`), it answers a marked pair with the correct merge decision with probability
`merge_accuracy`, and logs what it was shown, so the benchmark can count unrelated pairs and waits.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from factmemory.testing.llm import Reply, facts_shown

_PAIRS = re.compile(r"^Possible duplicates: (.*)$", re.M)
MALFORMED = '{"facts": {"ops": [{"op": "add_durable", "claim": "'


@dataclass(frozen=True)
class Rates:
    """How often the model errs (each a probability; 0 everywhere and merge_accuracy 1 is the clean model)."""

    readd_other_words: float = 0.0  # a restated known fact is re-added in other words instead of repeated verbatim
    wrong_category: float = 0.0  # an add gets another category of the same kind
    unknown_handle: float = 0.0  # a message's reply also strengthens a handle it was not shown
    malformed_json: float = 0.0  # a call answers broken JSON (the benchmark then sends the message again)
    roommate_fact: float = 0.0  # a reply also adds as the speaker's a room-mate's fact its message says (run.py)
    merge_accuracy: float = 1.0  # a marked pair gets the correct merge decision


CLEAN = Rates()


@dataclass
class Shown:
    """One prompt: the marked pairs as (claim, claim, same fact?) and the merges the model proposed."""

    pairs: list[tuple[str, str, bool]] = field(default_factory=list)
    merges: dict[tuple[str, str], bool] = field(default_factory=dict)  # (keep handle, duplicate handle) -> same?
    claims: dict[str, str] = field(default_factory=dict)  # handle -> claim, as shown


class ErringModel:
    """The rule the scripted LLM answers with (`llm.default = model`)."""

    def __init__(self, rates: Rates, seed: int = 25) -> None:
        self.rates = rates
        # one stream per error kind, so turning one kind off does not change the choices of the other
        self.json_rng, self.merge_rng = random.Random(f"{seed}-json"), random.Random(f"{seed}-merge")
        self.adds: list[dict[str, Any]] = []  # what the current message says, planned by the benchmark
        self.extra: list[dict[str, Any]] = []
        self.truth: dict[str, str] = {}  # claim -> the data-set fact it stands for (current person)
        self.canonical: dict[str, str] = {}  # data-set fact -> its first claim
        self.log: list[Shown] = []
        self.malformed = 0

    def __call__(self, body: dict[str, Any]) -> Reply:
        prompt = "\n".join(m["content"] for m in body.get("messages", []) if isinstance(m.get("content"), str))
        shown = Shown()
        self.log.append(shown)
        if self.json_rng.random() < self.rates.malformed_json:
            self.malformed += 1
            return Reply(MALFORMED)
        claims = dict(facts_shown(body))
        shown.claims = claims
        merges = self._answer_pairs(prompt, claims, shown)
        ops = [*self.adds, *merges, *self.extra]
        return Reply(
            {
                "facts": {"ops": ops},
                "relationships": [],
                "identities": [],
                "success": {"completed": True, "reason": "scripted"},
            }
        )

    def _answer_pairs(self, prompt: str, claims: dict[str, str], shown: Shown) -> list[dict[str, Any]]:
        line = _PAIRS.search(prompt)
        marked = [p.split("~") for p in line.group(1).split(", ")] if line else []
        used: set[str] = set()
        ops = []
        for a, b in marked:
            ca, cb = claims.get(a, ""), claims.get(b, "")
            ta, tb = self.truth.get(ca), self.truth.get(cb)
            same = ta is not None and ta == tb
            shown.pairs.append((ca, cb, same))
            correct = self.merge_rng.random() < self.rates.merge_accuracy
            if (same if correct else not same) and not {a, b} & used:
                keep, duplicate = (b, a) if ta is not None and self.canonical.get(ta) == cb else (a, b)
                used |= {a, b}
                shown.merges[(keep, duplicate)] = same
                ops.append({"op": "merge", "fact": keep, "duplicate": duplicate, "reason": "same fact"})
        return ops

    def plan(self, adds: Sequence[dict[str, Any]], ids: Sequence[str]) -> None:
        """The adds of the next message and the data-set fact each stands for."""
        self.adds = list(adds)
        for add, fact_id in zip(adds, ids, strict=True):
            self.truth[add["claim"]] = fact_id
            self.canonical.setdefault(fact_id, add["claim"])


# Rewrites a small model makes when it restates a fact, written for this benchmark from the recall data set's
# claims, apart from the labelled pairs the write-time rule was built against (tests/data/dedup-pairs.tsv).
PARAPHRASES: tuple[tuple[str, str], ...] = (
    ("working on ", "busy with "),
    ("travelling to ", "heading to "),
    ("bought a ", "purchased a "),
    ("lives in ", "is based in "),
    ("works as ", "is employed as "),
    ("feeling ", "feels "),
    ("learning to ", "is learning how to "),
    ("listens to ", "enjoys listening to "),
    ("is allergic to ", "has an allergy to "),
    ("wants to ", "would like to "),
    ("started a ", "began a "),
    ("moved from ", "relocated from "),
    ("slept badly", "had a bad night's sleep"),
    ("reading a ", "in the middle of reading a "),
    ("loves ", "is crazy about "),
    ("hates ", "can't stand "),
    ("cannot stand ", "hates "),
    ("prefers ", "tends to prefer "),
    ("goes to ", "regularly goes to "),
    ("trying to ", "attempting to "),
    ("studying for ", "preparing for "),
    ("looking for ", "searching for "),
    ("has a ", "has got a "),
    ("is in ", "is currently in "),
    ("rents from ", "is renting from "),
    ("set a ", "has set a "),
    ("eats a ", "usually eats a "),
)


def paraphrase(claim: str, rng: random.Random) -> str:
    """The claim in other words: one applicable rewrite at random, else the model's 'User ...' habit."""
    options = [(old, new) for old, new in PARAPHRASES if old in claim]
    if not options:
        return f"User {claim}"
    old, new = rng.choice(options)
    return claim.replace(old, new, 1)
