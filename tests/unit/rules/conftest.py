"""The rules tests mirror ``dealerassist/rules/``'s sub-packages; their shared helper
``engine_table.py`` stays here, so this folder goes on ``sys.path`` for every sub-folder."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
