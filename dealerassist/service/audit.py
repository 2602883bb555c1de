"""Audit reads: export events, one audited hand, and verify the chains by replaying them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from dealerassist.audit.verify import verify
from dealerassist.errors import NotFound
from dealerassist.service.ports import Services


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
    """Recompute every hash and replay every hand (``audit.verify``)."""
    services.audit_store.ping()
    return verify(services.audit_store.iter_events(table_id=table_id), services.profiles.version)
