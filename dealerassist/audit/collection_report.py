"""The cage's collection report: rake, jackpot drop and time per gaming day, table and dealer.

Built in one pass from the audit log (``phh.hand_records``: each finished hand's last result
and its events), so the report is exactly the sum of the audited hands (RAKE-01..05):

- ``rake`` and ``jackpot_drop``: the hand result's totals (``rules/hand/rake.py``);
- ``time``: the engine's ``time_collected`` events of the hand (RAKE-05);
- the dealer: the employee ID of the dealer on duty when the hand started (the ``dealer`` its
  ``start_hand`` event names, envelope 2), else the actor who started it (the dealer's token
  name, as before dealers signed in); the gaming day: the
  date the hand started, in UTC, the day beginning at ``day_start_hour`` (a casino's gaming
  day often starts at 06:00: a hand at 03:00 belongs to the day before).

``check_report`` recomputes every total a second way (each pot's ``rake`` and
``jackpot_drop`` from the engine's ``hand_ended`` event, the time from each seat's amount)
and says where the two disagree.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, date, timedelta
from typing import Any

from dealerassist.audit.envelope import REJECTED, dealer_of, parse_at
from dealerassist.audit.hands import hand_records

COLUMNS = ("gaming_day", "table_id", "dealer", "hands", "rake", "jackpot_drop", "time")
AMOUNTS = ("rake", "jackpot_drop", "time")
START_HAND = "start_hand"
TIME_COLLECTED = "time_collected"  # rules/hand/rake.py's engine event


def gaming_day(at: str, day_start_hour: int = 0) -> date:
    """The gaming day of an audit timestamp.

    >>> gaming_day("2026-12-02T03:00:00.000000Z", 6), gaming_day("2026-12-02T07:00:00.000000Z", 6)
    (datetime.date(2026, 12, 1), datetime.date(2026, 12, 2))
    """
    return (parse_at(at).astimezone(UTC) - timedelta(hours=day_start_hour)).date()


def hand_take(record: Mapping[str, Any]) -> dict[str, int]:
    """What the house took in one audited hand, from its result and its time events."""
    result = record.get("result") or {}
    time = sum(
        int(engine_event.get("amount", 0))
        for event in _accepted(record)
        for engine_event in (event.get("payload") or {}).get("events") or ()
        if engine_event.get("type") == TIME_COLLECTED
    )
    return {
        "rake": int(result.get("rake", 0)),
        "jackpot_drop": int(result.get("jackpot_drop", 0)),
        "time": time,
    }


def _accepted(record: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    return (event for event in record.get("events") or () if event.get("kind") != REJECTED)


def dealer(record: Mapping[str, Any]) -> str:
    """The dealer on duty when the hand started (employee ID), else the actor who started it.

    >>> dealer({"events": [{"kind": "start_hand", "actor": "tablet:t-1", "dealer": "E7"}]})
    'E7'
    >>> dealer({"events": [{"kind": "start_hand", "actor": "dealer-T1"}]})
    'dealer-T1'
    """
    for event in _accepted(record):
        if event.get("kind") == START_HAND:
            return dealer_of(event) or str(event.get("actor") or "")
    return ""


def collection_report(
    events: Iterable[Mapping[str, Any]], day_start_hour: int = 0
) -> dict[str, Any]:
    """The report: ``rows`` (one per gaming day, table and dealer, with its hands and amounts),
    ``by_table``, ``by_dealer``, ``by_day`` and ``total``, and ``jackpot``: its running total
    after each gaming day (drops only: paying a jackpot out is not recorded here)."""
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}
    for record in hand_records(events):
        take = hand_take(record)
        day = gaming_day(str(record["started_at"]), day_start_hour).isoformat()
        key = (day, str(record["table_id"]), dealer(record))
        row = rows.setdefault(key, dict(zip(COLUMNS[:3], key, strict=True)) | _zero(hands=0))
        row["hands"] += 1
        for name in AMOUNTS:
            row[name] += take[name]
    ordered = [rows[key] for key in sorted(rows)]
    by_day = _totals(ordered, "gaming_day")
    running, jackpot = 0, []
    for day, amounts in by_day.items():
        running += amounts["jackpot_drop"]
        jackpot.append({"gaming_day": day, "drop": amounts["jackpot_drop"], "running": running})
    return {
        "day_start_hour": day_start_hour,
        "rows": ordered,
        "by_table": _totals(ordered, "table_id"),
        "by_dealer": _totals(ordered, "dealer"),
        "by_day": by_day,
        "total": _sum(ordered),
        "jackpot": {"total": running, "by_day": jackpot},
    }


def _zero(**extra: int) -> dict[str, int]:
    return {**extra, **dict.fromkeys(AMOUNTS, 0)}


def _totals(rows: list[dict[str, Any]], column: str) -> dict[str, dict[str, int]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(str(row[column]), []).append(row)
    return {name: _sum(group) for name, group in sorted(groups.items())}


def _sum(rows: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    total = _zero(hands=0)
    for row in rows:
        for name in ("hands", *AMOUNTS):
            total[name] += int(row[name])
    return total


def check_report(report: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Whether ``report`` equals the sum of the hands, recomputed another way: each pot's
    rake and drop in the engine's ``hand_ended`` event, each seat's time; and whether the
    rows add up to the totals and the jackpot's running total to its drops. Answer:
    ``{"ok", "hands", "problems": [text]}``."""
    problems: list[str] = []
    recomputed: dict[str, dict[str, int]] = {}
    hands = 0
    for record in hand_records(events):
        hands += 1
        take = _take_from_engine_events(record, problems)
        table = recomputed.setdefault(str(record["table_id"]), _zero(hands=0))
        table["hands"] += 1
        for name in AMOUNTS:
            table[name] += take[name]
    for table_id in sorted(set(recomputed) | set(report.get("by_table", {}))):
        reported = report.get("by_table", {}).get(table_id)
        if reported != recomputed.get(table_id):
            problems.append(
                f"table {table_id}: report {reported}, the hands {recomputed.get(table_id)}"
            )
    if _sum(report.get("rows", [])) != report.get("total"):
        problems.append(f"the rows do not add up to the total {report.get('total')}")
    if report.get("jackpot", {}).get("total") != (report.get("total") or {}).get("jackpot_drop"):
        problems.append("the jackpot's running total is not the sum of the drops")
    return {"ok": not problems, "hands": hands, "problems": problems}


