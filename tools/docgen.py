"""The documentation pages generated from the code, so they cannot drift from it.

``rules_reference()`` writes the rules reference (``docs/rules.md``): every rule ID of
``dealerassist.rules.model.violations.RuleId`` and of the floor's ruling options, with its
section, how the code enforces it (refuses, guides, rules on), the house options that name
it and the tests named after it (found as ``tests/test_rule_coverage.py`` finds them).
``api_reference()`` writes the HTTP API page (``docs/api.md``) from the OpenAPI document
that ``/openapi.json`` serves (``dealerassist.api.openapi.build_spec``).

``tools/mkdocs_hooks.py`` puts both into the site at build time; ``python tools/docgen.py
rules|api`` prints one. ``tests/test_docs.py`` checks that both cover what they must.
"""

from __future__ import annotations

import ast
import functools
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dealerassist.rules.floor.ruling_options import OPTIONS  # noqa: E402
from dealerassist.rules.model import house_rules, rule_titles  # noqa: E402
from dealerassist.rules.model.violations import RuleId  # noqa: E402

PACKAGE = ROOT / "dealerassist"
TESTS = ROOT / "tests"
RULE_ID = re.compile(r"\b([A-Z]{3,5})-(\d{2})\b")
TEST_STEM = re.compile(r"(?<![A-Za-z0-9])([A-Z]{3,5}_\d{2})(?![0-9])")
ACCEPTING = ("_accepts", "_guides", "_allows")
REJECTING = ("_rejects", "_refuses")
GUIDE_CALLS = {"Notice", "notice", "_notice"}


@dataclass
class RuleEntry:
    """What the code and the tests say of one rule ID."""

    rule_id: str
    in_enum: bool = False
    refused_in: set[str] = field(default_factory=set)
    guided_in: set[str] = field(default_factory=set)
    used_in: set[str] = field(default_factory=set)
    waivable: bool = False
    floor_options: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)
    tests: list[tuple[str, str]] = field(default_factory=list)
    citations: set[str] = field(default_factory=set)


# ---------------------------------------------------------------------------------- rules


def _module(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _enum_uses(tree: ast.AST, path: Path, entries: dict[str, RuleEntry]) -> None:
    """Each ``RuleId.X`` in a module: refused (inside any other call), guided (inside a
    ``Notice``) or only named (a mapping, a comparison)."""
    in_call: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            for child in ast.walk(node):
                if child is not node and isinstance(child, ast.Attribute):
                    in_call.setdefault(id(child), name)
    module = _module(path)
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "RuleId"
            and node.attr in RuleId.__members__
        ):
            continue
        entry = entries[RuleId[node.attr].value]
        call = in_call.get(id(node))
        if module.endswith("rules/floor/waivers.py"):
            entry.waivable = True
        elif call in GUIDE_CALLS:
            entry.guided_in.add(module)
        elif call is not None:
            entry.refused_in.add(module)
        else:
            entry.used_in.add(module)


def _house_options() -> dict[str, list[str]]:
    """Rule ID → the profile options (``section.key``) whose source comments name it."""
    source = Path(house_rules.__file__).read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    sections: dict[str, str] = {}
    classes: dict[str, ast.ClassDef] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            classes[node.name] = node
    for statement in classes["HouseRules"].body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            annotation = ast.unparse(statement.annotation)
            sections[annotation] = statement.target.id
    enum_ids = {
        name: {"-".join(m) for m in RULE_ID.findall(ast.get_docstring(node) or "")}
        for name, node in classes.items()
    }
    found: dict[str, list[str]] = defaultdict(list)
    for class_name, section in sections.items():
        node = classes.get(class_name)
        if node is None:
            continue
        previous_end = node.body[0].end_lineno or node.lineno
        for statement in node.body:
            if not (
                isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
            ):
                continue
            start = statement.lineno
            text = lines[previous_end : statement.end_lineno or start]
            previous_end = statement.end_lineno or start
            comment = " ".join(line.split("#", 1)[1] for line in text if "#" in line)
            ids = {"-".join(m) for m in RULE_ID.findall(comment)}
            annotation = ast.unparse(statement.annotation)
            ids |= enum_ids.get(annotation, set())
            if not ids:  # the section's own rules (its class docstring)
                ids = enum_ids.get(class_name, set())
            for rule_id in sorted(ids):
                found[rule_id].append(f"{section}.{statement.target.id}")
    return found


