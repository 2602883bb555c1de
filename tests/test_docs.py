"""The documentation stands on its own and its generated pages cover what they must.

The rules reference, the API page and the profile options are generated from the code at
build time (``tools/docgen.py``, ``tools/mkdocs_hooks.py``), so they cannot be stale; these
tests check that what is generated is complete, and that nothing in the repository points
at a document outside it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from dealerassist.api.openapi import build_spec
from dealerassist.rules.floor.ruling_options import OPTIONS
from dealerassist.rules.model.violations import RuleId

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import docgen  # noqa: E402


@pytest.fixture(scope="module")
def rules_page() -> str:
    return docgen.rules_reference()


def test_the_rules_reference_has_every_rule_id_of_the_code(rules_page: str) -> None:
    """Every RuleId and every rule with floor options has its own heading."""
    headings = set(re.findall(r"^### ([A-Z]+-\d{2})\b", rules_page, re.MULTILINE))
    assert {rule.value for rule in RuleId} | set(OPTIONS) <= headings


def test_the_rules_reference_names_each_rule_ids_accepting_and_refusing_tests(
    rules_page: str,
) -> None:
    """The tests tests/test_rule_coverage.py requires appear under their rule's heading."""
    sections = dict(re.findall(r"^### ([A-Z]+-\d{2}).*?\n(.*?)(?=^##|\Z)", rules_page, re.S | re.M))
    for rule in RuleId:
        assert "**Tests (accepts" in sections[rule.value] or "guides" in sections[rule.value]
        assert "**Tests (refuses" in sections[rule.value], rule.value


def test_a_rule_the_engine_refuses_with_says_so_and_where(rules_page: str) -> None:
    """DRAW-03 (five consecutive cards) is refused in rules/hand/drawing.py and set by
    draw.max_consecutive: the page says both."""
    section = rules_page.split("### DRAW-03", 1)[1].split("### ", 1)[0]
    assert "refuses an entry" in section
    assert "`dealerassist/rules/hand/drawing.py`" in section
    assert "`draw.max_consecutive`" in section


def test_the_api_page_has_every_operation_of_the_spec() -> None:
    """Each method and path of /openapi.json is a heading of the generated API page."""
    spec = build_spec(["casino-five-card-draw"])
    page = docgen.api_reference(spec)
    for path, item in spec["paths"].items():
        for method in item:
            if method in ("get", "put", "post", "delete", "patch"):
                assert f"### `{method.upper()} {path}`" in page
    for name in spec["components"]["schemas"]:
        assert f"### {name} {{ #schema-{name.lower()} }}" in page


def test_the_profiles_page_has_every_option() -> None:
    """Every option of HouseRules is a row, with the rule IDs its source comment names."""
    page = docgen.profiles_reference()
    assert "| `max_consecutive` | [DRAW-03](rules.md#draw-03)" in page
    assert "### `[kill]`" in page and "| `mode` |" in page


def test_the_readme_is_an_overview_of_at_most_200_lines() -> None:
    """The README points into docs/; the reference lives there."""
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


def test_nothing_in_the_repository_points_outside_it() -> None:
    """No file refers to a folder beside the clone or to sections of documents it does not have
    (archived profile versions stay byte for byte: their SHA-256 is in audit chains)."""
    found = subprocess.run(
        [
            "git",
            "grep",
            "-n",
            "-e",
            r"\.\./shared",
            "-e",
            "design" + " §",
            "--",
            ".",
            ":!config/house_rules/versions",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode == 128:
        pytest.skip(f"not a git work tree: {found.stderr.strip()}")
    assert found.stdout == ""


# the engine's public interface: every public function shows how it is called, in a doctest
ENGINE_API = (
    "dealerassist/rules/engine.py",
    "dealerassist/rules/batch.py",
    "dealerassist/rules/model/actions.py",
    "dealerassist/rules/cards/cards.py",
    "dealerassist/rules/cards/rankings.py",
    "dealerassist/audit/chain.py",
    "dealerassist/audit/export.py",
    "dealerassist/audit/verify.py",
)


def test_the_engines_public_functions_carry_examples_that_run_as_doctests() -> None:
    """pytest runs them (--doctest-modules over dealerassist/); this keeps them there."""
    import ast

    missing = []
    for module in ENGINE_API:
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
        for node in tree.body:
            public = isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
            if public and ">>>" not in (ast.get_docstring(node) or ""):
                missing.append(f"{module}:{node.name}")
    assert missing == []


def test_every_module_says_what_lives_there() -> None:
    """Each module of the package opens with a docstring."""
    import ast

    bare = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "dealerassist").rglob("*.py"))
        if not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert bare == []