def _take_from_engine_events(record: Mapping[str, Any], problems: list[str]) -> dict[str, int]:
    take = _zero()
    ended: Mapping[str, Any] | None = None
    for event in _accepted(record):
        for engine_event in (event.get("payload") or {}).get("events") or ():
            if engine_event.get("type") == "hand_ended":
                ended = engine_event.get("result") or {}
            elif engine_event.get("type") == TIME_COLLECTED:
                take["time"] += sum(int(v) for v in (engine_event.get("seats") or {}).values())
    pots = (ended or {}).get("pots") or []
    take["rake"] = sum(int(pot.get("rake", 0)) for pot in pots)
    take["jackpot_drop"] = sum(int(pot.get("jackpot_drop", 0)) for pot in pots)
    result = record.get("result") or {}
    for name in ("rake", "jackpot_drop"):
        if int(result.get(name, 0)) != take[name]:
            problems.append(
                f"table {record['table_id']} hand {record['hand_no']}: {name} "
                f"{result.get(name, 0)} recorded, its pots hold {take[name]}"
            )
    return take


def to_csv_lines(report: Mapping[str, Any]) -> Iterator[str]:
    """The report's rows as CSV, a header first.

    >>> list(to_csv_lines({"rows": []}))
    ['gaming_day,table_id,dealer,hands,rake,jackpot_drop,time\\n']
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    yield buffer.getvalue()
    for row in report.get("rows", []):
        buffer.seek(0)
        buffer.truncate()
        writer.writerow([row[column] for column in COLUMNS])
        yield buffer.getvalue()
