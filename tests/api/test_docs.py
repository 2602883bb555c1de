"""/openapi.json covers every route the app serves, and /docs renders it without CDN assets."""

from __future__ import annotations

import re
from typing import Any

import jsonschema_rs
import pytest
from flask import Flask

from api.conftest import Api

UNDOCUMENTED = {"/openapi.json", "/docs", "/static/<path:filename>"}
PAGES_BLUEPRINT = "web."  # the browser pages and their static files are not API operations


def _flask_to_openapi(rule: str) -> str:
    return re.sub(r"<(?:[a-z]+(?:\([^)]*\))?:)?([a-z_]+)>", r"{\1}", rule)


def test_every_route_is_in_the_spec_and_back(app: Flask, api: Api) -> None:
    """The spec's paths and methods are exactly the app's routes."""
    spec = api.call("GET", "/openapi.json", None).get_json()
    served = {
        (_flask_to_openapi(rule.rule), method.lower())
        for rule in app.url_map.iter_rules()
        if rule.rule not in UNDOCUMENTED and not rule.endpoint.startswith(PAGES_BLUEPRINT)
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}
    }
    documented = {
        (path, method)
        for path, item in spec["paths"].items()
        for method in item
        if method != "parameters"
    }
    assert served == documented


def test_every_operation_documents_its_errors_as_problems(api: Api) -> None:
    """Each /v1 operation lists 401 and 403, each error answer is a problem document."""
    spec = api.call("GET", "/openapi.json", None).get_json()
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method == "parameters" or not path.startswith("/v1"):
                continue
            assert {"401", "403", "503"} <= set(operation["responses"]), (path, method)
    for name, response in spec["components"]["responses"].items():
        assert list(response["content"]) == ["application/problem+json"], name


def test_docs_page_lists_paths_and_schemas_without_external_assets(api: Api) -> None:
    """/docs is plain HTML naming every path and schema, with no script or remote asset."""
    response = api.call("GET", "/docs", None)
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    for path in ("/v1/tables/{table_id}/actions", "/v1/audit/verify", "/readyz"):
        assert path in page
    assert "CreateTable" in page and "Problem" in page
    assert "<script" not in page and "http://" not in page


# -- CreateTable is as strict as the validation behind it ---------------------------------

STAKES = {
    "fixed_limit_blinds": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "fixed_limit_antes": {"ante": 1, "small_bet": 2, "big_bet": 4},
    "pot_limit_blinds": {"small_blind": 1, "big_blind": 2},
    "no_limit_blinds": {"small_blind": 1, "big_blind": 2},
    "no_limit_antes": {"ante": 1, "min_bet": 2},
    "pot_limit_antes": {"ante": 1, "min_bet": 2},
    "fixed_limit_blinds_and_antes": {"small_blind": 1, "big_blind": 2, "ante": 1},
    "no_limit_blinds_and_antes": {"small_blind": 1, "big_blind": 2, "ante": 1},
    "pot_limit_blinds_and_antes": {"small_blind": 1, "big_blind": 2, "ante": 1},
}


def _create_table_validator(spec: dict[str, Any]) -> Any:
    root = {"$ref": "#/components/schemas/CreateTable", "components": spec["components"]}
    return jsonschema_rs.validator_for(root)


def _bodies(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """One body per profile alternative of CreateTable, with its game's stakes."""
    bodies = []
    for number, alternative in enumerate(spec["components"]["schemas"]["CreateTable"]["oneOf"]):
        properties = alternative["properties"]
        game = {name: properties[name]["enum"][0] for name in ("profile", "variant", "structure")}
        stakes = properties["stakes"]["$ref"].rsplit("/", 1)[-1].removeprefix("Stakes_")
        bodies.append({"table_id": f"S{number}", **game, "stakes": STAKES[stakes]})
    return bodies


def test_GAME_06_accepts_a_table_for_each_profile_as_its_create_table_alternative_says(
    api: Api,
) -> None:
    """Each installed profile is one alternative of CreateTable (its variant, structure and
    the stakes its forced bets need); a body that fits one is a table the API opens (201)."""
    spec = api.call("GET", "/openapi.json", None).get_json()
    validator = _create_table_validator(spec)
    bodies = _bodies(spec)
    assert {body["profile"] for body in bodies} >= {"casino-five-card-draw", "replay-permissive"}
    for body in bodies:
        assert validator.is_valid(body), body
        assert api.call("POST", "/v1/tables", "admin", body).status_code == 201, body


@pytest.mark.parametrize(
    "change",
    [
        {"variant": "deuce_to_seven_triple_draw"},  # not the profile's game (GAME-01)
        {"structure": "no_limit"},  # not the profile's structure (GAME-06)
        {"stakes": {"small_blind": 1, "big_blind": 2, "ante": 1}},  # antes in a blinds game
        {"stakes": {"small_blind": 1}},  # no big blind
        {"profile": "no-such-profile"},
    ],
)
def test_GAME_06_refuses_in_the_schema_what_the_api_refuses(
    api: Api, change: dict[str, Any]
) -> None:
    """A table that does not fit its profile fails the CreateTable schema, and the API
    answers it 400 (so a client reading the spec does not send it)."""
    spec = api.call("GET", "/openapi.json", None).get_json()
    body = {**next(b for b in _bodies(spec) if b["profile"] == "casino-five-card-draw"), **change}
    assert not _create_table_validator(spec).is_valid(body)
    assert api.call("POST", "/v1/tables", "admin", body).status_code == 400
