"""An in-memory FloorCallStore and services with it, for the ruling tests."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from fakes import fake_services

from dealerassist.audit.envelope import parse_at
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.service.floor_calls import (
    OPEN,
    CallPage,
    FloorCall,
    FloorCallLimits,
    TooManyFloorCalls,
)
from dealerassist.service.ports import Services


@dataclass
class FakeFloorCalls:
    """The FloorCallStore port in a dict (the limits counted as the Redis store counts them)."""

    calls: dict[str, FloorCall] = field(default_factory=dict)

    def reserve(self, call: FloorCall, limits: FloorCallLimits, now: datetime) -> None:
        since = limits.open_since(now)
        for scope, limit, same in (
            ("table", limits.per_table, lambda c: c.table_id == call.table_id),
            ("token", limits.per_token, lambda c: c.opened_by == call.opened_by),
        ):
            counted = [c for c in self._open(since) if same(c)]
            if len(counted) >= limit:
                oldest = min(parse_at(c.opened_at) for c in counted)
                wait = math.ceil((oldest - since).total_seconds())
                raise TooManyFloorCalls(f"too many open at the {scope}", scope, limit, wait)
        self.calls[call.call_id] = call

    def discard(self, call: FloorCall) -> None:
        self.calls.pop(call.call_id, None)

    def save(self, call: FloorCall, limits: FloorCallLimits) -> None:
        self.calls[call.call_id] = call

    def get(self, call_id: str) -> FloorCall | None:
        return self.calls.get(call_id)

    def open_page(
        self,
        tables: Sequence[str] | None,
        since: datetime,
        limit: int,
        cursor: str | None = None,
    ) -> CallPage:
        found = [c for c in self._open(since) if tables is None or c.table_id in tables]
        found.sort(key=lambda c: (c.opened_at, c.call_id), reverse=True)
        if cursor is not None:
            at, _, call_id = cursor.partition("/")
            found = [c for c in found if (c.opened_at, c.call_id) < (at, call_id)]
        page = found[:limit]
        following = f"{page[-1].opened_at}/{page[-1].call_id}" if len(found) > limit else None
        return CallPage(calls=page, total=len(found), next=following)

    def _open(self, since: datetime) -> list[FloorCall]:
        return [
            c for c in self.calls.values() if c.status == OPEN and parse_at(c.opened_at) >= since
        ]


def floor_services(rules: HouseRules | None = None) -> Services:
    """Fake services with a fake floor-call store and one profile named "test"."""
    chosen = rules or HouseRules(profile_id="test", sha256="ab" * 32)
    return replace(fake_services({"test": chosen}), floor_calls=FakeFloorCalls())