CITATION = re.compile(
    r"\b(TDA(?: RP)? \d+(?:-[A-Z])?|WSOP \d+|RRoP(?:-[A-Z]{2})?|BARGE|USPCC|PS|pokerkit)\b"
)


def _tests() -> Iterator[tuple[str, str, str]]:
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test_"
            ):
                yield _module(path), node.name, ast.get_docstring(node) or ""


@functools.cache
def rule_entries() -> dict[str, RuleEntry]:
    """Every rule ID the code knows, with what the code and the tests say of it."""
    entries: dict[str, RuleEntry] = {}
    for rule in RuleId:
        entries[rule.value] = RuleEntry(rule.value, in_enum=True)
    for rule_id, options in OPTIONS.items():
        entry = entries.setdefault(rule_id, RuleEntry(rule_id))
        entry.floor_options = [option.decision for option in options]
    for path in sorted(PACKAGE.rglob("*.py")):
        _enum_uses(ast.parse(path.read_text(encoding="utf-8")), path, entries)
    for rule_id, options in _house_options().items():
        if rule_id in entries:
            entries[rule_id].options = options
    stems = {rule_id.replace("-", "_"): entry for rule_id, entry in entries.items()}
    for module, name, doc in _tests():
        for stem in set(TEST_STEM.findall(name)):
            entry = stems.get(stem)
            if entry is not None:
                entry.tests.append((module, name))
                entry.citations |= set(CITATION.findall(doc))
    return entries


def _sort_key(rule_id: str) -> tuple[int, int]:
    family, number = rule_id.split("-")
    section = rule_titles.SECTIONS.get(family, (99, ""))[0]
    return section, int(number)


def _citation_key(text: str) -> tuple[str, int, str]:
    book, _, rest = text.partition(" ")
    number = re.match(r"\d+", rest.split()[-1]) if rest else None
    return book, int(number.group()) if number else 0, text


def _enforcement(entry: RuleEntry) -> str:
    parts = []
    if entry.refused_in:
        parts.append("refuses an entry (409 with this rule ID)")
    if entry.guided_in:
        parts.append("guides the dealer (a notice)")
    if entry.waivable:
        parts.append("the floor may let a refused entry bind (`accept_entry` waiving it)")
    if entry.floor_options:
        parts.append("floor ruling options: " + ", ".join(f"`{o}`" for o in entry.floor_options))
    if not parts and entry.used_in:
        parts.append("named by the engine (no refusal of its own)")
    return (
        "; ".join(parts)
        or "no entry is refused or guided with this ID: the behaviour is built in "
        "(its tests show it)"
    )


def _test_lines(entry: RuleEntry) -> list[str]:
    stem = entry.rule_id.replace("-", "_")
    accepting = [t for t in entry.tests if any(stem + s in t[1] for s in ACCEPTING)]
    refusing = [t for t in entry.tests if any(stem + s in t[1] for s in REJECTING)]
    other = [t for t in entry.tests if t not in accepting and t not in refusing]
    lines = []
    for label, tests in (("accepts", accepting), ("refuses", refusing), ("other", other)):
        if tests:
            names = ", ".join(f"`{module}::{name}`" for module, name in tests)
            lines.append(f"- **Tests ({label}, {len(tests)}):** {names}")
    if not entry.tests:
        lines.append("- **Tests:** none named after this ID")
    return lines


