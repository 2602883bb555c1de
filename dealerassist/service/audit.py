"""Audit reads: export events, one audited hand, and verify the chains by replaying them.

Verify comes in two forms. ``verify_log`` answers within the HTTP request, for small scopes
only: it counts the events in scope first and refuses (``VerifyScopeTooLarge``) above
``VerifyLimits.max_events``, and stops with the same refusal if it runs past
``VerifyLimits.budget_seconds`` all the same, so a gunicorn worker is never killed under an
auditor. Any scope can be verified by a job instead (``start_verification``, then
``verification``): a worker of its own queue runs ``verify_scope`` and keeps the report.

A scope is one table (``table_id``), a set of tables (``tables``: what a table-scoped token
may see, when it names no table) or, with neither, the whole store. Events of a set of
tables come table by table, each in seq order: the (table_id, seq) order of the store.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any

from dealerassist.audit.checkpoints import redact
from dealerassist.audit.collection_report import check_report, collection_report
from dealerassist.audit.verify import verify
from dealerassist.errors import DealerAssistError, InvalidInput, NotFound, Unavailable
from dealerassist.rules.model.said import Said
from dealerassist.rules.model.state import Phase
from dealerassist.service import messages as told
from dealerassist.service.ports import (
    AuditIntegrity,
    AuditStore,
    EventCounter,
    ProfileSource,
    Services,
    Verification,
    VerificationQueue,
)


class VerifyScopeTooLarge(InvalidInput):
    """The synchronous verify will not take this scope (too many events, or out of time):
    a verification job will. ``events`` is how many were counted in scope, up to one more
    than ``limit`` (``None``: not counted, the request ran out of time)."""

    def __init__(self, message: str | Said, events: int | None, limit: int) -> None:
        super().__init__(message)
        self.events = events
        self.limit = limit


class HandIncomplete(DealerAssistError):
    """The audited hand is not stored whole yet: still in play at the table (``IN_PLAY``),
    or finished there with events still on their way to the store (``DRAINING``)."""

    IN_PLAY = "in_play"
    DRAINING = "draining"

    def __init__(self, message: str | Said, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class VerificationInterrupted(DealerAssistError):
    """A verification job stopped before its end (its worker is shutting down): RQ puts the
    job back on its queue, and the next worker verifies it again from the start."""


def audit_events(
    services: Services,
    table_id: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    tables: Collection[str] | None = None,
) -> Iterator[dict[str, Any]]:
    """The stored events in (table_id, seq) order, of ``table_id``, else of ``tables``, else
    of every table; Unavailable is raised before the first one."""
    services.audit_store.ping()
    return scope_events(services.audit_store, table_id, tables, since, until)


def scope_events(
    store: AuditStore,
    table_id: str | None = None,
    tables: Collection[str] | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> Iterator[dict[str, Any]]:
    """The events of a scope (see the module docstring), in (table_id, seq) order."""
    if table_id is not None or tables is None:
        return store.iter_events(table_id=table_id, since=since, until=until)
    return _each_table(store, sorted(tables), since, until)


def _each_table(
    store: AuditStore, tables: list[str], since: datetime | None, until: datetime | None
) -> Iterator[dict[str, Any]]:
    for table in tables:  # one cursor at a time, closed before the next table's opens
        events = store.iter_events(table_id=table, since=since, until=until)
        try:
            yield from events
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()


def audit_hand(services: Services, table_id: str, hand_no: int) -> dict[str, Any]:
    """One hand record as stored whole, with its events: NotFound if the store has none,
    ``HandIncomplete`` while it is in play at the table, or finished there but not stored
    whole yet (its end not stored, or, for the table's latest hand, events of the table
    still waiting for the store: a ruling may have reopened it). A hand older than the
    table's latest whose end is stored is whole: the drain stores a table's events in seq
    order, and a hand's events all come before the next hand's start."""
    live = services.tables.load(table_id)
    latest = live is not None and live.state.hand_no == hand_no
    playing = live.state.hand if live is not None else None
    if latest and playing is not None and playing.phase is not Phase.COMPLETE:
        raise HandIncomplete(
            told.HAND_IN_PLAY(
                hand=hand_no, table=repr(table_id), path=f"/v1/tables/{table_id}/hands/{hand_no}"
            ),
            HandIncomplete.IN_PLAY,
        )
    hand = services.audit_store.get_hand(table_id, hand_no)
    if hand is None:
        raise NotFound(told.NO_STORED_HAND(hand=hand_no, table=repr(table_id)))
    if hand.get("result") is None or (latest and services.audit_queue.pending(table_id) > 0):
        raise HandIncomplete(
            told.HAND_DRAINING(hand=hand_no, table=repr(table_id)),
            HandIncomplete.DRAINING,
        )
    return hand


def verify_log(
    services: Services,
    table_id: str | None = None,
    tables: Collection[str] | None = None,
    caller: str = "",
) -> dict[str, Any]:
    """Recompute every hash and replay every hand (``audit.verify``) within the request's
    limits; ``VerifyScopeTooLarge`` above them, ``RateLimited`` past the gate's (the host's
    concurrent verifies, the ``caller`` token's events per minute): start a job instead."""
    limits = services.verify_limits
    count = limits.max_events  # what the gate is charged when nothing counts the scope
    if services.event_counter is not None:
        count = count_scope(services.event_counter, table_id, tables, limits.max_events + 1)
        if count > limits.max_events:
            raise VerifyScopeTooLarge(
                told.VERIFY_TOO_MANY(scope=_scope(table_id), limit=limits.max_events),
                count,
                limits.max_events,
            )
    deadline = time.monotonic() + limits.budget_seconds

    def out_of_time() -> DealerAssistError | None:
        if time.monotonic() <= deadline:
            return None
        return VerifyScopeTooLarge(
            told.VERIFY_TOO_LONG(scope=_scope(table_id), seconds=f"{limits.budget_seconds:g}"),
            None,
            limits.max_events,
        )

    gate = services.verify_gate
    lease = None if gate is None else gate.acquire(caller, count, services.clock.now())
    try:
        return verify_scope(
            services.audit_store,
            services.profiles,
            table_id,
            out_of_time,
            tables,
            services.integrity,
        )
    finally:
        if gate is not None and lease is not None:
            gate.release(lease)


