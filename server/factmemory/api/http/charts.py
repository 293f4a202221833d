"""Small server-rendered SVG charts. Pure: data in, markup out; every text inside is escaped here."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 360, 180
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 30


@dataclass(frozen=True)
class Point:
    """One current fact on the weight curve: its age in days and its weight today."""

    age_days: float
    weight: float
    label: str


def weight_curve(decay_days: float, points: Sequence[Point], span_days: float | None = None) -> str:
    """exp(-age / decay_days) from age 0 to the span, with the facts placed on it (age vs weight)."""
    oldest = max((p.age_days for p in points), default=0.0)
    span = span_days or max(3 * decay_days, oldest * 1.1, 1.0)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(age: float) -> float:
        return LEFT + plot_w * min(max(age, 0.0), span) / span

    def y(weight: float) -> float:
        return TOP + plot_h * (1.0 - min(max(weight, 0.0), 1.0))

    steps = 60
    path = " ".join(
        f"{'M' if i == 0 else 'L'}{x(span * i / steps):.1f},{y(math.exp(-(span * i / steps) / decay_days)):.1f}"
        for i in range(steps + 1)
    )
    dots = "".join(
        f'<circle class="dot" cx="{x(p.age_days):.1f}" cy="{y(p.weight):.1f}" r="4">'
        f"<title>{escape(p.label)} ({p.age_days:.1f} days, weight {p.weight:.2f})</title></circle>"
        for p in points
    )
    ticks = "".join(
        f'<text x="{x(d):.1f}" y="{HEIGHT - BOTTOM + 14}" text-anchor="middle">{d:g}</text>' for d in _day_ticks(span)
    )
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="current-fact weight: exp(-age / {decay_days:g} days)">'
        f"<title>Current-fact weight by age (decay {decay_days:g} days)</title>"
        f'<line class="axis" x1="{LEFT}" y1="{y(0)}" x2="{WIDTH - RIGHT}" y2="{y(0)}"/>'
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{y(0)}"/>'
        f'<text x="{LEFT - 6}" y="{y(1) + 4}" text-anchor="end">1</text>'
        f'<text x="{LEFT - 6}" y="{y(0.5) + 4}" text-anchor="end">0.5</text>'
        f'<text x="{LEFT - 6}" y="{y(0) + 4}" text-anchor="end">0</text>'
        f"{ticks}"
        f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 2}" text-anchor="middle">age (days)</text>'
        f'<path class="curve" d="{path}"/>{dots}</svg>'
    )


def _day_ticks(span: float) -> list[float]:
    """About five round tick values between 0 and the span."""
    raw = span / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    return [i * step for i in range(int(span // step) + 1)]


def category_bars(counts: Sequence[tuple[str, str, int]]) -> str:
    """One horizontal bar per (kind, category), longest first, coloured by kind; the count after each bar."""
    rows = sorted(counts, key=lambda c: (-c[2], c[0], c[1]))
    if not rows:
        return (
            '<svg class="chart" viewBox="0 0 360 24" role="img" aria-label="no facts">'
            '<text x="0" y="16">no facts</text></svg>'
        )
    label_w, bar_h, gap = 110, 14, 6
    height = len(rows) * (bar_h + gap)
    most = max(n for _, _, n in rows) or 1
    bar_room = WIDTH - label_w - 30

    def bar(i: int, kind: str, name: str, n: int) -> str:
        top, width = i * (bar_h + gap), max(2.0, bar_room * n / most)
        return (
            f'<text x="{label_w - 6}" y="{top + 11}" text-anchor="end">{escape(name)}</text>'
            f'<rect class="bar {escape(kind)}" x="{label_w}" y="{top}" width="{width:.1f}" height="{bar_h}">'
            f"<title>{escape(kind)} {escape(name)}: {n}</title></rect>"
            f'<text x="{label_w + width + 4:.1f}" y="{top + 11}">{n}</text>'
        )

    bars = "".join(bar(i, kind, name, n) for i, (kind, name, n) in enumerate(rows))
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="facts per category">'
        f"<title>Facts per category</title>{bars}</svg>"
    )