def rules_reference() -> str:
    """The rules reference page's Markdown body."""
    entries = rule_entries()
    by_family: dict[str, list[RuleEntry]] = defaultdict(list)
    for rule_id in sorted(entries, key=_sort_key):
        by_family[rule_id.split("-")[0]].append(entries[rule_id])
    enforced = sum(1 for e in entries.values() if e.in_enum)
    out = [
        f"{len(entries)} rule IDs: {enforced} that the engine enforces, guides or rules on "
        "(`RuleId` in `dealerassist/rules/model/violations.py`) and "
        f"{len(entries) - enforced} that only the floor rules on "
        "(`dealerassist/rules/floor/ruling_options.py`). Generated from the code at build time.",
        "",
    ]
    for family in sorted(by_family, key=lambda f: rule_titles.SECTIONS.get(f, (99, ""))[0]):
        number, title = rule_titles.SECTIONS.get(family, (0, family))
        out += [f"## {number}. {family} — {title}", ""]
        for entry in by_family[family]:
            name = rule_titles.TITLES.get(entry.rule_id, "")
            anchor = f"{{ #{entry.rule_id.lower()} }}"
            out += [f"### {entry.rule_id}{' ' + name if name else ''} {anchor}", ""]
            out.append(f"- **Enforcement:** {_enforcement(entry)}")
            modules = sorted(entry.refused_in | entry.guided_in | entry.used_in)
            if modules:
                out.append("- **Code:** " + ", ".join(f"`{m}`" for m in modules))
            if entry.options:
                out.append("- **House options:** " + ", ".join(f"`{o}`" for o in entry.options))
            if entry.citations:
                books = ", ".join(sorted(entry.citations, key=_citation_key))
                out.append(f"- **Books its tests cite:** {books}")
            out += _test_lines(entry)
            out.append("")
    return "\n".join(out)


# ------------------------------------------------------------------------------- profiles


def _option_rules() -> dict[str, list[str]]:
    rules: dict[str, list[str]] = defaultdict(list)
    for rule_id, options in _house_options().items():
        for option in options:
            rules[option].append(rule_id)
    return rules


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(getattr(value, "value", value))


def profiles_reference() -> str:
    """Every profile option: its rule IDs, default, allowed values and each shipped profile's
    value, grouped by value so the differences show."""
    import dataclasses
    import enum
    import typing

    from dealerassist.profiles import default_profiles_dir, load_profiles

    profiles = load_profiles(default_profiles_dir())
    rules = _option_rules()
    known = set(rule_entries())
    default = house_rules.HouseRules()
    out = [
        f"Generated from `dealerassist/rules/model/house_rules.py` and the {len(profiles)} shipped "
        "profiles at build time. Each row is one option (`[section] key` in a profile's TOML); "
        "*values* groups the shipped profiles by the value they set.",
        "",
    ]
    for section in dataclasses.fields(default):
        group = getattr(default, section.name)
        if not dataclasses.is_dataclass(group):
            continue
        hints = typing.get_type_hints(type(group))
        out += [
            f"### `[{section.name}]`",
            "",
            "| option | rules | allowed | default | values |",
            "|---|---|---|---|---|",
        ]
        for option in dataclasses.fields(group):
            kind = hints[option.name]
            if isinstance(kind, type) and issubclass(kind, enum.Enum):
                allowed = ", ".join(f"`{m.value}`" for m in kind)
            else:
                allowed = getattr(kind, "__name__", str(kind))
            name = f"{section.name}.{option.name}"
            by_value: dict[str, list[str]] = defaultdict(list)
            for profile_id, profile in sorted(profiles.items()):
                value = getattr(getattr(profile, section.name), option.name)
                by_value[_value(value)].append(profile_id)
            groups = sorted(by_value.items(), key=lambda item: len(item[1]))
            values = "; ".join(f"`{value}`: {', '.join(ids)}" for value, ids in groups[:-1]) + (
                "; " if len(groups) > 1 else ""
            )
            values += f"`{groups[-1][0]}`: {'the others' if len(groups) > 1 else 'all'}"
            ids = ", ".join(
                f"[{r}](rules.md#{r.lower()})" if r in known else r
                for r in sorted(rules.get(name, []))
            )
            default_value = _value(getattr(group, option.name))
            out.append(
                f"| `{option.name}` | {ids} | {_cell(allowed)} | `{default_value}` | "
                f"{_cell(values)} |"
            )
        out.append("")
    return "\n".join(out)


