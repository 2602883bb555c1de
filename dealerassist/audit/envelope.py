"""The audit event envelope: one dict per audited thing, sealed into the table's hash chain.

Fields: ``table_id``, ``seq`` (the table's audit sequence: every audited event,
accepted or rejected, takes the next number), ``version`` (the table version after the
event; a rejection leaves it unchanged), ``hand_no``, ``at`` (UTC, ISO 8601 with
microseconds and ``Z``), ``actor`` (token name), ``role``, ``kind``, ``payload``,
``profile_id``, ``profile_sha256``, ``prev_hash`` and ``hash``.

Kinds: the command's type for an accepted command (``create_table``, ``seat``, ``leave``,
``start_hand``, ``action``, ``ruling`` …) and ``rejected`` for a refused entry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from dealerassist.audit.chain import seal

REJECTED = "rejected"
# a dealer's (or floor's) call to the floor: audited at the table, the table unchanged
FLOOR_CALL = "floor_call"
# the kinds that leave the table as it was: the version stays, replay changes nothing
UNCHANGED_KINDS = frozenset({REJECTED, FLOOR_CALL})

# Every member of a sealed event, in the order exports and the store list them.
EVENT_FIELDS = (
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
    if _EXACT_AT.fullmatch(text):  # what format_at writes: fromisoformat, ~10x strptime
        return datetime.fromisoformat(text)
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


# format_at's own shape, digit for digit; strptime takes more (one-digit fields), so any other
# text goes to strptime and gets its answer or its error, as before
_EXACT_AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", re.ASCII)


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
) -> dict[str, Any]:
    """Build and seal one audit event (it carries its own ``hash``)."""
    event = {
        "table_id": table_id,
        "seq": seq,
        "version": version,
        "hand_no": hand_no,
        "at": format_at(at),
        "actor": actor,
        "role": role,
        "kind": kind,
        "payload": dict(payload),
        "profile_id": profile_id,
        "profile_sha256": profile_sha256,
    }
    return seal(event, prev_hash)
