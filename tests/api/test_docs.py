"""/openapi.json covers every route the app serves, and /docs renders it without CDN assets."""

from __future__ import annotations

import re

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
