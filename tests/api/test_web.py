"""The browser pages (dealerassist/web): served as HTML with a strict CSP, their scripts and
styles from this origin only, every /v1 route the scripts call served by the app, and none
of it in /openapi.json."""

from __future__ import annotations

import fnmatch
import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from marshmallow import Schema
from marshmallow.validate import OneOf
from werkzeug.exceptions import HTTPException
from werkzeug.test import TestResponse

from api.conftest import Api
from dealerassist.api.schemas import (
    ActionSchema,
    AuditEventsQuerySchema,
    AuditHandQuerySchema,
    CreateTableSchema,
    SeatChangeSchema,
    StakesSchema,
)
from dealerassist.rules.hand.pots import build_pots, hand_pots, return_uncalled
from dealerassist.rules.model.actions import Mode, Structure, Variant
from dealerassist.rules.model.ruling_commands import EffectKind
from dealerassist.rules.model.state import HandState, Phase, PlayerState
from dealerassist.rules.table.posting import POST_OPTIONS
from dealerassist.service.ports import Services
from dealerassist.web import pages

WEB = Path(pages.__file__).parent
STATIC = WEB / "static"
PAGES = ("/tablet", "/floor", "/audit", "/admin")
ROUTE = re.compile(r'(\w+):\s*\[\s*"(GET|POST|PUT|DELETE|PATCH)"\s*,\s*"(/v1/[^"]*)"\s*\]')
CALLED = re.compile(r'\b(?:call|change)\(\s*"(\w+)"')
SAMPLE = {
    "table_id": "T1",
    "seat": "3",
    "hand_no": "1",
    "profile_id": "casino-five-card-draw",
    "verification_id": "0" * 32,
    "call_id": "0123abcd",
    "employee_id": "E1",
    "tablet_id": "t-0a1b2c3d",
}


def _routes() -> dict[str, tuple[str, str]]:
    """ROUTES of static/api.js: name -> (method, path template)."""
    text = (STATIC / "api.js").read_text()
    return {name: (method, path) for name, method, path in ROUTE.findall(text)}


def _get(api: Api, path: str) -> TestResponse:
    """GET without a token; the body is read and the file behind it closed."""
    response = api.call("GET", path, None)
    response.get_data()
    response.close()
    return response


def _scripts() -> list[Path]:
    return sorted(STATIC.glob("*.js"))


@pytest.mark.parametrize("page", PAGES)
def test_each_page_is_html_with_a_strict_policy(api: Api, page: str) -> None:
    """200 text/html, no token needed, a CSP of 'self' only, nosniff and no referrer."""
    response = api.call("GET", page, None)
    assert response.status_code == 200 and response.mimetype == "text/html"
    policy = response.headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    for name in ("script-src", "style-src", "connect-src"):
        assert directives[name] == "'self'", name
    assert directives["default-src"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


@pytest.mark.parametrize("page", PAGES)
def test_pages_have_no_inline_script_or_style_and_no_external_asset(api: Api, page: str) -> None:
    """Every script has a src on this origin (the CSP would block inline code), no style
    attribute or element, no http(s) URL; each asset the page names is served."""
    html = api.call("GET", page, None).get_data(as_text=True)
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S)
    assert scripts, "a page without its script"
    for attributes, body in scripts:
        assert 'src="/' in attributes and not body.strip()
    assert "<style" not in html and " style=" not in html
    assert "http://" not in html and "https://" not in html
    assets = re.findall(r'(?:src|href)="(/web/static/[^"]+)"', html)
    assert any(a.endswith(".css") for a in assets) and any(a.endswith(".js") for a in assets)
    for asset in assets:
        assert _get(api, asset).status_code == 200, asset


def test_the_root_opens_the_tablet(api: Api) -> None:
    response = api.call("GET", "/", None)
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/tablet")


@pytest.mark.parametrize("script", [p.name for p in sorted(STATIC.glob("*.js"))])
def test_scripts_are_served_as_javascript_with_the_headers(api: Api, script: str) -> None:
    """ES modules load only when served as JavaScript; the security headers come along."""
    response = _get(api, f"/web/static/{script}")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "Content-Security-Policy" in response.headers


def test_the_stylesheet_is_css(api: Api) -> None:
    response = _get(api, "/web/static/web.css")
    assert response.status_code == 200 and response.mimetype == "text/css"


def test_static_files_are_self_contained() -> None:
    """No CDN, remote font or import from another origin in any script or stylesheet."""
    for path in STATIC.iterdir():
        text = path.read_text()
        assert "http://" not in text and "https://" not in text, path.name
        assert "@import" not in text and "eval(" not in text, path.name
        for imported in re.findall(r'from\s+"([^"]+)"', text):
            assert imported.startswith("./") and (STATIC / imported[2:]).is_file(), imported


@pytest.mark.parametrize("script", [p.name for p in sorted(STATIC.glob("*.js"))])
def test_scripts_parse_as_es_modules(script: str, tmp_path: Path) -> None:
    """A syntax error would leave a page blank on the tablet: node parses each module."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed; the modules' syntax is not checked")
    copy = tmp_path / (Path(script).stem + ".mjs")
    copy.write_text((STATIC / script).read_text())
    checked = subprocess.run([node, "--check", str(copy)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_every_v1_route_the_scripts_call_is_served_with_its_method(app: Flask) -> None:
    """Each ROUTES entry of api.js matches an API endpoint of the URL map, with its method."""
    routes = _routes()
    assert len(routes) >= 10 and "action" in routes and "auditVerify" in routes
    adapter = app.url_map.bind("localhost")
    for name, (method, template) in routes.items():
        concrete = re.sub(r"\{(\w+)\}", lambda m: SAMPLE[m.group(1)], template)
        try:
            endpoint, _ = adapter.match(concrete, method=method)
        except HTTPException as error:  # pragma: no cover - the failure message
            raise AssertionError(f"{name}: {method} {concrete} -> {error}") from error
        assert not str(endpoint).startswith("web."), name


def test_the_scripts_name_v1_paths_only_in_api_js() -> None:
    """Every /v1 path lives in ROUTES (so the test above sees all of them), and every
    route a page calls by name is one of ROUTES."""
    routes = _routes()
    for script in _scripts():
        text = script.read_text()
        if script.name != "api.js":
            assert "/v1" not in text, script.name
        for name in CALLED.findall(text):
            assert name in routes, f"{script.name} calls unknown route {name!r}"
    api_js = (STATIC / "api.js").read_text()
    assert api_js.count('"/v1/') == len(routes)


def test_the_pages_are_not_in_the_spec(api: Api) -> None:
    spec = api.call("GET", "/openapi.json", None).get_json()
    for path in spec["paths"]:
        assert not path.startswith((*PAGES, "/web")), path
        assert path != "/"


def test_page_errors_stay_problem_documents(api: Api) -> None:
    """A missing static file is a 404 and a POST to a page a 405, both problem+json."""
    missing = api.call("GET", "/web/static/nope.js", None)
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"
    wrong = api.call("POST", "/tablet", None)
    assert wrong.status_code == 405 and wrong.mimetype == "application/problem+json"
    assert "GET" in wrong.headers["Allow"]


def test_the_package_data_ships_every_template_and_static_file() -> None:
    """pyproject's package-data globs cover each file of web/ that is not Python, so a
    non-editable install has the pages."""
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    globs = pyproject["tool"]["setuptools"]["package-data"]["dealerassist"]
    package = WEB.parent
    files = [p for p in WEB.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")]
    assert any(p.suffix == ".html" for p in files) and any(p.suffix == ".js" for p in files)
    for path in files:
        relative = path.relative_to(package).as_posix()
        assert any(fnmatch.fnmatch(relative, g) and relative.count("/") == g.count("/")
                   for g in globs), relative  # fmt: skip


def test_the_floor_console_offers_exactly_the_api_s_effects() -> None:
    """The console's effect editor names each ruling effect the API accepts, and no other."""
    text = (STATIC / "floor.js").read_text()
    block = text[text.index("const EFFECTS = {") : text.index("};", text.index("const EFFECTS"))]
    offered = set(re.findall(r"^\s*(\w+): \{ label:", block, re.M))
    accepted = {kind.value for kind in EffectKind}
    assert offered == accepted


