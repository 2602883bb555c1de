"""Floor calls: the value the dealer opens when an entry is refused or a player disputes,
and the port that keeps them (``FloorCallStore``; Redis in ``adapters/redis_floor_calls``).

Open calls are bounded (``FloorCallLimits``): at most ``per_table`` open at one table and
``per_token`` opened by one token; a call opened beyond either is refused
(``TooManyFloorCalls``, HTTP 429 with ``Retry-After``) and nothing is audited. An open call
nobody ruled on expires ``ttl_seconds`` after it was opened: it leaves the open lists (and no
longer counts against the limits), and reads back with status ``expired``. Its record is kept
``keep_seconds`` more for a late ruling or a look, then dropped; the audit chain keeps the
call itself (kind ``floor_call``) for good.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from typing import Any, Protocol

from dealerassist.errors import DealerAssistError
from dealerassist.rules.model.said import Said

OPEN = "open"
CLOSED = "closed"
EXPIRED = "expired"  # reported, never stored: an open call past its ttl

# A live table rarely has more than one or two calls waiting; 10 leaves room for a bad hand
# at a busy table while 3,000 (one dealer token's flood) cannot happen.
DEFAULT_PER_TABLE = 10
DEFAULT_PER_TOKEN = 20  # a floor token may call at several tables
DEFAULT_TTL_SECONDS = 4 * 3600  # a call still open after four hours is stale: the shift moved on
DEFAULT_KEEP_SECONDS = 7 * 24 * 3600
DEFAULT_PAGE = 50
MAX_PAGE = 200


@dataclass(frozen=True, slots=True)
class FloorCallLimits:
    """How many calls may be open at once, how long one stays open, how long it is kept."""

    per_table: int = DEFAULT_PER_TABLE
    per_token: int = DEFAULT_PER_TOKEN
    ttl_seconds: int = DEFAULT_TTL_SECONDS
    keep_seconds: int = DEFAULT_KEEP_SECONDS

    def open_since(self, now: datetime) -> datetime:
        """Calls opened before this moment have expired."""
        return now - timedelta(seconds=self.ttl_seconds)


class TooManyFloorCalls(DealerAssistError):
    """A call beyond a limit: ``scope`` is ``table`` or ``token``; ``retry_after`` the seconds
    until the oldest call counted expires (sooner if the floor rules on one)."""

    def __init__(self, message: str | Said, scope: str, limit: int, retry_after: int) -> None:
        super().__init__(message)
        self.scope = scope
        self.limit = limit
        self.retry_after = retry_after


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
    message: str = ""  # the refusal's English words
    # what the refusal said (its message ID and parameters, ``rules/model/said.py``): the API
    # renders ``message`` in the floor manager's language; left out of the JSON when unknown
    message_id: str | None = None
    params: dict[str, Any] | None = None
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
    # the hand's entries so far as the dealer made them ({"at", "command"}, cards included)
    actions: list[dict[str, Any]] = field(default_factory=list)
    expires_at: str | None = None  # UTC, ISO 8601: when the call leaves the open lists
    # the ruling that closed it, for the tablet to show: decision, its label, note, effects
    ruling: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name not in _WRITTEN_WHEN_SET or getattr(self, f.name) is not None
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> FloorCall:
        names = {f.name for f in fields(FloorCall)}
        return FloorCall(**{key: value for key, value in data.items() if key in names})


_WRITTEN_WHEN_SET = frozenset({"message_id", "params"})  # a call made before them is as it was


@dataclass(frozen=True, slots=True)
class CallPage:
    """One page of open calls, newest first; ``next`` is the cursor of the page after it."""

    calls: list[FloorCall]
    total: int  # open calls in the whole scope, not only this page
    next: str | None = None


class FloorCallStore(Protocol):
    """Open and closed floor calls by ID, with the open ones listed by table and by token."""

    def reserve(self, call: FloorCall, limits: FloorCallLimits, now: datetime) -> None:
        """Store a new open call unless its table or its caller has the most open calls
        ``limits`` allow (``TooManyFloorCalls``), in one atomic step."""

    def discard(self, call: FloorCall) -> None:
        """Take back a reserved call whose audit event could not be committed."""

    def save(self, call: FloorCall, limits: FloorCallLimits) -> None:
        """Store a changed call (a closed call leaves the open lists)."""

    def get(self, call_id: str) -> FloorCall | None:
        """One call, open or closed (``None`` once its record was dropped)."""

    def open_page(
        self,
        tables: Sequence[str] | None,
        since: datetime,
        limit: int,
        cursor: str | None = None,
    ) -> CallPage:
        """Open calls opened at or after ``since`` at ``tables`` (``None``: every table),
        newest first, ``limit`` at most, after ``cursor`` (a page's ``next``); only those
        tables' calls are read."""