# ------------------------------------------------------------------------------------ API


def _spec() -> dict[str, Any]:
    from dealerassist.api.openapi import build_spec
    from dealerassist.profiles import default_profiles_dir, load_profiles

    profiles = load_profiles(default_profiles_dir())
    return build_spec({profile_id: rules.game for profile_id, rules in profiles.items()})


def _ref_name(schema: dict[str, Any]) -> str | None:
    ref = schema.get("$ref")
    return ref.rsplit("/", 1)[-1] if isinstance(ref, str) else None


def _type(schema: dict[str, Any]) -> str:
    name = _ref_name(schema)
    if name:
        return f"[{name}](#schema-{name.lower()})"
    if "oneOf" in schema or "anyOf" in schema:
        return " or ".join(_type(s) for s in schema.get("oneOf", schema.get("anyOf", [])))
    kind = schema.get("type", "any")
    if kind == "array":
        return f"array of {_type(schema.get('items', {}))}"
    return str(kind)


def _constraints(schema: dict[str, Any]) -> str:
    bits = []
    if "enum" in schema:
        bits.append("one of " + ", ".join(f"`{json.dumps(v)}`" for v in schema["enum"]))
    for key, word in (
        ("minimum", "≥"),
        ("maximum", "≤"),
        ("minLength", "length ≥"),
        ("maxLength", "length ≤"),
        ("minItems", "items ≥"),
        ("maxItems", "items ≤"),
    ):
        if key in schema:
            bits.append(f"{word} {schema[key]}")
    if "pattern" in schema:
        bits.append(f"pattern `{schema['pattern']}`")
    if schema.get("nullable"):
        bits.append("may be null")
    return "; ".join(bits)


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _alternatives(schema: dict[str, Any]) -> list[str]:
    """Fields with a oneOf of alternatives (CreateTable: one per profile): what tells the
    alternatives apart, then the fields."""
    alternatives = schema["oneOf"]
    fixed = [
        name
        for name, prop in alternatives[0].get("properties", {}).items()
        if len(prop.get("enum", [])) == 1 or "$ref" in prop
    ]
    rows = ["| " + " | ".join(fixed) + " |", "|" + "---|" * len(fixed)]
    for alternative in alternatives:
        cells = []
        for name in fixed:
            prop = alternative["properties"][name]
            cells.append(_type(prop) if "$ref" in prop else f"`{prop['enum'][0]}`")
        rows.append("| " + " | ".join(cells) + " |")
    fields = {key: value for key, value in schema.items() if key != "oneOf"}
    intro = [f"One of {len(alternatives)}:", "", *rows, "", "Each with these fields:", ""]
    return [*intro, *_schema_table(fields)]


def _schema_table(schema: dict[str, Any]) -> list[str]:
    if "oneOf" in schema and all("properties" in s for s in schema["oneOf"]):
        return _alternatives(schema)
    properties = schema.get("properties", {})
    if not properties:
        return [f"Type: {_type(schema)}.", ""]
    required = set(schema.get("required", []))
    rows = ["| field | type | required | constraints | description |", "|---|---|---|---|---|"]
    for name, prop in properties.items():
        rows.append(
            f"| `{name}` | {_cell(_type(prop))} | {'yes' if name in required else ''} | "
            f"{_cell(_constraints(prop))} | {_cell(prop.get('description', ''))} |"
        )
    extra = schema.get("additionalProperties")
    note = "Other fields are refused." if extra is False else ""
    return [*rows, "", note, ""] if note else [*rows, ""]


def _resolve(spec: dict[str, Any], item: dict[str, Any]) -> dict[str, Any]:
    ref = item.get("$ref")
    if not isinstance(ref, str):
        return item
    node: Any = spec
    for part in ref.lstrip("#/").split("/"):
        node = node[part]
    return dict(node)