def test_the_floor_console_rules_through_the_ruling_route(app: Flask) -> None:
    """The ruling route of api.js is the floor's POST .../rulings endpoint."""
    method, template = _routes()["ruling"]
    concrete = template.replace("{table_id}", "T1")
    endpoint, _ = app.url_map.bind("localhost").match(concrete, method=method)
    assert (method, endpoint) == ("POST", "rulings.issue_ruling")
    assert 'call("ruling"' in (STATIC / "floor.js").read_text()


def _floor_award(tmp_path: Path, views: list[Any], forms: list[dict[str, Any]]) -> Any:
    """awardPots of floor.js (the rows of an award pot by pot) for each table view, and
    awardBody for each form as filled in ({"split", "seats", "pots"})."""
    values = json.dumps([views, forms])
    expression = f"(([vs, fs]) => [vs.map(awardPots), fs.map(awardBody)])({values})"
    return _node_json(tmp_path, "floor.js", "awardPots, awardBody", expression)


def _engine_pots(services: Services) -> list[dict[str, Any]]:
    """The pots the engine's award checks the floor's list against: hand_pots after the
    uncalled bet went back."""
    hand = services.tables.load("T1").state.hand
    if hand is None or hand.phase is Phase.COMPLETE:
        return []
    pots = hand_pots(return_uncalled(hand))
    return [{"amount": pot.amount, "eligible": list(pot.eligible)} for pot in pots]


def _short_stack_hand(api: Api) -> None:
    """Three players, seat 1 with 5 chips; the button on seat 1, blinds posted by seats 2
    and 3 (fixed limit 1/2)."""
    assert api.create_table(table_id="T1").status_code == 201
    for seat, stack in ((1, 5), (2, 100), (3, 100)):
        assert api.seat("T1", seat, f"P{seat}", stack).status_code == 200
    assert api.start("T1").status_code == 200
    for seat in (2, 3):
        assert api.act("T1", seat=seat, action="post").status_code == 200


SIDE_POT_ACTIONS = [
    {"seat": 1, "action": "raise", "amount": 4},
    {"seat": 2, "action": "call"},
    {"seat": 3, "action": "raise", "amount": 6},
    {"seat": 1, "action": "call"},  # all in for 5: seat 3's 6 is not matched yet
    {"seat": 2, "action": "call"},
]


def test_SHOW_07_the_floor_page_builds_the_pots_as_the_engine_does(
    api: Api, services: Services, tmp_path: Path
) -> None:
    """On every view of a hand with a seat all in, a seat folded with chips in and an uncalled
    bet, the pots floor.js shows are the engine's hand_pots after the uncalled bet goes back
    (main pot first, each with its eligible seats); dead money beyond the players'
    commitments is in the main pot, as build_pots puts it; between hands there are none."""
    assert api.create_table(table_id="T1").status_code == 201
    for seat, stack in ((1, 5), (2, 100), (3, 100), (4, 100)):
        assert api.seat("T1", seat, f"P{seat}", stack).status_code == 200
    assert api.start("T1").status_code == 200
    views, expected = [], []
    actions = [{"seat": 2, "action": "post"}, {"seat": 3, "action": "post"},
               {"seat": 4, "action": "call"}, {"seat": 1, "action": "raise", "amount": 4},
               {"seat": 2, "action": "fold"}, {"seat": 3, "action": "raise", "amount": 6},
               {"seat": 4, "action": "call"}, {"seat": 1, "action": "call"},
               {"seat": 3, "action": "draw", "count": 1}, {"seat": 4, "action": "draw", "count": 0},
               {"seat": 1, "action": "draw", "count": 2}, {"seat": 3, "action": "bet"},
               {"seat": 4, "action": "fold"}]  # fmt: skip
    for action in actions:
        answer = api.act("T1", **action)
        assert answer.status_code == 200, (action, answer.get_json())
        views.append(api.call("GET", "/v1/tables/T1", "floor").get_json())
        expected.append(_engine_pots(services))
    players = [(1, 20, False), (2, 20, False), (3, 10, True)]
    dead = {"hand": {"phase": "draw_1", "total_pot": 55, "players": [
        {"seat": seat, "committed": chips, "bet": 0, "folded": folded}
        for seat, chips, folded in players]}}  # fmt: skip
    built = build_pots({1: 20, 2: 20, 3: 10}, [1, 2], dead=5)
    views.append(dead)
    expected.append([{"amount": pot.amount, "eligible": list(pot.eligible)} for pot in built])
    over = {**views[-1], "hand": {**views[-1]["hand"], "phase": "complete"}}
    views.append(over)
    expected.append([])
    shown, _ = _floor_award(tmp_path, views, [])
    assert shown == expected
    assert expected[7] == [{"amount": 16, "eligible": [3, 4, 1]}, {"amount": 2, "eligible": [3, 4]}]
    assert expected[11] == [
        {"amount": 16, "eligible": [3, 4, 1]},
        {"amount": 2, "eligible": [3, 4]},
    ]
    assert expected[-2] == [{"amount": 55, "eligible": [1, 2]}]


def test_SHOW_07_the_floor_page_returns_killed_hands_chips_no_live_hand_matched(
    api: Api, services: Services, tmp_path: Path
) -> None:
    """Seat 1 all in for 3 and seat 4 for 5; seats 2 and 3 in for 6 each are killed after the
    draw (IRREG-13): the 1 each of theirs over seat 4's 5 no live hand matched goes back
    (pots.unmatched), so floor.js shows the engine's main pot of 12 (seats 4, 1) and side pot
    of 6 (seat 4), not a side pot of 8 with the dead hands' excess in it, on every view; the
    floor's award pot by pot is accepted with exactly those pots and the 2 goes back."""
    assert api.create_table(table_id="T1").status_code == 201
    for seat, stack in ((1, 3), (2, 100), (3, 100), (4, 5)):
        assert api.seat("T1", seat, f"P{seat}", stack).status_code == 200
    assert api.start("T1").status_code == 200
    actions = [{"seat": 2, "action": "post"}, {"seat": 3, "action": "post"},
               {"seat": 4, "action": "raise", "amount": 4}, {"seat": 1, "action": "call"},
               {"seat": 2, "action": "call"}, {"seat": 3, "action": "raise", "amount": 6},
               {"seat": 4, "action": "call"}, {"seat": 2, "action": "call"},
               *({"seat": s, "action": "draw", "count": 1} for s in (2, 3, 4, 1))]  # fmt: skip
    views, expected = [], []
    for action in actions:
        answer = api.act("T1", **action)
        assert answer.status_code == 200, (action, answer.get_json())
        views.append(api.call("GET", "/v1/tables/T1", "floor").get_json())
        expected.append(_engine_pots(services))
    for seat in (2, 3):
        ruling = {"decision": "thrown_dead", "rule_id": "IRREG-13", "note": f"seat {seat} mucked",
                  "effects": [{"effect": "kill_hand", "seat": seat}]}  # fmt: skip
        answer = api.call("POST", "/v1/tables/T1/rulings", "floor", ruling)
        assert answer.status_code == 200, answer.get_json()
        views.append(api.call("GET", "/v1/tables/T1", "floor").get_json())
        expected.append(_engine_pots(services))
    hand = views[-1]["hand"]
    assert hand["phase"] != "complete" and hand["total_pot"] == 20
    committed = {p["seat"]: (p["committed"], p["folded"]) for p in hand["players"]}
    assert committed == {1: (3, False), 2: (6, True), 3: (6, True), 4: (5, False)}
    shown, _ = _floor_award(tmp_path, views, [])
    assert shown == expected
    assert shown[-1] == [{"amount": 12, "eligible": [4, 1]}, {"amount": 6, "eligible": [4]}]
    award = {"decision": "custom", "note": "floor split the pots",
             "effects": [{"effect": "award", "pots": [[1], [4]]}]}  # fmt: skip
    answer = api.call("POST", "/v1/tables/T1/rulings", "floor", award)
    assert answer.status_code == 200, answer.get_json()
    result = answer.get_json()["result"]
    pots = [{"amount": p["amount"], "eligible": p["eligible"]} for p in result["pots"]]
    assert pots == shown[-1]
    assert result["returned"] == {"2": 1, "3": 1}


