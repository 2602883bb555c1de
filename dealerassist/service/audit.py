"""Audit reads: export events, one audited hand, and verify the chains by replaying them.

Verify comes in two forms. ``verify_log`` answers within the HTTP request, for small scopes
only: it counts the events in scope first and refuses (``VerifyScopeTooLarge``) above
``VerifyLimits.max_events``, and stops with the same refusal if it runs past
``VerifyLimits.budget_seconds`` all the same, so a gunicorn worker is never killed under an
auditor. Any scope can be verified by a job instead (``start_verification``, then
``verification``): a worker of its own queue runs ``verify_scope`` and keeps the report.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any

from dealerassist.audit.checkpoints import redact
from dealerassist.audit.verify import verify
from dealerassist.errors import DealerAssistError, InvalidInput, NotFound, Unavailable
from dealerassist.service.ports import (
    AuditIntegrity,
    AuditStore,
    ProfileSource,
    Services,
    Verification,
    VerificationQueue,
)


class VerifyScopeTooLarge(InvalidInput):
    """The synchronous verify will not take this scope (too many events, or out of time):
    a verification job will. ``events`` is how many were counted in scope, up to one more
    than ``limit`` (``None``: not counted, the request ran out of time)."""

    def __init__(self, message: str, events: int | None, limit: int) -> None:
        super().__init__(message)
        self.events = events
        self.limit = limit


class VerificationInterrupted(DealerAssistError):
    """A verification job stopped before its end (its worker is shutting down): RQ puts the
    job back on its queue, and the next worker verifies it again from the start."""


def audit_events(
    services: Services,
    table_id: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> Iterator[dict[str, Any]]:
    """The stored events in (table_id, seq) order; Unavailable is raised before the first one."""
    services.audit_store.ping()
    return services.audit_store.iter_events(table_id=table_id, since=since, until=until)


def audit_hand(services: Services, table_id: str, hand_no: int) -> dict[str, Any]:
    """One stored hand record with its events (NotFound if the store has none)."""
    hand = services.audit_store.get_hand(table_id, hand_no)
    if hand is None:
        raise NotFound(f"the audit store has no hand {hand_no} of table {table_id!r}")
    return hand


def verify_log(services: Services, table_id: str | None = None) -> dict[str, Any]:
    """Recompute every hash and replay every hand (``audit.verify``) within the request's
    limits; ``VerifyScopeTooLarge`` above them (start a verification job instead)."""
    limits = services.verify_limits
    if services.event_counter is not None:
        count = services.event_counter.count_events(table_id, at_most=limits.max_events + 1)
        if count > limits.max_events:
            raise VerifyScopeTooLarge(
                f"{_scope(table_id)} holds more than the {limits.max_events} events one request "
                "verifies: start a verification job instead",
                count,
                limits.max_events,
            )
    deadline = time.monotonic() + limits.budget_seconds

    def out_of_time() -> DealerAssistError | None:
        if time.monotonic() <= deadline:
            return None
        return VerifyScopeTooLarge(
            f"verifying {_scope(table_id)} takes longer than the {limits.budget_seconds:g} s "
            "one request may take: start a verification job instead",
            None,
            limits.max_events,
        )

    return verify_scope(
        services.audit_store, services.profiles, table_id, out_of_time, services.integrity
    )


def verify_scope(
    store: AuditStore,
    profiles: ProfileSource,
    table_id: str | None = None,
    stop: Callable[[], DealerAssistError | None] = lambda: None,
    integrity: AuditIntegrity | None = None,
) -> dict[str, Any]:
    """Verify one table's chain (``None``: every table) against the profile versions the
    events recorded; ``stop`` is asked before each event and may end the run by naming the
    error to raise (a deadline, a worker shutting down). With ``integrity``, also against
    the latest signed checkpoint and Redis's live heads (read first: ``anchors``): the
    answer then says what they came from (``anchored``), and a bad checkpoint is a problem."""
    store.ping()
    if integrity is None:
        events = store.iter_events(table_id=table_id)
        return verify(_until_stopped(events, stop), profiles.version)
    anchors, summary = integrity.anchors(table_id)
    events = store.iter_events(table_id=table_id)
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


def start_verification(services: Services, table_id: str | None = None) -> Verification:
    """Queue a verification job of one table (``None``: every table); it starts queued."""
    queue = _verifications(services)
    services.audit_store.ping()
    return queue.enqueue(table_id)


def verification(services: Services, verification_id: str) -> Verification:
    """A verification job as it stands (NotFound for an unknown or expired ID)."""
    found = _verifications(services).get(verification_id)
    if found is None:
        raise NotFound(f"no verification {verification_id!r} (unknown, or its result has expired)")
    return found


def audit_alerts(
    services: Services, may_see: Callable[[str], bool] = lambda table_id: True
) -> dict[str, Any]:
    """The tables whose audit chain forked (a Redis that rewound: both branches are kept,
    the newcomer's in quarantine) and those whose events the store refuses (isolated, in
    the failed registry), limited to the tables ``may_see``; ``ok`` when there are none."""
    if services.integrity is None:
        raise Unavailable("audit integrity reports are not available in this process")
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
        raise Unavailable("verification jobs are not available in this process")
    return services.verifications


def _scope(table_id: str | None) -> str:
    """How a message names the scope.

    >>> _scope("T7"), _scope(None)
    ("table 'T7'", 'the audit store')
    """
    return "the audit store" if table_id is None else f"table {table_id!r}"
