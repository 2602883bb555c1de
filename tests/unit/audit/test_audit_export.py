"""Streamed JSONL and CSV exports (dealerassist.audit.export)."""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections.abc import Iterator
from typing import Any

from audit_chains import synthetic_events

from dealerassist.audit.chain import event_hash
from dealerassist.audit.export import (
    CSV_COLUMNS,
    from_jsonl_lines,
    to_csv_lines,
    to_jsonl_lines,
)


def _endless() -> Iterator[dict[str, Any]]:
    yield from synthetic_events("T1", 10**9)


def test_jsonl_has_one_event_a_line_with_hashes() -> None:
    """Each line is one event's canonical JSON, its hash still verifiable."""
    events = list(synthetic_events("T1", 3))
    lines = list(to_jsonl_lines(events))
    assert len(lines) == 3 and all(line.endswith("\n") and line.count("\n") == 1 for line in lines)
    parsed = [json.loads(line) for line in lines]
    assert parsed == events
    assert all(event_hash(event) == event["hash"] for event in parsed)


def test_jsonl_round_trips_through_from_jsonl_lines() -> None:
    """from_jsonl_lines reads an export back (bytes or text, blank lines skipped)."""
    events = list(synthetic_events("T1", 4))
    lines = [line.encode() for line in to_jsonl_lines(events)] + [b"\n"]
    assert list(from_jsonl_lines(lines)) == events


def test_jsonl_is_streamed() -> None:
    """The JSONL export of an endless stream yields its first lines at once."""
    first = list(itertools.islice(to_jsonl_lines(_endless()), 2))
    assert [json.loads(line)["seq"] for line in first] == [1, 2]


def test_csv_has_a_header_and_one_row_per_event() -> None:
    """CSV rows carry every envelope column; the payload is canonical JSON; None is empty."""
    events = list(synthetic_events("T1", 3))
    events[0]["hand_no"] = None
    rows = list(csv.reader(io.StringIO("".join(to_csv_lines(events)))))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == 4
    first = dict(zip(CSV_COLUMNS, rows[1], strict=True))
    assert first["hand_no"] == ""
    assert json.loads(first["payload"]) == events[0]["payload"]
    assert first["hash"] == events[0]["hash"] and first["seq"] == "1"


def test_csv_quotes_commas_and_newlines() -> None:
    """A payload with commas, quotes and a newline stays in one CSV record."""
    event = next(synthetic_events("T1", 1))
    event["payload"]["note"] = 'a, "b"\nc'
    rows = list(csv.reader(io.StringIO("".join(to_csv_lines([event])))))
    assert json.loads(rows[1][CSV_COLUMNS.index("payload")])["note"] == 'a, "b"\nc'


def test_csv_is_streamed() -> None:
    """The CSV export of an endless stream yields the header and first rows at once."""
    first = list(itertools.islice(to_csv_lines(_endless()), 3))
    assert first[0].startswith("table_id,") and first[2].startswith("T1,2,")