KILLED_IN_A_ROUND = [  # (seat, committed, bet, folded): hands killed with bets in the round
    [(1, 3, 0, False), (4, 9, 4, False), (2, 11, 6, True), (3, 13, 8, True)],
    [(1, 3, 0, False), (4, 15, 10, False), (2, 13, 8, True), (3, 17, 12, True)],
    [(1, 3, 0, True), (4, 5, 0, True), (2, 11, 6, True), (3, 7, 2, False)],
]


def test_SHOW_07_the_floor_page_returns_killed_hands_excess_before_an_uncalled_bet(
    tmp_path: Path,
) -> None:
    """With bets in the round, the engine gives back the dead hands' unmatched chips (their
    bets first), then the part of the highest bet nobody called: floor.js builds the same pots
    as hand_pots(return_uncalled(hand)) for each hand, a live all-in, a live raiser and
    killed seats above them among them."""
    views, expected = [], []
    for players in KILLED_IN_A_ROUND:
        states = tuple(
            PlayerState(seat, 50, committed=chips, bet=bet, folded=folded)
            for seat, chips, bet, folded in players
        )
        hand = HandState(1, Phase.BETTING_2, 1, states)
        rows = [{"seat": s, "committed": c, "bet": b, "folded": f} for s, c, b, f in players]
        views.append({"hand": {"phase": "betting_2", "total_pot": hand.pot, "players": rows}})
        pots = hand_pots(return_uncalled(hand))
        expected.append([{"amount": pot.amount, "eligible": list(pot.eligible)} for pot in pots])
    shown, _ = _floor_award(tmp_path, views, [])
    assert shown == expected
    assert expected[0] == [{"amount": 12, "eligible": [1, 4]}, {"amount": 18, "eligible": [4]}]
    assert expected[1] == [{"amount": 12, "eligible": [1, 4]}, {"amount": 34, "eligible": [4]}]


def test_SHOW_07_the_floor_page_awards_pot_by_pot_and_the_api_accepts_it(
    api: Api, tmp_path: Path
) -> None:
    """With seat 1 all in for 5, the floor page shows a main pot of 15 (seats 2, 3, 1, in
    the hand's order) and a side pot of 2 (seats 2, 3); pot by pot with seat 1 ticked for the
    main pot and seat 3 for the side pot it builds {"pots": [[1], [3]]}, which the API accepts
    with one result entry per pot, each by_ruling; "all pots to" still builds the seats as
    typed."""
    _short_stack_hand(api)
    for action in SIDE_POT_ACTIONS:
        assert api.act("T1", **action).status_code == 200, action
    view = api.call("GET", "/v1/tables/T1", "floor").get_json()
    forms = [{"split": "pots", "pots": [["1"], ["3"]]}, {"split": "all", "seats": " 2, 3 "}]
    (rows,), (by_pot, all_to) = _floor_award(tmp_path, [view], forms)
    assert rows == [{"amount": 15, "eligible": [2, 3, 1]}, {"amount": 2, "eligible": [2, 3]}]
    assert by_pot == {"effect": "award", "pots": [[1], [3]]}
    assert all_to == {"effect": "award", "seats": [2, 3]}
    ruling = {"decision": "custom", "note": "floor split the pots", "effects": [by_pot]}
    answer = api.call("POST", "/v1/tables/T1/rulings", "floor", ruling)
    assert answer.status_code == 200, answer.get_json()
    pots = answer.get_json()["result"]["pots"]
    assert len(pots) == len(rows) and all(pot["by_ruling"] for pot in pots)
    assert [(p["amount"], p["eligible"], p["winners"]) for p in pots] == [
        (15, [2, 3, 1], [1]), (2, [2, 3], [3])
    ]  # fmt: skip


def test_SHOW_07_a_pot_by_pot_award_refused_shows_its_rule_and_the_pots(
    api: Api, tmp_path: Path
) -> None:
    """The rows are the pots as the hand stands: a ruling that kills seat 3's hand first and
    then gives it the side pot it ticked is a 409 SHOW-07 whose rule ID and message the
    floor page's problem banner shows, with the pots (amount, eligible seats) as the
    refusal lists them."""
    _short_stack_hand(api)
    for action in SIDE_POT_ACTIONS:
        assert api.act("T1", **action).status_code == 200, action
    view = api.call("GET", "/v1/tables/T1", "floor").get_json()
    _, (by_pot,) = _floor_award(tmp_path, [view], [{"split": "pots", "pots": [["1"], ["3"]]}])
    effects = [{"effect": "kill_hand", "seat": 3}, by_pot]
    ruling = {"decision": "custom", "note": "seat 3 fouled; pots ruled", "effects": effects}
    refused = api.call("POST", "/v1/tables/T1/rulings", "floor", ruling)
    assert refused.status_code == 409 and refused.mimetype == "application/problem+json"
    problem = refused.get_json()
    assert problem["rule_id"] == "SHOW-07"
    assert "Seat 3 cannot share side pot 1" in problem["detail"], problem
    listed = _node_json(
        tmp_path, "ui.js", "describeAction", f"{json.dumps(problem['allowed'])}.map(describeAction)"
    )
    assert listed == ["the main pot 15 (seats 2, 1)", "side pot 1 2 (seats 2)"]
    ui = (STATIC / "ui.js").read_text()
    assert "problem.rule_id" in ui and "problem.detail" in ui and "describeAction(a)" in ui
    assert "showProblem(answer.problem, answer.status);" in (STATIC / "floor.js").read_text()
    after = api.call("GET", "/v1/tables/T1", "floor").get_json()
    assert after["version"] == view["version"]


def test_the_tablet_offers_exactly_the_api_s_seat_changes(api: Api) -> None:
    """The tablet's seat changes (SEAT_CHANGES of tablet.js and the panel's buttons) are the
    "change" kinds SeatChangeSchema accepts, all of them, and the body fields they send are
    the schema's fields."""
    text = (STATIC / "tablet.js").read_text()
    start = text.index("const SEAT_CHANGES = {")
    block = text[start : text.index("};", start)]
    declared = dict(re.findall(r"^\s*(\w+): \{ fields: \[([^\]]*)\] \}", block, re.M))
    html = _get(api, "/tablet").get_data(as_text=True)
    panel = html[
        html.index('id="changes-panel"') : html.index("</details>", html.index("changes-panel"))
    ]
    buttons = set(re.findall(r'<button type="button"[^>]*data-change="(\w+)"', panel))
    schema = SeatChangeSchema()
    validator = schema.fields["change"].validate
    assert isinstance(validator, OneOf)
    assert set(declared) == set(validator.choices) == buttons
    sent = {field for fields in declared.values() for field in re.findall(r'"(\w+)"', fields)}
    assert sent | {"change"} == set(schema.fields)


