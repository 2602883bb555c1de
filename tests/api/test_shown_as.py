"""The table view's ``shown_as``: each shown hand in words for the dealer to read out."""

from __future__ import annotations

from api.conftest import Api


def test_a_shown_hand_is_named_in_the_view(api: Api) -> None:
    """Seat 2 shows three aces, seat 3 seven-high nothing: the view names both hands; a
    seat that has not shown is not named."""
    api.ready_hand("T1")
    steps = [(2, "post"), (3, "post"), (1, "call"), (2, "call"), (3, "check")]
    steps += [(2, "draw"), (3, "draw"), (1, "draw"), (2, "check"), (3, "check"), (1, "check")]
    for seat, action in steps:
        body = {"seat": seat, "action": action, **({"count": 0} if action == "draw" else {})}
        assert api.act("T1", **body).status_code == 200, (seat, action)
    shown = api.act("T1", seat=2, action="show", cards="Ac Ad As 7h 2c").get_json()
    assert shown["shown_as"] == {"2": "three of a kind, aces"}
    after = api.act("T1", seat=3, action="show", cards="7d 5c 4s 3h 2d").get_json()
    assert after["shown_as"]["3"] == "seven high"
    assert "1" not in after["shown_as"]
