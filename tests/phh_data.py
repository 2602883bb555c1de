"""The PHH hands kept in the repository (tests/data/phh) and its acceptance set.

``acceptance_files()``: the .phh files of the folders ``tests/data/phh/ACCEPTANCE`` lists
(the real hands and the first generated set: 215 F2L3D / N2L1D hands, and the badugi
example), which the acceptance test replays and the engine benchmarks measure.
"""

from __future__ import annotations

from pathlib import Path

PHH_DATA = Path(__file__).resolve().parent / "data" / "phh"


def acceptance_files(root: Path = PHH_DATA) -> list[Path]:
    """The .phh files of the acceptance set (the folders ``root / "ACCEPTANCE"`` lists)."""
    lines = (root / "ACCEPTANCE").read_text(encoding="utf-8").splitlines()
    folders = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return sorted(path for folder in folders for path in (root / folder).rglob("*.phh"))
