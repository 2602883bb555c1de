"""Verify an audit log: every hash, every link, no gap in any table's seq, and a replay.

``verify`` reads the events once, in the order the store gives them ((table_id, seq)),
and keeps only a few values per table (the last seq, hash and version, and the replayed
state), so a log of any length is checked in constant memory per table.

Answer: ``{"ok", "events", "hands", "problems": [{"table_id", "seq", "why"}]}`` where
``hands`` counts the hands the log shows finished.

With ``anchors`` (``audit.checkpoints``: the latest signed checkpoint's heads, Redis's live
heads) it also reports what the store lacks against them: a missing tail, a missing table,
a chain rewritten and re-sealed. With ``resume`` (each table's head at a checkpoint an
earlier verify found good) it is incremental: the events give each table from its resumed
head on, the first must be that head, and the rest is checked as usual; those tables are
not replayed (replay needs the state from the table's first event).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from dealerassist.audit.chain import GENESIS_HASH, event_hash
from dealerassist.audit.checkpoints import Anchor, Head, anchor_problems
from dealerassist.audit.envelope import (
    DEALER_ON_DUTY,
    ENVELOPE_V1,
    REJECTED,
    UNCHANGED_KINDS,
    dealer_of,
    envelope_of,
    envelope_whys,
)
from dealerassist.audit.replay import ReplayEngine, RulesFor, TableReplay, load_engine

Problem = dict[str, Any]


def finishes_hand(event: Mapping[str, Any]) -> bool:
    """Whether an event completes a hand (an accepted entry carrying the hand's result).

    >>> finishes_hand({"kind": "action", "hand_no": 3, "payload": {"result": {"pots": []}}})
    True
    >>> finishes_hand({"kind": "rejected", "hand_no": 3, "payload": {"rule_id": "BET-01"}})
    False
    """
    payload = event.get("payload")
    return (
        event.get("kind") != REJECTED
        and event.get("hand_no") is not None
        and isinstance(payload, Mapping)
        and payload.get("result") is not None
    )


class TableChain:
    """The chain checks of one table: hash, link to the previous event, seq and version."""

    def __init__(self, table_id: str, replay: TableReplay | None) -> None:
        self.table_id = table_id
        self.replay = replay
        self.last_seq = 0
        self.last_hash = GENESIS_HASH
        self.last_version: int | None = 0  # None: the last event cannot be trusted for it
        self.resume: Head | None = None  # the first event must be this head (incremental)
        self.envelope = ENVELOPE_V1  # the newest envelope version seen in the chain
        self.dealer: str | None = None  # the dealer on duty after the last event

    def check(self, event: Mapping[str, Any]) -> list[str]:
        """Why this event breaks the table's chain (empty if it does not)."""
        try:
            resuming = self.resume is not None  # the dealer before the resumed head is unknown
            whys = self._link(event) + self._dealer_whys(event, resuming)
        except (KeyError, TypeError, ValueError) as error:
            return [f"malformed event ({type(error).__name__}: {error})"]
        if self.replay is not None:
            why = self.replay.step(event)
            if why is not None:
                whys.append(why)
        return whys

    def _link(self, event: Mapping[str, Any]) -> list[str]:
        if self.resume is not None:
            return self._resumed(event, self.resume)
        whys: list[str] = []
        recomputed = event_hash(event)
        intact = recomputed == event["hash"]
        if not intact:
            stored = event["hash"]
            whys.append(f"hash {stored} stored, {recomputed} recomputed: the event changed")
        seq = int(event["seq"])
        if seq <= self.last_seq:
            whys.append(f"seq {seq} repeats or goes back (last was {self.last_seq})")
            return whys
        contiguous = seq == self.last_seq + 1
        if not contiguous:
            whys.append(f"seq {self.last_seq + 1}..{seq - 1} missing")
        elif event["prev_hash"] != self.last_hash:
            whys.append(f"prev_hash {event['prev_hash']} does not link to {self.last_hash}")
        previous_version = self.last_version if contiguous else None
        self.last_seq, self.last_hash = seq, event["hash"]
        self.last_version = event["version"] if intact and _is_int(event["version"]) else None
        return whys + _version_whys(event, previous_version)

    def _dealer_whys(self, event: Mapping[str, Any], resuming: bool = False) -> list[str]:
        """Envelope 2: the event names the dealer on duty, the one the chain's last
        ``dealer_on_duty`` put there (that event names the dealer it puts on duty); an
        envelope never goes back to 1 within a table."""
        whys = envelope_whys(event)
        version = envelope_of(event)
        if version == ENVELOPE_V1:
            if self.envelope > ENVELOPE_V1:
                whys.append(f"envelope 1 after envelope {self.envelope}: the dealer is left out")
            return whys
        self.envelope = max(self.envelope, version)
        named = dealer_of(event)
        if event["kind"] == DEALER_ON_DUTY:
            payload = event.get("payload")
            expected = payload.get("employee_id") if isinstance(payload, Mapping) else None
        else:
            expected = self.dealer
        self.dealer = named
        if named != expected and not resuming:
            whys.append(f"dealer {named!r} named, {expected!r} on duty")
        return whys

    def _resumed(self, event: Mapping[str, Any], head: Head) -> list[str]:
        """The first event of an incremental verify: the head it resumes from, unchanged."""
        self.resume = None
        seq = int(event["seq"])
        whys: list[str] = []
        if seq != head.seq:
            whys.append(f"seq {head.seq}, the head verify resumes from, is missing")
        elif event["hash"] != head.hash:
            whys.append(f"hash {event['hash']} stored, {head.hash} at the resumed checkpoint")
        if event_hash(event) != event["hash"]:
            whys.append(f"hash {event['hash']} stored, {event_hash(event)} recomputed")
        self.last_seq, self.last_hash = seq, event["hash"]
        self.last_version = event["version"] if not whys and _is_int(event["version"]) else None
        return whys


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _version_whys(event: Mapping[str, Any], previous: int | None) -> list[str]:
    """An accepted event raises the version by one; a refused one or a floor call leaves it."""
    if not _is_int(event["version"]):
        return [f"version {event['version']!r} is not a whole number"]
    if previous is None:
        return []
    expected = previous + (0 if event["kind"] in UNCHANGED_KINDS else 1)
    if event["version"] != expected:
        return [f"version {event['version']} recorded, {expected} expected"]
    return []


def verify(
    events: Iterable[Mapping[str, Any]],
    rules_for: RulesFor,
    *,
    replay: bool = True,
    engine: ReplayEngine | None = None,
    anchors: Sequence[Anchor] | None = None,
    resume: Mapping[str, Head] | None = None,
) -> dict[str, Any]:
    """Check every event's hash and link, each table's seq, and replay it through the engine;
    with ``anchors``, what the store lacks against them; with ``resume``, from those heads.

    >>> from dealerassist.audit.chain import GENESIS_HASH, seal
    >>> body = {"table_id": "T1", "seq": 1, "version": 1, "kind": "seat", "hand_no": None}
    >>> body |= {"at": "2026-12-02T05:00:00Z", "actor": "dealer", "role": "dealer"}
    >>> body |= {"profile_id": "p", "profile_sha256": "0" * 64, "payload": {}}
    >>> event = seal(body, GENESIS_HASH)
    >>> verify([event], lambda *version: None, replay=False)
    {'ok': True, 'events': 1, 'hands': 0, 'problems': []}
    >>> report = verify([{**event, "kind": "leave"}], lambda *version: None, replay=False)
    >>> report["ok"], report["problems"][0]["why"].endswith("the event changed")
    (False, True)
    """
    engine = engine if engine is not None or not replay else load_engine()
    tables: dict[str, TableChain] = {}
    problems: list[Problem] = []
    counts = {"events": 0, "hands": 0}
    anchored = {(anchor.table_id, anchor.seq) for anchor in anchors or ()}
    hashes: dict[tuple[str, int], str] = {}
    for event in events:
        counts["events"] += 1
        counts["hands"] += finishes_hand(event)
        table_id = str(event.get("table_id"))
        if table_id not in tables:
            head = (resume or {}).get(table_id)
            resumed = head is not None
            chain = _new_chain(table_id, replay and not resumed, engine, rules_for, problems, event)
            chain.resume = head
            tables[table_id] = chain
        for why in tables[table_id].check(event):
            problems.append({"table_id": table_id, "seq": event.get("seq"), "why": why})
        if anchored and (table_id, event.get("seq")) in anchored:
            hashes[(table_id, int(event["seq"]))] = str(event.get("hash"))
    if anchors is not None:
        seen = {table_id: chain.last_seq for table_id, chain in tables.items()}
        for table_id, head in (resume or {}).items():
            # resumed, but not even the head it resumes from is stored: the tail is gone
            seen.setdefault(table_id, head.seq - 1)
        problems += anchor_problems(anchors, seen, hashes)
    return {"ok": not problems, **counts, "problems": problems}


def _new_chain(
    table_id: str,
    replay: bool,
    engine: ReplayEngine | None,
    rules_for: RulesFor,
    problems: list[Problem],
    first: Mapping[str, Any],
) -> TableChain:
    if not replay:
        return TableChain(table_id, None)
    if engine is None:
        why = "replay skipped: the rules engine cannot be loaded"
        problems.append({"table_id": table_id, "seq": first.get("seq"), "why": why})
        return TableChain(table_id, None)
    return TableChain(table_id, TableReplay(engine, rules_for))
