"""The floor console reads a floor call in the floor manager's language: the call keeps the
refusal's message ID and parameters beside its English ``message`` (from the entry refused
now, or from the refusal the audit log recorded), and ``Accept-Language`` renders it; a
call made before message IDs keeps its English and has no ``message_id``."""

from __future__ import annotations

from typing import Any

from api.conftest import Api
from dealerassist.service.floor_calls import FloorCall
from dealerassist.settings import Settings
from dealerassist.worker import run_worker

HOLD = {"decision": "hold", "rule_id": "SHOW-11", "note": "surveillance",
        "effects": [{"effect": "hold_pot"}]}  # fmt: skip
HELD = "The floor holds the pot while surveillance checks; wait for its release."
SPANISH = "El floor retiene el bote mientras vigilancia lo revisa; espere a que lo libere."
FRENCH = (
    "Le floor retient le pot pendant la vérification de la surveillance ; attendez sa libération."
)


def _held(api: Api) -> Any:
    """Hand 1 posted, the floor holds the pot (SHOW-11): seat 1's call is refused."""
    api.ready_hand("T1")
    for seat in (2, 3):
        assert api.act("T1", seat=seat, action="post").status_code == 200
    assert api.call("POST", "/v1/tables/T1/rulings", "floor", HOLD).status_code == 200
    refused = api.act("T1", seat=1, action="call")
    assert refused.status_code == 409
    return refused.get_json()


def _open(api: Api, body: dict[str, Any]) -> dict[str, Any]:
    opened = api.call("POST", "/v1/tables/T1/floor-calls", "dealer", body)
    assert opened.status_code == 201, opened.get_json()
    call: dict[str, Any] = opened.get_json()
    return call


def test_a_floor_call_on_a_refused_entry_is_read_in_spanish_and_french(api: Api) -> None:
    refused = _held(api)
    assert refused["message_id"] == "floor.pot_held_wait" and refused["detail"] == HELD
    call = _open(api, {"entry": {"seat": 1, "action": "call"}})
    assert call["rule_id"] == "SHOW-11" and call["message"] == HELD
    assert call["message_id"] == "floor.pot_held_wait" and call["params"] == {}
    spanish = api.call("GET", "/v1/floor/calls", "floor", headers={"Accept-Language": "es"})
    assert spanish.headers["Content-Language"] == "es"
    listed = spanish.get_json()["calls"]
    assert [c["message"] for c in listed] == [SPANISH]
    assert listed[0]["message_id"] == "floor.pot_held_wait"  # the ID stays as it is
    one = api.call(
        "GET", f"/v1/floor/calls/{call['call_id']}", "floor", headers={"Accept-Language": "fr"}
    )
    assert one.get_json()["message"] == FRENCH
    english = api.call("GET", "/v1/floor/calls", "floor").get_json()["calls"]
    assert english[0]["message"] == HELD


def test_a_floor_call_by_the_audit_seq_keeps_the_recorded_message_id(
    api: Api, settings: Settings
) -> None:
    """The refusal as the audit log recorded it (message ID and parameters) goes into the
    call: the floor reads it in Spanish too."""
    refused = _held(api)
    assert settings.redis_url is not None
    run_worker(settings.redis_url, settings.database_url, burst=True, with_scheduler=False)
    call = _open(api, {"seq": refused["event"]["seq"]})
    assert call["seq"] == refused["event"]["seq"] and call["message"] == HELD
    assert call["message_id"] == "floor.pot_held_wait"
    spanish = api.call(
        "GET", f"/v1/floor/calls/{call['call_id']}", "floor", headers={"Accept-Language": "es"}
    )
    assert spanish.get_json()["message"] == SPANISH


def test_a_call_made_before_message_ids_loads_and_stays_english() -> None:
    """An older call's JSON (no message_id, no params) loads; it writes no such keys, so its
    stored form and its audit payload are what they were; a call with them writes both."""
    older = {"call_id": "c1", "table_id": "T1", "opened_at": "2026-01-01T00:00:00Z",
             "opened_by": "tablet-1", "version": 3, "hand_no": 1, "rule_id": "BET-08",
             "message": "It is seat 2's turn; seat 3 must wait.", "seat": 3}  # fmt: skip
    call = FloorCall.from_dict(older)
    assert call.message_id is None and call.params is None
    written = call.to_dict()
    assert "message_id" not in written and "params" not in written
    assert FloorCall.from_dict(written) == call
    said = FloorCall.from_dict({**older, "message_id": "floor.pot_held_wait", "params": {}})
    assert said.to_dict()["message_id"] == "floor.pot_held_wait"
    assert said.to_dict()["params"] == {}
