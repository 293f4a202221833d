"""The LoCoMo recall tool measures the live turn by default (tools/factmemory_tools/recall/locomo.py): each
question alone, after the conversation's last messages, and as a follow-up, side by side. A small replay file of
our own runs it end to end against the real service (a regression test of the tool, not evidence of recall)."""

from __future__ import annotations

import json
from pathlib import Path

from factmemory_tools.recall import locomo

TURNS = [
    (
        "D1:1",
        "Ana",
        "I adopted a rescue dog named Biscuit last spring.",
        [("add_durable", "adopted a rescue dog named Biscuit", "relationship")],
    ),
    (
        "D1:2",
        "Ben",
        "I started a pottery class on Tuesdays.",
        [("add_durable", "takes a pottery class on Tuesdays", "preference")],
    ),
    ("D1:3", "Ana", "I work as a nurse in Leeds.", [("add_durable", "works as a nurse in Leeds", "identity")]),
    ("D1:4", "Ben", "We hiked the Pennine Way in the rain.", [("add_durable", "hiked the Pennine Way", "preference")]),
    ("D1:5", "Ana", "Mountain trails are the best, my boots held up.", []),
    ("D1:6", "Ben", "Next summer we walk the whole trail again!", []),
]


def replay_file(path: Path) -> Path:
    turns = [
        {
            "dia_id": dia,
            "speaker": speaker,
            "time": f"2026-11-{10 + n:02d}T10:00:00Z",
            "text": text,
            "ops": [{"op": op, "claim": claim, "category": category} for op, claim, category in ops],
        }
        for n, (dia, speaker, text, ops) in enumerate(TURNS)
    ]
    questions = [
        {"question": "What is the name of Ana's dog?", "about": "Ana", "evidence": ["D1:1"], "category": 4},
        {"question": "What does Ana do for a living?", "about": "Ana", "evidence": ["D1:3"], "category": 4},
        {"question": "When does Ben have his pottery class?", "about": "Ben", "evidence": ["D1:2"], "category": 2},
    ]
    conversation = {"id": "conv-x", "speakers": ["Ana", "Ben"], "turns": turns, "questions": questions}
    conversation["asked_at"] = "2026-11-20T10:00:00Z"
    path.write_text(json.dumps({"source": "test", "replay": [], "conversations": [conversation]}), encoding="utf-8")
    return path


def test_a_follow_up_leans_on_the_question_before_it() -> None:
    assert locomo.follow_up("When did Caroline go to the support group?") == "When was that?"
    assert locomo.follow_up("How long has Ana been a nurse?") == "How long was that?"
    assert locomo.follow_up("Would Caroline enjoy a concert?") == locomo.FOLLOW_UP_DEFAULT


async def test_the_tool_asks_each_question_in_every_way_by_default(empty_database: str, tmp_path: Path) -> None:
    options = locomo.Options(data=replay_file(tmp_path / "replay.json"), url=empty_database, mem0=None)
    result = await locomo.run(options)
    rankings = result["rankings"]
    assert result["questions"] == 3 and result["facts"] == 4
    names = [f"Provide, {locomo.MODE_NAMES[mode]}" for mode in locomo.MODES]
    assert list(rankings)[: len(names)] == names
    for name in names:  # every question's evidence is stored, and every way of asking finds it among 12 facts
        assert rankings[name]["recall@12"] == 1.0
    table = locomo.table(result)
    assert "after the last 4 messages" in table and "follow-up" in table


def test_the_live_turn_sends_the_last_messages_with_their_speakers_then_the_question(tmp_path: Path) -> None:
    data = json.loads(replay_file(tmp_path / "replay.json").read_text(encoding="utf-8"))
    (q, *_) = locomo.questions(data)
    live = locomo.plugin_request(q, mode=locomo.AFTER_4).recent_messages
    assert [m.text for m in live] == [t[2] for t in TURNS[-4:]] + [q.text]
    assert {m.name for m in live[:-1]} == {"Ana", "Ben"} and live[-1].entity_id == str(q.entity)
    follow = locomo.plugin_request(q, mode=locomo.FOLLOW_UP).recent_messages
    assert [m.text for m in follow][-2:] == [q.text, "What was it again?"]
