"""The problems the API and the service write themselves (not the engine) come in the
dealer's language too: a schema's refusal, a session not on duty (403), an unknown table
(404), a stale If-Match (412), refusals past the token's limit (429), a backend down (503)
and the routes' own checks (an undo without If-Match, a floor call without its entry, an
Idempotency-Key too long, a token the API does not know) each answer the same
``message_id`` and ``params`` in English, Spanish and French; the English detail is the one
the API always wrote, the others are rendered from the ``rules`` catalog."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest
from fakes import FakeClock
from flask import Flask

from api.conftest import Api, token_book
from dealerassist.api import create_app
from dealerassist.api.http import MAX_IDEMPOTENCY_KEY
from dealerassist.api.language import words_for
from dealerassist.bootstrap import build_services
from dealerassist.rules.model.said import render_json
from dealerassist.service.ports import Services
from dealerassist.service.shifts import ShiftLimits
from dealerassist.settings import Settings

LANGUAGES = ("en", "es-ES,es;q=0.9", "fr-FR")


@dataclass(frozen=True)
class Said:
    """A problem in three languages, under one ID."""

    status: int
    message_id: str
    params: dict[str, Any]
    english: str
    spanish: str
    french: str


def _asked(ask: Callable[[dict[str, str]], Any], said: Said) -> list[dict[str, Any]]:
    """The problem ``ask`` answers in each language, checked against ``said``."""
    bodies = []
    for language in LANGUAGES:
        response = ask({"Accept-Language": language})
        assert response.status_code == said.status, response.get_json()
        assert response.mimetype == "application/problem+json"
        assert response.headers["Content-Language"] == language[:2]
        bodies.append(response.get_json())
    english, spanish, french = bodies
    assert (english["detail"], spanish["detail"], french["detail"]) == (
        said.english,
        said.spanish,
        said.french,
    )
    for body in bodies:  # the ID and the parameters are the same in every language
        assert (body["message_id"], body["params"]) == (said.message_id, said.params)
    return bodies


def test_a_schema_refusal_is_said_in_the_dealers_language(api: Api) -> None:
    """The detail is a message; the per-field errors stay marshmallow's English (i18n note)."""
    api.ready_hand()
    said = Said(
        400, "api.schema", {},
        "the request does not match its schema",
        "la solicitud no se ajusta a su esquema",
        "la requête ne respecte pas son schéma",
    )  # fmt: skip
    body = {"seat": "one", "action": "fold"}
    bodies = _asked(lambda h: api.call("POST", "/v1/tables/T1/actions", "dealer", body, h), said)
    assert all(b["errors"] == {"seat": ["Not a valid integer."]} for b in bodies)


def test_an_unknown_table_is_404_in_the_dealers_language(api: Api) -> None:
    said = Said(
        404, "service.no_table", {"table": "'T9'"},
        "no table 'T9'", "no hay ninguna mesa 'T9'", "aucune table 'T9'",
    )  # fmt: skip
    _asked(lambda h: api.call("GET", "/v1/tables/T9", "dealer", headers=h), said)


def test_a_stale_if_match_is_412_in_the_dealers_language(api: Api) -> None:
    api.ready_hand()
    version = api.call("GET", "/v1/tables/T1").get_json()["version"]
    said = Said(
        412, "service.stale_version", {"tag": '"v1"', "current": f'"v{version}"'},
        f'If-Match names version "v1" but the table is at "v{version}": read the table again '
        "(GET, its ETag) and decide on what it shows now",
        f'If-Match nombra la versión "v1" pero la mesa está en "v{version}": vuelva a leer la '
        "mesa (GET, su ETag) y decida según lo que muestra ahora",
        f'If-Match nomme la version "v1" mais la table en est à "v{version}" : relisez la '
        "table (GET, son ETag) et décidez d'après ce qu'elle montre maintenant",
    )  # fmt: skip
    fold = {"seat": 2, "action": "post"}

    def ask(headers: dict[str, str]) -> Any:
        sent = {**headers, "If-Match": '"v1"'}
        return api.call("POST", "/v1/tables/T1/actions", "dealer", fold, sent)

    bodies = _asked(ask, said)
    assert all(b["current_version"] == version for b in bodies)


def test_an_undo_without_if_match_is_refused_in_the_dealers_language(api: Api) -> None:
    api.ready_hand()
    said = Said(
        400, "service.undo_needs_if_match", {},
        'an undo needs If-Match: the version the entry produced (e.g. "v12")',
        'deshacer necesita If-Match: la versión que produjo la entrada (p. ej. "v12")',
        'annuler demande If-Match : la version que la saisie a produite (par ex. "v12")',
    )  # fmt: skip
    _asked(lambda h: api.call("POST", "/v1/tables/T1/undo", "dealer", {}, h), said)


