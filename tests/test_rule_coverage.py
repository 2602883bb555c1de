"""Every rule ID the code uses has an accepting test and a rejecting test, named by its ID."""

from __future__ import annotations

import ast
from pathlib import Path

from dealerassist.rules.model.violations import RuleId

TESTS = Path(__file__).parent
ACCEPTING = ("_accepts", "_guides", "_allows")
REJECTING = ("_rejects", "_refuses")


def _test_names() -> set[str]:
    names: set[str] = set()
    for path in TESTS.rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test_"
            ):
                names.add(node.name)
    return names


def _missing(suffixes: tuple[str, ...]) -> list[str]:
    names = _test_names()
    missing = []
    for rule_id in RuleId:
        stem = rule_id.value.replace("-", "_")
        if not any(stem + suffix in name for name in names for suffix in suffixes):
            missing.append(rule_id.value)
    return missing


def test_every_rule_id_has_an_accepting_test() -> None:
    """Each RuleId has a test named test_<ID>_accepts…, _guides… or _allows…."""
    assert _missing(ACCEPTING) == []


def test_every_rule_id_has_a_rejecting_test() -> None:
    """Each RuleId has a test named test_<ID>_rejects… or _refuses…."""
    assert _missing(REJECTING) == []
