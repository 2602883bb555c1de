"""Tables, seats, hands and actions over HTTP: shapes, ETags and status codes."""

from __future__ import annotations

from typing import Any

from api.conftest import TABLE_BODY, Api

PROBLEM = "application/problem+json"


def _play_to_showdown(api: Api) -> dict[str, Any]:
    """Post blinds, call around, draw and check down; return the last answer."""
    body: dict[str, Any] = api.ready_hand().get_json()
    while body["hand"]["phase"] != "showdown":
        nxt = body["next"]
        choice = nxt["legal"][0]
        action: dict[str, Any] = {"seat": nxt["seat"], "action": choice["action"]}
        if choice["action"] in ("post", "call"):
            action["amount"] = choice.get("amount")
        if choice["action"] == "draw":
            action["count"] = 1
        response = api.act("T1", **action)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
    return body


def test_create_table_answers_201_with_etag_location_and_event(api: Api) -> None:
    """POST /v1/tables creates version 1 with its ETag, Location and first audit event."""
    response = api.create_table()
    assert response.status_code == 201
    body = response.get_json()
    assert body["table_id"] == "T1" and body["version"] == 1
    assert response.headers["ETag"] == '"v1"'
    assert response.headers["Location"].endswith("/v1/tables/T1")
    assert body["event"]["seq"] == 1 and len(body["event"]["hash"]) == 64
    assert body["profile"] == "casino-five-card-draw"


def test_create_table_twice_is_409_already_exists(api: Api) -> None:
    """A second table with the same ID is refused with 409 and no rule ID."""
    api.create_table()
    response = api.create_table()
    assert response.status_code == 409
    assert response.mimetype == PROBLEM
    assert response.get_json()["type"].endswith("already-exists")


def test_create_table_with_unknown_profile_is_400(api: Api) -> None:
    """An unknown house-rule profile is a 400 naming the known ones."""
    response = api.create_table(profile="no-such-profile")
    assert response.status_code == 400
    assert "casino-five-card-draw" in response.get_json()["detail"]


def test_GAME_06_rejects_a_table_that_does_not_fit_its_profile_with_field_errors(api: Api) -> None:
    """A 2-7 table under the five-card-draw profile with a small blind above the big one: 400
    naming each field (as the admin page shows them), and no table is created."""
    stakes = {"small_blind": 5, "big_blind": 2, "small_bet": 2, "big_bet": 4}
    response = api.create_table(variant="deuce_to_seven_triple_draw", stakes=stakes)
    assert response.status_code == 400
    body = response.get_json()
    assert body["detail"] == "The table does not fit its house-rule profile."
    assert set(body["errors"]) == {"variant", "stakes"}
    assert "written for five_card_draw" in body["errors"]["variant"][0]
    assert list(body["errors"]["stakes"]) == ["small_blind"]
    assert api.call("GET", "/v1/tables/T1").status_code == 404


def test_GAME_06_accepts_a_table_of_its_profiles_game(api: Api) -> None:
    response = api.create_table(table_id="T9")  # five-card draw, fixed limit, blinds 1/2
    assert response.status_code == 201


def test_get_table_shows_state_with_version_and_etag(api: Api) -> None:
    """GET /v1/tables/{id} returns the view with version, seats and ETag."""
    api.create_table()
    api.seat("T1", 2, "Bob", 150)
    response = api.call("GET", "/v1/tables/T1", "floor")
    assert response.status_code == 200
    body = response.get_json()
    assert body["version"] == 2 and response.headers["ETag"] == '"v2"'
    contract = {"seat": 2, "player": "Bob", "stack": 150, "status": "active", "missed_blind": None}
    assert {key: body["seats"][1][key] for key in contract} == contract


def test_get_unknown_table_is_404_problem(api: Api) -> None:
    """A table that does not exist is a 404 problem."""
    response = api.call("GET", "/v1/tables/NOPE")
    assert response.status_code == 404
    assert response.mimetype == PROBLEM
    assert response.get_json()["status"] == 404


