"""The ports the use cases talk to (Protocols), and the values that cross them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

from dealerassist.audit.chain import GENESIS_HASH
from dealerassist.rules.house_rules import HouseRules
from dealerassist.rules.state import TableState
from dealerassist.service.floor_calls import FloorCallStore


@dataclass(frozen=True, slots=True)
class ChainHead:
    """The last audit event of a table: its ``seq`` and ``hash`` (the next event links to it)."""

    seq: int = 0
    last_hash: str = GENESIS_HASH


@dataclass(frozen=True, slots=True)
class TableRecord:
    """What the table store keeps per table: the state (with its version) and the chain head.

    ``state_json`` is the state's canonical JSON when the service already computed it (for
    the audit event's ``state_sha256``), so the store does not serialise the state again.
    """

    state: TableState
    head: ChainHead
    state_json: bytes | None = field(default=None, compare=False, repr=False)

    @property
    def version(self) -> int:
        return self.state.version


class AnswerKind(StrEnum):
    """How a command ended: created, accepted (applied) or rejected (audited, nothing changed)."""

    CREATED = "created"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class IdempotencyRecord:
    """The first answer to an Idempotency-Key, kept so a retry gets it again."""

    fingerprint: str
    kind: AnswerKind
    body: Mapping[str, Any]
    # ``body`` as compact JSON when the service encoded it already (for the response): the
    # store embeds these bytes instead of serialising the ~2 KB answer a second time
    body_json: bytes | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"fingerprint": self.fingerprint, "kind": str(self.kind), "body": dict(self.body)}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> IdempotencyRecord:
        return IdempotencyRecord(
            fingerprint=str(data["fingerprint"]),
            kind=AnswerKind(data["kind"]),
            body=dict(data["body"]),
        )


class TableTransaction(Protocol):
    """One optimistic transaction on one table: read, decide, then commit or lose the race."""

    @property
    def record(self) -> TableRecord | None:
        """The table as it was when the transaction began (None: no such table)."""

    @property
    def remembered(self) -> IdempotencyRecord | None:
        """The stored answer for the transaction's Idempotency-Key, if any."""

    def commit(
        self,
        record: TableRecord,
        events: Sequence[Mapping[str, Any]],
        remember: IdempotencyRecord | None,
    ) -> None:
        """Write the new record, stage ``events`` for the audit store and remember the answer,
        all at once; raise ``errors.Conflict`` (with the current version) if the table moved."""


class TableStore(Protocol):
    """Live table state with compare-and-set commits."""

    def transaction(
        self, table_id: str, idempotency_key: str | None
    ) -> AbstractContextManager[TableTransaction]:
        """Begin a transaction on ``table_id`` (and the idempotency record named by the key)."""

    def load(self, table_id: str) -> TableRecord | None:
        """Read a table without a transaction."""

    def ping(self) -> None:
        """Raise ``errors.Unavailable`` if the store cannot be reached."""


class AuditQueue(Protocol):
    """The pending audit events between the table store and the audit store."""

    def depth(self) -> int:
        """How many events wait to be written to the audit store."""


class AuditStore(Protocol):
    """The durable, append-only audit log (read side)."""

    def iter_events(
        self,
        table_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Events ordered by (table_id, seq)."""

    def get_hand(self, table_id: str, hand_no: int) -> dict[str, Any] | None:
        """One hand's record and its events, or None."""

    def ping(self) -> None:
        """Raise ``errors.Unavailable`` if the store cannot be reached."""


class ProfileSource(Protocol):
    """House-rule profiles by ID."""

    def get(self, profile_id: str) -> HouseRules:
        """The profile; raise ``errors.NotFound`` if there is none with this ID."""

    def version(self, profile_id: str, sha256: str) -> HouseRules:
        """The profile as it was when an event recorded ``sha256`` (the current one or an
        archived earlier version); raise ``errors.NotFound`` if that version is not kept."""

    def ids(self) -> list[str]:
        """Every known profile ID."""


class Clock(Protocol):
    """Where time comes from (a fake in tests)."""

    def now(self) -> datetime:
        """The current UTC time."""


@dataclass(frozen=True, slots=True)
class Services:
    """The ports one process uses, built by ``bootstrap`` (fakes in the service tests)."""

    tables: TableStore
    audit_queue: AuditQueue
    audit_store: AuditStore
    profiles: ProfileSource
    clock: Clock
    floor_calls: FloorCallStore | None = None  # rulings: open floor calls (None: not wired)