def test_a_floor_call_without_its_entry_is_refused_in_the_dealers_language(api: Api) -> None:
    api.ready_hand()
    said = Said(
        400, "service.call_needs", {},
        "send the refused 'entry', its audit 'seq', or a 'rule_id' and 'note'",
        "envíe la 'entry' rechazada, su 'seq' de auditoría, o un 'rule_id' y una 'note'",
        "envoyez la saisie refusée ('entry'), son 'seq' d'audit, ou un 'rule_id' et une 'note'",
    )  # fmt: skip
    _asked(lambda h: api.call("POST", "/v1/tables/T1/floor-calls", "dealer", {}, h), said)


def test_a_long_idempotency_key_and_an_unknown_token_in_the_dealers_language(api: Api) -> None:
    api.ready_hand()
    too_long = Said(
        400, "api.idempotency_key_length", {"most": 255},
        "Idempotency-Key must be 1 to 255 characters",
        "Idempotency-Key debe tener de 1 a 255 caracteres",
        "Idempotency-Key doit compter de 1 à 255 caractères",
    )  # fmt: skip
    post = {"seat": 2, "action": "post"}

    def ask(headers: dict[str, str]) -> Any:
        sent = {**headers, "Idempotency-Key": "k" * (MAX_IDEMPOTENCY_KEY + 1)}
        return api.call("POST", "/v1/tables/T1/actions", "dealer", post, sent)

    _asked(ask, too_long)
    unknown = Said(
        401, "api.unknown_token", {}, "unknown token", "token desconocido", "jeton inconnu"
    )
    bearer = {"Authorization": "Bearer not-a-token"}
    _asked(lambda h: api.call("GET", "/v1/tables/T1", None, headers={**h, **bearer}), unknown)


def test_a_session_not_on_duty_is_403_and_one_ended_401_in_the_dealers_language(
    settings: Settings, services: Services
) -> None:
    """E1 moves his tablet from T1 to T2: at T1 his session is not on duty, and nobody is;
    then the floor ends his shift, and his session says why (a nested message)."""
    wired = replace(services, shift_limits=ShiftLimits(scrypt_n=2**4))
    app = create_app({"SETTINGS": settings, "SERVICES": wired, "TOKENS": token_book()})
    api = Api(app.test_client())
    for table_id in ("T1", "T2"):
        assert api.create_table(table_id=table_id).status_code == 201
    assert (
        api.call("PUT", "/v1/dealers/E1", "admin", {"name": "Ada", "pin": "4821"}).status_code
        == 201
    )
    registered = api.call("POST", "/v1/tablets", "admin", {"name": "A", "tables": ["T1", "T2"]})
    code = {"pairing_code": registered.get_json()["pairing_code"]}
    device = api.call("POST", "/v1/tablets/pair", None, code).get_json()["credential"]
    signed = {"table_id": "T1", "employee_id": "E1", "pin": "4821"}
    device_auth = {"Authorization": f"Bearer {device}"}
    shift = api.call("POST", "/v1/tablet/sign-in", None, signed, device_auth).get_json()
    session = {"Authorization": f"Bearer {shift['token']}"}
    assert api.call("POST", "/v1/shift/table", None, {"table_id": "T2"}, session).status_code == 200
    said = Said(
        403, "service.not_on_duty_nobody", {"dealer": "E1", "table": "T1"},
        "dealer E1 is not on duty at table T1 (nobody is): sign in at this table again",
        "el crupier E1 no está de turno en la mesa T1 (no lo está nadie): vuelva a entrar en "
        "esta mesa",
        "le croupier E1 n'est pas en service à la table T1 (personne ne l'est) : "
        "reconnectez-vous à cette table",
    )  # fmt: skip
    seat = {"player": "Ann", "stack": 100}
    bodies = _asked(
        lambda h: api.call("PUT", "/v1/tables/T1/seats/1", None, seat, {**h, **session}), said
    )
    assert all(b["code"] == "not_on_duty" for b in bodies)
    # the floor ends his shift: his session's 401 says why, the reason a nested message
    assert api.call("POST", "/v1/floor/dealers/E1/sign-out", "floor").status_code == 204
    ended = Said(
        401, "api.shift_ended",
        {"why": {"id": "service.ended_by_floor", "params": {"name": "floor"}}},
        "this shift session has ended: the floor (floor) ended this shift",
        "este turno ha terminado: el floor (floor) terminó este turno",
        "ce service est terminé : le floor (floor) a mis fin à ce service",
    )  # fmt: skip
    bodies = _asked(lambda h: api.call("GET", "/v1/shift", None, headers={**h, **session}), ended)
    assert all(b["code"] == "shift_ended" for b in bodies)