def test_seat_and_leave_change_the_table(api: Api) -> None:
    """PUT seats a player and DELETE removes them, each a new version."""
    api.create_table()
    assert api.seat("T1", 3, "Carol").get_json()["seats"][2]["player"] == "Carol"
    response = api.call("DELETE", "/v1/tables/T1/seats/3", "floor")
    assert response.status_code == 200
    body = response.get_json()
    assert body["seats"][2]["status"] == "empty" and body["version"] == 3


def test_seat_on_unknown_table_is_404(api: Api) -> None:
    """Seating at a table that does not exist is a 404."""
    assert api.seat("NOPE", 1, "Ann").status_code == 404


def test_start_hand_lists_who_posts_next(api: Api) -> None:
    """POST hands starts hand 1; the small blind owes a post."""
    body = api.ready_hand().get_json()
    assert body["hand"]["hand_no"] == 1 and body["hand"]["phase"] == "posting"
    assert body["next"]["seat"] == 2
    assert {"action": "post", "amount": 1, "owes": ["small_blind"]} in body["next"]["legal"]


def test_start_hand_accepts_an_empty_body(api: Api) -> None:
    """The body of POST hands is optional."""
    api.create_table()
    api.seat("T1", 1, "A")
    api.seat("T1", 2, "B")
    response = api.call("POST", "/v1/tables/T1/hands", "dealer")
    assert response.status_code == 200
    assert response.get_json()["hand"]["hand_no"] == 1


OPTIONAL_KILL_TABLE = {
    "variant": "deuce_to_seven_triple_draw",
    "profile": "casino-triple-draw-27-optional-kill",
}


def test_KILL_01_accepts_kill_seat_on_start_hand(api: Api) -> None:
    """Under the optional-kill profile the body may name the seat that kills the hand: it is
    the hand's kill_seat and owes the kill blind (2x the big blind of 2)."""
    assert api.create_table(**OPTIONAL_KILL_TABLE).status_code == 201
    for seat in (1, 2, 3):
        assert api.seat("T1", seat, f"P{seat}").status_code == 200
    response = api.call("POST", "/v1/tables/T1/hands", "dealer", {"button": 1, "kill_seat": 1})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["hand"]["kill_seat"] == 1
    assert body["instructions"][0]["code"] == "kill_pot"
    (killer,) = [player for player in body["hand"]["players"] if player["seat"] == 1]
    assert (killer["owes"], killer["owes_what"]) == (4, ["kill"])


def test_KILL_01_rejects_kill_seat_where_kills_are_off(api: Api) -> None:
    """A profile without kill pots answers kill_seat with a 409 naming KILL-01; a kill_seat
    that is not a seat number is a 400."""
    api.create_table()
    api.seat("T1", 1, "A")
    api.seat("T1", 2, "B")
    response = api.call("POST", "/v1/tables/T1/hands", "dealer", {"kill_seat": 2})
    assert response.status_code == 409 and response.mimetype == PROBLEM
    assert response.get_json()["rule_id"] == "KILL-01"
    response = api.call("POST", "/v1/tables/T1/hands", "dealer", {"kill_seat": "2"})
    assert response.status_code == 400
    assert "kill_seat" in response.get_json()["errors"]


def test_accepted_action_returns_state_next_notices_and_event(api: Api) -> None:
    """A legal post returns the new state, the next seat, notices and the audit event."""
    api.ready_hand()
    response = api.act("T1", seat=2, action="post")
    assert response.status_code == 200
    body = response.get_json()
    assert body["version"] == 6 and response.headers["ETag"] == '"v6"'
    assert body["next"]["seat"] == 3
    assert body["notices"] == []
    assert body["event"]["seq"] == 6