def count_scope(
    counter: EventCounter, table_id: str | None, tables: Collection[str] | None, at_most: int
) -> int:
    """How many events a scope holds, counting no further than ``at_most``."""
    if table_id is not None or tables is None:
        return counter.count_events(table_id, at_most=at_most)
    count = 0
    for table in sorted(tables):
        if count >= at_most:
            break
        count += counter.count_events(table, at_most=at_most - count)
    return count


def verify_scope(
    store: AuditStore,
    profiles: ProfileSource,
    table_id: str | None = None,
    stop: Callable[[], DealerAssistError | None] = lambda: None,
    tables: Collection[str] | None = None,
    integrity: AuditIntegrity | None = None,
) -> dict[str, Any]:
    """Verify one table's chain (else those of ``tables``, else every table's) against the
    profile versions the events recorded; ``stop`` is asked before each event and may end
    the run by naming the error to raise (a deadline, a worker shutting down). With
    ``integrity``, also against the latest signed checkpoint and Redis's live heads of the
    same scope (read first: ``anchors``): the answer then says what they came from
    (``anchored``), and a bad checkpoint is a problem."""
    store.ping()
    if integrity is None:
        events = scope_events(store, table_id, tables)
        return verify(_until_stopped(events, stop), profiles.version)
    anchors, summary = integrity.anchors(table_id)
    if table_id is None and tables is not None:
        anchors = [anchor for anchor in anchors if anchor.table_id in tables]
    events = scope_events(store, table_id, tables)
    answer = verify(_until_stopped(events, stop), profiles.version, anchors=anchors)
    chain_problems = summary.get("checkpoints", {}).get("problems", [])
    answer["problems"] += [{"table_id": None, "seq": None, "why": why} for why in chain_problems]
    answer["ok"] = not answer["problems"]
    answer["anchored"] = summary
    return answer


def _until_stopped(
    events: Iterable[Mapping[str, Any]], stop: Callable[[], DealerAssistError | None]
) -> Iterator[Mapping[str, Any]]:
    iterator = iter(events)
    try:
        for event in iterator:
            error = stop()
            if error is not None:
                raise error
            yield event
    finally:
        close = getattr(iterator, "close", None)
        if close is not None:
            close()  # release the store's cursor now, not when it is collected


def start_verification(
    services: Services, table_id: str | None = None, tables: Collection[str] | None = None
) -> Verification:
    """Queue a verification job of one table (else of ``tables``, else of every table); it
    starts queued."""
    queue = _verifications(services)
    services.audit_store.ping()
    if table_id is None and tables is not None:
        return queue.enqueue(None, tables=sorted(tables))
    return queue.enqueue(table_id)


def verification(services: Services, verification_id: str) -> Verification:
    """A verification job as it stands (NotFound for an unknown or expired ID)."""
    found = _verifications(services).get(verification_id)
    if found is None:
        raise NotFound(told.NO_VERIFICATION(verification=repr(verification_id)))
    return found


def audit_alerts(
    services: Services, may_see: Callable[[str], bool] = lambda table_id: True
) -> dict[str, Any]:
    """The tables whose audit chain forked (a Redis that rewound: both branches are kept,
    the newcomer's in quarantine) and those whose events the store refuses (isolated, in
    the failed registry), limited to the tables ``may_see``; ``ok`` when there are none."""
    if services.integrity is None:
        raise Unavailable(told.NO_INTEGRITY())
    forks = [fork for fork in services.integrity.forked_tables() if may_see(fork["table_id"])]
    isolated = [
        {"table_id": table_id, "reason": reason}
        for table_id, reason in sorted(services.integrity.isolated_tables().items())
        if may_see(table_id)
    ]
    return {"ok": not forks and not isolated, "forked": forks, "isolated": isolated}


def audit_checkpoints(
    services: Services, may_see: Callable[[str], bool] = lambda table_id: True
) -> Iterator[dict[str, Any]]:
    """The signed checkpoints, each with only the heads of the tables ``may_see`` (the
    signature still verifies: ``audit.checkpoints.redact``); none if not wired."""
    if services.integrity is None:
        return iter(())
    return (redact(record, may_see) for record in services.integrity.checkpoints())


def _verifications(services: Services) -> VerificationQueue:
    if services.verifications is None:
        raise Unavailable(told.NO_JOBS())
    return services.verifications


def _scope(table_id: str | None) -> Said:
    """How a message names the scope.

    >>> _scope("T7").english(), _scope(None).english()
    ("table 'T7'", 'the audit store')
    """
    return told.SCOPE_STORE() if table_id is None else told.SCOPE_TABLE(table=repr(table_id))


def collections(
    services: Services,
    may_see: Callable[[str], bool],
    table_id: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    day_start_hour: int = 0,
) -> dict[str, Any]:
    """The cage's collection report (``audit.collection_report``) of the tables ``may_see``
    allows, with ``check``: the same log summed another way (RAKE-01..05)."""

    def scoped() -> Iterator[dict[str, Any]]:
        events = audit_events(services, table_id, since, until)
        return (event for event in events if may_see(str(event.get("table_id"))))

    report = collection_report(scoped(), day_start_hour)
    return {**report, "check": check_report(report, scoped())}
