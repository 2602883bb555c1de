"""In-memory fakes of the service ports (cosmicpython style): the use cases run without I/O."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from dealerassist.audit.envelope import parse_at
from dealerassist.errors import Conflict, DealerAssistError, NotFound, Unavailable
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.service.ports import (
    IdempotencyRecord,
    Services,
    TableRecord,
    Verification,
    VerificationStatus,
)


class FakeTransaction:
    """A snapshot of one table; commit is a compare-and-set against the store's dict."""

    def __init__(self, store: FakeTableStore, table_id: str, key: str | None) -> None:
        self.store = store
        self.table_id = table_id
        self.key = key
        self.record = store.records.get(table_id)
        self.remembered = store.remembered.get(key) if key else None

    def commit(
        self,
        record: TableRecord,
        events: Sequence[Mapping[str, Any]],
        remember: IdempotencyRecord | None,
    ) -> None:
        with self.store.lock:
            current = self.store.records.get(self.table_id)
            if current is not self.record:
                raise Conflict("the table changed", None if current is None else current.version)
            if self.store.before_commit is not None:
                self.store.before_commit()
            self.store.records[self.table_id] = record
            self.store.staged.extend(dict(event) for event in events)
            if remember is not None and self.key is not None:
                self.store.remembered[self.key] = remember
            self.store.commits += 1


@dataclass
class FakeTableStore:
    """The TableStore port in a dict (``down=True`` makes every call Unavailable)."""

    records: dict[str, TableRecord] = field(default_factory=dict)
    remembered: dict[str, IdempotencyRecord] = field(default_factory=dict)
    staged: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.RLock = field(default_factory=threading.RLock)
    down: bool = False
    commits: int = 0
    before_commit: Any = None

    @contextmanager
    def transaction(self, table_id: str, idempotency_key: str | None) -> Iterator[FakeTransaction]:
        self._check()
        yield FakeTransaction(self, table_id, idempotency_key)

    def load(self, table_id: str) -> TableRecord | None:
        self._check()
        return self.records.get(table_id)

    def ping(self) -> None:
        self._check()

    def persistence(self) -> str:
        self._check()
        return "memory"

    def _check(self) -> None:
        if self.down:
            raise Unavailable("fake Redis is down")


@dataclass
class FakeAuditQueue:
    """The AuditQueue port: the depth of the fake table store's staged events."""

    store: FakeTableStore
    down: bool = False

    def depth(self) -> int:
        if self.down:
            raise Unavailable("fake queue is down")
        return len(self.store.staged)

    def pending(self, table_id: str) -> int:
        if self.down:
            raise Unavailable("fake queue is down")
        return sum(event["table_id"] == table_id for event in self.store.staged)


