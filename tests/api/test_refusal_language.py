"""A malformed entry, seat change or floor ruling that gets past the API's schemas is refused
by the engine (400, ``InvalidInput``) in the dealer's language too: one request of each area
(an action's cards, a seat change's fields, a ruling's effects, the ruling against the table,
a seat the table or the hand does not have) answers the same message ID and parameters in
English, Spanish and French, and ``api/language.py`` renders the detail from them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from api.conftest import Api

NNBSP = "\u202f"  # French groups thousands with a narrow no-break space


def _between_hands(api: Api) -> None:
    """T1 (six seats) with seats 1 to 3 taken, no hand started; seat 1 has 1,200 chips."""
    assert api.create_table(table_id="T1").status_code == 201
    for seat, stack in ((1, 1200), (2, 100), (3, 100)):
        assert api.seat("T1", seat, f"P{seat}", stack).status_code == 200


def _posted(api: Api) -> None:
    """Hand 1 at T1, the blinds posted: seat 1 is to act."""
    api.ready_hand("T1")
    for seat in (2, 3):
        assert api.act("T1", seat=seat, action="post").status_code == 200


def _ruling(*effects: dict[str, Any], decision: str = "custom") -> dict[str, Any]:
    return {"decision": decision, "note": "checked on camera", "effects": list(effects)}


@dataclass(frozen=True)
class Refusal:
    """A request the engine refuses, and what it says in each language."""

    setup: Any
    method: str
    path: str
    who: str
    body: dict[str, Any] | None
    message_id: str
    params: dict[str, Any]
    english: str
    spanish: str
    french: str


REFUSALS = {
    "an action's cards": Refusal(
        _posted, "POST", "/v1/tables/T1/actions", "dealer",
        {"seat": 1, "action": "fold", "cards": "7h5s 6d"},
        "command.not_a_card", {"field": "cards", "token": "'7h5s'"},
        "cards: '7h5s' is not a card like '7h'",
        "cards: '7h5s' no es una carta como '7h'",
        "cards : '7h5s' n'est pas une carte comme '7h'",
    ),
    "a seat change's fields": Refusal(
        _between_hands, "POST", "/v1/tables/T1/seats/2/changes", "dealer",
        {"change": "sit_out", "to": 4, "chips": 50},
        "command.unknown_fields", {"fields": {"listed": ["chips", "to"], "join": "comma"}},
        "unknown field(s): chips, to",
        "campo(s) desconocido(s): chips, to",
        "champ(s) inconnu(s) : chips, to",
    ),
    "a ruling's effects": Refusal(
        _posted, "POST", "/v1/tables/T1/rulings", "floor",
        _ruling({"effect": "award", "pots": [[2, 2]]}),
        "command.award_seat_twice_in",
        {"seat": 2, "pot": {"id": "floor.pot_main", "params": {}}},
        "award names seat 2 twice in the main pot",
        "award nombra el asiento 2 dos veces en el bote principal",
        "award nomme le siège 2 deux fois dans le pot principal",
    ),
    "a ruling's decision": Refusal(
        _posted, "POST", "/v1/tables/T1/rulings", "floor",
        _ruling(decision="coin_flip"),
        "floor.decision_not_an_option",
        {"rule": {"id": "floor.no_rule", "params": {}},
         "decisions": {"listed": ["custom", "discretionary"], "join": "comma"}},
        "decision for a ruling without a rule must be one of custom, discretionary",
        "la decisión para un caso sin regla debe ser una de estas: custom, discretionary",
        "la décision pour un cas sans règle doit être l'une de celles-ci : custom, discretionary",
    ),
    "a stack the ruling would take below zero": Refusal(
        _between_hands, "POST", "/v1/tables/T1/rulings", "floor",
        _ruling({"effect": "adjust_stack", "seat": 1, "amount": -5000}),
        "floor.stack_cannot_lose", {"seat": 1, "stack": 1200, "amount": 5000},
        "seat 1 has 1200; it cannot lose 5000",
        "el asiento 1 tiene 1.200; no puede perder 5.000",
        f"le siège 1 a 1{NNBSP}200 ; il ne peut pas perdre 5{NNBSP}000",
    ),
    "a seat the table does not have": Refusal(
        _between_hands, "DELETE", "/v1/tables/T1/seats/9", "dealer", None,
        "model.no_such_seat", {"seat": 9, "seats": 6},
        "seat 9 does not exist (1..6)",
        "el asiento 9 no existe (1..6)",
        "le siège 9 n'existe pas (1..6)",
    ),
    "a seat the hand does not have": Refusal(
        _posted, "POST", "/v1/tables/T1/rulings", "floor",
        _ruling({"effect": "kill_hand", "seat": 5}),
        "model.seat_not_in_hand", {"seat": 5},
        "seat 5 is not in the hand",
        "el asiento 5 no está en la mano",
        "le siège 5 n'est pas dans la main",
    ),
}  # fmt: skip


def _refused(api: Api, refusal: Refusal, language: str) -> dict[str, Any]:
    return _ask(api, refusal.method, refusal.path, refusal.who, refusal.body, language)


def _ask(
    api: Api, method: str, path: str, who: str, body: dict[str, Any] | None, language: str
) -> dict[str, Any]:
    """The 400 answered to the request in ``language``."""
    response = api.call(method, path, who, body, headers={"Accept-Language": language})
    assert response.status_code == 400, response.get_json()
    assert response.headers["Content-Language"] == language[:2]
    body: dict[str, Any] = response.get_json()
    return body


@pytest.mark.parametrize("refusal", REFUSALS.values(), ids=REFUSALS.keys())
def test_the_engine_refuses_a_malformed_request_in_the_dealers_language(
    api: Api, refusal: Refusal
) -> None:
    refusal.setup(api)
    english = _refused(api, refusal, "en")
    assert english["detail"] == refusal.english and english["title"] == "Invalid input"
    assert english["message_id"] == refusal.message_id
    assert english["params"] == refusal.params
    spanish = _refused(api, refusal, "es-ES,es;q=0.9")
    french = _refused(api, refusal, "fr-FR")
    assert (spanish["detail"], french["detail"]) == (refusal.spanish, refusal.french)
    for said in (spanish, french):  # the ID and the parameters stay as the English's
        assert (said["message_id"], said["params"]) == (refusal.message_id, refusal.params)
        assert said["title"] != english["title"]


# The other engine 400s a request reaches past the schemas: each is a message, so each has
# its own words in Spanish and French (the catalog tests hold the words themselves).
REACHED = {
    "a custom ruling without a note": (
        _posted, "/v1/tables/T1/rulings", {"decision": "custom", "effects": []},
        "floor.note_required",
    ),
    "a hand not dealt yet": (
        _between_hands, "/v1/tables/T1/rulings",
        {**_ruling({"effect": "adjust_stack", "seat": 1, "amount": 5}), "hand_no": 99},
        "floor.hand_not_dealt",
    ),
    "a stack adjusted on an empty seat": (
        _between_hands, "/v1/tables/T1/rulings",
        _ruling({"effect": "adjust_stack", "seat": 5, "amount": 5}),
        "floor.no_stack_to_adjust",
    ),
    "accept_entry without its entry": (
        _posted, "/v1/tables/T1/rulings",
        _ruling({"effect": "accept_entry", "waive": "OPEN-01"}),
        "command.accept_needs_entry",
    ),
    "accept_entry without waive": (
        _posted, "/v1/tables/T1/rulings",
        _ruling({"effect": "accept_entry", "entry": {"seat": 1, "action": "fold"}}),
        "command.accept_needs_waive",
    ),
    "a seat change without its seat to go to": (
        _between_hands, "/v1/tables/T1/seats/2/changes", {"change": "change_seat"},
        "command.required",
    ),
    "a seat change of seat 0": (
        _between_hands, "/v1/tables/T1/seats/0/changes", {"change": "sit_out"},
        "command.not_a_seat_number",
    ),
    "clear_false_opener naming nobody": (
        _between_hands, "/v1/tables/T1/rulings", _ruling({"effect": "clear_false_opener"}),
        "command.clear_seat_or_player",
    ),
    "void_last after another effect": (
        _posted, "/v1/tables/T1/rulings",
        _ruling({"effect": "hold_pot"}, {"effect": "void_last"}),
        "command.first_effect_only",
    ),
    "an effect with a field it does not take": (
        _posted, "/v1/tables/T1/rulings", _ruling({"effect": "misdeal", "seat": 1}),
        "command.unknown_fields",
    ),
    "adjust_stack without an amount": (
        _between_hands, "/v1/tables/T1/rulings",
        _ruling({"effect": "adjust_stack", "seat": 1}),
        "command.not_an_integer",
    ),
    "kill_hand without a seat": (
        _posted, "/v1/tables/T1/rulings", _ruling({"effect": "kill_hand"}),
        "command.needs_a_seat",
    ),
    "an award to nobody": (
        _posted, "/v1/tables/T1/rulings", _ruling({"effect": "award"}),
        "command.award_needs_seats",
    ),
    "an award naming a seat twice": (
        _posted, "/v1/tables/T1/rulings", _ruling({"effect": "award", "seats": [2, 2]}),
        "command.award_seat_twice",
    ),
    "an award by seats and by pots": (
        _posted, "/v1/tables/T1/rulings",
        _ruling({"effect": "award", "seats": [2], "pots": [[2]]}),
        "command.award_seats_or_pots",
    ),
}  # fmt: skip


@pytest.mark.parametrize(
    ("setup", "path", "body", "message_id"), REACHED.values(), ids=REACHED.keys()
)
def test_every_engine_refusal_a_request_reaches_is_said_in_spanish_and_french(
    api: Api, setup: Any, path: str, body: dict[str, Any], message_id: str
) -> None:
    setup(api)
    who = "floor" if path.endswith("/rulings") else "dealer"
    english, spanish, french = (
        _ask(api, "POST", path, who, body, language) for language in ("en", "es", "fr")
    )
    assert english["message_id"] == message_id
    assert spanish["message_id"] == french["message_id"] == message_id
    assert english["detail"] != spanish["detail"] != french["detail"] != english["detail"]
