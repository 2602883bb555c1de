"""gunicorn's request limits, and its own error answers as problem+json.

gunicorn reads the request line and headers before the app sees them and refuses what passes
its limits itself (400, 414, 431 ...), as an HTML page. ``configure`` raises those limits
above the app's (``api.security``: 4094-byte request line, 8190-byte header field, 64
fields), so that the app answers in between with its own problem+json (with ``instance``
and the security headers), and makes what gunicorn still answers itself (a request line
past 8190 bytes, its hard maximum; a header field past 12288 bytes; more than 100 fields; a
malformed request line or header) a problem+json too: ``write_problem``
replaces ``gunicorn.util.write_error``, which every worker class calls for these.
"""

from __future__ import annotations

import json
import socket
from typing import Any

import gunicorn.util

from dealerassist.api.errors import PROBLEM_MIME
from dealerassist.api.security import SECURITY_HEADERS

# gunicorn buffers up to fields x (field size + 2) bytes of headers per request: 1.2 MB
# here, against its defaults' 0.8 MB (100 x 8190), for each connection it reads
GUNICORN_LIMITS = {
    "limit_request_line": 8190,  # gunicorn's maximum
    "limit_request_field_size": 12288,
    "limit_request_fields": 100,
}


def problem_bytes(status: int, reason: str, detail: str) -> bytes:
    """A whole HTTP/1.1 answer (``Connection: close``) with a problem+json body.

    >>> print(problem_bytes(414, "URI Too Long", "line too long").decode().splitlines()[0])
    HTTP/1.1 414 URI Too Long
    """
    body = {"type": "about:blank", "title": reason, "status": status}
    if detail:
        body["detail"] = detail
    encoded = json.dumps(body).encode()
    head = [
        f"HTTP/1.1 {status} {reason}",
        "Connection: close",
        f"Content-Type: {PROBLEM_MIME}",
        f"Content-Length: {len(encoded)}",
        *(f"{name}: {value}" for name, value in SECURITY_HEADERS.items()),
    ]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + encoded


def write_problem(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """``gunicorn.util.write_error`` with a problem+json body instead of an HTML page."""
    gunicorn.util.write_nonblock(sock, problem_bytes(status_int, reason, mesg))


def configure(cfg: Any) -> None:
    """Set ``GUNICORN_LIMITS`` on a gunicorn config and answer gunicorn's errors as
    problem+json (in the master, before the workers fork: they inherit it)."""
    for name, value in GUNICORN_LIMITS.items():
        cfg.set(name, value)
    gunicorn.util.write_error = write_problem
