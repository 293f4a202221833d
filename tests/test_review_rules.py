"""The pure review rules: what each resolution does, page tokens, the disputed marker, search patterns."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import uuid4

import pytest

from factmemory.domain.errors import InvalidInput
from factmemory.domain.limits import MAX_DISPUTE_CHARS
from factmemory.domain.models import (
    CandidateSource,
    CandidateStatus,
    Fact,
    FactEdit,
    HistoryAction,
    Kind,
    Resolution,
    ScoredFact,
)
from factmemory.domain.render import QUOTED_DISPUTES, SHORT_DISPUTE, render
from factmemory.domain.resolutions import (
    check_edit,
    decode_position,
    dispute_note,
    encode_position,
    kind_of,
    plan_resolution,
    reviewer_actor,
    search_pattern,
)

NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def test_contradiction_resolutions() -> None:
    accept = plan_resolution(CandidateSource.CONTRADICT, Resolution.ACCEPT, False)
    assert accept.replace_old_claim and accept.needs_embedding and accept.status is CandidateStatus.ACCEPTED
    reject = plan_resolution(CandidateSource.CONTRADICT, Resolution.REJECT, False)
    assert not reject.needs_embedding and reject.action is HistoryAction.CANDIDATE_REJECTED
    both = plan_resolution(CandidateSource.CONTRADICT, Resolution.KEEP_BOTH, False)
    assert both.insert_proposed and both.needs_embedding and not both.keep_pair
    for wrong in (Resolution.KEEP_NEW, Resolution.KEEP_OLD, Resolution.MERGE):
        with pytest.raises(InvalidInput, match="does not apply"):
            plan_resolution(CandidateSource.CONTRADICT, wrong, False)


def test_dedup_conflict_resolutions_and_the_legacy_decision() -> None:
    src = CandidateSource.DEDUP_CONFLICT
    assert plan_resolution(src, Resolution.KEEP_BOTH, True).keep_pair
    assert plan_resolution(src, Resolution.KEEP_NEW, True).delete_old
    assert plan_resolution(src, Resolution.KEEP_OLD, True).delete_new
    merge = plan_resolution(src, Resolution.MERGE, True)
    assert merge.fold_new_into_old and merge.replace_old_claim and merge.action is HistoryAction.MERGED
    assert plan_resolution(src, Resolution.ACCEPT, True) == merge
    assert plan_resolution(src, Resolution.REJECT, True).resolution is Resolution.KEEP_OLD
    # The new fact is gone already: closing is all that is left, whatever was asked.
    assert plan_resolution(src, Resolution.MERGE, False).resolution is Resolution.KEEP_OLD


def test_page_tokens_round_trip_and_garbage_is_invalid() -> None:
    some_id = uuid4()
    assert decode_position(encode_position(NOW, some_id)) == (NOW, some_id)
    assert decode_position("") is None
    for garbage in ("x", "!!!", encode_position(NOW, some_id)[:-3], "bm90IGEgdG9rZW4"):
        with pytest.raises(InvalidInput, match="page_token"):
            decode_position(garbage)


def test_dispute_note_is_bounded_and_one_line() -> None:
    assert dispute_note("moved to Tokyo") == '(may have changed: "moved to Tokyo", unconfirmed)'
    long = dispute_note("moved\nto " + "very " * 100 + '"far" away')
    quoted = long.split('"')[1]
    assert "\n" not in long and len(quoted) <= MAX_DISPUTE_CHARS and quoted.endswith("…")


def test_rendered_line_of_a_disputed_fact() -> None:
    fact = Fact(
        id=uuid4(),
        agent_id=uuid4(),
        entity_id=uuid4(),
        kind=Kind.DURABLE,
        category="identity",
        claim="lives in Berlin",
        confidence=0.7,
        created_at=NOW,
        last_confirmed_at=NOW,
        disputed_by="moved to Tokyo",
    )
    text = render([ScoredFact(fact=fact, relevance=1, time_weight=1, score=1)], [])
    line = '- [durable.identity] lives in Berlin (may have changed: "moved to Tokyo", unconfirmed)'
    assert text.splitlines()[1] == line


def test_edits_check_category_against_the_kind() -> None:
    assert check_edit(FactEdit(category="goal"), Kind.DURABLE, "identity", 500).category == "goal"
    with pytest.raises(InvalidInput, match="not a current category"):
        check_edit(FactEdit(kind=Kind.CURRENT), Kind.DURABLE, "identity", 500)
    assert check_edit(FactEdit(kind=Kind.CURRENT, category="feeling"), Kind.DURABLE, "identity", 500).kind
    with pytest.raises(InvalidInput, match="between 0 and 1"):
        check_edit(FactEdit(confidence=-0.1), Kind.DURABLE, "identity", 500)
    assert check_edit(FactEdit(claim="  lives\nin Rome "), Kind.DURABLE, "identity", 500).claim == "lives in Rome"


def test_small_helpers() -> None:
    assert kind_of("feeling") is Kind.CURRENT and kind_of("identity") is Kind.DURABLE and kind_of("x") is None
    assert reviewer_actor(" ann\n") == "reviewer:ann" and reviewer_actor("") == "reviewer:anonymous"
    assert search_pattern("50%_off\\") == "50\\%\\_off\\\\"


def _scored(kind: Kind, category: str, claim: str, disputed_by: str = "") -> ScoredFact:
    fact = Fact(
        id=uuid4(),
        agent_id=uuid4(),
        entity_id=uuid4(),
        kind=kind,
        category=category,
        claim=claim,
        confidence=0.7,
        created_at=NOW,
        last_confirmed_at=NOW,
        valid_at=NOW if kind is Kind.CURRENT else None,
        disputed_by=disputed_by,
    )
    return ScoredFact(fact=fact, relevance=1, time_weight=1, score=1)


def test_every_fact_disputed_stays_within_the_provider_budget() -> None:
    from factmemory_tools.bench.tokens import token_counter

    counter = token_counter()
    if not counter.exact:  # the bounds below are o200k_base tokens; characters / 4 would not test them
        pytest.skip(f"needs the optional tokenizer `bpe-openai` (the dev extra): {counter.method}")
    claim = "works nights as a nurse"
    proposal = "moved to a day job at a private clinic in Porto after the hospital closed its ward " * 3
    durable = [_scored(Kind.DURABLE, "business_role", f"{claim} {i}", proposal) for i in range(6)]
    current = [_scored(Kind.CURRENT, "going_through", f"{claim} {i}", proposal) for i in range(6)]
    undisputed = [_scored(s.fact.kind, s.fact.category, s.fact.claim) for s in (*durable, *current)]
    count = counter.count
    # The premise: 6 + 6 facts as long as the benchmark's longest provider text (266 tokens, README).
    assert 240 <= count(render(undisputed[:6], undisputed[6:], "Dana")) <= 270
    text = render(durable, current, "Dana")
    lines = text.splitlines()
    assert sum('(may have changed: "' in line for line in lines) == QUOTED_DISPUTES
    assert sum(line.endswith(SHORT_DISPUTE) for line in lines) == 12 - QUOTED_DISPUTES
    assert count(text) <= 400
    assert render(durable, current, "Dana") == text  # deterministic