def _operation(spec: dict[str, Any], method: str, path: str, op: dict[str, Any]) -> list[str]:
    out = [f"### `{method.upper()} {path}`", ""]
    if op.get("summary"):
        out += [op["summary"] + ("." if not op["summary"].endswith(".") else ""), ""]
    if op.get("description"):
        out += [op["description"], ""]
    if op.get("security") == []:
        out += ["No token needed.", ""]
    parameters = [_resolve(spec, p) for p in op.get("parameters", [])]
    if parameters:
        out += ["| parameter | in | type | required | description |", "|---|---|---|---|---|"]
        for p in parameters:
            schema = p.get("schema", {})
            kind = _type(schema) + (f" ({_constraints(schema)})" if _constraints(schema) else "")
            out.append(
                f"| `{p['name']}` | {p['in']} | {_cell(kind)} | "
                f"{'yes' if p.get('required') else ''} | {_cell(p.get('description', ''))} |"
            )
        out.append("")
    body = op.get("requestBody")
    if body:
        for mime, content in body.get("content", {}).items():
            required = "required" if body.get("required") else "optional"
            out += [f"Body ({mime}, {required}): {_type(content.get('schema', {}))}.", ""]
    out += ["| status | meaning | body |", "|---|---|---|"]
    for status, response in op.get("responses", {}).items():
        response = _resolve(spec, response)
        kinds = [
            f"{_type(c.get('schema', {}))} ({mime})"
            for mime, c in response.get("content", {}).items()
        ]
        out.append(f"| {status} | {_cell(response.get('description', ''))} | {', '.join(kinds)} |")
    links = [
        (status, name)
        for status, response in op.get("responses", {}).items()
        for name in _resolve(spec, response).get("links", {})
    ]
    if links:
        out += ["", "Links: " + ", ".join(f"{name} (from {status})" for status, name in links)]
    return [*out, ""]


def _groups(paths: dict[str, Any]) -> Iterable[tuple[str, list[str]]]:
    groups: dict[str, list[str]] = defaultdict(list)
    for path in paths:
        if path.startswith("/v1/audit"):
            groups["Audit"].append(path)
        elif "rulings" in path or "floor" in path:
            groups["Floor"].append(path)
        elif path.startswith("/v1/profiles"):
            groups["Profiles"].append(path)
        elif path.startswith("/v1"):
            groups["Tables"].append(path)
        else:
            groups["Service"].append(path)
    for name in ("Tables", "Floor", "Profiles", "Audit", "Service"):
        if groups.get(name):
            yield name, groups[name]


def api_reference(spec: dict[str, Any] | None = None) -> str:
    """The API page's generated part: every operation, then every schema."""
    spec = spec if spec is not None else _spec()
    paths: dict[str, Any] = spec["paths"]
    out = [
        f"Generated at build time from the OpenAPI {spec['openapi']} document that "
        f"`GET /openapi.json` serves (`dealerassist.api.openapi.build_spec`, version "
        f"{spec['info']['version']}): {sum(len(_methods(i)) for i in paths.values())} "
        f"operations on {len(paths)} paths.",
        "",
    ]
    for group, group_paths in _groups(paths):
        out += [f"## {group}", ""]
        for path in group_paths:
            item = paths[path]
            shared = item.get("parameters", [])
            for method, op in _methods(item).items():
                op = {**op, "parameters": [*shared, *op.get("parameters", [])]}
                out += _operation(spec, method, path, op)
    out += ["## Schemas", ""]
    for name, schema in spec.get("components", {}).get("schemas", {}).items():
        out += [f"### {name} {{ #schema-{name.lower()} }}", ""]
        if schema.get("description"):
            out += [schema["description"], ""]
        out += _schema_table(schema)
    return "\n".join(out)


def _methods(item: dict[str, Any]) -> dict[str, Any]:
    verbs = ("get", "put", "post", "delete", "patch")
    return {key: value for key, value in item.items() if key in verbs}


PAGES = {"rules": rules_reference, "api": api_reference, "profiles": profiles_reference}

if __name__ == "__main__":
    print(PAGES[sys.argv[1] if len(sys.argv) > 1 else "rules"]())