def test_BLIND_06_the_tablet_labels_every_post_option_the_engine_offers() -> None:
    """OPTION_LABELS of tablet.js names each post option of the engine (BLIND-05/08 wait,
    BLIND-14 straddle or not, BLIND-06 the big blind alone for the button), no other, and the
    action schema accepts them all."""
    text = (STATIC / "tablet.js").read_text()
    start = text.index("const OPTION_LABELS = {")
    block = text[start : text.index("};", start)]
    labelled = set(re.findall(r"^\s*(\w+): t\(\"[^\"]+\"\),", block, re.M))
    validator = ActionSchema().fields["option"].validate
    assert isinstance(validator, OneOf)
    assert labelled == set(POST_OPTIONS) and labelled <= set(validator.choices)
    assert "big_blind_only" in labelled


def test_the_tablet_changes_seats_through_the_seat_change_route(app: Flask) -> None:
    """The seatChange route of api.js is the dealer's POST .../seats/{seat}/changes, and the
    tablet sends it through change() (If-Match, Idempotency-Key, the 409/412 handling)."""
    method, template = _routes()["seatChange"]
    concrete = re.sub(r"\{(\w+)\}", lambda m: SAMPLE[m.group(1)], template)
    endpoint, _ = app.url_map.bind("localhost").match(concrete, method=method)
    assert (method, endpoint) == ("POST", "tables.change_seat")
    assert 'change("seatChange"' in (STATIC / "tablet.js").read_text()


def test_the_tablet_has_a_kill_by_seat_control_beside_start_hand(api: Api) -> None:
    """The start panel holds a "kill by seat" select (KILL-01), hidden until the table's
    profile is known to have optional kills, before the Start hand button; tablet.js puts
    its seat in the start-hand body as kill_seat and sends it through change()."""
    html = _get(api, "/tablet").get_data(as_text=True)
    start = html[html.index('<div id="start"') : html.index("</div>", html.index('id="start"'))]
    field = re.search(r'<label id="kill-field" hidden>(.*?)</label>', start, re.S)
    assert field is not None and '<select id="start-kill">' in field.group(1)
    assert start.index('id="kill-field"') < start.index('id="start-hand"')
    text = (STATIC / "tablet.js").read_text()
    assert 'kill: $("kill-field").hidden ? "" : $("start-kill").value' in text
    assert "body.kill_seat = Number(kill)" in text
    assert 'change("startHand", { body })' in text


def test_the_tablet_reads_the_kill_mode_through_the_profile_route(app: Flask) -> None:
    """The profile route of api.js is GET /v1/profiles/{profile_id}, which the tablet calls
    with the table's profile to learn its kill.mode."""
    method, template = _routes()["profile"]
    concrete = re.sub(r"\{(\w+)\}", lambda m: SAMPLE[m.group(1)], template)
    endpoint, _ = app.url_map.bind("localhost").match(concrete, method=method)
    assert (method, endpoint) == ("GET", "profiles.get_profile")
    text = (STATIC / "tablet.js").read_text()
    assert 'call("profile", { params: { profile_id: profile } })' in text
    assert "answer.body.kill.mode" in text and "killModes.get(table.profile)" in text


OPTIONAL_KILL_TABLE = {
    "variant": "deuce_to_seven_triple_draw",
    "profile": "casino-triple-draw-27-optional-kill",
}


def _tablet_start(tmp_path: Path, table: object, kill_mode: object, kill: str) -> Any:
    """killSeats and startHandBody of tablet.js for a table view, a kill mode and the seat
    chosen in the select ('' = No kill), the button on seat 1."""
    values = json.dumps([table, kill_mode, {"button": "1", "kill": kill}])
    expression = f"(([t, m, v]) => [killSeats(t, m), startHandBody(v)])({values})"
    return _node_json(tmp_path, "tablet.js", "killSeats, startHandBody", expression)


def test_KILL_01_the_tablet_starts_a_kill_pot_by_the_seat_it_offers(
    api: Api, tmp_path: Path
) -> None:
    """Under a profile with optional kills the tablet offers the active players (not a seat
    sitting out, not an empty one) and the body it builds for the chosen seat starts a kill
    pot by that seat."""
    assert api.create_table(**OPTIONAL_KILL_TABLE).status_code == 201
    for seat in (1, 2, 3, 4):
        assert api.seat("T1", seat, f"P{seat}").status_code == 200
    sit_out = api.call("POST", "/v1/tables/T1/seats/4/changes", "dealer", {"change": "sit_out"})
    assert sit_out.status_code == 200, sit_out.get_json()
    table = api.call("GET", "/v1/tables/T1", "dealer").get_json()
    profile = api.call("GET", f"/v1/profiles/{table['profile']}", "dealer").get_json()
    assert profile["kill"]["mode"] == "optional"
    offered, body = _tablet_start(tmp_path, table, profile["kill"]["mode"], "3")
    assert offered == [["1", "Seat 1 · P1"], ["2", "Seat 2 · P2"], ["3", "Seat 3 · P3"]]
    assert body == {"button": 1, "kill_seat": 3}
    response = api.call("POST", "/v1/tables/T1/hands", "dealer", body)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["hand"]["kill_seat"] == 3
    _, no_kill = _tablet_start(tmp_path, table, "optional", "")
    assert no_kill == {"button": 1}


def test_KILL_01_the_tablet_offers_no_kill_elsewhere_and_shows_the_refusal(
    api: Api, tmp_path: Path
) -> None:
    """Where the profile has no optional kills (off or required) the tablet offers no kill
    seat; a kill_seat sent there anyway is a 409 whose rule ID and message are what the
    tablet's problem banner shows."""
    api.ready_hand()  # casino-five-card-draw: kills off
    table = api.call("GET", "/v1/tables/T1", "dealer").get_json()
    profile = api.call("GET", f"/v1/profiles/{table['profile']}", "dealer").get_json()
    assert profile["kill"]["mode"] == "off"
    for mode in ("off", "required", None):
        offered, _ = _tablet_start(tmp_path, table, mode, "")
        assert offered == [], mode
    api.create_table(table_id="T2")
    api.call("PUT", "/v1/tables/T2/seats/1", "dealer", {"player": "A", "stack": 100})
    api.call("PUT", "/v1/tables/T2/seats/2", "dealer", {"player": "B", "stack": 100})
    _, body = _tablet_start(tmp_path, table, "off", "2")
    refused = api.call("POST", "/v1/tables/T2/hands", "dealer", body)
    assert refused.status_code == 409 and refused.mimetype == "application/problem+json"
    problem = refused.get_json()
    assert problem["rule_id"] == "KILL-01" and problem["detail"]
    ui = (STATIC / "ui.js").read_text()
    assert "problem.rule_id" in ui and "problem.detail" in ui
    assert "showProblem(answer.problem, answer.status);" in (STATIC / "tablet.js").read_text()


def test_the_tablet_has_an_exposed_card_control(api: Api) -> None:
    """The dealer's panel holds an "Exposed card" form (IRREG-03/04), hidden until the view
    offers the entry: a seat select, a rank input (count mode), a card input (card mode) and
    a submit; tablet.js builds the entry with exposedBody and sends it through submit(), the
    action path of every entry (change(): If-Match, Idempotency-Key, the problem banner)."""
    html = _get(api, "/tablet").get_data(as_text=True)
    start = html.index('<details id="exposed-panel" class="exposed" hidden>')
    panel = html[start : html.index("</details>", start)]
    assert start < html.index('<div id="start"')
    for control in ('<select id="exposed-seat">', 'id="exposed-rank"', 'id="exposed-card"'):
        assert control in panel, control
    assert '<label id="exposed-card-field" hidden>' in panel
    assert re.search(r'<button type="submit"[^>]*id="exposed-send"', panel)
    text = (STATIC / "tablet.js").read_text()
    assert "const answer = await submit(body);" in text
    assert 'return change("action", { body: entry });' in text
    assert 'body[mode === "card" ? "cards" : "rank"] = text;' in text


LIMIT_27_TABLE = {"variant": "deuce_to_seven_triple_draw", "profile": "casino-triple-draw-27"}


