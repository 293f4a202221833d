"""Every limit and default has one home: Settings for what an operator may change (built into domain.limits.Limits
and the retention policy by the app), domain/limits.py for the fixed pool sizes and text caps (Provide's pool sizes:
domain/provide_tuning.py, with the other numbers that steer Provide). These tests read the
whole service's source, so a bare copy of a cap anywhere in server/ fails, naming where it is."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from factmemory.domain import limits
from factmemory.domain.retention import RetentionPolicy

PACKAGE = Path(limits.__file__).resolve().parents[1]
HOME = PACKAGE / "domain" / "limits.py"
PROVIDE_TUNING = PACKAGE / "domain" / "provide_tuning.py"  # Provide's pool sizes, beside its other numbers
# A text cut shorter than this is formatting (an id quoted in an error), not a limit.
SMALLEST_CAP = 100
# Module-level numbers with these prefixes are limits; below the edges (domain/, usecases/) they live in HOME only.
LIMIT_PREFIXES = ("MAX_", "MIN_", "DEFAULT_")
# Parameters of a rule that carry such a name but bound nothing (they stay beside the rule they tune).
RULE_PARAMETERS = {"domain/dedup/prefilter.py": ["MIN_OTHERS"]}


def service_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "v1" not in p.relative_to(PACKAGE).parts)


def bare_caps(path: Path, root: Path = PACKAGE) -> list[str]:
    """`text[:500]`, `items[-200:]`: a slice bound written as a number of SMALLEST_CAP or more."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Slice):
            continue
        for bound in (node.lower, node.upper):
            if isinstance(bound, ast.UnaryOp) and isinstance(bound.op, ast.USub):
                bound = bound.operand
            if isinstance(bound, ast.Constant) and isinstance(bound.value, int) and bound.value >= SMALLEST_CAP:
                found.append(f"{path.relative_to(root)}:{node.lineno} [{bound.value}]")
    return found


def limit_constants(path: Path) -> list[str]:
    """Module-level `MAX_X = 12`-style numbers defined in this module (an import of one is not a definition)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, int)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name) and target.id.startswith(LIMIT_PREFIXES)
    ]


def test_no_text_cap_is_a_bare_number_anywhere_in_the_service() -> None:
    found = [cap for path in service_modules() for cap in bare_caps(path)]
    assert found == [], f"name these caps in domain/limits.py (or Settings): {found}"


def test_below_the_edges_limits_are_defined_only_in_their_home() -> None:
    """domain/ and usecases/ name their limits from domain/limits.py or domain/provide_tuning.py (or take them from
    Limits)."""
    homes = (HOME, PROVIDE_TUNING)
    layers = ("domain", "usecases")
    inner = [p for p in service_modules() if p.relative_to(PACKAGE).parts[0] in layers and p not in homes]
    found = {str(p.relative_to(PACKAGE)): names for p in inner if (names := limit_constants(p))}
    found = {module: names for module, names in found.items() if names != RULE_PARAMETERS.get(module)}
    assert found == {}


def test_the_retention_defaults_live_in_settings_only() -> None:
    """RetentionPolicy has no defaults of its own: the app builds it from Settings (app.retention_policy)."""
    fields = dataclasses.fields(RetentionPolicy)
    assert fields and all(f.default is dataclasses.MISSING for f in fields)


def test_the_scans_find_what_they_claim(tmp_path: Path) -> None:
    """Each scan on a probe module: it finds the bare cap and the limit defined outside its home."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "MAX_NOTE_CHARS = 300\nLABEL_TIMEOUT = 2\n\ndef note(t: str) -> str:\n    return t[:500] + t[-120:]\n"
    )
    assert [c.split(" ")[1] for c in bare_caps(probe, tmp_path)] == ["[500]", "[120]"]
    assert limit_constants(probe) == ["MAX_NOTE_CHARS"]
    quiet = tmp_path / "quiet.py"
    quiet.write_text(
        "from x import MAX_NOTE_CHARS\n\ndef note(t: str) -> str:\n    return t[:MAX_NOTE_CHARS] + t[:40]\n"
    )
    assert bare_caps(quiet, tmp_path) == [] and limit_constants(quiet) == []
