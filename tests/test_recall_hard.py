"""The hard recall set: committed as generated, shaped as docs/recall.md says (pure, no service)."""

from __future__ import annotations

import json
from collections import Counter

from factmemory_tools.recall import hard


def test_the_committed_set_is_what_the_generator_writes() -> None:
    assert json.loads(hard.OUT.read_text(encoding="utf-8")) == hard.generate()


def test_long_two_speaker_conversations_with_a_part_held_aside() -> None:
    data = hard.generate()
    people = data["people"]
    assert Counter(p["part"] for p in people) == {"tune": 10, "heldout": 10}
    assert Counter(p["conversation"] for p in people) == {c: 2 for c in range(hard.CONVERSATIONS)}
    for person in people:
        facts = [f for m in person["messages"] for f in m["facts"]]
        assert len(person["messages"]) >= 200 and len(facts) >= 150  # hundreds of turns, of facts
        first = person["name"].split()[0]
        assert sum(f["claim"].startswith(first) for f in facts) / len(facts) > 0.6  # most name their speaker
        ids = {f["id"] for f in facts}
        assert all(e in ids for q in person["questions"] for e in q["evidence"])
    types = Counter(q["type"] for p in people for q in p["questions"])
    assert {"paraphrase", "detail", "two_fact", "change", "current"} <= set(types)
    assert all(len(q["evidence"]) == 2 for p in people for q in p["questions"] if q["type"] in ("two_fact", "change"))
