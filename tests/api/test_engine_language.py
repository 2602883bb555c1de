"""The API says the engine's words in the dealer's language (``api/language.py``): a refusal's
``detail`` and ``message``, its problem ``title``, an instruction's ``text``, rendered from
the message ID and parameters by the ``rules`` catalog when ``Accept-Language`` asks for
Spanish or French; rule IDs and message IDs stay as they are, English stays as written,
and the audit log records the refusal as its ID and parameters."""

from __future__ import annotations

import json
from typing import Any

import pytest
from babel.messages.pofile import read_po

from api.conftest import Api
from dealerassist.api.language import TRANSLATIONS, localize, words_for
from dealerassist.rules.model.said import MESSAGES
from dealerassist.settings import Settings
from dealerassist.worker import run_worker


def _to_betting(api: Api, **headers: str) -> dict[str, Any]:
    """Hand 1 at T1 (three players) posted and dealt: the first betting round's turn."""
    body: dict[str, Any] = api.ready_hand().get_json()
    while body["hand"]["phase"] != "betting_1":
        nxt = body["next"]
        choice = nxt["legal"][0]
        action = {"seat": nxt["seat"], "action": choice["action"], "amount": choice.get("amount")}
        response = api.call("POST", "/v1/tables/T1/actions", body=action, headers=headers)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
    return body


def _out_of_turn(api: Api, body: dict[str, Any], language: str) -> Any:
    seat = next(s for s in (1, 2, 3) if s != body["next"]["seat"])
    return api.call(
        "POST",
        "/v1/tables/T1/actions",
        body={"seat": seat, "action": "fold"},
        headers={"Accept-Language": language},
    )


def _catalog_text(locale: str, message_id: str) -> str:
    with (TRANSLATIONS / locale / "LC_MESSAGES" / "rules.po").open("rb") as po:
        catalog = read_po(po, locale=locale)
    message = MESSAGES[message_id]
    entry = catalog.get(message.english, context=message_id)
    assert entry is not None and entry.string
    return str(entry.string)


def test_a_refusal_in_spanish_keeps_its_rule_and_message_id(api: Api) -> None:
    """OPEN-01 (nobody has acted: the first to act is named) out of turn, asked in Spanish:
    the detail is the catalog's Spanish filled with
    the seats, the title is Spanish, rule_id and message_id are the English answer's."""
    body = _to_betting(api)
    english = _out_of_turn(api, body, "en").get_json()
    spanish = _out_of_turn(api, body, "es-MX,es;q=0.9").get_json()
    assert english["message_id"] == spanish["message_id"] == "bet.not_your_turn"
    assert english["rule_id"] == spanish["rule_id"] == "OPEN-01"
    assert english["params"] == spanish["params"]
    assert english["title"] == "Rule violation" and spanish["title"] == "Jugada no permitida"
    template = _catalog_text("es", "bet.not_your_turn")
    wanted = template.format(**{k: str(v) for k, v in spanish["params"].items()})
    assert spanish["detail"] == wanted
    assert english["detail"].startswith("It is seat ") and "debe esperar" in spanish["detail"]


def test_french_and_the_headers(api: Api) -> None:
    body = _to_betting(api)
    response = _out_of_turn(api, body, "fr-CA, fr;q=0.8")
    french = response.get_json()
    assert "doit attendre" in french["detail"] and french["title"] == "Action non autorisée"
    assert response.headers["Content-Language"] == "fr"
    assert "Accept-Language" in response.headers["Vary"]
    unmatched = _out_of_turn(api, body, "de-DE").get_json()
    assert unmatched["detail"].startswith("It is seat ")


FRENCH = {"Accept-Language": "fr"}


def test_the_audit_log_records_the_refusal_as_its_id_and_params(
    api: Api, settings: Settings
) -> None:
    """What the auditor reads back: the rule, the English words as before, and the ID and
    parameters to render them in any language (whatever the dealer's language was)."""
    body = _to_betting(api)
    refused = _out_of_turn(api, body, "fr").get_json()
    assert settings.redis_url is not None
    run_worker(settings.redis_url, settings.database_url, burst=True, with_scheduler=False)
    export = api.call("GET", "/v1/audit/events?table_id=T1", "auditor", headers=FRENCH)
    lines = [json.loads(line) for line in export.get_data(as_text=True).splitlines()]
    event = next(e for e in lines if e.get("seq") == refused["event"]["seq"])
    payload = event["payload"]
    assert payload["message_id"] == "bet.not_your_turn"
    assert payload["params"] == refused["params"]
    assert payload["message"].startswith("It is seat ")


@pytest.mark.parametrize(
    "said",
    [
        {"id": "bet.no_such_message", "params": {}},
        {"id": "bet.not_your_turn", "params": {}},  # its words name params it lacks
        {"id": "bet.not_your_turn", "params": None},
        {
            "id": "bet.not_your_turn",
            "params": {"expected": "2", "seat": 1, "why": {"id": "gone.nested", "params": {}}},
        },
        {"id": "bet.not_your_turn", "params": {"expected": "2", "seat": 1, "why": {"id": 3}}},
    ],
)
def test_words_the_service_cannot_render_stay_english(said: dict[str, Any]) -> None:
    """A stored answer of another version (an unknown or nested unknown ID, params that do
    not fill the words) keeps its English: never a 500."""
    body = {"rule_id": "BET-08", "message": "English as stored", "message_id": said["id"]}
    body["params"] = said["params"]
    for locale in ("es", "fr"):
        assert localize(body, words_for(locale))["message"] == "English as stored"
