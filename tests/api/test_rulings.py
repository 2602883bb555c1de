"""The floor routes over the real app (Redis, SQLite): roles, rulings, options and floor calls."""

from __future__ import annotations

import json
from typing import Any

import pytest

from api.conftest import Api
from dealerassist.settings import Settings
from dealerassist.worker import run_worker

KILL = {"decision": "no_redress", "rule_id": "IRREG-13", "note": "fouled",
        "effects": [{"effect": "kill_hand", "seat": 1}]}  # fmt: skip


def _posted(api: Api) -> None:
    api.ready_hand("T1")
    for seat in (2, 3):
        assert api.act("T1", seat=seat, action="post").status_code == 200


def _rule(api: Api, body: dict[str, Any], who: str = "floor", **kwargs: Any) -> Any:
    return api.call("POST", "/v1/tables/T1/rulings", who, body, **kwargs)


@pytest.mark.parametrize("who", ["dealer", "auditor", "admin"])
def test_only_the_floor_may_rule(api: Api, who: str) -> None:
    """A dealer, an auditor or an admin token gets 403 and the table does not move."""
    _posted(api)
    version = api.call("GET", "/v1/tables/T1").get_json()["version"]
    response = _rule(api, KILL, who)
    assert response.status_code == 403
    assert response.mimetype == "application/problem+json"
    assert api.call("GET", "/v1/tables/T1").get_json()["version"] == version


def test_a_floor_ruling_kills_a_hand_and_answers_the_table(api: Api) -> None:
    """200 with the table, its new version and ETag, and the audit event of the ruling."""
    _posted(api)
    version = api.call("GET", "/v1/tables/T1").get_json()["version"]
    response = _rule(api, KILL, headers={"If-Match": f'"v{version}"'})
    assert response.status_code == 200 and response.headers["ETag"] == f'"v{version + 1}"'
    body = response.get_json()
    assert body["event"]["seq"] > 0
    assert next(p for p in body["hand"]["players"] if p["seat"] == 1)["folded"] is True


def test_a_refused_ruling_is_a_409_with_its_rule(api: Api) -> None:
    """The IRREG-14 deadline answers 409 with rule_id, like any rule violation."""
    _posted(api)
    late = {"decision": "custom", "note": "late", "hand_no": 1,
            "effects": [{"effect": "void_last"}]}  # fmt: skip
    api.act("T1", seat=1, action="fold")
    api.act("T1", seat=2, action="fold")
    assert api.start("T1", None).status_code == 200
    response = _rule(api, late)
    assert response.status_code == 409 and response.get_json()["rule_id"] == "IRREG-14"


def test_a_malformed_ruling_is_a_400(api: Api) -> None:
    """Unknown effects, unknown fields and unknown decisions answer 400."""
    _posted(api)
    assert _rule(api, {**KILL, "effects": [{"effect": "shrug"}]}).status_code == 400
    assert _rule(api, {**KILL, "colour": "red"}).status_code == 400
    assert _rule(api, {**KILL, "decision": "coin_flip"}).status_code == 400


def test_an_award_pot_by_pot_is_a_200_and_a_pot_left_out_a_409(api: Api) -> None:
    """SHOW-07: with seat 1 all in for 5, naming only the main pot answers 409 with the pots
    listed; naming both answers 200 with one result entry per pot; an empty list is a 400."""
    assert api.create_table(table_id="T1").status_code == 201
    for seat, stack in ((1, 5), (2, 100), (3, 100)):
        assert api.seat("T1", seat, f"P{seat}", stack).status_code == 200
    assert api.start("T1").status_code == 200
    for seat, action, amount in ((2, "post", None), (3, "post", None), (1, "raise", 4),
                                 (2, "call", None), (3, "raise", 6), (1, "call", None),
                                 (2, "call", None)):  # fmt: skip
        extra = {} if amount is None else {"amount": amount}
        assert api.act("T1", seat=seat, action=action, **extra).status_code == 200
    body = {"decision": "custom", "note": "floor split the pots"}
    main_only = _rule(api, {**body, "effects": [{"effect": "award", "pots": [[1]]}]})
    assert main_only.status_code == 409 and main_only.get_json()["rule_id"] == "SHOW-07"
    assert "side pot 1 2 (seats 2, 3)" in main_only.get_json()["detail"]
    empty = _rule(api, {**body, "effects": [{"effect": "award", "pots": []}]})
    assert empty.status_code == 400
    both = _rule(api, {**body, "effects": [{"effect": "award", "pots": [[1], [3]]}]})
    assert both.status_code == 200
    result = both.get_json()["result"]
    assert [(p["amount"], p["winners"]) for p in result["pots"]] == [(15, [1]), (2, [3])]
    assert all(p["by_ruling"] for p in result["pots"])


