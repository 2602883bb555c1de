"""Hostile input at the HTTP edge: what no tablet sends, answered 400 problem+json, changing
nothing (issue 19, points 14 and 15), never a 500."""

from __future__ import annotations

import pytest

from api.conftest import Api

SEAT_PATH = "/v1/tables/T1/seats/4"


def _raw(api: Api, method: str, path: str, text: str, who: str = "dealer") -> object:
    return api.call(method, path, who, data=text.encode(), content_type="application/json")


def _version(api: Api) -> int:
    version = api.call("GET", "/v1/tables/T1").get_json()["version"]
    assert isinstance(version, int)
    return version


def test_a_lone_surrogate_in_a_player_name_is_400(api: Api) -> None:
    """``"\\ud800"`` is valid JSON but no Unicode text: it cannot be stored or sent as UTF-8.
    Refused at the edge, naming the field, and the table is unchanged."""
    api.ready_hand()
    before = _version(api)
    response = _raw(api, "PUT", SEAT_PATH, '{"player": "Ann\\ud800", "stack": 50}')
    assert response.status_code == 400, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert "surrogate" in response.get_data(as_text=True)
    assert _version(api) == before


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/tables/T1/floor-calls", '{"rule_id": "BET-01", "note": "x\\udfff"}'),
        ("/v1/tables/T1/actions", '{"seat": 2, "action": "post", "option": "\\ud83d"}'),
        ("/v1/tables", '{"table_id": "T9", "\\ud800": 1}'),  # a key, too
    ],
)
def test_a_lone_surrogate_anywhere_in_a_body_is_400(api: Api, path: str, body: str) -> None:
    """Whatever field (or key) carries it, a lone surrogate is a 400 before any use case."""
    api.ready_hand()
    who = "admin" if path == "/v1/tables" else "dealer"
    response = _raw(api, "POST", path, body, who)
    assert response.status_code == 400, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"


def test_a_paired_surrogate_is_a_character_like_any_other(api: Api) -> None:
    """``"\\ud83c\\udccf"`` is one character (the joker card, U+1F0CF): accepted."""
    api.ready_hand()
    response = _raw(api, "PUT", SEAT_PATH, '{"player": "Joker \\ud83c\\udccf", "stack": 50}')
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json()["seats"][3]["player"] == "Joker \U0001f0cf"


@pytest.mark.parametrize(("opener", "closer", "depth"), [("[", "]", 30_000), ('{"":', "}", 12_000)])
def test_json_nested_30000_deep_is_400(api: Api, opener: str, closer: str, depth: int) -> None:
    """A body nested deeper than the parser's recursion limit (within the 64 KB a body may
    have) is malformed input, not a 500."""
    api.ready_hand()
    response = _raw(api, "PUT", SEAT_PATH, opener * depth + closer * depth)
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["errors"]["_body"]


def test_json_nested_deeper_than_any_schema_is_400(api: Api) -> None:
    """No request body of the API nests more than a few levels; one nested 100 deep (within
    the parser's limit) is refused before the schema walks it."""
    api.ready_hand()
    body = '{"player": "A", "stack": 5, "x": ' + "[" * 100 + "]" * 100 + "}"
    response = _raw(api, "PUT", SEAT_PATH, body)
    assert response.status_code == 400
    assert "deep" in response.get_json()["errors"]["_body"][0]


@pytest.mark.parametrize(
    "name",
    ["Ann\x7f", "Ann\x00", "\x1b[31mred", "Ann\n", "A\tB", "A\x85", "A\u2028B", "evil\u202egnp"],
)
def test_control_characters_in_a_player_name_are_400(api: Api, name: str) -> None:
    """DEL, NUL, ESC, a (trailing) newline, tab, C1 controls, a line separator or a bidi
    override in a name: refused with a clear 400 naming the field, the table unchanged."""
    api.ready_hand()
    before = _version(api)
    response = api.call("PUT", SEAT_PATH, "dealer", {"player": name, "stack": 50})
    assert response.status_code == 400, response.get_data(as_text=True)
    assert "control characters" in response.get_json()["errors"]["player"][0]
    assert _version(api) == before


@pytest.mark.parametrize("name", ["Zoë", "Ann-Marie O'Neil", "李小龍", "Joker \U0001f0cf", "A B"])
def test_names_in_any_script_are_accepted(api: Api, name: str) -> None:
    """Only controls are refused: letters of any script, spaces, punctuation, emoji pass."""
    api.ready_hand()
    response = api.call("PUT", SEAT_PATH, "dealer", {"player": name, "stack": 50})
    assert response.status_code == 200, response.get_data(as_text=True)


def test_a_control_character_in_a_ruling_note_is_400(api: Api) -> None:
    """A floor call's note may span lines (tab, newline, CR) but holds no other control."""
    api.ready_hand()
    path = "/v1/tables/T1/floor-calls"
    fine = api.call("POST", path, "dealer", {"rule_id": "BET-01", "note": "two\nlines\tok"})
    assert fine.status_code == 201, fine.get_data(as_text=True)
    refused = api.call("POST", path, "dealer", {"rule_id": "BET-01", "note": "bell\x07"})
    assert refused.status_code == 400
    assert "note" in refused.get_json()["errors"]
