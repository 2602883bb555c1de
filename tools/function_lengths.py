"""Median, p90 and longest function length (lines, docstring included) under a folder.

    .venv/bin/python tools/function_lengths.py [dealerassist/rules]

Every ``def`` counts, nested ones and methods too, from its ``def`` line to its last line
(decorators left out). Issue 22 asks that a speed change keep the median and p90 as low.
"""

from __future__ import annotations

import ast
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path


def lengths(root: Path) -> list[tuple[int, str]]:
    """(lines, "path:name") of every function under ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                found.append((size, f"{path}:{node.name}"))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0] if args else "dealerassist/rules")
    found = lengths(root)
    sizes = sorted(size for size, _ in found)
    p90 = statistics.quantiles(sizes, n=10)[-1]
    longest = max(found)
    print(
        f"{len(sizes)} functions under {root}: median {statistics.median(sizes):g} lines, "
        f"p90 {p90:g}, mean {statistics.mean(sizes):.1f}, longest {longest[0]} ({longest[1]})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
