"""Issue 19 point 18: no seat holds more than 10**12 chips (the schema's bound on an amount),
whatever the sum its additions reach: add_chips and adjust_stack (between hands and during
one, GAME-06's chips beside the stack) answer 400 and change nothing past it."""

from __future__ import annotations

from typing import Any

from api.conftest import Api

LIMIT = 10**12
NEAR = LIMIT - 5


def _table(api: Api, hand: bool = False) -> None:
    assert api.create_table().status_code == 201
    assert api.seat("T1", 1, "A", NEAR).status_code == 200
    assert api.seat("T1", 2, "B", 100).status_code == 200
    if hand:
        assert api.start("T1").status_code == 200


def _version(api: Api) -> int:
    version = api.call("GET", "/v1/tables/T1").get_json()["version"]
    assert isinstance(version, int)
    return version


def _add(api: Api, chips: int) -> Any:
    body = {"change": "add_chips", "chips": chips}
    return api.call("POST", "/v1/tables/T1/seats/1/changes", "dealer", body)


def _adjust(api: Api, amount: int) -> Any:
    body = {"decision": "custom", "note": "chips found",
            "effects": [{"effect": "adjust_stack", "seat": 1, "amount": amount}]}  # fmt: skip
    return api.call("POST", "/v1/tables/T1/rulings", "floor", body)


def test_add_chips_may_reach_the_bound_but_not_pass_it(api: Api) -> None:
    """5 more chips reach 10**12 exactly; one more is a 400 naming the bound, nothing moves."""
    _table(api)
    before = _version(api)
    refused = _add(api, 6)
    assert refused.status_code == 400, refused.get_json()
    assert "1000000000000" in refused.get_json()["detail"]
    assert _version(api) == before
    accepted = _add(api, 5)
    assert accepted.status_code == 200
    assert accepted.get_json()["seats"][0]["stack"] == LIMIT


def test_adjust_stack_between_hands_stays_within_the_bound(api: Api) -> None:
    """The floor's +6 on a stack 5 short of the bound is refused; -5 after it is fine."""
    _table(api)
    before = _version(api)
    refused = _adjust(api, 6)
    assert refused.status_code == 400, refused.get_json()
    assert _version(api) == before
    assert _adjust(api, 5).status_code == 200
    assert _adjust(api, -5).status_code == 200


def test_adjust_stack_during_a_hand_counts_the_chips_beside_the_stack(api: Api) -> None:
    """GAME-06: chips the floor adds during a hand wait beside the stack; two additions that
    each fit but together pass the bound: the second is refused."""
    _table(api, hand=True)
    assert _adjust(api, 3).status_code == 200
    before = _version(api)
    refused = _adjust(api, 3)
    assert refused.status_code == 400, refused.get_json()
    assert _version(api) == before