def test_refusals_past_the_limit_are_429_in_the_dealers_language(settings: Settings) -> None:
    """The 429's detail is the refusal's words and the limit's, both in the dealer's
    language: its ``message_id`` is the limit's, the refusal's own is its ``refusal``
    parameter (``rule_id``, ``seat``, ``allowed`` stay beside it as before)."""
    tight = settings.replace(refusals_per_window=1)
    limited = replace(build_services(tight), clock=FakeClock())
    app: Flask = create_app({"SETTINGS": tight, "SERVICES": limited, "TOKENS": token_book()})
    api = Api(app.test_client())
    api.ready_hand()
    fold = {"seat": 1, "action": "fold"}  # seat 2 posts first
    first = api.call("POST", "/v1/tables/T1/actions", "dealer", fold)
    assert first.status_code == 409
    refusal = first.get_json()
    said = {"id": refusal["message_id"], "params": refusal["params"]}
    window = tight.refusal_window_seconds
    bodies = []
    for language in LANGUAGES:  # the clock stands still: every 429 says the same
        headers = {"Accept-Language": language}
        answer = api.call("POST", "/v1/tables/T1/actions", "dealer", fold, headers)
        assert answer.status_code == 429, answer.get_json()
        bodies.append(answer.get_json())
    en, es, fr = bodies
    retry = en["retry_after"]
    params = {"refusal": said, "limit": 1, "window": window, "retry": retry}
    for body in bodies:
        assert (body["message_id"], body["params"]) == ("service.refusals_limited", params)
        assert (body["rule_id"], body["seat"]) == (refusal["rule_id"], refusal["seat"])
    assert en["detail"] == (
        f"{refusal['detail']} This token had more than 1 refused entries within {window} s: "
        f"further refusals are neither applied nor recorded for {retry} s (accepted entries "
        "go through as always)."
    )
    assert es["detail"] == (
        f"{render_json(said, words_for('es'))} Este token tuvo más de 1 entradas rechazadas en "
        f"{window} s: las siguientes no se aplican ni se registran durante {retry} s (las "
        "entradas aceptadas pasan como siempre)."
    )
    assert fr["detail"] == (
        f"{render_json(said, words_for('fr'))} Ce jeton a eu plus de 1 saisies refusées en "
        f"{window} s : les suivantes ne sont ni appliquées ni enregistrées pendant {retry} s "
        "(les saisies acceptées passent comme toujours)."
    )
    assert not es["detail"].startswith(refusal["detail"])  # the refusal is Spanish too


@pytest.fixture
def without_calls(settings: Settings, services: Services) -> Api:
    """The app without a floor-call store: a call is a 503 the dealer reads in his words."""
    wired = replace(services, floor_calls=None)
    return Api(
        create_app({"SETTINGS": settings, "SERVICES": wired, "TOKENS": token_book()}).test_client()
    )


def test_a_backend_down_is_503_in_the_dealers_language(without_calls: Api, api: Api) -> None:
    """A dealer reads that a backend does not answer (never which one, nor why)."""
    api.ready_hand()
    said = Said(
        503, "api.backend_down", {},
        "a backend (Redis or the audit store) does not answer; retry after Retry-After",
        "un servicio interno (Redis o el registro de auditoría) no responde; vuelva a "
        "intentarlo tras Retry-After",
        "un service interne (Redis ou le journal d'audit) ne répond pas ; réessayez après "
        "Retry-After",
    )  # fmt: skip
    call = {"rule_id": "BET-08", "note": "seat 3 says he acted in turn"}
    _asked(
        lambda h: without_calls.call("POST", "/v1/tables/T1/floor-calls", "dealer", call, h), said
    )


def test_a_hand_still_in_play_is_409_in_the_auditors_language(api: Api) -> None:
    """The auditor's own problems too: the path in the detail is a parameter, never a
    number the locale would group."""
    api.ready_hand()
    said = Said(
        409, "service.hand_in_play",
        {"hand": 1, "table": "'T1'", "path": "/v1/tables/T1/hands/1"},
        "hand 1 of table 'T1' is still being played; its audited record exists once it ends "
        "and is stored (the table's own view: GET /v1/tables/T1/hands/1)",
        "la mano 1 de la mesa 'T1' aún se está jugando; su registro auditado existe cuando "
        "termina y se guarda (la vista de la propia mesa: GET /v1/tables/T1/hands/1)",
        "la main 1 de la table 'T1' est encore en jeu ; son enregistrement audité existe une "
        "fois qu'elle est finie et stockée (la vue de la table elle-même : GET "
        "/v1/tables/T1/hands/1)",
    )  # fmt: skip
    bodies = _asked(lambda h: api.call("GET", "/v1/audit/hands/T1/1", "auditor", headers=h), said)
    assert [b["title"] for b in bodies] == [
        "Hand not stored whole",
        "Mano aún no guardada entera",
        "Main pas encore stockée en entier",
    ]
    assert all(b["reason"] == "in_play" for b in bodies)
