"""The audit event envelope: one dict per audited thing, sealed into the table's hash chain.

Fields: ``table_id``, ``seq`` (the table's audit sequence: every audited event,
accepted or rejected, takes the next number), ``version`` (the table version after the
event; a rejection leaves it unchanged), ``hand_no``, ``at`` (UTC, ISO 8601 with
microseconds and ``Z``), ``actor`` (token name), ``role``, ``kind``, ``payload``,
``profile_id``, ``profile_sha256``, ``prev_hash`` and ``hash``.

Kinds: the command's type for an accepted command (``create_table``, ``seat``, ``leave``,
``start_hand``, ``action``, ``ruling`` …), ``rejected`` for a refused entry, ``floor_call``,
``dealer_on_duty`` (a dealer signed in, pushed in or signed out at the table) and
``sign_in_refused`` (a wrong PIN, a lockout).

Envelope versions (the members hashed; pinned by golden vectors in ``tests/unit/audit``):

* **1** (every event stored before the dealer sign-in): the thirteen ``V1_FIELDS``; no
  ``envelope`` member.
* **2**: also ``envelope`` (the number 2) and ``dealer``, the employee ID of the dealer on
  duty at the table *after* the event (``null`` when none is signed in). A
  ``dealer_on_duty`` event names the dealer it puts on duty (``null``: signed out); every
  other event names the one on duty when it was made.

The hash rule is the same for both (the canonical JSON of every member but ``hash``), so
a version 1 event verifies exactly as it always did.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from dealerassist.audit.chain import seal

REJECTED = "rejected"
# a dealer's (or floor's) call to the floor: audited at the table, the table unchanged
FLOOR_CALL = "floor_call"
# the kinds that leave the table as it was: the version stays, replay changes nothing
# a dealer signed in, pushed in or signed out at the table (the chain's dealer changes)
DEALER_ON_DUTY = "dealer_on_duty"
# a sign-in refused at the table's tablet: a wrong PIN, an unknown employee, a lockout
SIGN_IN_REFUSED = "sign_in_refused"
# the kinds that leave the table as it was: the version stays, replay changes nothing
UNCHANGED_KINDS = frozenset({REJECTED, FLOOR_CALL, DEALER_ON_DUTY, SIGN_IN_REFUSED})

ENVELOPE_V1 = 1
ENVELOPE_V2 = 2
CURRENT_ENVELOPE = ENVELOPE_V2

# The members of a version 1 event, in the order exports and the store list them.
V1_FIELDS = (
    "table_id",
    "seq",
    "version",
    "hand_no",
    "at",
    "actor",
    "role",
    "kind",
    "payload",
    "profile_id",
    "profile_sha256",
    "prev_hash",
    "hash",
)
# What version 2 adds: the envelope's number and the dealer on duty (employee ID or null).
V2_ADDED = ("envelope", "dealer")
# Every member a sealed event may have, in the order exports and the store list them.
EVENT_FIELDS = (*V1_FIELDS[:7], "dealer", *V1_FIELDS[7:11], "envelope", *V1_FIELDS[11:])


def envelope_of(event: Mapping[str, Any]) -> int:
    """An event's envelope version (1 when it has no ``envelope`` member).

    >>> envelope_of({"kind": "seat"}), envelope_of({"envelope": 2, "dealer": None})
    (1, 2)
    """
    version = event.get("envelope", ENVELOPE_V1)
    return version if isinstance(version, int) and not isinstance(version, bool) else -1


def fields_of(envelope: int) -> tuple[str, ...]:
    """The members an event of that envelope version has (``EVENT_FIELDS`` order).

    >>> len(fields_of(1)), len(fields_of(2))
    (13, 15)
    """
    if envelope == ENVELOPE_V1:
        return V1_FIELDS
    return EVENT_FIELDS


def envelope_whys(event: Mapping[str, Any]) -> list[str]:
    """What is wrong with an event's envelope: an unknown version, a member missing or extra.

    >>> envelope_whys({"envelope": 3})
    ['envelope version 3 is unknown (1 or 2)']
    """
    version = envelope_of(event)
    if version not in (ENVELOPE_V1, ENVELOPE_V2):
        return [f"envelope version {event.get('envelope')!r} is unknown (1 or 2)"]
    expected = set(fields_of(version))
    whys = []
    missing, extra = sorted(expected - set(event)), sorted(set(event) - expected)
    if missing or extra:
        whys.append(f"envelope {version}: missing {missing}, unexpected {extra}")
    dealer = event.get("dealer")
    if version == ENVELOPE_V2 and dealer is not None and not isinstance(dealer, str):
        whys.append(f"dealer {dealer!r} is neither an employee ID nor null")
    return whys


def dealer_of(event: Mapping[str, Any]) -> str | None:
    """The employee ID an event names as the dealer on duty (None: none, or version 1)."""
    dealer = event.get("dealer")
    return dealer if isinstance(dealer, str) else None


def format_at(at: datetime) -> str:
    """UTC timestamp in the one format the chain hashes.

    >>> format_at(datetime(2026, 11, 29, 12, 0, 0, 5, tzinfo=UTC))
    '2026-11-29T12:00:00.000005Z'
    """
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_at(text: str) -> datetime:
    """Inverse of ``format_at``.

    >>> parse_at("2026-12-01T20:00:00.000000Z")
    datetime.datetime(2026, 12, 1, 20, 0, tzinfo=datetime.timezone.utc)
    >>> format_at(parse_at("2026-12-01T20:00:00.000000Z"))
    '2026-12-01T20:00:00.000000Z'
    """
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


def build_event(
    *,
    table_id: str,
    seq: int,
    version: int,
    hand_no: int | None,
    at: datetime,
    actor: str,
    role: str,
    kind: str,
    payload: Mapping[str, Any],
    profile_id: str,
    profile_sha256: str,
    prev_hash: str,
    dealer: str | None,
) -> dict[str, Any]:
    """Build and seal one audit event of the current envelope (it carries its own ``hash``)."""
    event = {
        "table_id": table_id,
        "seq": seq,
        "version": version,
        "hand_no": hand_no,
        "at": format_at(at),
        "actor": actor,
        "role": role,
        "dealer": dealer,
        "kind": kind,
        "payload": dict(payload),
        "profile_id": profile_id,
        "profile_sha256": profile_sha256,
        "envelope": CURRENT_ENVELOPE,
    }
    return seal(event, prev_hash)
