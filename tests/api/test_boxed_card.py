"""DECK-06 over HTTP: a card found face up in the stub is an action entry (``boxed_card``)."""

from __future__ import annotations

from api.conftest import Api

PROBLEM = "application/problem+json"
TABLE = {"variant": "deuce_to_seven_triple_draw", "profile": "casino-triple-draw-27"}


def _dealt(api: Api) -> None:
    """Three players, hand 1 dealt (count mode) and the blinds posted."""
    assert api.create_table(**TABLE).status_code == 201
    for seat in (1, 2, 3):
        assert api.seat("T1", seat, f"P{seat}").status_code == 200
    assert api.start("T1").status_code == 200
    for seat in (2, 3):
        assert api.act("T1", seat=seat, action="post").status_code == 200


def test_DECK_06_accepts_a_boxed_card_posted_as_an_action(api: Api) -> None:
    """WSOP 23: POST boxed_card while the stub is dealt: the card leaves the stub for the burn
    pile (stub - 1, burns + 1) and the dealer is told to deal the next card."""
    _dealt(api)
    response = api.act("T1", seat=1, action="boxed_card")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert [i["code"] for i in body["instructions"]] == ["boxed_card"]
    assert body["hand"]["stub"] == 52 - 15 - 1 and body["hand"]["burns"] == 1


def test_DECK_06_rejects_a_boxed_card_once_the_betting_started_over_http(api: Api) -> None:
    """After the first betting action the stub is not being dealt: a 409 naming DECK-06, and
    fields a boxed card does not take are refused the same way."""
    _dealt(api)
    response = api.act("T1", seat=1, action="boxed_card", count=2)
    assert response.status_code == 409 and response.get_json()["rule_id"] == "DECK-06"
    assert api.act("T1", seat=1, action="call").status_code == 200
    response = api.act("T1", seat=2, action="boxed_card")
    assert response.status_code == 409 and response.mimetype == PROBLEM
    assert response.get_json()["rule_id"] == "DECK-06"