def test_rule_violation_is_409_with_rule_id_seat_and_allowed(api: Api) -> None:
    """Acting out of turn is a 409 problem naming the rule, the seat and what is allowed."""
    api.ready_hand()
    response = api.act("T1", seat=1, action="fold")
    assert response.status_code == 409
    assert response.mimetype == PROBLEM
    body = response.get_json()
    assert body["rule_id"]
    assert body["seat"] is not None
    assert body["allowed"]
    assert body["version"] == 5 and body["event"]["seq"] == 6


def test_rejection_is_audited_but_leaves_the_version(api: Api) -> None:
    """After a 409 the table keeps its version; the next entry takes the following seq."""
    api.ready_hand()
    api.act("T1", seat=1, action="fold")
    body = api.act("T1", seat=2, action="post").get_json()
    assert body["version"] == 6 and body["event"]["seq"] == 7


def test_hand_to_showdown_and_result(api: Api) -> None:
    """A whole hand over HTTP reaches showdown; showing hands ends it with a result."""
    body = _play_to_showdown(api)
    for _ in range(3):
        nxt = body["next"]
        if nxt is None:
            break
        response = api.act("T1", seat=nxt["seat"], action="muck")
        if response.status_code == 409:
            response = api.act("T1", seat=nxt["seat"], action="show", cards="As Ks Qs Js 9s")
        body = response.get_json()
    assert body["hand"]["phase"] == "complete"
    assert body["result"]["pots"]


def test_live_hand_record(api: Api) -> None:
    """GET hands/{n} of the hand in play answers from the live table."""
    api.ready_hand()
    response = api.call("GET", "/v1/tables/T1/hands/1", "auditor")
    assert response.status_code == 200
    body = response.get_json()
    assert body["live"] is True and body["hand"]["hand_no"] == 1


def test_unknown_hand_is_404(api: Api) -> None:
    """A hand that never happened is a 404."""
    api.ready_hand()
    assert api.call("GET", "/v1/tables/T1/hands/7").status_code == 404


def test_unknown_field_is_400_with_field_errors(api: Api) -> None:
    """A body with an unknown field is a 400 listing the field."""
    response = api.call("POST", "/v1/tables", "admin", {**TABLE_BODY, "colour": "red"})
    assert response.status_code == 400
    assert "colour" in response.get_json()["errors"]


def test_wrong_type_is_400(api: Api) -> None:
    """A seat given as a string is a 400, not coerced."""
    api.ready_hand()
    response = api.act("T1", seat="2", action="post")
    assert response.status_code == 400
    assert "seat" in response.get_json()["errors"]


