"""The dedup benchmark's erring model (tools/factmemory_tools/dedup): what it reads from a prompt and answers."""

from __future__ import annotations

import json
import random
from typing import Any

from factmemory_tools.dedup.model import CLEAN, MALFORMED, ErringModel, Rates, paraphrase
from factmemory_tools.dedup.run import ERRING, ERROR_KINDS, erring_only, replay_runs

PROMPT = """<known_facts>
[D1] (identity 0.70) lives in Porto
[D2] (identity 0.70) is based in Porto
[D3] (preference 0.70) plays the cello
[D4] (preference 0.70) collects vintage stamps
Possible duplicates: D1~D2, D3~D4
</known_facts>"""


def body(prompt: str = PROMPT) -> dict[str, Any]:
    return {"messages": [{"role": "system", "content": "x"}, {"role": "user", "content": prompt}]}


def answer(model: ErringModel) -> list[dict[str, Any]]:
    content = model(body()).content
    assert isinstance(content, dict)
    ops: list[dict[str, Any]] = content["facts"]["ops"]
    return ops


def model_knowing(rates: Rates) -> ErringModel:
    model = ErringModel(rates)
    model.plan(
        [{"claim": "lives in Porto"}, {"claim": "plays the cello"}, {"claim": "collects vintage stamps"}],
        ["p", "c", "s"],
    )
    model.plan([{"claim": "is based in Porto"}], ["p"])
    model.plan([], [])
    return model


def test_a_correct_model_merges_the_same_fact_into_its_first_claim_and_nothing_else() -> None:
    model = model_knowing(Rates())
    assert answer(model) == [{"op": "merge", "fact": "D1", "duplicate": "D2", "reason": "same fact"}]
    [shown] = model.log
    assert shown.pairs == [
        ("lives in Porto", "is based in Porto", True),
        ("plays the cello", "collects vintage stamps", False),
    ]


def test_a_wrong_model_merges_the_different_pair_and_leaves_the_same_one() -> None:
    model = model_knowing(Rates(merge_accuracy=0.0))
    assert [(op["fact"], op["duplicate"]) for op in answer(model)] == [("D3", "D4")]
    assert model.log[0].merges == {("D3", "D4"): False}


def test_broken_json_at_rate_one() -> None:
    model = model_knowing(Rates(malformed_json=1.0))
    assert model(body()).content == MALFORMED and model.malformed == 1
    try:
        json.loads(MALFORMED)
    except json.JSONDecodeError:
        pass
    else:  # pragma: no cover
        raise AssertionError("the malformed reply parses")


def test_paraphrase_rewrites_or_prefixes() -> None:
    rng = random.Random(1)
    assert paraphrase("lives in Lyon", rng) == "is based in Lyon"
    assert paraphrase("speaks Basque", rng) == "User speaks Basque"


def test_one_error_kind_alone_keeps_the_other_kinds_clean() -> None:
    assert erring_only(list(ERROR_KINDS)) == ERRING
    assert erring_only([]) == CLEAN
    merge_only = erring_only(["merge"])
    assert merge_only.merge_accuracy == ERRING.merge_accuracy < 1 and merge_only.readd_other_words == 0
    runs = replay_runs(None, ["clean", "erring", "category"])
    assert [name for name, _ in runs] == ["clean model", "erring model", "only category"]
    assert runs[2][1] == Rates(wrong_category=ERRING.wrong_category)
    assert replay_runs(["json"], ["erring"])[0][1] == Rates(malformed_json=ERRING.malformed_json)