def _posted_27(api: Api, mode: str) -> dict[str, Any]:
    """A 2-7 triple-draw table (the house keeps 7, 5, 4, 3, 2 exposed) in ``mode``, three
    players, hand 1 started and the blinds posted; its view."""
    assert api.create_table(**LIMIT_27_TABLE, mode=mode).status_code == 201
    for seat in (1, 2, 3):
        assert api.seat("T1", seat, f"P{seat}").status_code == 200
    assert api.start("T1").status_code == 200
    for seat in (2, 3):
        assert api.act("T1", seat=seat, action="post").status_code == 200
    view: dict[str, Any] = api.call("GET", "/v1/tables/T1", "dealer").get_json()
    return view


def _tablet_exposed(tmp_path: Path, table: object, entries: list[dict[str, str]]) -> Any:
    """exposedSeats of tablet.js for a table view, and exposedBody for each entry as typed
    ({"seat", "value"}) in the view's mode."""
    values = json.dumps([table, entries])
    expression = (
        f"(([t, es]) => [exposedSeats(t), es.map((e) => exposedBody(e, t.mode))])({values})"
    )
    return _node_json(tmp_path, "tablet.js", "exposedSeats, exposedBody", expression)


def test_IRREG_03_the_tablet_records_an_exposed_rank_in_count_mode(
    api: Api, tmp_path: Path
) -> None:
    """Count mode: the tablet offers the seats of the view's exposed entry and builds a rank
    entry the API accepts with the house's replace (a 6) and, for a second card, an IRREG-01
    notice (call the floor), which the page shows; a blank rank goes out without one and is
    refused with IRREG-03."""
    table = _posted_27(api, "count")
    assert table["exposed"] == {"action": "exposed", "seats": [2, 3, 1], "keep_ranks": "75432"}
    typed = [{"seat": "1", "value": " 6 "}, {"seat": "2", "value": "7"}, {"seat": "3", "value": ""}]
    offered, (six, seven, blank) = _tablet_exposed(tmp_path, table, typed)
    assert offered == [["2", "Seat 2 · P2"], ["3", "Seat 3 · P3"], ["1", "Seat 1 · P1"]]
    assert six == {"seat": 1, "action": "exposed", "rank": "6"}
    assert blank == {"seat": 3, "action": "exposed"}
    refused = api.act("T1", **blank)
    assert refused.status_code == 409 and refused.mimetype == "application/problem+json"
    assert refused.get_json()["rule_id"] == "IRREG-03" and refused.get_json()["detail"]
    answer = api.act("T1", **six)
    assert answer.status_code == 200, answer.get_json()
    assert [i["code"] for i in answer.get_json()["instructions"]] == ["replace"]
    second = api.act("T1", **seven)
    assert second.status_code == 200, second.get_json()
    assert [n["rule_id"] for n in second.get_json()["notices"]] == ["IRREG-01"]
    text = (STATIC / "tablet.js").read_text()
    assert "const notices = answer.body.notices || [];" in text
    assert "poller.show(answer.body, answer.etag);" in text  # renders its instructions


def test_IRREG_03_the_tablet_records_an_exposed_card_in_card_mode(api: Api, tmp_path: Path) -> None:
    """Card mode: once seat 2's cards are entered the tablet offers seat 2, and the card
    entry it builds is accepted with a keep (a 7) or a replace (a 6); a card not in the
    seat's hand is a 409 whose rule ID (IRREG-03) and message the problem banner shows."""
    _posted_27(api, "card")
    dealt = api.act("T1", seat=2, action="deal", count=5, cards="7h 5d 4c 3s 6h")
    assert dealt.status_code == 200, dealt.get_json()
    table = api.call("GET", "/v1/tables/T1", "dealer").get_json()
    assert table["mode"] == "card"
    typed = [{"seat": "2", "value": "Ah"}, {"seat": "2", "value": "7h"}]
    offered, (ace, seven) = _tablet_exposed(tmp_path, table, typed)
    assert offered == [["2", "Seat 2 · P2"]]
    assert seven == {"seat": 2, "action": "exposed", "cards": "7h"}
    refused = api.act("T1", **ace)
    assert refused.status_code == 409 and refused.mimetype == "application/problem+json"
    problem = refused.get_json()
    assert problem["rule_id"] == "IRREG-03" and "not in seat 2's hand" in problem["detail"]
    answer = api.act("T1", **seven)
    assert answer.status_code == 200, answer.get_json()
    assert [i["code"] for i in answer.get_json()["instructions"]] == ["keep"]
    ui = (STATIC / "ui.js").read_text()
    assert "problem.rule_id" in ui and "problem.detail" in ui
    assert "showProblem(answer.problem, answer.status);" in (STATIC / "tablet.js").read_text()


def test_the_tablet_offers_an_exposed_card_in_a_draw_for_the_seats_served(
    api: Api, tmp_path: Path
) -> None:
    """In a draw the tablet offers the seat just dealt, the one the view's ``exposed_draw``
    names (IRREG-04): none before the first card of the draw, still that seat after the draw
    until the next action, and nothing once the hand is over."""
    table = _posted_27(api, "count")
    for seat, action in ((1, "call"), (2, "call"), (3, "check")):
        assert api.act("T1", seat=seat, action=action).status_code == 200
    before = api.call("GET", "/v1/tables/T1", "dealer").get_json()
    assert before["hand"]["phase"] == "draw_1" and before["exposed"] is None
    assert api.act("T1", seat=2, action="draw", count=2).status_code == 200
    assert api.act("T1", seat=3, action="draw", count=0).status_code == 200
    during = api.call("GET", "/v1/tables/T1", "dealer").get_json()
    assert during["hand"]["phase"] == "draw_1" and during["exposed_draw"]["seat"] == 2
    assert api.act("T1", seat=1, action="draw", count=1).status_code == 200
    after = api.call("GET", "/v1/tables/T1", "dealer").get_json()
    assert after["hand"]["phase"] == "betting_2" and after["exposed_draw"]["seat"] == 1
    over = {**table, "hand": {**table["hand"], "phase": "complete"}, "exposed": None}
    views = (before, during, after, over)
    offered = [_tablet_exposed(tmp_path, view, [])[0] for view in views]
    assert offered == [[], [["2", "Seat 2 · P2"]], [["1", "Seat 1 · P1"]], []]


@pytest.mark.parametrize(
    ("form", "schema"),
    [("events-form", AuditEventsQuerySchema), ("hand-form", AuditHandQuerySchema)],
)
def test_the_audit_page_offers_the_export_formats_the_api_accepts(
    api: Api, form: str, schema: type[Schema]
) -> None:
    """Each download button of a form names a format of its query schema, and all of them."""
    html = _get(api, "/audit").get_data(as_text=True)
    body = html[html.index(f'id="{form}"') : html.index("</form>", html.index(f'id="{form}"'))]
    offered = set(re.findall(r'<button type="submit"[^>]*value="(\w+)"', body))
    validator = schema().fields["format"].validate
    assert isinstance(validator, OneOf)
    assert offered == set(validator.choices)


def test_the_audit_exports_are_fetched_with_the_token_and_saved_as_blobs() -> None:
    """The exports need the bearer header: fetched through the audit routes and saved from a
    Blob, never opened as a URL (which would carry no token)."""
    text = (STATIC / "audit.js").read_text()
    assert 'download("auditEvents"' in text and 'download("auditHand"' in text
    assert "raw: true" in text and "createObjectURL" in text
    assert "window.open" not in text and "location" not in text


def test_the_audit_page_calls_the_verification_routes_by_their_api_js_names() -> None:
    """audit.js starts a job and reads it through api.js's names for the two job routes (the
    route check above holds api.js's paths to the app's URL map)."""
    text = (STATIC / "audit.js").read_text()
    assert (
        'START_ROUTE = "auditVerifications"' in text and 'JOB_ROUTE = "auditVerification"' in text
    )
    assert "call(START_ROUTE" in text and "call(JOB_ROUTE" in text
    routes = _routes()
    assert routes["auditVerifications"] == ("POST", "/v1/audit/verifications")
    assert routes["auditVerification"] == ("GET", "/v1/audit/verifications/{verification_id}")