def test_malformed_json_is_400(api: Api) -> None:
    """A body that is not JSON at all is a 400."""
    api.create_table()
    response = api.call(
        "POST", "/v1/tables/T1/actions", data="{nope", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.mimetype == PROBLEM


def test_non_object_json_is_400(api: Api) -> None:
    """A JSON array where an object belongs is a 400."""
    api.create_table()
    assert api.call("POST", "/v1/tables/T1/actions", body=[1, 2]).status_code == 400


def test_bad_cards_are_400(api: Api) -> None:
    """Card text the parser cannot read is a 400."""
    api.ready_hand()
    assert api.act("T1", seat=2, action="show", cards="Zz").status_code == 400


def test_not_json_is_415(api: Api) -> None:
    """A form-encoded body is a 415 problem."""
    api.create_table()
    response = api.call("POST", "/v1/tables/T1/actions", data="seat=1", content_type="text/plain")
    assert response.status_code == 415
    assert response.mimetype == PROBLEM


def test_body_over_64_kb_is_413(api: Api) -> None:
    """A body larger than 64 KB is refused with 413 before it is parsed."""
    api.create_table()
    big = '{"seat": 1, "action": "fold", "x": "' + "a" * 70_000 + '"}'
    response = api.call("POST", "/v1/tables/T1/actions", data=big, content_type="application/json")
    assert response.status_code == 413
    assert response.mimetype == PROBLEM


def test_unknown_path_is_404_problem(api: Api) -> None:
    """Even the framework's 404 is a problem document."""
    response = api.call("GET", "/v1/nothing-here")
    assert response.status_code == 404
    assert response.mimetype == PROBLEM


def test_wrong_method_is_405_problem_with_allow(api: Api) -> None:
    """PATCH on a table is a 405 problem that lists the allowed methods."""
    response = api.call("PATCH", "/v1/tables/T1")
    assert response.status_code == 405
    assert response.mimetype == PROBLEM
    assert "GET" in response.headers["Allow"]


def test_get_table_with_current_etag_is_304(api: Api) -> None:
    """A tablet polling with If-None-Match gets 304 until the table changes."""
    api.create_table()
    response = api.call("GET", "/v1/tables/T1", headers={"If-None-Match": '"v1"'})
    assert response.status_code == 304 and response.get_data() == b""
    assert response.headers["ETag"] == '"v1"'
    api.seat("T1", 1, "Ann")
    changed = api.call("GET", "/v1/tables/T1", headers={"If-None-Match": '"v1"'})
    assert changed.status_code == 200 and changed.get_json()["version"] == 2


def test_seat_changes_between_hands_sit_out_return_move_and_add_chips(api: Api) -> None:
    """POST seats/{seat}/changes: sit out, return waiting, move and top up, each audited."""
    api.create_table()
    api.seat("T1", 3, "Carol")
    path = "/v1/tables/T1/seats/3/changes"
    body = api.call("POST", path, "dealer", json={"change": "sit_out"}).get_json()
    assert body["seats"][2]["status"] == "sitting_out" and body["event"]["seq"] == 3
    body = api.call("POST", path, "floor", json={"change": "return", "wait": True}).get_json()
    assert body["seats"][2]["status"] == "active"
    body = api.call("POST", path, "dealer", json={"change": "add_chips", "chips": 50}).get_json()
    assert body["seats"][2]["stack"] == 150
    body = api.call("POST", path, "dealer", json={"change": "change_seat", "to": 5}).get_json()
    assert body["seats"][4]["player"] == "Carol" and body["seats"][2]["status"] == "empty"


def test_seat_change_with_a_field_of_another_change_is_400(api: Api) -> None:
    """A sit-out carrying a target seat is a malformed body, not a rule violation."""
    api.create_table()
    api.seat("T1", 3, "Carol")
    path = "/v1/tables/T1/seats/3/changes"
    response = api.call("POST", path, "dealer", json={"change": "sit_out", "to": 4})
    assert response.status_code == 400


LIMIT_27_TABLE = {"variant": "deuce_to_seven_triple_draw", "profile": "casino-triple-draw-27"}


def _posted_27(api: Api) -> None:
    """A 2-7 triple-draw table (keep 7, 5, 4, 3, 2 exposed) with hand 1 dealt, blinds posted."""
    assert api.create_table(**LIMIT_27_TABLE).status_code == 201
    for seat in (1, 2, 3):
        assert api.seat("T1", seat, f"P{seat}").status_code == 200
    assert api.start("T1").status_code == 200
    for seat in (2, 3):
        assert api.act("T1", seat=seat, action="post").status_code == 200


def test_IRREG_03_accepts_an_exposed_card_posted_as_an_action(api: Api) -> None:
    """POST exposed with the rank: the 6 is replaced and is the burn; the view offers the
    entry while the deal lasts."""
    _posted_27(api)
    offered = api.call("GET", "/v1/tables/T1", "dealer").get_json()["exposed"]
    assert offered == {"action": "exposed", "seats": [2, 3, 1], "keep_ranks": "75432"}
    response = api.act("T1", seat=1, action="exposed", rank="6")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert [i["code"] for i in body["instructions"]] == ["replace"]
    assert body["hand"]["burns"] == 1 and body["hand"]["stub"] == 36
    assert body["notices"] == []
    response = api.act("T1", seat=2, action="exposed", rank="7", option="keep")
    assert response.status_code == 200
    assert [n["rule_id"] for n in response.get_json()["notices"]] == ["IRREG-01"]


def test_IRREG_03_rejects_a_player_choosing_to_keep_over_http(api: Api) -> None:
    """option keep on a rank the house replaces is a 409 naming IRREG-03; a rank that is no
    rank is a 400."""
    _posted_27(api)
    response = api.act("T1", seat=1, action="exposed", rank="6", option="keep")
    assert response.status_code == 409 and response.mimetype == PROBLEM
    body = response.get_json()
    assert body["rule_id"] == "IRREG-03" and body["seat"] == 1
    assert body["allowed"] == [{"action": "exposed", "seat": 1, "option": "replace"}]
    response = api.act("T1", seat=1, action="exposed", rank="11")
    assert response.status_code == 400 and "rank" in response.get_json()["errors"]


def test_IRREG_04_accepts_a_draw_card_exposed_posted_as_an_action(api: Api) -> None:
    """POST exposed after seat 2's draw (first left of the button): the card is not taken,
    the replacement is owed at the end of the draw; the view names the seat just dealt."""
    _posted_27(api)
    for seat, action in ((1, "call"), (2, "call"), (3, "check")):
        assert api.act("T1", seat=seat, action=action).status_code == 200
    assert api.act("T1", seat=2, action="draw", count=2).status_code == 200
    offered = api.call("GET", "/v1/tables/T1", "dealer").get_json()["exposed_draw"]
    assert offered == {"action": "exposed", "seat": 2, "disposition": "to_discards"}
    response = api.act("T1", seat=2, action="exposed", rank="K")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["instructions"][0]["code"] == "replacement_owed"
    assert "Replacement owed to seat 2 at the end of the draw" in body["instructions"][0]["text"]


def test_IRREG_04_rejects_an_exposed_draw_card_for_another_seat_over_http(api: Api) -> None:
    """Seat 3 was not dealt last: a 409 naming IRREG-04, with the entry that is allowed."""
    _posted_27(api)
    for seat, action in ((1, "call"), (2, "call"), (3, "check")):
        assert api.act("T1", seat=seat, action=action).status_code == 200
    assert api.act("T1", seat=2, action="draw", count=2).status_code == 200
    response = api.act("T1", seat=3, action="exposed", rank="K")
    assert response.status_code == 409 and response.mimetype == PROBLEM
    body = response.get_json()
    assert body["rule_id"] == "IRREG-04" and body["allowed"] == [{"action": "exposed", "seat": 2}]


def test_IRREG_06_accepts_an_extra_card_posted_as_an_action(api: Api) -> None:
    """POST extra_card for the seat dealt six: the card is the burn (stub - 1, burns + 1); the
    view offers the entry while the deal lasts; a second extra card brings an IRREG-01 notice."""
    _posted_27(api)
    offered = api.call("GET", "/v1/tables/T1", "dealer").get_json()["extra_card"]
    assert offered == {"action": "extra_card", "seats": [2, 3, 1]}
    response = api.act("T1", seat=1, action="extra_card")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert [i["code"] for i in body["instructions"]] == ["extra_card"]
    assert "return it face down to the burn pile; it is the burn" in body["instructions"][0]["text"]
    assert body["hand"]["burns"] == 1 and body["hand"]["stub"] == 36 and body["notices"] == []
    response = api.act("T1", seat=3, action="extra_card")
    assert response.status_code == 200
    assert [n["rule_id"] for n in response.get_json()["notices"]] == ["IRREG-01"]


def test_IRREG_06_rejects_an_extra_card_after_the_betting_started_over_http(api: Api) -> None:
    """Once seat 1 has acted, an extra card is a 409 naming IRREG-06."""
    _posted_27(api)
    assert api.act("T1", seat=1, action="call").status_code == 200
    response = api.act("T1", seat=2, action="extra_card")
    assert response.status_code == 409 and response.mimetype == PROBLEM
    body = response.get_json()
    assert body["rule_id"] == "IRREG-06" and body["seat"] == 2 and body["allowed"]


def _folded_to_the_blinds(api: Api) -> dict[str, Any]:
    """casino-five-card-draw (the blinds may chop), three players, button 1: seat 1 folds."""
    api.ready_hand()
    for seat in (2, 3):
        assert api.act("T1", seat=seat, action="post").status_code == 200
    response = api.act("T1", seat=1, action="fold")
    assert response.status_code == 200
    body: dict[str, Any] = response.get_json()
    return body


def test_SHOW_08_accepts_a_chop_posted_as_an_action(api: Api) -> None:
    """Folded to the blinds, the small blind is offered ``chop``; POST chop ends the hand:
    no pot, each blind back, the instruction says the blinds agreed."""
    body = _folded_to_the_blinds(api)
    assert body["next"]["seat"] == 2
    offered = [option for option in body["next"]["legal"] if option["action"] == "chop"]
    assert offered and offered[0]["returns"] == {"2": 1, "3": 2}
    response = api.act("T1", seat=2, action="chop")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["hand"]["phase"] == "complete" and body["next"] is None
    assert body["result"]["pots"] == [] and body["result"]["chopped"] == {"2": 1, "3": 2}
    assert body["result"]["stacks"] == {"1": 100, "2": 100, "3": 100}
    assert [i["code"] for i in body["instructions"]] == ["chop"]
    assert "agreed to chop" in body["instructions"][0]["text"]
    table = api.call("GET", "/v1/tables/T1").get_json()
    assert table["result"]["chopped"] == {"2": 1, "3": 2} and table["next"] is None


def test_BET_08_rejects_a_chop_for_the_big_blind_over_http(api: Api) -> None:
    """The chop is the small blind's entry on its turn: for the big blind it is a 409 BET-08
    naming what seat 2 may do (the chop among it); the version does not move."""
    body = _folded_to_the_blinds(api)
    response = api.act("T1", seat=3, action="chop")
    assert response.status_code == 409 and response.mimetype == PROBLEM
    problem = response.get_json()
    assert problem["rule_id"] == "BET-08" and problem["seat"] == 3
    assert "chop" in [option["action"] for option in problem["allowed"]]
    assert api.call("GET", "/v1/tables/T1").get_json()["version"] == body["version"]


def test_SHOW_08_rejects_a_chop_before_everyone_folded_over_http(api: Api) -> None:
    """Seat 1 has not acted: a chop is an agreement to split a pot, a 409 SHOW-08."""
    api.ready_hand()
    for seat in (2, 3):
        assert api.act("T1", seat=seat, action="post").status_code == 200
    response = api.act("T1", seat=2, action="chop")
    assert response.status_code == 409
    problem = response.get_json()
    assert problem["rule_id"] == "SHOW-08" and "may not agree to split a pot" in problem["detail"]


def test_a_table_id_with_a_trailing_newline_is_400_and_creates_nothing(api: Api) -> None:
    """``"P" * 64 + "\\n"`` passed the ID pattern (``re.match``'s ``$`` accepts a trailing
    newline) and, one character over the store's varchar(64), stopped the audit drain on
    PostgreSQL (issue 19): the whole ID must match; 64 characters without it still do."""
    for bad in ("P" * 64 + "\n", "T1\n"):
        response = api.create_table(table_id=bad)
        assert response.status_code == 400, bad
        assert "table_id" in response.get_json()["errors"]
    assert api.call("GET", "/v1/tables/T1").status_code == 404
    assert api.create_table(table_id="P" * 64).status_code == 201


def test_cards_and_rank_with_a_trailing_newline_are_400(api: Api) -> None:
    """Every pattern of the schemas matches the whole value (``"Kh\\n"`` is not a card)."""
    api.ready_hand()
    assert api.act("T1", seat=2, action="show", cards="Kh Kd\n").status_code == 400