def test_options_for_a_rule(api: Api) -> None:
    """GET /v1/rulings/options lists the catalog's options, custom and discretionary last."""
    response = api.call("GET", "/v1/rulings/options?rule_id=IRREG-01", "floor")
    assert response.status_code == 200
    decisions = [o["decision"] for o in response.get_json()["options"]]
    assert decisions == ["misdeal", "play_on", "custom", "discretionary"]
    assert api.call("GET", "/v1/rulings/options?rule_id=bogus", "floor").status_code == 400


def test_floor_call_from_a_refused_entry_listed_then_closed_by_a_ruling(api: Api) -> None:
    """The dealer's call appears in the floor's list with the rule and the table; a ruling
    naming it accepts the entry as binding and closes it."""
    _posted(api)
    api.act("T1", seat=1, action="call")
    entry = {"seat": 3, "action": "check"}
    assert api.act("T1", **entry).status_code == 409
    opened = api.call("POST", "/v1/tables/T1/floor-calls", "dealer", {"entry": entry})
    assert opened.status_code == 201
    call = opened.get_json()
    assert call["rule_id"] == "BET-08" and call["table"]["table_id"] == "T1"
    listed = api.call("GET", "/v1/floor/calls", "floor").get_json()
    assert [c["call_id"] for c in listed["calls"]] == [call["call_id"]]
    assert api.call("GET", "/v1/floor/calls", "dealer").status_code == 403
    accept = {"effect": "accept_entry", "entry": entry, "waive": "BET-08"}
    ruling = {"decision": "action_stands", "call_id": call["call_id"], "effects": [accept]}
    assert _rule(api, ruling).status_code == 200
    assert api.call("GET", "/v1/floor/calls", "admin").get_json()["count"] == 0


def test_an_auditor_cannot_call_the_floor(api: Api) -> None:
    """Floor calls come from the dealer or the floor."""
    _posted(api)
    body = {"rule_id": "SHOW-04", "note": "miscall"}
    assert api.call("POST", "/v1/tables/T1/floor-calls", "auditor", body).status_code == 403
    assert api.call("POST", "/v1/tables/T1/floor-calls", "floor", body).status_code == 201


def test_the_floor_routes_are_in_the_spec(api: Api) -> None:
    """/openapi.json documents the four floor operations and the Ruling schema."""
    spec = api.call("GET", "/openapi.json", None).get_json()
    assert "post" in spec["paths"]["/v1/tables/{table_id}/rulings"]
    assert "get" in spec["paths"]["/v1/rulings/options"]
    assert "post" in spec["paths"]["/v1/tables/{table_id}/floor-calls"]
    assert "get" in spec["paths"]["/v1/floor/calls"]
    assert "effects" in spec["components"]["schemas"]["Ruling"]["properties"]
    assert "pots" in spec["components"]["schemas"]["Effect"]["properties"]


def test_a_ruling_retried_with_its_idempotency_key_applies_once(api: Api) -> None:
    """The same key and body answer the first response again; the chip change happens once."""
    _posted(api)
    body = {"decision": "custom", "note": "chips found",
            "effects": [{"effect": "adjust_stack", "seat": 1, "amount": 5}]}  # fmt: skip
    first = _rule(api, body, headers={"Idempotency-Key": "r-1"})
    again = _rule(api, body, headers={"Idempotency-Key": "r-1"})
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert first.get_json()["event"] == again.get_json()["event"]
    hand = api.call("GET", "/v1/tables/T1").get_json()["hand"]
    seat_1 = next(player for player in hand["players"] if player["seat"] == 1)
    assert seat_1["added"] == 5  # once: beside the stack until the hand ends (GAME-06)


