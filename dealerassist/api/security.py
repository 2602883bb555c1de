"""Security headers on every answer of the app, and the app's own limits on the request line
and headers (414 and 431 as problem+json).

Headers: on every answer: the API (``/v1``), health, the spec, the docs page, errors of
every kind (404, 405, 413, 500 ...), and the browser pages. The API answers JSON (or
JSONL, CSV, PHH text), never a document to render: its Content-Security-Policy allows
nothing at all (``default-src 'none'``), and none may frame it. ``/docs`` is a page: its
one inline ``<style>`` is allowed by its SHA-256 and nothing else (``docs.DOCS_CSP``). The
browser pages set their own, looser policy first (``web.pages``: scripts and styles from
this origin); this module only adds the headers an answer does not carry yet.

Limits: a request line longer than ``MAX_REQUEST_LINE`` bytes is a 414, a header field
longer than ``MAX_HEADER_FIELD`` or more than ``MAX_HEADER_FIELDS`` fields a 431, both
problem+json. The first two are gunicorn's own defaults (no client sends 64 fields), and
gunicorn is given higher limits (``dealerassist.request_limits``), so that it is the app
that answers in between. Past gunicorn's limits gunicorn answers itself: also problem+json
(``request_limits.write_problem``), but without ``instance``.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, request

from dealerassist.api.errors import problem

MAX_REQUEST_LINE = 4094  # bytes of "GET /v1/...?... HTTP/1.1"
MAX_HEADER_FIELD = 8190  # bytes of one "Name: value"
MAX_HEADER_FIELDS = 64  # browsers send about 15

API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
SECURITY_HEADERS = {
    "Content-Security-Policy": API_CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


def _add_security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def request_line_length(environ: dict[str, Any]) -> int:
    """The bytes of the request line as the client sent it (gunicorn's ``RAW_URI``; else the
    path and query werkzeug decoded, re-encoded).

    >>> request_line_length({"REQUEST_METHOD": "GET", "RAW_URI": "/healthz",
    ...                      "SERVER_PROTOCOL": "HTTP/1.1"})
    21
    """
    uri = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    if not uri:
        query = environ.get("QUERY_STRING") or ""
        uri = str(environ.get("PATH_INFO") or "/") + ("?" + query if query else "")
    method = str(environ.get("REQUEST_METHOD") or "")
    protocol = str(environ.get("SERVER_PROTOCOL") or "HTTP/1.1")
    return len(method) + 1 + len(str(uri).encode("latin-1", "replace")) + 1 + len(protocol)


def _oversized() -> Response | None:
    length = request_line_length(request.environ)
    if length > MAX_REQUEST_LINE:
        return problem(
            414, "URI Too Long",
            f"the request line is {length} bytes; at most {MAX_REQUEST_LINE}: send a shorter "
            "URL (a long filter belongs in a body or in several requests)", "uri-too-long",
        )  # fmt: skip
    fields = list(request.headers.items())
    if len(fields) > MAX_HEADER_FIELDS:
        return problem(
            431, "Request Header Fields Too Large",
            f"{len(fields)} header fields; at most {MAX_HEADER_FIELDS}", "header-fields-too-large",
        )  # fmt: skip
    for name, value in fields:
        size = len(name) + 2 + len(value.encode("latin-1", "replace"))
        if size > MAX_HEADER_FIELD:
            return problem(
                431, "Request Header Fields Too Large",
                f"the {name} header field is {size} bytes; at most {MAX_HEADER_FIELD}",
                "header-fields-too-large",
            )  # fmt: skip
    return None


def register_security_headers(app: Flask) -> None:
    """Add ``SECURITY_HEADERS`` to every answer that does not set its own, and answer an
    oversized request line or header (414, 431) before any route runs."""
    app.before_request(_oversized)
    app.after_request(_add_security_headers)
