"""Function lengths of Python modules: the median and p90 the issue #22 checks.

    .venv/bin/python bench/function_lengths.py PATH... [--body]

A function's length is its lines from ``def`` to its last line (methods and nested
functions count as their own); ``--body`` leaves its docstring out. Prints the count, the
median, the p90 and the longest, for the paths given (files or folders of ``*.py``).
"""

from __future__ import annotations

import argparse
import ast
import statistics
from collections.abc import Iterator, Sequence
from pathlib import Path


def lengths(path: Path, body: bool) -> Iterator[tuple[int, str]]:
    """(length, name) of every function of the module at ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        start = node.lineno
        first = node.body[0]
        docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
        if body and docstring and len(node.body) > 1:
            start = node.body[1].lineno - 1  # the def line and the code after the docstring
        assert node.end_lineno is not None
        yield node.end_lineno - start + 1, f"{path.name}:{node.name}"


def p90(values: Sequence[int]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--body", action="store_true", help="leave docstrings out")
    args = parser.parse_args(argv)
    files = [
        p for path in args.paths for p in (sorted(path.rglob("*.py")) if path.is_dir() else [path])
    ]
    found = sorted(item for file in files for item in lengths(file, args.body))
    values = [length for length, _ in found]
    longest = ", ".join(f"{name} {length}" for length, name in found[-3:][::-1])
    print(
        f"{len(values)} functions, median {statistics.median(values):g}, "
        f"p90 {p90(values):g}, longest: {longest}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