@dataclass
class FakeAuditStore:
    """The AuditStore port on a list; ``hands`` maps (table_id, hand_no) to a record."""

    events: list[dict[str, Any]] = field(default_factory=list)
    hands: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    down: bool = False

    def iter_events(
        self,
        table_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> Iterator[dict[str, Any]]:
        self.ping()
        for event in sorted(self.events, key=lambda e: (e["table_id"], e["seq"])):
            if table_id is None or event["table_id"] == table_id:
                yield event

    def get_hand(self, table_id: str, hand_no: int) -> dict[str, Any] | None:
        self.ping()
        return self.hands.get((table_id, hand_no))

    def ping(self) -> None:
        if self.down:
            raise Unavailable("fake audit store is down")


@dataclass
class FakeProfiles:
    """The ProfileSource port on a dict of HouseRules."""

    profiles: dict[str, HouseRules] = field(default_factory=dict)

    def get(self, profile_id: str) -> HouseRules:
        try:
            return self.profiles[profile_id]
        except KeyError:
            raise NotFound(f"no house-rule profile {profile_id!r}") from None

    def version(self, profile_id: str, sha256: str) -> HouseRules:
        rules = self.get(profile_id)
        if rules.sha256 != sha256:
            raise NotFound(f"no version {sha256} of house-rule profile {profile_id!r}")
        return rules

    def ids(self) -> list[str]:
        return sorted(self.profiles)


@dataclass
class FakeClock:
    """A clock that moves one millisecond per reading."""

    at: datetime = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        self.at += timedelta(milliseconds=1)
        return self.at


def draw_table(table_id: str = "T1", profile_id: str = "test") -> dict[str, Any]:
    """A fixed-limit five-card draw table's spec (blinds 1-2, bets 2-4) under ``profile_id``."""
    return {
        "table_id": table_id,
        "variant": "five_card_draw",
        "structure": "fixed_limit",
        "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
        "profile_id": profile_id,
    }


def fake_services(profiles: Mapping[str, HouseRules] | None = None) -> Services:
    """Services built from fakes, with the given profiles (default: one named "test")."""
    store = FakeTableStore()
    chosen = (
        dict(profiles) if profiles else {"test": HouseRules(profile_id="test", sha256="0" * 64)}
    )
    return Services(
        tables=store,
        audit_queue=FakeAuditQueue(store),
        audit_store=FakeAuditStore(),
        profiles=FakeProfiles(chosen),
        clock=FakeClock(),
    )


@dataclass
class FakeEventCounter:
    """The EventCounter port over a FakeAuditStore (``counted`` records each call's bound)."""

    store: FakeAuditStore
    counted: list[int | None] = field(default_factory=list)

    def count_events(self, table_id: str | None = None, at_most: int | None = None) -> int:
        self.store.ping()
        self.counted.append(at_most)
        found = sum(table_id is None or e["table_id"] == table_id for e in self.store.events)
        return found if at_most is None else min(found, at_most)


@dataclass
class FakeVerificationQueue:
    """The VerificationQueue port in a dict; ``run_next`` plays the worker: it runs the
    oldest queued job with ``verify`` and records its report or its error."""

    jobs: dict[str, Verification] = field(default_factory=dict)
    down: bool = False

    def enqueue(self, table_id: str | None, tables: Sequence[str] | None = None) -> Verification:
        if self.down:
            raise Unavailable("fake Redis is down")
        job = Verification(
            id=f"{len(self.jobs) + 1:032x}",
            status=VerificationStatus.QUEUED,
            table_id=table_id,
            tables=None if tables is None else tuple(tables),
            enqueued_at=datetime(2026, 11, 29, 12, 0, tzinfo=UTC),
        )
        self.jobs[job.id] = job
        return job

    def get(self, verification_id: str) -> Verification | None:
        if self.down:
            raise Unavailable("fake Redis is down")
        return self.jobs.get(verification_id)

    def run_next(self, verify: Callable[[str | None], Mapping[str, Any]]) -> Verification:
        job = next(j for j in self.jobs.values() if j.status is VerificationStatus.QUEUED)
        ended = datetime(2026, 11, 29, 12, 1, tzinfo=UTC)
        try:
            report = verify(job.table_id)
        except DealerAssistError as error:
            done = replace(job, status=VerificationStatus.FAILED, error=str(error), ended_at=ended)
        else:
            done = replace(job, status=VerificationStatus.FINISHED, result=report, ended_at=ended)
        self.jobs[job.id] = done
        return done


def with_verification_fakes(services: Services, max_events: int | None = None) -> Services:
    """``services`` with a fake verification queue and event counter (over its audit
    store), and the synchronous verify limited to ``max_events`` when given."""
    store = services.audit_store
    assert isinstance(store, FakeAuditStore)
    limits = services.verify_limits
    return replace(
        services,
        verifications=FakeVerificationQueue(),
        event_counter=FakeEventCounter(store),
        verify_limits=limits if max_events is None else replace(limits, max_events=max_events),
    )


@dataclass
class FakeShiftStore:
    """The ShiftStore port in dicts. Nothing expires by itself (as on a real Redis under a
    fake clock: the use cases judge a session's end by the clock port)."""

    tablet_records: dict[str, Any] = field(default_factory=dict)
    pairings: dict[str, str] = field(default_factory=dict)
    dealer_records: dict[str, Any] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    locks: dict[str, int] = field(default_factory=dict)
    shifts: dict[str, Any] = field(default_factory=dict)
    ends: dict[str, Any] = field(default_factory=dict)
    of_tablet: dict[str, str] = field(default_factory=dict)
    of_employee: dict[str, str] = field(default_factory=dict)
    expiring: dict[str, Any] = field(default_factory=dict)  # the expiry index

    def put_tablet(self, tablet: Any) -> None:
        self.tablet_records[tablet.tablet_id] = tablet

    def get_tablet(self, tablet_id: str) -> Any:
        return self.tablet_records.get(tablet_id)

    def tablets(self) -> list[Any]:
        return list(self.tablet_records.values())

    def tablet_by_credential(self, credential_sha256: str) -> Any:
        found = [t for t in self.tablets() if t.credential_sha256 == credential_sha256]
        return found[0] if found else None

    def put_pairing(self, code: str, tablet_id: str, ttl_seconds: int) -> None:
        self.pairings[code] = tablet_id

    def take_pairing(self, code: str) -> str | None:
        return self.pairings.pop(code, None)

    def put_dealer(self, dealer: Any) -> None:
        self.dealer_records[dealer.employee_id] = dealer

    def get_dealer(self, employee_id: str) -> Any:
        return self.dealer_records.get(employee_id)

    def dealers(self) -> list[Any]:
        return list(self.dealer_records.values())

    def count_failure(self, key: str, window_seconds: int) -> int:
        self.counts[key] = self.counts.get(key, 0) + 1
        return self.counts[key]

    def failures(self, key: str) -> int:
        return self.counts.get(key, 0)

    def clear_failures(self, key: str) -> None:
        self.counts.pop(key, None)

    def lock(self, employee_id: str, seconds: int) -> None:
        self.locks[employee_id] = seconds

    def locked_for(self, employee_id: str) -> int:
        return self.locks.get(employee_id, 0)

    def unlock(self, employee_id: str) -> None:
        self.locks.pop(employee_id, None)

    def put_shift(self, shift: Any, ttl_seconds: int) -> None:
        self.shifts[shift.token_sha256] = shift
        self.of_tablet[shift.tablet_id] = shift.token_sha256
        self.of_employee[shift.employee_id] = shift.token_sha256
        self.expiring[shift.token_sha256] = shift

    def get_shift(self, token_sha256: str) -> Any:
        return self.shifts.get(token_sha256)

    def end_shift(self, shift: Any, ended: Any, keep_seconds: int) -> None:
        digest = shift.token_sha256
        self.shifts.pop(digest, None)
        self.expiring.pop(digest, None)
        self.ends[digest] = ended
        for index, key in (
            (self.of_tablet, shift.tablet_id),
            (self.of_employee, shift.employee_id),
        ):
            if index.get(key) == digest:
                del index[key]

    def shift_end(self, token_sha256: str) -> Any:
        return self.ends.get(token_sha256)

    def shift_of_tablet(self, tablet_id: str) -> Any:
        return self.shifts.get(self.of_tablet.get(tablet_id, ""))

    def shift_of_employee(self, employee_id: str) -> Any:
        return self.shifts.get(self.of_employee.get(employee_id, ""))

    def due_shifts(self, until: datetime, limit: int) -> list[Any]:
        due = [s for s in self.expiring.values() if parse_at(s.expires_at) <= until]
        return sorted(due, key=lambda s: s.expires_at)[:limit]

    def forget_expiry(self, token_sha256: str) -> None:
        self.expiring.pop(token_sha256, None)
