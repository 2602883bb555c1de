"""Floor calls: the value the dealer opens when an entry is refused or a player disputes,
and the port that keeps them (``FloorCallStore``; Redis in ``adapters/redis_floor_calls``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

OPEN = "open"
CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class FloorCall:
    """One call to the floor: the refused entry (if any), its rule, and the table at that moment."""

    call_id: str
    table_id: str
    opened_at: str  # UTC, ISO 8601
    opened_by: str  # token name of the dealer (or floor) who called
    version: int  # the table's version when the call was made
    hand_no: int | None
    rule_id: str | None
    message: str = ""
    seat: int | None = None
    entry: dict[str, Any] | None = None  # the refused command, as recorded
    seq: int | None = None  # the refused entry's audit seq, when known
    allowed: list[dict[str, Any]] = field(default_factory=list)  # what the engine allowed then
    note: str = ""
    table: dict[str, Any] = field(default_factory=dict)  # the table's public view then
    status: str = OPEN
    closed_at: str | None = None
    closed_by: str | None = None
    ruling_seq: int | None = None  # the audit seq of the ruling that closed it
    audit_seq: int | None = None  # the audit seq of the call itself (kind floor_call)
    # the ruling that closed it, for the tablet to show: decision, its label, note, effects
    ruling: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> FloorCall:
        names = {f.name for f in fields(FloorCall)}
        return FloorCall(**{key: value for key, value in data.items() if key in names})


class FloorCallStore(Protocol):
    """Open and closed floor calls by ID, with the list of open ones across tables."""

    def save(self, call: FloorCall) -> None:
        """Store a new or changed call (a closed call leaves the open list)."""

    def get(self, call_id: str) -> FloorCall | None:
        """One call, open or closed."""

    def open_calls(self) -> list[FloorCall]:
        """Every open call, oldest first."""
