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


# every query parameter that names a table, on each route that reads one
TABLE_ID_QUERIES = [
    ("/v1/audit/events", "auditor"),
    ("/v1/audit/hands", "auditor"),
    ("/v1/audit/verify", "auditor"),
    ("/v1/audit/collections", "auditor"),
    ("/v1/floor/calls", "floor"),
]


@pytest.mark.parametrize(("path", "who"), TABLE_ID_QUERIES)
def test_a_table_id_query_with_a_trailing_newline_is_400(api: Api, path: str, who: str) -> None:
    """``table_id=T1%0A`` is no table ID: ``^...$`` matched it (``re.match``), and the
    collection report answered 200 for a table that cannot exist. Each route refuses it."""
    response = api.call("GET", f"{path}?table_id=T1%0A", who)
    assert response.status_code == 400, (path, response.get_data(as_text=True)[:300])
    assert response.mimetype == "application/problem+json"
    assert "table_id" in response.get_json()["errors"]


@pytest.mark.parametrize(
    ("path", "who"),
    [*TABLE_ID_QUERIES, ("/v1/rulings/options?rule_id=BET-01", "dealer")],
)
def test_a_query_parameter_given_twice_is_400(api: Api, path: str, who: str) -> None:
    """``table_id=T1&table_id=T2``: the app read the first, a proxy or a log reader may read
    the last; the request is refused naming the parameter, on every route with a query."""
    name = "rule_id" if "rule_id" in path else "table_id"
    value = "BET-01" if name == "rule_id" else "T1"
    separator = "&" if "?" in path else "?"
    response = api.call("GET", f"{path}{separator}{name}={value}&{name}={value}", who)
    assert response.status_code == 400, (path, response.get_data(as_text=True)[:300])
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["errors"] == {name: ["given more than once"]}


def test_a_scoped_token_naming_its_table_twice_with_another_is_400_and_sees_nothing(
    api: Api,
) -> None:
    """A T1 auditor sending ``table_id=T1&table_id=T2`` gets a 400, not T1's answer under a
    request that also named T2 (nor T2's)."""
    api.ready_hand()
    response = api.call("GET", "/v1/audit/hands?table_id=T1&table_id=T2", "auditor@T1")
    assert response.status_code == 400
    assert "hands" not in response.get_json()


@pytest.mark.parametrize(
    ("path", "who"),
    [
        ("/v1/audit/checkpoints?table_id=T2", "auditor"),
        ("/v1/audit/alerts?table_id=T2", "floor"),
        ("/v1/audit/tables?table_id=T2", "auditor"),
        ("/v1/audit/hands/T1/1/replay?format=phh", "auditor"),
        ("/v1/floor/tables?table_id=T2", "floor"),
        ("/v1/floor/calls/abc?full=1", "floor"),
        ("/v1/audit/verifications/abc?wait=1", "auditor"),
        ("/v1/tables/T1?version=3", "dealer"),
        ("/v1/tables/T1/hands/1?format=phh", "dealer"),
        ("/v1/profiles/casino-five-card-draw?section=kill", "dealer"),
    ],
)
def test_a_query_parameter_a_route_does_not_read_is_400(api: Api, path: str, who: str) -> None:
    """These routes read no query string: a filter they do not have was ignored and every
    table the token sees was answered (a checkpoint download "for T2" held them all); now it
    is a 400 naming the parameter, after the token is checked."""
    response = api.call("GET", path, who)
    assert response.status_code == 400, (path, response.get_data(as_text=True)[:300])
    assert response.mimetype == "application/problem+json"
    name = path.partition("?")[2].partition("=")[0]
    assert list(response.get_json()["errors"]) == [name]
    assert api.call("GET", path, None).status_code == 401


@pytest.mark.parametrize(
    ("path", "body", "who"),
    [
        (SEAT_PATH, '{"player": "Ann", "player": "Bob", "stack": 50}', "dealer"),
        (
            "/v1/tables/T1/actions",
            '{"seat": 2, "action": "post", "effects": {"a": 1, "a": 2}}',
            "dealer",
        ),
        ("/v1/audit/verifications", '{"table_id": "T1", "table_id": "T2"}', "auditor@T1"),
    ],
)
def test_a_key_given_twice_in_a_body_is_400_and_changes_nothing(
    api: Api, path: str, body: str, who: str
) -> None:
    """The parser kept the last of two equal keys (Bob was seated, the T1 auditor's job named
    T2); a proxy may keep the first. Refused at any depth, naming the key."""
    api.ready_hand()
    before = _version(api)
    response = _raw(api, "PUT" if path == SEAT_PATH else "POST", path, body, who)
    assert response.status_code == 400, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert "given twice" in response.get_json()["errors"]["_body"][0]
    assert _version(api) == before
