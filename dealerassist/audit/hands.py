"""Hand records: a hand's events and the table as it began, built from the audit log.

``hand_records(events)`` walks a log (ordered by table and seq) once and yields each finished
hand's record, as the store's ``get_hand`` returns it: ``table_id``, ``hand_no``, the
profile version, ``started_at``/``ended_at``, the last ``result``, the hand's ``events`` and
``table`` (``table_at_hand_start``: the spec of ``create_table`` and the seats with player and
stack after the table's earlier events). ``last_result`` and ``reopens`` say when a hand is
over: a floor ruling may reopen a finished hand (``void_last``), which ends again later. The
PHH writer (``audit.phh.writer``) and the collection report read these records.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from dealerassist.audit.envelope import REJECTED


def table_at_hand_start(events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The table (spec, seats with player and stack) after ``events``, a table's log prefix.

    >>> table_at_hand_start([
    ...     {"kind": "create_table", "payload": {"command": {"spec": {"table_id": "T"}}}},
    ...     {"kind": "seat", "payload": {"command": {"seat": 2, "player": "Ann", "stack": 90}}},
    ... ])
    {'spec': {'table_id': 'T'}, 'seats': {2: {'player': 'Ann', 'stack': 90}}}
    """
    table: dict[str, Any] = {"spec": {}, "seats": {}}
    for event in events:
        _follow(table, event)
    return table


def _follow(table: dict[str, Any], event: Mapping[str, Any]) -> None:
    """Update ``table`` (spec and seats) with one event of its log."""
    if event.get("kind") == REJECTED:
        return
    payload = event.get("payload") or {}
    command = payload.get("command") or {}
    seats: dict[int, dict[str, Any]] = table["seats"]
    if event.get("kind") == "create_table":
        table["spec"] = dict(command.get("spec") or {})
    elif event.get("kind") == "seat":
        seats[int(command["seat"])] = {"player": command["player"], "stack": command["stack"]}
    elif event.get("kind") == "leave":
        seats.pop(int(command["seat"]), None)
    elif event.get("kind") == "change_seat" and int(command["seat"]) in seats:
        seats[int(command["to"])] = seats.pop(int(command["seat"]))
    elif event.get("kind") == "add_chips" and int(command["seat"]) in seats:
        seats[int(command["seat"])]["stack"] += int(command["chips"])
    for engine_event in payload.get("events") or ():  # a floor ruling's adjust_stack
        if engine_event.get("type") == "stack_adjusted" and int(engine_event["seat"]) in seats:
            seats[int(engine_event["seat"])]["stack"] = int(engine_event["stack"])
    _apply_stacks(seats, payload.get("result"))


def _apply_stacks(seats: dict[int, dict[str, Any]], result: Any) -> None:
    if not isinstance(result, Mapping):
        return
    for seat, stack in (result.get("stacks") or {}).items():
        if int(seat) in seats:
            seats[int(seat)]["stack"] = stack


def hand_records(events: Iterable[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """The finished hands of a log ordered by (table_id, seq), as ``get_hand`` records.

    One pass, whatever the table's length. A hand's record is its last result: a floor
    ruling may reopen a finished hand (``void_last``) and the hand then ends again, so a
    record is yielded only when the next hand (or table, or the end of the log) shows the
    hand is over. A hand still in play at the end, or reopened and not finished, is left out.
    """
    table: dict[str, Any] = {"spec": {}, "seats": {}}
    hand: list[Mapping[str, Any]] = []
    start: dict[str, Any] = {}
    table_id = None
    finished: dict[str, Any] | None = None  # the current hand as of its last result
    for event in events:
        hand_no = event.get("hand_no")
        next_table = event.get("table_id") != table_id
        if next_table or (hand_no is not None and (not hand or hand[0].get("hand_no") != hand_no)):
            if finished is not None:
                yield finished
            finished = None
        if next_table:
            table_id, table, hand = event.get("table_id"), {"spec": {}, "seats": {}}, []
        if hand_no is not None and (not hand or hand[0].get("hand_no") != hand_no):
            hand, start = [], copy.deepcopy(table)
        if hand_no is not None:
            hand.append(event)
        _follow(table, event)
        if _finishes(event):
            finished = _record(hand, start, event["payload"]["result"])
        elif finished is not None and reopens(event):
            finished = None
    if finished is not None:
        yield finished


def reopens(event: Mapping[str, Any]) -> bool:
    """An accepted entry that took actions back (a ruling's ``void_last``): a hand that had
    ended is in play again until its next result."""
    payload = event.get("payload") or {}
    return event.get("kind") != REJECTED and any(
        engine_event.get("type") == "voided" for engine_event in payload.get("events") or ()
    )


def last_result(hand_events: Iterable[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The event that ended the hand last (``None`` if it is in play, or reopened since)."""
    last: Mapping[str, Any] | None = None
    for event in hand_events:
        if _finishes(event):
            last = event
        elif last is not None and reopens(event):
            last = None
    return last


def _finishes(event: Mapping[str, Any]) -> bool:
    payload = event.get("payload") or {}
    return event.get("kind") != REJECTED and payload.get("result") is not None


def _record(hand: list[Mapping[str, Any]], table: dict[str, Any], result: Any) -> dict[str, Any]:
    first, last = hand[0], hand[-1]
    return {
        "table_id": first["table_id"],
        "hand_no": first["hand_no"],
        "profile_id": last["profile_id"],
        "profile_sha256": last["profile_sha256"],
        "started_at": first["at"],
        "ended_at": last["at"],
        "result": result,
        "events": [dict(event) for event in hand],
        "table": table,
    }
