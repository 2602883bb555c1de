"""The ports the use cases talk to (Protocols), and the values that cross them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

from dealerassist.audit.chain import GENESIS_HASH
from dealerassist.audit.checkpoints import Anchor
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.state import TableState
from dealerassist.service.floor_calls import FloorCallLimits, FloorCallStore


@dataclass(frozen=True, slots=True)
class ChainHead:
    """The last audit event of a table: its ``seq`` and ``hash`` (the next event links to it),
    and the dealer on duty it names (the employee ID every next event names, until a
    ``dealer_on_duty`` event changes it; None: no dealer signed in)."""

    seq: int = 0
    last_hash: str = GENESIS_HASH
    dealer: str | None = None

    @staticmethod
    def after(event: Mapping[str, Any]) -> ChainHead:
        """The head a sealed event makes: its seq, hash and the dealer it names."""
        dealer = event.get("dealer")
        return ChainHead(event["seq"], event["hash"], dealer if isinstance(dealer, str) else None)


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

    def persistence(self) -> str:
        """How the store keeps accepted tables and staged audit events across its restart
        (``aof always``, ``none`` ...; readiness reports it); raises like ``ping``."""


class AuditQueue(Protocol):
    """The pending audit events between the table store and the audit store."""

    def depth(self) -> int:
        """How many events wait to be written to the audit store."""

    def pending(self, table_id: str) -> int:
        """How many events of ``table_id`` wait to be written to the audit store."""


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


class AuditIntegrity(Protocol):
    """What the audit pipeline found wrong and set apart (``adapters.audit_integrity``)."""

    def forked_tables(self) -> list[dict[str, Any]]:
        """Tables whose chain forked (``{"table_id", "from_seq", "quarantined"}`` each)."""

    def isolated_tables(self) -> dict[str, str]:
        """Tables whose events the store refuses, each with the store's reason."""

    def checkpoints(self, after: int = 0) -> Iterator[dict[str, Any]]:
        """The signed checkpoints numbered above ``after``, in order."""

    def anchors(self, table_id: str | None = None) -> tuple[list[Anchor], dict[str, Any]]:
        """What the store must hold (signed checkpoints' heads, Redis's live heads) for
        ``table_id`` (None: every table), and a summary of where that comes from."""


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


# -- verification jobs (GET /v1/audit/verify's long-running form) -------------------------

# Above this many events in scope the synchronous verify refuses and names the jobs route:
# at the measured ~2,600-3,300 events/s (replay included, one core) 20,000 events take 6-8 s,
# well inside gunicorn's 30 s worker timeout even on a loaded box.
SYNC_VERIFY_MAX_EVENTS = 20_000
# ... and whatever the count, a synchronous verify stops after this long (a slower box, a
# store that answers slowly): it refuses like an over-limit scope instead of being killed.
SYNC_VERIFY_BUDGET_SECONDS = 20.0


@dataclass(frozen=True, slots=True)
class VerifyLimits:
    """How much the synchronous verify may do within one HTTP request."""

    max_events: int = SYNC_VERIFY_MAX_EVENTS
    budget_seconds: float = SYNC_VERIFY_BUDGET_SECONDS


class VerificationStatus(StrEnum):
    """Where a verification job is: waiting, verifying, done (with a report) or failed."""

    QUEUED = "queued"
    RUNNING = "running"
    FINISHED = "finished"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Verification:
    """One verification job as its client sees it (``result`` is verify's report)."""

    id: str
    status: VerificationStatus
    table_id: str | None = None
    result: Mapping[str, Any] | None = None
    error: str | None = None
    enqueued_at: datetime | None = None
    ended_at: datetime | None = None
    # the tables verified when the job names no one table (a table-scoped token's); with
    # neither this nor ``table_id`` the job verifies every table
    tables: tuple[str, ...] | None = None

    def covers_only(self, allowed: frozenset[str]) -> bool:
        """Whether every table this job verifies is in ``allowed`` (the whole store is not).

        >>> Verification("1", VerificationStatus.QUEUED, tables=("T1",)).covers_only(
        ...     frozenset({"T1", "T2"}))
        True
        >>> Verification("1", VerificationStatus.QUEUED).covers_only(frozenset({"T1"}))
        False
        """
        if self.table_id is not None:
            return self.table_id in allowed
        return self.tables is not None and set(self.tables) <= allowed

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": str(self.status),
            "table_id": self.table_id,
            "tables": None if self.tables is None else list(self.tables),
            "result": None if self.result is None else dict(self.result),
            "error": self.error,
            "enqueued_at": _utc_text(self.enqueued_at),
            "ended_at": _utc_text(self.ended_at),
        }


