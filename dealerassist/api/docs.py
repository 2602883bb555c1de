"""/openapi.json (the spec) and /docs (a self-contained HTML page listing it; no CDN)."""

from __future__ import annotations

import base64
import hashlib
import json
from html import escape
from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from dealerassist.api.openapi import build_spec

blueprint = Blueprint("docs", __name__)
SPEC_EXTENSION = "dealerassist.openapi"
PROFILE_IDS_CONFIG = "DEALERASSIST_PROFILE_IDS"
PROFILE_GAMES_CONFIG = "DEALERASSIST_PROFILE_GAMES"  # profile ID -> its GameRules
METHODS = ("get", "put", "post", "delete", "patch")
STYLE = (
    "body{font-family:sans-serif;max-width:60em;margin:auto}"
    "code,pre{background:#f4f4f4}pre{padding:.5em;overflow:auto}"
    ".m{font-weight:bold;text-transform:uppercase;width:4em;display:inline-block}"
)
# the page's one inline style, allowed by its hash; no script, image, font, frame or form
DOCS_CSP = "; ".join(
    (
        "default-src 'none'",
        "style-src 'sha256-"
        + base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()
        + "'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)


def spec() -> dict[str, Any]:
    """The app's OpenAPI document (built once per app)."""
    cached = current_app.extensions.get(SPEC_EXTENSION)
    if cached is None:
        games = current_app.config.get(PROFILE_GAMES_CONFIG)
        profiles = games if games else current_app.config.get(PROFILE_IDS_CONFIG, ())
        cached = current_app.extensions[SPEC_EXTENSION] = build_spec(profiles)
    return dict(cached)


@blueprint.get("/openapi.json")
def openapi_json() -> Response:
    """The OpenAPI 3 document."""
    return jsonify(spec())


@blueprint.get("/docs")
def docs() -> Response:
    """A readable page of every path, its operations, roles and schemas."""
    response = Response(render(spec()), mimetype="text/html")
    response.headers["Content-Security-Policy"] = DOCS_CSP
    return response


def render(document: dict[str, Any]) -> str:
    """The HTML of the docs page."""
    info = document["info"]
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{escape(info['title'])} API</title>",
        f"<style>{STYLE}</style>",
        f"</head><body><h1>{escape(info['title'])} {escape(info['version'])}</h1>",
        f"<p>{escape(info.get('description', ''))} Machine-readable: "
        "<a href='/openapi.json'>/openapi.json</a>. Errors are "
        "<code>application/problem+json</code>.</p><h2>Paths</h2>",
    ]
    for path, item in document["paths"].items():
        parts.append(f"<h3><code>{escape(path)}</code></h3><ul>")
        for method in METHODS:
            if method in item:
                parts.append(_operation(method, item[method]))
        parts.append("</ul>")
    parts.append("<h2>Schemas</h2>")
    for name, schema in document["components"]["schemas"].items():
        parts.append(f"<h3 id='{escape(name)}'>{escape(name)}</h3>")
        parts.append(f"<pre>{escape(json.dumps(schema, indent=2))}</pre>")
    parts.append("</body></html>")
    return "".join(parts)


def _operation(method: str, operation: dict[str, Any]) -> str:
    statuses = ", ".join(operation.get("responses", {}))
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    ref = body.get("schema", {}).get("$ref", "")
    body_html = ""
    if ref:
        name = ref.rsplit("/", 1)[-1]
        body_html = f" — body <a href='#{escape(name)}'>{escape(name)}</a>"
    return (
        f"<li><span class='m'>{method}</span> {escape(operation.get('summary', ''))} "
        f"<em>{escape(operation.get('description', ''))}</em>{body_html}; "
        f"answers {escape(statuses)}</li>"
    )