def _poll(tmp_path: Path, answers: list[dict[str, Any]]) -> Any:
    """pollVerification of audit.js over scripted answers: the end, the statuses it heard,
    the sleeps between polls and the IDs it asked for."""
    script = f"""await (async () => {{
      const answers = {json.dumps(answers)};
      const heard = [], slept = [], asked = [];
      const end = await pollVerification("j1", {{
        fetchJob: async (id) => {{ asked.push(id); return answers.shift(); }},
        sleep: async (ms) => {{ slept.push(ms); }},
        onStatus: (job) => heard.push(job.status),
      }});
      return {{ end, heard, slept, asked, left: answers.length }};
    }})()"""
    return _node_json(tmp_path, "audit.js", "pollVerification", script)


def _job(status: str, **extra: Any) -> dict[str, Any]:
    return {"ok": True, "status": 200, "body": {"id": "j1", "status": status, **extra}}


def test_the_audit_page_polls_a_verification_until_it_ends(tmp_path: Path) -> None:
    """Queued, running, a poll nobody answered (503, retried), running, finished: the page
    hears queued and running, waits a poll interval between polls and ends with the report."""
    report = {"ok": True, "events": 9, "hands": 1, "problems": []}
    unanswered = {"ok": False, "status": 503, "problem": {"title": "Service unavailable"}}
    answers = [_job("queued"), _job("running"), unanswered, _job("running")]
    polled = _poll(tmp_path, [*answers, _job("finished", result=report)])
    assert polled["end"] == {
        "ok": True,
        "job": {"id": "j1", "status": "finished", "result": report},
    }
    assert polled["heard"] == ["queued", "running", "running"]
    assert polled["slept"] == [1000, 1000, 1000, 1000] and polled["asked"] == ["j1"] * 5


def test_the_audit_page_stops_polling_on_a_refusal_or_a_failure(tmp_path: Path) -> None:
    """A 404 (the job expired) stops the polling at once with that answer; a failed job ends
    it with the job; six unanswered polls in a row give up."""
    gone = {"ok": False, "status": 404, "problem": {"title": "Not found"}}
    expired = _poll(tmp_path, [_job("running"), gone, _job("finished")])
    assert expired["end"] == {"ok": False, "answer": gone} and expired["left"] == 1
    failed = _poll(tmp_path, [_job("failed", error="Unavailable: store down")])
    assert failed["end"]["job"]["error"] == "Unavailable: store down" and failed["heard"] == []
    down = {"ok": False, "status": 0, "problem": {"title": "The service cannot be reached"}}
    gave_up = _poll(tmp_path, [down] * 7)
    assert gave_up["end"] == {"ok": False, "answer": down} and gave_up["left"] == 1


def test_the_audit_page_says_what_a_job_is_doing(tmp_path: Path) -> None:
    """Queued and running read differently, with the seconds waited once there are any."""
    said = _node_json(
        tmp_path,
        "audit.js",
        "jobMessage",
        '[jobMessage({status: "queued"}, 0.2), jobMessage({status: "running"}, 12.7)]',
    )
    assert said[0].startswith("Verification queued") and "(" not in said[0]
    assert said[1].startswith("Verifying") and said[1].endswith("(12 s)")


def test_the_token_stays_out_of_urls(api: Api) -> None:
    """The token is kept in sessionStorage and sent only as the Authorization header; the
    login inputs have no name, so even a form submitted without its script (GET to the
    page) puts nothing in the address. Only a registered tablet keeps anything across tabs
    (shift.js, in localStorage: its device credential and the dealer's shift session, which
    must survive a reload and a new tab, issue 18), and sends them only as the header too.
    i18n.js keeps the device's language, and nothing else, in a cookie and localStorage."""
    api_js = (STATIC / "api.js").read_text()
    assert "sessionStorage" in api_js
    assert "Authorization = `Bearer ${session.token}`" in api_js
    for script in _scripts():
        text = script.read_text()
        if script.name == "i18n.js":
            assert "token" not in text.lower() and "session" not in text, script.name
            assert "document.cookie = `${COOKIE}=${lang};" in text
            assert "localStorage.setItem(STORE_KEY, lang)" in text
            continue
        assert "document.cookie" not in text, script.name
        assert ("localStorage" in text) == (script.name == "shift.js"), script.name
    shift_js = (STATIC / "shift.js").read_text()
    assert "Authorization: `Bearer ${shiftStore.credential}`" in shift_js
    assert "location.href" not in shift_js and "?token" not in shift_js
    for page in PAGES:
        html = _get(api, page).get_data(as_text=True)
        login = html[
            html.index('id="login-form"') : html.index("</form>", html.index("login-form"))
        ]
        assert 'id="login-token"' in login and 'type="password"' in login
        assert " name=" not in login, page


def test_every_page_links_every_other(api: Api) -> None:
    """The pages' navigation names each page, the admin page included."""
    for page in PAGES:
        html = _get(api, page).get_data(as_text=True)
        nav = html[html.index("<nav>") : html.index("</nav>")]
        assert set(re.findall(r'<a href="([^"]+)"', nav)) == set(PAGES), page


def _admin_html(api: Api) -> str:
    html = _get(api, "/admin").get_data(as_text=True)
    return html[html.index('id="create-form"') : html.index("</form>", html.index("create-form"))]


def _one_of(field: str) -> set[str]:
    validator = CreateTableSchema().fields[field].validate
    assert isinstance(validator, OneOf)
    return {str(choice) for choice in validator.choices}


def _admin_stakes() -> dict[str, set[str]]:
    """STAKES of admin.js: structure -> the stakes fields the page shows and sends."""
    text = (STATIC / "admin.js").read_text()
    start = text.index("export const STAKES = {")
    block = text[start : text.index("};", start)]
    found = re.findall(r"^\s*(\w+): \[([^\]]*)\]", block, re.M)
    return {name: set(re.findall(r'"(\w+)"', fields)) for name, fields in found}


@pytest.mark.parametrize(
    ("field", "enum"), [("variant", Variant), ("structure", Structure), ("mode", Mode)]
)
def test_the_admin_page_offers_exactly_the_api_s_choices(
    api: Api, field: str, enum: type[Variant | Structure | Mode]
) -> None:
    """Each select of the create-table form offers the values CreateTableSchema accepts for
    its field, all of them and no other (and those are the rules' enum)."""
    form = _admin_html(api)
    start = form.index(f'<select id="{field}" data-field="{field}"')
    select = form[start : form.index("</select>", start)]
    offered = set(re.findall(r'<option value="(\w+)"', select))
    assert offered == _one_of(field) == {str(member) for member in enum}


def test_the_admin_page_sends_the_create_table_schema_s_fields(api: Api) -> None:
    """The form's fields are CreateTableSchema's, its stake inputs StakesSchema's; STAKES of
    admin.js names a stake list for each structure the API accepts, every stake is used by
    some structure, and each has an input and an error slot on the page."""
    form = _admin_html(api)
    assert set(re.findall(r'data-field="(\w+)"', form)) == set(CreateTableSchema().fields)
    stakes = set(StakesSchema().fields)
    inputs = set(re.findall(r'<input [^>]*data-stake="(\w+)"', form))
    assert inputs == stakes
    declared = _admin_stakes()
    assert set(declared) == _one_of("structure")
    assert set().union(*declared.values()) == stakes
    assert declared["fixed_limit"] >= {"small_bet", "big_bet"}
    assert "min_bet" not in declared["fixed_limit"]
    for name in stakes:
        assert f'id="error-stakes.{name}"' in form, name
    for name in CreateTableSchema().fields:
        assert f'id="error-{name}"' in form, name