def _utc_text(at: datetime | None) -> str | None:
    """ISO 8601 in UTC with a ``Z``.

    >>> from datetime import UTC
    >>> _utc_text(datetime(2026, 11, 29, 12, 0, 1, 5000, tzinfo=UTC))
    '2026-11-29T12:00:01.005000Z'
    """
    if at is None:
        return None
    return at.isoformat().replace("+00:00", "Z")


class VerificationQueue(Protocol):
    """Verification jobs: run by a worker of their own queue, results kept for a while."""

    def enqueue(self, table_id: str | None, tables: Sequence[str] | None = None) -> Verification:
        """Queue a verification of one table (else of ``tables``, else of every table); its
        job, queued."""

    def get(self, verification_id: str) -> Verification | None:
        """The job as it stands now, or None if there is none with this ID (or it expired)."""


class EventCounter(Protocol):
    """How many events the audit store holds in a scope (one cheap query)."""

    def count_events(self, table_id: str | None = None, at_most: int | None = None) -> int:
        """Events of ``table_id`` (``None``: of every table), counting no further than
        ``at_most`` (so the query stays cheap however large the store); ``errors.Unavailable``
        if the store is down."""


# -- rate limits (issue 19 point 10) -----------------------------------------------------


class Admission(StrEnum):
    """What a rate limit says of one more refused entry by a token: store and answer it as
    always (``admit``), store it as the first over the limit, marked, and answer 429
    (``burst``), or neither store nor apply it, 429 (``refuse``)."""

    ADMIT = "admit"
    BURST = "burst"
    REFUSE = "refuse"


@dataclass(frozen=True, slots=True)
class RefusalAdmission:
    """A refusal limiter's answer: the admission, and until when the token's window runs."""

    admission: Admission
    limit: int
    window_seconds: int
    retry_after: int  # seconds until the window ends (a new one admits again)


class RefusalLimiter(Protocol):
    """Counts each token's refused entries in fixed windows (shared by every web worker)."""

    def admit(self, token: str, at: datetime) -> RefusalAdmission:
        """Count one more refusal by ``token`` at ``at`` and say what becomes of it."""


@dataclass(frozen=True, slots=True)
class VerifyLease:
    """A synchronous verify's slot, held while it runs (``VerifyGate.release`` frees it)."""

    id: str


class VerifyGate(Protocol):
    """Bounds the synchronous verify, which runs on the workers that serve the tablets: how
    many run at once on the host, and how many events each token verifies per window."""

    def acquire(self, token: str, events: int, at: datetime) -> VerifyLease:
        """A slot for ``token`` to verify ``events`` events now, or ``errors.RateLimited``
        (another verify holds every slot, or the token spent its events for this window)."""

    def release(self, lease: VerifyLease) -> None:
        """Free the slot (a lease never released expires with its verify's time budget)."""


@dataclass(frozen=True, slots=True)
class Services:
    """The ports one process uses, built by ``bootstrap`` (fakes in the service tests)."""

    tables: TableStore
    audit_queue: AuditQueue
    audit_store: AuditStore
    profiles: ProfileSource
    clock: Clock
    floor_calls: FloorCallStore | None = None  # rulings: open floor calls (None: not wired)
    verifications: VerificationQueue | None = None  # verification jobs (None: not wired)
    event_counter: EventCounter | None = None  # None: the synchronous verify counts nothing
    verify_limits: VerifyLimits = VerifyLimits()
    floor_call_limits: FloorCallLimits = field(default_factory=FloorCallLimits)  # open calls
    audit_catalog: Any = None  # service.audit_browse.AuditCatalog (None: not wired)
    refusal_limiter: RefusalLimiter | None = None  # None: refused entries are not limited
    verify_gate: VerifyGate | None = None  # None: the synchronous verify is not bounded
    integrity: AuditIntegrity | None = None  # forks and isolated tables (None: not wired)
    shifts: Any = None  # service.shifts.ShiftStore: tablets, dealers, sessions (None: not wired)
    shift_limits: Any = None  # service.shifts.ShiftLimits (None: the defaults)
