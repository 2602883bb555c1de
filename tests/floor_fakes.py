"""An in-memory FloorCallStore and services with it, for the ruling tests."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from fakes import fake_services

from dealerassist.rules.house_rules import HouseRules
from dealerassist.service.floor_calls import OPEN, FloorCall
from dealerassist.service.ports import Services


@dataclass
class FakeFloorCalls:
    """The FloorCallStore port in a dict."""

    calls: dict[str, FloorCall] = field(default_factory=dict)

    def save(self, call: FloorCall) -> None:
        self.calls[call.call_id] = call

    def get(self, call_id: str) -> FloorCall | None:
        return self.calls.get(call_id)

    def open_calls(self) -> list[FloorCall]:
        found = [call for call in self.calls.values() if call.status == OPEN]
        return sorted(found, key=lambda call: call.opened_at)


def floor_services(rules: HouseRules | None = None) -> Services:
    """Fake services with a fake floor-call store and one profile named "test"."""
    chosen = rules or HouseRules(profile_id="test", sha256="ab" * 32)
    return replace(fake_services({"test": chosen}), floor_calls=FakeFloorCalls())
