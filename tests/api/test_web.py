"""The browser pages (dealerassist/web): served as HTML with a strict CSP, their scripts and
styles from this origin only, every /v1 route the scripts call served by the app, and none
of it in /openapi.json."""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from flask import Flask
from marshmallow import Schema
from marshmallow.validate import OneOf
from werkzeug.exceptions import HTTPException
from werkzeug.test import TestResponse

from api.conftest import Api
from dealerassist.api.schemas import (
    AuditEventsQuerySchema,
    AuditHandQuerySchema,
    SeatChangeSchema,
)
from dealerassist.rules.ruling_commands import EffectKind
from dealerassist.web import pages

WEB = Path(pages.__file__).parent
STATIC = WEB / "static"
PAGES = ("/tablet", "/floor", "/audit")
ROUTE = re.compile(r'(\w+):\s*\[\s*"(GET|POST|PUT|DELETE|PATCH)"\s*,\s*"(/v1/[^"]*)"\s*\]')
CALLED = re.compile(r'\b(?:call|change)\(\s*"(\w+)"')
SAMPLE = {"table_id": "T1", "seat": "3", "hand_no": "1"}


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
        assert not path.startswith(("/tablet", "/floor", "/audit", "/web")), path
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
    assert offered == {kind.value for kind in EffectKind}


def test_the_floor_console_rules_through_the_ruling_route(app: Flask) -> None:
    """The ruling route of api.js is the floor's POST .../rulings endpoint."""
    method, template = _routes()["ruling"]
    concrete = template.replace("{table_id}", "T1")
    endpoint, _ = app.url_map.bind("localhost").match(concrete, method=method)
    assert (method, endpoint) == ("POST", "rulings.issue_ruling")
    assert 'call("ruling"' in (STATIC / "floor.js").read_text()


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


def test_the_tablet_changes_seats_through_the_seat_change_route(app: Flask) -> None:
    """The seatChange route of api.js is the dealer's POST .../seats/{seat}/changes, and the
    tablet sends it through change() (If-Match, Idempotency-Key, the 409/412 handling)."""
    method, template = _routes()["seatChange"]
    concrete = re.sub(r"\{(\w+)\}", lambda m: SAMPLE[m.group(1)], template)
    endpoint, _ = app.url_map.bind("localhost").match(concrete, method=method)
    assert (method, endpoint) == ("POST", "tables.change_seat")
    assert 'change("seatChange"' in (STATIC / "tablet.js").read_text()


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


def test_the_token_stays_out_of_urls(api: Api) -> None:
    """The token is kept in sessionStorage and sent only as the Authorization header; the
    login inputs have no name, so even a form submitted without its script (GET to the
    page) puts nothing in the address."""
    api_js = (STATIC / "api.js").read_text()
    assert "sessionStorage" in api_js
    assert "Authorization = `Bearer ${session.token}`" in api_js
    for script in _scripts():
        text = script.read_text()
        assert "localStorage" not in text and "document.cookie" not in text, script.name
    for page in PAGES:
        html = _get(api, page).get_data(as_text=True)
        login = html[
            html.index('id="login-form"') : html.index("</form>", html.index("login-form"))
        ]
        assert 'id="login-token"' in login and 'type="password"' in login
        assert " name=" not in login, page
