"""The review page's pure parts: the SVG charts, fact ordering and weights, edit parsing, login sessions."""

from __future__ import annotations

import math
import re
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from factmemory.api.http import charts, labels, views
from factmemory.api.http.charts import HEIGHT, LEFT, TOP, WIDTH, Point
from factmemory.api.http.security import SESSION_TTL_S, Sessions, local_path
from factmemory.domain.errors import InvalidInput
from factmemory.domain.models import Candidate, CandidateSource, CandidateStatus, Fact, FactEdit, Kind, Verification

NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
PLOT_H = HEIGHT - TOP - 30


def fact(
    claim: str, kind: Kind = Kind.CURRENT, days: float = 0.0, confidence: float = 0.7, category: str = "feeling"
) -> Fact:
    at = NOW - timedelta(days=days)
    return Fact(
        id=uuid.uuid4(),
        agent_id=uuid.uuid4(),
        entity_id=uuid.uuid4(),
        kind=kind,
        category=category,
        claim=claim,
        confidence=confidence,
        created_at=at,
        last_confirmed_at=at,
    )


def dots(svg: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r'<circle class="dot" cx="([\d.]+)" cy="([\d.]+)"', svg)]


def test_a_fact_one_decay_old_sits_at_weight_one_over_e() -> None:
    svg = charts.weight_curve(14.0, [Point(14.0, math.exp(-1), "x")], span_days=42.0)
    [(x, y)] = dots(svg)
    assert math.isclose(x, LEFT + (WIDTH - LEFT - 12) / 3, abs_tol=0.1)
    assert math.isclose(y, TOP + PLOT_H * (1 - math.exp(-1)), abs_tol=0.1)


def test_the_curve_follows_exp_minus_age_over_decay() -> None:
    svg = charts.weight_curve(10.0, [], span_days=30.0)
    path = re.search(r'class="curve" d="([^"]+)"', svg)
    assert path
    points = [tuple(map(float, p[1:].split(","))) for p in path.group(1).split()]
    assert len(points) == 61
    plot_w = WIDTH - LEFT - 12
    for x, y in points:
        age = (x - LEFT) / plot_w * 30.0
        assert math.isclose(y, TOP + PLOT_H * (1 - math.exp(-age / 10.0)), abs_tol=0.15)


def test_the_span_stretches_to_the_oldest_fact() -> None:
    svg = charts.weight_curve(14.0, [Point(100.0, math.exp(-100 / 14), "old")])
    [(x, _)] = dots(svg)
    assert x < WIDTH - 12  # inside the plot, not clipped at three decay lengths


def test_chart_text_is_escaped() -> None:
    svg = charts.weight_curve(14.0, [Point(1.0, 0.9, '<script>alert("x")</script>')])
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    bars = charts.category_bars([("durable", "<b>odd</b>", 2)])
    assert "<b>" not in bars and "&lt;b&gt;odd&lt;/b&gt;" in bars


def test_category_bars_longest_first_and_proportional() -> None:
    svg = charts.category_bars([("durable", "goal", 1), ("durable", "identity", 4), ("current", "feeling", 2)])
    names = re.findall(r'text-anchor="end">([^<]+)<', svg)
    widths = [float(w) for w in re.findall(r'class="bar \w+" x="\d+" y="\d+" width="([\d.]+)"', svg)]
    assert names == ["identity", "feeling", "goal"]
    assert 'class="bar current"' in svg
    assert math.isclose(widths[0] / widths[1], 2.0) and math.isclose(widths[0] / widths[2], 4.0)


def test_no_facts_draws_an_empty_chart() -> None:
    assert "no facts" in charts.category_bars([])
    assert dots(charts.weight_curve(14.0, [])) == []