def test_the_admin_page_creates_tables_through_the_create_route(app: Flask, api: Api) -> None:
    """The createTable route of api.js is the admin's POST /v1/tables, the admin page sends
    it through call() (an Idempotency-Key, kept for a retry of the same body), and the
    profile choices come from the spec path api.js names, whose CreateTable.profile lists
    the profiles the service knows."""
    method, template = _routes()["createTable"]
    endpoint, _ = app.url_map.bind("localhost").match(template, method=method)
    assert (method, endpoint) == ("POST", "tables.create_table")
    text = (STATIC / "admin.js").read_text()
    assert 'call("createTable"' in text and '"Idempotency-Key": pending.key' in text
    # the created table is handed to the tablet in sessionStorage, not in an address
    assert "session.useTable(" in text and "window.location" not in text and "?table" not in text
    spec_path = re.search(r'SPEC_PATH = "([^"]+)"', (STATIC / "api.js").read_text())
    assert spec_path is not None
    response = _get(api, spec_path.group(1))
    assert response.status_code == 200
    profile = response.get_json()["components"]["schemas"]["CreateTable"]["properties"]["profile"]
    assert "casino-five-card-draw" in profile["enum"]
    assert "CreateTable?.properties?.profile?.enum" in text


def test_a_retried_create_with_the_same_key_is_a_replay(api: Api) -> None:
    """The admin page resends a body that got no answer with the same Idempotency-Key: the
    API answers the first 201 again rather than a 409."""
    body = {"table_id": "A1", "variant": "five_card_draw", "structure": "fixed_limit",
            "stakes": {"small_blind": 1, "big_blind": 2}, "profile": "casino-five-card-draw",
            "max_seats": 6, "mode": "count"}  # fmt: skip
    key = {"Idempotency-Key": "7f1c2e4a-0d5b-4c1e-9a7f-2b3c4d5e6f70"}
    first = api.call("POST", "/v1/tables", "admin", body, headers=key)
    again = api.call("POST", "/v1/tables", "admin", body, headers=key)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.headers.get("Idempotent-Replayed") == "true"
    fresh = api.call("POST", "/v1/tables", "admin", body)
    assert fresh.status_code == 409 and fresh.get_json()["title"] == "Already exists"


BUILD_CASES: list[dict[str, object]] = [
    {"table_id": "FL1", "variant": "five_card_draw", "structure": "fixed_limit",
     "profile": "casino-five-card-draw", "max_seats": "6", "mode": "count",
     "stakes": {"small_blind": "1", "big_blind": "2", "small_bet": "2", "big_bet": "4",
                "ante": "", "min_bet": "50"}},
    {"table_id": "NL1", "variant": "deuce_to_seven_single_draw", "structure": "no_limit",
     "profile": "single-draw-27-no-limit", "max_seats": "7", "mode": "card",
     "stakes": {"small_blind": "5", "big_blind": "10", "min_bet": "10", "small_bet": "99",
                "big_bet": "", "ante": "0"}},
]  # fmt: skip


