"""Streamed audit exports: JSONL (one sealed event a line) and CSV, and JSONL read back.

Every function takes and returns iterators, so an export of any size never holds more
than one event in memory.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from dealerassist.audit.chain import canonical_json
from dealerassist.audit.envelope import EVENT_FIELDS

CSV_COLUMNS = EVENT_FIELDS
CHECKPOINT = "checkpoint"


def to_jsonl_lines(events: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    """One canonical-JSON line per event, hashes included, each ending in a newline.

    >>> list(to_jsonl_lines([{"seq": 1, "hash": "ab"}]))
    ['{"hash":"ab","seq":1}\\n']
    """
    for event in events:
        yield canonical_json(event).decode() + "\n"


def from_jsonl_lines(
    lines: Iterable[str | bytes], checkpoints: list[dict[str, Any]] | None = None
) -> Iterator[dict[str, Any]]:
    """The events of a JSONL export (blank lines skipped); its checkpoint lines
    (``{"checkpoint": ...}``, ``checkpoint_lines``) go to ``checkpoints`` if given.

    >>> events = [{"table_id": "T1", "seq": 1, "hash": "ab"}]
    >>> list(from_jsonl_lines(to_jsonl_lines(events))) == events
    True
    """
    for line in lines:
        if line.strip():
            event: dict[str, Any] = json.loads(line)
            if CHECKPOINT in event and len(event) == 1:
                if checkpoints is not None:
                    checkpoints.append(event[CHECKPOINT])
                continue
            yield event


def checkpoint_lines(records: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    """The signed checkpoints a JSONL export ends with, one ``{"checkpoint": ...}`` a line
    (``audit.checkpoints``): an export carries what verifies it against deletion.

    >>> list(checkpoint_lines([{"n": 1}]))
    ['{"checkpoint":{"n":1}}\\n']
    """
    for record in records:
        yield canonical_json({CHECKPOINT: record}).decode() + "\n"


def to_csv_lines(events: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    """A header line, then one CSV line per event (the payload as canonical JSON).

    >>> next(to_csv_lines([])).startswith("table_id,seq,version")
    True
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    yield _csv_line(buffer, writer, CSV_COLUMNS)
    for event in events:
        yield _csv_line(
            buffer, writer, [_csv_cell(column, event.get(column)) for column in CSV_COLUMNS]
        )


def _csv_cell(column: str, value: Any) -> Any:
    if column == "payload":
        return canonical_json(value).decode()
    return "" if value is None else value


def _csv_line(buffer: io.StringIO, writer: Any, row: Iterable[Any]) -> str:
    buffer.seek(0)
    buffer.truncate()
    writer.writerow(row)
    return buffer.getvalue()