def test_rows_rank_by_confidence_times_weight_as_the_provider_does() -> None:
    fresh_unsure = fact("fresh", days=0, confidence=0.5)
    old_sure = fact("old", days=28, confidence=0.9)  # weight e^-2 = 0.135 -> 0.12
    durable = fact("durable", kind=Kind.DURABLE, days=400, confidence=0.6, category="identity")
    current = views.fact_rows([old_sure, durable, fresh_unsure], Kind.CURRENT, NOW, 14.0)
    assert [r.fact.claim for r in current] == ["fresh", "old"]
    assert math.isclose(current[1].weight, math.exp(-2))
    [row] = views.fact_rows([old_sure, durable, fresh_unsure], Kind.DURABLE, NOW, 14.0)
    assert row.weight == 1.0 and row.standing == 0.6


def test_edit_carries_only_what_changed() -> None:
    f = fact("lives in Berlin", kind=Kind.DURABLE, confidence=0.7, category="identity")
    same = {
        "claim": "lives  in Berlin ",
        "category": "identity",
        "kind": "durable",
        "confidence": "0.70",
        "verification": "self_reported",
    }
    assert views.edit_from_form(f, same) == views.NO_EDIT
    changed = {**same, "claim": "lives in Tokyo", "confidence": "0.9", "verification": "confirmed"}
    assert views.edit_from_form(f, changed) == FactEdit(
        claim="lives in Tokyo", confidence=0.9, verification=Verification.CONFIRMED
    )


@pytest.mark.parametrize("bad", ["high", "1.5", "-0.1", "nan"])
def test_a_bad_confidence_is_invalid_input(bad: str) -> None:
    with pytest.raises(InvalidInput):
        views.parse_confidence(bad, 0.5)


def test_unknown_kind_or_resolution_is_invalid_and_unknown_source_means_all() -> None:
    with pytest.raises(InvalidInput):
        views.parse_kind("forever")
    with pytest.raises(InvalidInput):
        views.parse_resolution("maybe")
    assert views.parse_source("nonsense") is None


def test_queue_label_says_when_there_are_more() -> None:
    assert labels.queue_label(3, False) == "3" and labels.queue_label(100, True) == "100+"


def test_sessions_expire_and_close() -> None:
    now = [0.0]
    sessions = Sessions(clock=lambda: now[0])
    a, b = sessions.open("Dana"), sessions.open()
    assert a != b and sessions.valid(a) and not sessions.valid("guess")
    assert sessions.reviewer(a) == "Dana" and sessions.reviewer(b) == "" and sessions.reviewer("guess") == ""
    sessions.close(a)
    assert not sessions.valid(a) and sessions.valid(b)
    now[0] = SESSION_TTL_S + 1
    assert not sessions.valid(b)


def candidate(about: Fact, proposed: str, source: CandidateSource, status: CandidateStatus) -> Candidate:
    return Candidate(
        id=uuid.uuid4(),
        agent_id=about.agent_id,
        entity_id=about.entity_id,
        fact=about,
        proposed_claim=proposed,
        reason="",
        source=source,
        evidence_message_id="m",
        status=status,
        created_at=NOW,
    )


def test_pending_review_items_mark_the_fact_they_concern() -> None:
    berlin, coffee, mia = (
        fact("lives in Berlin", Kind.DURABLE),
        fact("loves coffee", Kind.DURABLE),
        fact("has a sister", Kind.DURABLE),
    )
    pending = [
        candidate(berlin, "lives in Tokyo", CandidateSource.CONTRADICT, CandidateStatus.PENDING),
        candidate(coffee, "hates coffee", CandidateSource.DEDUP_CONFLICT, CandidateStatus.PENDING),
        candidate(mia, "has no sister", CandidateSource.CONTRADICT, CandidateStatus.REJECTED),
    ]
    rows = {r.fact.claim: r.disputes for r in views.fact_rows([berlin, coffee, mia], Kind.DURABLE, NOW, 14, pending)}
    assert rows == {
        "lives in Berlin": (("contradict", "lives in Tokyo"),),
        "loves coffee": (("dedup_conflict", "hates coffee"),),
        "has a sister": (),
    }


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/agents/x/queue", "/agents/x/queue"),
        ("//evil.example/x", "/"),
        ("https://evil.example", "/"),
        ("/\\evil.example", "/"),
        ("", "/"),
    ],
)
def test_after_login_only_a_local_path(target: str, expected: str) -> None:
    assert local_path(target) == expected