def _node_json(tmp_path: Path, script: str, names: str, expression: str) -> Any:
    """``expression`` (over ``names`` imported from ``script``), run by node over copies of
    the static modules, as JSON."""
    node = shutil.which("node")
    if node is None:
        pytest.skip(f"node is not installed; {script} is not run")
    for path in _scripts():
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    runner = tmp_path / "run.mjs"
    runner.write_text(
        f'import {{ {names} }} from "./{script}";\nconsole.log(JSON.stringify({expression}));\n'
    )
    done = subprocess.run([node, str(runner)], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _node_build(tmp_path: Path, values: list[dict[str, object]]) -> list[dict[str, object]]:
    """buildBody of admin.js, run by node over the static modules."""
    built: list[dict[str, object]] = _node_json(
        tmp_path, "admin.js", "buildBody", f"{json.dumps(values)}.map(buildBody)"
    )
    return built


def test_the_admin_page_builds_bodies_the_api_accepts(api: Api, tmp_path: Path) -> None:
    """The body admin.js builds from the form is created by the API (201) with the stakes of
    its structure only; blank stakes are left out (0 = not used)."""
    built = _node_build(tmp_path, BUILD_CASES)
    for case, answer in zip(BUILD_CASES, built, strict=True):
        assert answer["errors"] == {}, answer
        body = answer["body"]
        assert isinstance(body, dict)
        response = api.call("POST", "/v1/tables", "admin", body)
        assert response.status_code == 201, response.get_json()
        table = response.get_json()
        assert table["table_id"] == case["table_id"] and table["mode"] == case["mode"]
    fixed, no_limit = (answer["body"] for answer in built)
    assert isinstance(fixed, dict) and isinstance(no_limit, dict)
    assert fixed["stakes"] == {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4}
    assert no_limit["stakes"] == {"small_blind": 5, "big_blind": 10, "min_bet": 10, "ante": 0}
    assert no_limit["max_seats"] == 7


def test_the_admin_page_refuses_the_obvious_before_sending(tmp_path: Path) -> None:
    """Missing required fields, negative or fractional chips and seats out of 2..10 are
    marked on the page (per field, stakes as "stakes.<name>") without a call."""
    stakes = {"small_blind": "-1", "big_blind": "2.5", "min_bet": "?", "ante": "3"}
    bad = {"table_id": " ", "variant": "five_card_draw", "structure": "pot_limit",
           "profile": "", "max_seats": "11", "mode": "count", "stakes": stakes}  # fmt: skip
    (answer,) = _node_build(tmp_path, [bad])
    errors = answer["errors"]
    assert isinstance(errors, dict)
    assert set(errors) == {
        "table_id", "profile", "max_seats",
        "stakes.small_blind", "stakes.big_blind", "stakes.min_bet",
    }  # fmt: skip


def _tablet_extra(tmp_path: Path, table: object, entries: list[dict[str, str]]) -> Any:
    """extraSeats of tablet.js for a table view, and extraBody for each entry as typed
    ({"seat", "card"}) in the view's mode."""
    values = json.dumps([table, entries])
    expression = f"(([t, es]) => [extraSeats(t), es.map((e) => extraBody(e, t.mode))])({values})"
    return _node_json(tmp_path, "tablet.js", "extraSeats, extraBody", expression)


def test_IRREG_06_the_tablet_records_an_extra_card(api: Api, tmp_path: Path) -> None:
    """The "Extra card" panel offers the seats of the view's extra_card entry; in count mode
    the body it builds is accepted with the extra_card instruction and a second one with an
    IRREG-01 notice; once the betting started the view offers nothing and the entry is a 409
    IRREG-06 (shown by the problem banner)."""
    html = _get(api, "/tablet").get_data(as_text=True)
    start = html.index('<details id="extra-panel" class="exposed" hidden>')
    panel = html[start : html.index("</details>", start)]
    assert '<select id="extra-seat">' in panel and 'id="extra-card"' in panel
    table = _posted_27(api, "count")
    assert table["extra_card"]["seats"] == [2, 3, 1]
    typed = [{"seat": "2", "card": "9d"}, {"seat": "3", "card": ""}]
    offered, (first, second) = _tablet_extra(tmp_path, table, typed)
    assert offered == [["2", "Seat 2 · P2"], ["3", "Seat 3 · P3"], ["1", "Seat 1 · P1"]]
    assert first == {"seat": 2, "action": "extra_card"}  # count mode names no card
    answer = api.act("T1", **first)
    assert answer.status_code == 200, answer.get_json()
    assert [i["code"] for i in answer.get_json()["instructions"]] == ["extra_card"]
    again = api.act("T1", **second)
    assert [n["rule_id"] for n in again.get_json()["notices"]] == ["IRREG-01"]
    assert api.act("T1", seat=1, action="call").status_code == 200
    betting = api.call("GET", "/v1/tables/T1", "dealer").get_json()
    assert _tablet_extra(tmp_path, betting, [])[0] == []
    refused = api.act("T1", **first)
    assert refused.status_code == 409 and refused.get_json()["rule_id"] == "IRREG-06"


def test_IRREG_06_the_tablet_names_the_extra_card_in_card_mode(api: Api, tmp_path: Path) -> None:
    """Card mode: the panel shows the card field and the body carries the card typed; the
    API takes it as the burn, and a card in the seat's own five is refused (IRREG-06)."""
    _posted_27(api, "card")
    assert api.act("T1", seat=2, action="deal", count=5, cards="7h 5d 4c 3s 6h").status_code == 200
    table = api.call("GET", "/v1/tables/T1", "dealer").get_json()
    typed = [{"seat": "2", "card": " 9d "}, {"seat": "2", "card": "7h"}]
    offered, (extra, own) = _tablet_extra(tmp_path, table, typed)
    assert ["2", "Seat 2 · P2"] in offered
    assert extra == {"seat": 2, "action": "extra_card", "cards": "9d"}
    refused = api.act("T1", **own)
    assert refused.status_code == 409 and refused.get_json()["rule_id"] == "IRREG-06"
    answer = api.act("T1", **extra)
    assert answer.status_code == 200, answer.get_json()
    assert [i["code"] for i in answer.get_json()["instructions"]] == ["extra_card"]


def test_IRREG_04_the_table_view_on_both_pages_says_the_hand_waits_for_the_floor() -> None:
    """When the API's ``next`` names a rule in ``floor`` (IRREG-04: no replacement can be
    dealt) it has no legal action; the shared table view (tablet and floor page) says the hand
    waits for the floor and names the rule, as it does for a held pot (SHOW-11)."""
    text = (STATIC / "table_view.js").read_text()
    assert "table.next && table.next.floor ?" in text
    wait = 't("Waiting for the floor ({rule}): call the floor; no entries until it rules", '
    assert wait + "{ rule: table.next.floor })" in text


def test_GAME_06_the_table_view_shows_chips_the_floor_added_during_the_hand(
    api: Api, tmp_path: Path
) -> None:
    """Chips the floor adds in a hand wait beside the stack (table stakes): the API's hand
    view names them per player and the shared table view writes them in the seat's notes."""
    api.create_table()
    for seat in (1, 2, 3):
        api.seat("T1", seat, f"P{seat}")
    api.start("T1")
    ruling = {"decision": "house_error", "rule_id": "IRREG-14", "note": "short paid",
              "effects": [{"effect": "adjust_stack", "seat": 1, "amount": 25}]}  # fmt: skip
    assert api.call("POST", "/v1/tables/T1/rulings", "floor", ruling).status_code == 200
    hand = api.call("GET", "/v1/tables/T1").get_json()["hand"]
    added = {player["seat"]: player["added"] for player in hand["players"]}
    assert added == {1: 25, 2: 0, 3: 0}
    player = next(p for p in hand["players"] if p["seat"] == 1)
    seat = {"seat": 1, "status": "active"}
    notes = _node_json(
        tmp_path,
        "table_view.js",
        "seatNotes",
        f"seatNotes({json.dumps(seat)}, {json.dumps(player)}, {json.dumps(hand)})",
    )
    assert "+25 added, plays from the next hand" in notes


OPEN_08_NOTE = "waits as a false opener until a legally opened pot is won (OPEN-08)"
MARK_FALSE_OPENER = {"decision": "false_open_all_in", "rule_id": "OPEN-08", "note": "all in",
                     "effects": [{"effect": "kill_hand", "seat": 1}]}  # fmt: skip


def _seat_markers(tmp_path: Path, view: dict[str, Any]) -> dict[str, Any]:
    """The notes under each seat of the shared table view (seatNotes of table_view.js) and
    the tablet's seat-change status of each seat (changeStatus of tablet.js), run by node
    over the engine's table view."""
    table = json.dumps(view)
    notes = _node_json(
        tmp_path,
        "table_view.js",
        "seatNotes",
        f"""(() => {{
      const t = {table};
      const hand = t.hand && t.hand.phase !== "complete" ? t.hand : null;
      return t.seats.map((s) => seatNotes(s, hand && hand.players.find((p) => p.seat === s.seat),
                                          hand));
    }})()""",
    )
    status = _node_json(tmp_path, "tablet.js", "changeStatus",
                        f"{table}.seats.map(changeStatus)")  # fmt: skip
    return {"notes": notes, "status": status}


def test_OPEN_08_the_screens_show_a_seat_waiting_as_a_false_opener(
    api: Api, tmp_path: Path
) -> None:
    """Once the floor rules seat 1 an all-in false opener, the engine's view marks the seat;
    the table view's seat notes (tablet and floor console) and the tablet's seat-change status
    say it waits until a legally opened pot is won (OPEN-08), for that seat only; after the
    floor lifts the wait the marker is gone."""
    api.ready_hand()
    for seat in (2, 3):
        assert api.act("T1", seat=seat, action="post").status_code == 200
    ruled = api.call("POST", "/v1/tables/T1/rulings", "floor", MARK_FALSE_OPENER)
    assert ruled.status_code == 200, ruled.get_json()
    view = api.call("GET", "/v1/tables/T1").get_json()
    assert [s.get("false_opener", False) for s in view["seats"][:3]] == [True, False, False]
    shown = _seat_markers(tmp_path, view)
    assert [OPEN_08_NOTE in notes for notes in shown["notes"][:3]] == [True, False, False]
    assert "folded" in shown["notes"][0]
    assert [OPEN_08_NOTE in notes for notes in shown["status"][:3]] == [True, False, False]
    lift = {"decision": "lift_wait", "rule_id": "OPEN-08", "note": "open was legal",
            "effects": [{"effect": "clear_false_opener", "seat": 1}]}  # fmt: skip
    assert api.call("POST", "/v1/tables/T1/rulings", "floor", lift).status_code == 200
    shown = _seat_markers(tmp_path, api.call("GET", "/v1/tables/T1").get_json())
    assert not any(OPEN_08_NOTE in notes for notes in shown["notes"] + shown["status"])


def test_OPEN_08_the_floor_console_lifts_a_wait_by_seat_or_by_player(
    api: Api, tmp_path: Path
) -> None:
    """The console's clear_false_opener effect sends the seat as a number, or the player's ID
    as typed (trimmed); blank fields are left out; the API accepts the body it builds: the
    floor marks seat 1 and lifts it by seat, then marks seat 2 and lifts it by player ID."""
    forms = [{"seat": "1", "player": ""}, {"seat": "", "player": " P2 "}]
    expression = (
        f"{json.dumps(forms)}.map((f) => effectBody({{ effect: 'clear_false_opener', inputs: "
        "{ seat: { value: f.seat }, player: { value: f.player } } }))"
    )
    by_seat, by_player = _node_json(tmp_path, "floor.js", "effectBody", expression)
    assert by_seat == {"effect": "clear_false_opener", "seat": 1}
    assert by_player == {"effect": "clear_false_opener", "player": "P2"}
    api.ready_hand()
    for seat in (2, 3):
        assert api.act("T1", seat=seat, action="post").status_code == 200
    for seat, effect in ((1, by_seat), (2, by_player)):
        mark = {**MARK_FALSE_OPENER, "effects": [{"effect": "kill_hand", "seat": seat}]}
        ruled = api.call("POST", "/v1/tables/T1/rulings", "floor", mark)
        assert ruled.status_code == 200, ruled.get_json()
        assert ruled.get_json()["seats"][seat - 1]["false_opener"] is True
        lift = {"decision": "lift_wait", "rule_id": "OPEN-08", "effects": [effect]}
        answer = api.call("POST", "/v1/tables/T1/rulings", "floor", lift)
        assert answer.status_code == 200, answer.get_json()
        assert "false_opener" not in answer.get_json()["seats"][seat - 1]
