"""Post options over HTTP: BLIND-06 buying the button with the big blind alone (WSOP 158)."""

from __future__ import annotations

from typing import Any

from api.conftest import Api

PROBLEM = "application/problem+json"
NO_LIMIT_27 = {
    "variant": "deuce_to_seven_single_draw",
    "structure": "no_limit",
    "stakes": {"small_blind": 1, "big_blind": 2},
    "profile": "single-draw-27-no-limit",
}
FIVE_CARD = {"profile": "casino-five-card-draw"}


def _ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def _newcomer_between_the_button_and_the_small_blind(api: Api, table: dict[str, Any]) -> None:
    """Seats 1, 3, 4, 5; hand 1 (button 5, blinds 1 and 3) folded to the big blind; then a
    newcomer takes seat 2 and hand 2 starts (dead button: button 1, blinds 3 and 4, seat 2
    between the button and the small blind), nothing posted yet."""
    assert api.create_table(**table).status_code == 201
    for seat in (1, 3, 4, 5):
        _ok(api.seat("T1", seat, f"P{seat}"))
    _ok(api.start("T1", button=5))
    for seat in (1, 3):
        _ok(api.act("T1", seat=seat, action="post"))
    for seat in (4, 5, 1):
        _ok(api.act("T1", seat=seat, action="fold"))
    _ok(api.seat("T1", 2, "New"))
    hand = _ok(api.start("T1", button=None))["hand"]
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (1, 3, 4)


def test_BLIND_06_accepts_buying_in_with_the_big_blind_alone_over_http(api: Api) -> None:
    """single-draw-27-no-limit sells the button (WSOP 158): the table offers the newcomer the
    big blind alone beside the big blind and dead small blind; posted with option
    ``big_blind_only`` it is 2, all live, and next hand the button skips him (seat 3)."""
    _newcomer_between_the_button_and_the_small_blind(api, NO_LIMIT_27)
    for seat in (3, 4):
        _ok(api.act("T1", seat=seat, action="post"))
    view = _ok(api.call("GET", "/v1/tables/T1", "dealer"))
    assert view["next"]["seat"] == 2
    assert {"action": "post", "option": "big_blind_only", "amount": 2} in view["next"]["legal"]
    body = _ok(api.act("T1", seat=2, action="post", option="big_blind_only", amount=2))
    player = next(p for p in body["hand"]["players"] if p["seat"] == 2)
    assert (player["bet"], player["stack"], player["owes"]) == (2, 98, 0)  # no dead small blind
    assert body["hand"]["phase"] == "betting_1"
    while body["hand"]["phase"] != "complete":
        body = _ok(api.act("T1", seat=body["next"]["seat"], action="fold"))
    hand = _ok(api.start("T1", button=None))["hand"]
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (3, 4, 5)


def test_BLIND_06_rejects_the_big_blind_alone_where_the_button_is_not_sold(api: Api) -> None:
    """casino-five-card-draw (``wait``): the newcomer between the blinds and the button is not
    dealt in, and his post of the big blind alone is a 409 naming BLIND-06; an option the API
    does not know is a 400."""
    _newcomer_between_the_button_and_the_small_blind(api, FIVE_CARD)
    response = api.act("T1", seat=2, action="post", option="big_blind_only", amount=2)
    assert response.status_code == 409 and response.mimetype == PROBLEM
    body = response.get_json()
    assert body["rule_id"] == "BLIND-06" and body["seat"] == 2
    response = api.act("T1", seat=2, action="post", option="button_skips")
    assert response.status_code == 400 and "option" in response.get_json()["errors"]