def test_history_names_the_message_briefly_and_people_fully() -> None:
    assert labels.short_actor("message:2de34063-b094-4d99-bebb-ece8520d7a45") == "message 2de34063"
    assert labels.short_actor("reviewer:page") == "reviewer:page"


def test_each_resolution_says_its_result_and_none_is_highlighted_for_opposites() -> None:
    coffee = fact("loves coffee", Kind.DURABLE, category="preference")
    conflict = candidate(coffee, "hates coffee", CandidateSource.DEDUP_CONFLICT, CandidateStatus.PENDING)
    labels = {c.resolution.value: (c.label, c.help, c.danger) for c in views.resolution_choices(conflict)}
    assert labels["merge"][0] == "Replace ‘loves coffee’ with ‘hates coffee’" and labels["merge"][2]
    assert labels["keep_new"][:2] == ("Keep only ‘hates coffee’", "delete ‘loves coffee’ (its history stays)")
    assert labels["reject"][:2] == ("Keep only ‘loves coffee’", "delete the new fact ‘hates coffee’")
    assert labels["keep_both"][0] == "Keep both" and not labels["keep_both"][2]
    contradiction = candidate(coffee, "x " * 80, CandidateSource.CONTRADICT, CandidateStatus.PENDING)
    first = views.resolution_choices(contradiction)[0]
    assert first.resolution.value == "accept" and first.danger and first.label.endswith("x…’")
    assert len(first.label) < 100  # a long claim is shortened at a word in the label


def test_the_forms_offer_only_valid_pairs_and_keep_what_was_typed() -> None:
    from factmemory.domain.resolutions import check_category

    for kind, options in views.kind_category_choices():
        for value, _ in options:
            k, category = value.split(":")
            assert k == kind and check_category(Kind(k), category) == category
    assert views.parse_kind_category({"kind_category": "current:feeling"}) == (Kind.CURRENT, "feeling")
    assert views.parse_kind_category({"kind": "durable", "category": "goal"}) == (Kind.DURABLE, "goal")
    typed = views.AddForm.of({"kind_category": "durable:goal", "claim": "sails", "confidence": "0.8"})
    assert typed == views.AddForm("durable:goal", "sails", "0.8")
    f = fact("lives in Berlin", Kind.DURABLE, category="identity")
    assert views.EditForm.of(f, {}).kind_category == "durable:identity"
    assert views.EditForm.of(f, {"claim": "typed"}).claim == "typed"


def test_an_error_page_leads_back_to_the_fact_or_the_person() -> None:
    base = f"/agents/{uuid.uuid4()}/entities/{uuid.uuid4()}"
    fact_path = f"{base}/facts/{uuid.uuid4()}"
    assert views.back_link(f"{fact_path}/edit", "POST", 400) == (fact_path, "Back to the fact")
    assert views.back_link(f"{fact_path}/delete", "POST", 404) == (base, "Back to the person")
    assert views.back_link(f"{base}/forget", "POST", 400) == (base, "Back to the person")
    assert views.back_link(base, "GET", 404) == ("", "")  # the person is not there to go back to


def test_categories_show_as_words_and_an_unnamed_person_by_their_ids_start() -> None:
    tired = fact("is tired", category="current_state")
    names = re.findall(r'text-anchor="end">([^<]+)<', views.category_chart([tired]))
    assert names == ["current state"]
    assert labels.person_label("Sam", tired.entity_id) == "Sam"
    assert labels.person_label("", "3f1b2c4d-5e6f-4a1b-8c2d-9e0f1a2b3c4d") == "unnamed · 3f1b2c4d"
