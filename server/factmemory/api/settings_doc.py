"""The settings as a table, generated from the Settings model: each field's environment variable, default, allowed
values and the comment written above it in settings.py. Shown by `factmemory serve --help`, which points to
docs/configuration.md for the settings by topic. Pure: takes the model and its source text."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from pydantic import BaseModel
from pydantic.fields import FieldInfo

DOCS = "docs/configuration.md"


@dataclass(frozen=True)
class SettingDoc:
    name: str
    env: str
    default: str
    values: str
    help: str


def comments_above(source: str, class_name: str) -> dict[str, str]:
    """Field name -> the comment lines right above its line in the class body, joined into one line."""
    lines = source.splitlines()
    found: dict[str, str] = {}
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.ClassDef) and node.name == class_name):
            continue
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                above: list[str] = []
                row = item.lineno - 2
                while row >= 0 and lines[row].strip().startswith("#"):
                    above.insert(0, lines[row].strip().lstrip("#").strip())
                    row -= 1
                found[item.target.id] = " ".join(above)
    return found


def env_name(name: str, info: FieldInfo, prefix: str) -> str:
    alias = info.validation_alias
    choices = getattr(alias, "choices", None)
    if choices:
        return str(choices[0])
    return f"{prefix}{name}".upper()


def _values(info: FieldInfo) -> str:
    """Allowed values: the literal choices, or the bounds pydantic checks (gt/ge/lt/le)."""
    args = getattr(info.annotation, "__args__", ())
    literal = [a for a in args if isinstance(a, str)]
    if literal:
        return " | ".join(literal)
    bounds: list[str] = []
    for meta in info.metadata:
        for op, attr in ((">", "gt"), (">=", "ge"), ("<", "lt"), ("<=", "le")):
            value = getattr(meta, attr, None)
            if value is not None:
                bounds.append(f"{op} {value}")
    return ", ".join(bounds)


def _default(info: FieldInfo) -> str:
    value: object = info.default
    if info.is_required() or value is None:
        return "unset"
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def settings_docs(model: type[BaseModel], source: str, prefix: str = "FACTMEMORY_") -> list[SettingDoc]:
    comments = comments_above(source, model.__name__)
    return [
        SettingDoc(name, env_name(name, info, prefix), _default(info), _values(info), comments.get(name, ""))
        for name, info in model.model_fields.items()
    ]


def settings_help(model: type[BaseModel], source: str, prefix: str = "FACTMEMORY_") -> str:
    """The text under `serve --help`: one setting per line (variable, default, allowed values), its help below."""
    out = [f"settings (environment variables; {DOCS} explains them by topic):"]
    for doc in settings_docs(model, source, prefix):
        values = f"  [{doc.values}]" if doc.values else ""
        out.append(f"  {doc.env}={doc.default}{values}")
        if doc.help:
            out.append(f"      {doc.help}")
    return "\n".join(out)


def _groups(docs: list[SettingDoc]) -> list[list[SettingDoc]]:
    """A setting with a comment of its own starts a group; the uncommented ones below it (same prefix) join it."""
    groups: list[list[SettingDoc]] = []
    for doc in docs:
        joins = groups and not doc.help and doc.env.split("_")[0] == groups[-1][0].env.split("_")[0]
        if joins:
            groups[-1].append(doc)
        else:
            groups.append([doc])
    return groups


def _cell(values: list[str], code: bool = True) -> str:
    shown = [f"`{v}`" if code and v != "unset" else v for v in values]
    return " / ".join(shown).replace("|", "\\|")


def settings_table(model: type[BaseModel], source: str, prefix: str = "FACTMEMORY_") -> str:
    """docs/configuration.md's table: one row per group of settings (variables, defaults, allowed values, meaning)."""
    rows = ["| variable | default | allowed | meaning |", "|---|---|---|---|"]
    for group in _groups(settings_docs(model, source, prefix)):
        allowed = _cell([d.values or "any" for d in group]) if any(d.values for d in group) else ""
        meaning = group[0].help.replace("|", "\\|") or "below the table"
        rows.append(
            f"| {_cell([d.env for d in group])} | {_cell([d.default for d in group])} | {allowed} | {meaning} |"
        )
    return "\n".join(rows)
