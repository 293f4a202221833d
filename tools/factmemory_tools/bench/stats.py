"""Pure helpers of the benchmark: percentiles, the rows of the one table, targets as PASS/MISS."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

Summary = dict[str, float]


def summarize(seconds: Sequence[float]) -> Summary:
    """n, p50, p95, p99, mean and max in milliseconds."""
    if not seconds:
        return {
            "n": 0,
            "p50": float("nan"),
            "p95": float("nan"),
            "p99": float("nan"),
            "mean": float("nan"),
            "max": float("nan"),
        }
    ms = np.asarray(seconds, dtype=np.float64) * 1000.0
    p50, p95, p99 = np.percentile(ms, [50, 95, 99])
    return {
        "n": len(ms),
        "p50": round(float(p50), 2),
        "p95": round(float(p95), 2),
        "p99": round(float(p99), 2),
        "mean": round(float(ms.mean()), 2),
        "max": round(float(ms.max()), 2),
    }


def stage_series(calls: Sequence[dict[str, float]], stage: str) -> list[float]:
    """The seconds of one stage in every call (0 when a call did not run it)."""
    return [c.get(stage, 0.0) for c in calls]


# Provide's timed stages (usecases/provide.py), as the bench and the side-by-side tool split its server time.
PROVIDE_STAGES = ("embed", "db", "rank", "render")


def derived(calls: Sequence[dict[str, float]], stages: Sequence[str], minus: Sequence[str]) -> dict[str, list[float]]:
    """Per-stage series plus 'other' (total minus the named stages) and 'own' (total minus `minus`)."""
    series = {s: stage_series(calls, s) for s in stages}
    series["total"] = stage_series(calls, "total")
    series["other"] = [c["total"] - sum(c.get(s, 0.0) for s in stages) for c in calls]
    series["own"] = [c["total"] - sum(c.get(s, 0.0) for s in minus) for c in calls]
    return series


@dataclass(frozen=True)
class Row:
    """One line of the table: a latency summary or a single value, with its target if it has one."""

    figure: str
    facts: str = ""
    n: int | None = None
    p50: float | None = None
    p95: float | None = None
    p99: float | None = None
    value: str = ""
    target: str = ""
    result: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def verdict(measured: float, limit: float, higher_is_better: bool = False) -> str:
    if measured != measured:  # NaN: nothing measured
        return "MISS"
    ok = measured >= limit if higher_is_better else measured <= limit
    return "PASS" if ok else "MISS"


def latency_row(figure: str, facts: str, summary: Summary, limit_p95_ms: float | None = None) -> Row:
    target = "" if limit_p95_ms is None else f"p95 <= {limit_p95_ms:g} ms"
    result = "" if limit_p95_ms is None else verdict(summary["p95"], limit_p95_ms)
    return Row(figure, facts, int(summary["n"]), summary["p50"], summary["p95"], summary["p99"], "", target, result)


def value_row(
    figure: str, facts: str, value: float, unit: str, limit: float | None = None, higher_is_better: bool = False
) -> Row:
    shown = f"{value:,.1f} {unit}" if isinstance(value, float) and not value.is_integer() else f"{value:,.0f} {unit}"
    if limit is None:
        return Row(figure, facts, value=shown.strip())
    sign = ">=" if higher_is_better else "<="
    return Row(
        figure,
        facts,
        value=shown.strip(),
        target=f"{sign} {limit:,g} {unit}".strip(),
        result=verdict(value, limit, higher_is_better),
    )


COLUMNS = ("figure", "facts", "n", "p50 ms", "p95 ms", "p99 ms", "value", "target", "result")


def _cells(row: Row) -> list[str]:
    def ms(v: float | None) -> str:
        return "" if v is None else f"{v:.1f}"

    return [
        row.figure,
        row.facts,
        "" if row.n is None else str(row.n),
        ms(row.p50),
        ms(row.p95),
        ms(row.p99),
        row.value,
        row.target,
        row.result,
    ]


def render_table(rows: Sequence[Row]) -> str:
    """A plain-text table (also valid Markdown)."""
    cells = [list(COLUMNS)] + [_cells(r) for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(COLUMNS))]
    lines = ["| " + " | ".join(c[i].ljust(widths[i]) for i in range(len(COLUMNS))) + " |" for c in cells]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def size_label(size: int) -> str:
    """10000 -> '10k', 1000000 -> '1M'."""
    if size >= 1_000_000 and size % 1_000_000 == 0:
        return f"{size // 1_000_000}M"
    if size >= 1000 and size % 1000 == 0:
        return f"{size // 1000}k"
    return str(size)


def parse_size(text: str) -> int:
    """'10k' -> 10000, '1m' -> 1000000, '2500' -> 2500."""
    text = text.strip().lower().replace("_", "")
    factor = {"k": 1_000, "m": 1_000_000}.get(text[-1:], 1)
    number = text[:-1] if factor > 1 else text
    return int(float(number) * factor)


SPEED_TARGET_MS = 10.0  # issue 35: Provide's server time without the embedding, p95, at 100k facts and for 20k
SPEED_TARGETS = (
    ("regular", "at 100k facts"),
    ("heavy", "for the heavy person at 100k"),
    ("heavy_conversation", "for the heavy person at 100k, an Evaluate of them before each Provide"),
    ("heavy_named_times", "for the heavy person at 100k, each new message naming a month or a year"),
)


def speed_targets(figures: dict[str, Any]) -> list[str]:
    """The speed targets of issue 35 (Provide db + rank p95 <= 10 ms at 100k facts and for a person with 20,000
    facts), each with its figure and PASS or MISS, or why it was not measured."""
    lines = []
    for who, where in SPEED_TARGETS:
        what = f"Provide db + rank p95 {where}"
        if who.startswith("heavy") and "load.100k.heavy_entity_facts" in figures:
            what += f" ({figures['load.100k.heavy_entity_facts']:,} facts)"
        summary = figures.get(f"provide.100k.{who}.excl_embed")
        if summary is None:
            lines.append(f"target: {what} <= {SPEED_TARGET_MS:g} ms: not measured (run with --sizes 100k)")
            continue
        p95 = summary["p95"]
        lines.append(f"target: {what} <= {SPEED_TARGET_MS:g} ms: {p95:.2f} ms {verdict(p95, SPEED_TARGET_MS)}")
    return lines
