"""MkDocs hooks: the pages generated from the code are written at build time.

A page holding ``<!-- generated: rules -->`` gets the rules reference there, one holding
``<!-- generated: api -->`` the HTTP API from the OpenAPI document, ``<!-- generated:
profiles -->`` the table of profile options, ``<!-- generated: events -->`` the engine's
event types (``tools/docgen.py``),
so neither can drift from the code. ``changelog.md`` is the repository's CHANGELOG.md.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import docgen

MARKERS = {f"<!-- generated: {name} -->": render for name, render in docgen.PAGES.items()}


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    for marker, render in MARKERS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, render())
    return markdown