def test_IRREG_04_a_take_exposed_ruling_lets_a_stuck_hand_go_on(api: Api) -> None:
    """IRREG-04: once no replacement can be supplied for seat 1's exposed card, the answer
    carries the notice and ``next`` has no legal action but the rule in ``floor``; a
    take_exposed ruling before that is a 409, after it a 200 with the hand in the next round."""
    _posted(api)
    for seat, action in ((1, "call"), (2, "call"), (3, "check")):
        assert api.act("T1", seat=seat, action=action).status_code == 200
    for seat, count in ((2, 0), (3, 0), (1, 1)):
        assert api.act("T1", seat=seat, action="draw", count=count).status_code == 200
    take = {"decision": "take_exposed", "rule_id": "IRREG-04", "note": "Oaks",
            "effects": [{"effect": "take_exposed", "seat": 1}]}  # fmt: skip
    early = _rule(api, take)
    assert early.status_code == 409 and early.get_json()["rule_id"] == "IRREG-04"
    body: dict[str, Any] = {}
    for _ in range(60):
        response = api.act("T1", seat=1, action="exposed")
        assert response.status_code == 200
        body = response.get_json()
        if body["notices"]:
            break
    assert [n["rule_id"] for n in body["notices"]] == ["IRREG-04"]
    assert body["next"] == {"seat": 1, "phase": "draw_1", "legal": [], "floor": "IRREG-04"}
    response = _rule(api, take)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["hand"]["phase"] == "betting_2"
    options = api.call("GET", "/v1/rulings/options?rule_id=IRREG-04", "floor").get_json()
    assert {"decision": "take_exposed", "effects": ["take_exposed"]}.items() <= {
        **next(o for o in options["options"] if o["decision"] == "take_exposed")
    }.items()


MARK = {"decision": "false_open_all_in", "rule_id": "OPEN-08", "note": "no openers, all in",
        "effects": [{"effect": "kill_hand", "seat": 1}]}  # fmt: skip
LIFT = {"decision": "lift_wait", "rule_id": "OPEN-08", "note": "the open was legal",
        "effects": [{"effect": "clear_false_opener", "seat": 1}]}  # fmt: skip


def _seat_view(api: Api, seat: int) -> dict[str, Any]:
    seats = api.call("GET", "/v1/tables/T1").get_json()["seats"]
    found: dict[str, Any] = next(s for s in seats if s["seat"] == seat)
    return found


def test_OPEN_08_a_clear_false_opener_ruling_deals_the_seat_in_again(
    api: Api, settings: Settings
) -> None:
    """The floor marks seat 1 (false_open_all_in) and then finds the open legal: the lift is a
    200, the table view drops the mark, seat 1 is dealt the next hand, and the audit log holds
    the ruling with its effect and verifies."""
    _posted(api)
    assert _rule(api, MARK).status_code == 200
    assert _seat_view(api, 1)["false_opener"] is True
    response = _rule(api, LIFT)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert "false_opener" not in next(s for s in body["seats"] if s["seat"] == 1)
    assert "false_opener" not in _seat_view(api, 1)
    assert api.act("T1", seat=2, action="fold").status_code == 200
    started = api.start("T1", None)
    assert started.status_code == 200
    assert 1 in [p["seat"] for p in started.get_json()["hand"]["players"]]
    assert settings.redis_url is not None
    run_worker(settings.redis_url, settings.database_url, burst=True, with_scheduler=False)
    exported = api.call("GET", "/v1/audit/events?table_id=T1", "auditor").get_data(as_text=True)
    rulings = [e for e in map(json.loads, exported.splitlines()) if e["kind"] == "ruling"]
    assert "clear_false_opener" in json.dumps(rulings[-1])
    report = api.call("GET", "/v1/audit/verify?table_id=T1", "auditor").get_json()
    assert report["ok"] is True, report["problems"]


def test_OPEN_08_a_clear_false_opener_ruling_on_a_seat_not_marked_is_a_409(api: Api) -> None:
    """Seat 2 does not wait as a false opener: 409 OPEN-08 naming who does; seat and player
    together, or a player ID too long, are a 400."""
    _posted(api)
    assert _rule(api, MARK).status_code == 200
    version = api.call("GET", "/v1/tables/T1").get_json()["version"]
    wrong = {**LIFT, "effects": [{"effect": "clear_false_opener", "seat": 2}]}
    response = _rule(api, wrong)
    assert response.status_code == 409
    problem = response.get_json()
    assert problem["rule_id"] == "OPEN-08" and "seat 1 (P1)" in problem["detail"]
    assert api.call("GET", "/v1/tables/T1").get_json()["version"] == version
    both = {"effect": "clear_false_opener", "seat": 1, "player": "P1"}
    assert _rule(api, {**LIFT, "effects": [both]}).status_code == 400
    long_id = {"effect": "clear_false_opener", "player": "P" * 65}
    assert _rule(api, {**LIFT, "effects": [long_id]}).status_code == 400
    assert _seat_view(api, 1)["false_opener"] is True
