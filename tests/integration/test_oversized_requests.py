"""Issue 19 point 19 against real gunicorn (`dealerassist serve`): an oversized request line
or header is a 414 or 431 problem+json, whether the app answers (within gunicorn's raised
limits) or gunicorn itself (past them)."""

from __future__ import annotations

import json
import socket
from typing import Any
from urllib.parse import urlsplit

from serving import served

__all__ = ["served"]  # the fixture, from tests/serving.py


def _raw(base: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    address = urlsplit(base)
    with socket.create_connection((address.hostname, address.port), timeout=10) as sock:
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


def _get(path: str, *headers: str) -> bytes:
    lines = [f"GET {path} HTTP/1.1", "Host: x", "Connection: close", *headers, "", ""]
    return "\r\n".join(lines).encode()


# (request, status, answered by the app rather than by gunicorn)
CASES = [
    (_get("/healthz?" + "x" * 5000), 414, True),  # past the app's 4094, within gunicorn's
    (_get("/healthz?" + "x" * 9000), 414, False),  # past gunicorn's maximum of 8190
    (_get("/healthz", "X-Big: " + "y" * 10_000), 431, True),
    (_get("/healthz", "X-Big: " + "y" * 13_000), 431, False),
    (_get("/healthz", *(f"X-{n}: 1" for n in range(80))), 431, True),  # over the app's 64
    (_get("/healthz", *(f"X-{n}: 1" for n in range(150))), 431, False),  # gunicorn's 100
]


def test_oversized_requests_are_answered_with_problem_json(served: Any) -> None:
    """Either way the answer is problem+json with nosniff; the app's carries ``instance``.
    (One serve for every case: starting one takes seconds.)"""
    base, _, _ = served
    for request_bytes, status, by_the_app in CASES:
        got, headers, body = _raw(base, request_bytes)
        assert got == status, body[:300]
        assert headers["content-type"] == "application/problem+json", headers
        assert headers["x-content-type-options"] == "nosniff"
        problem = json.loads(body)
        assert problem["status"] == status
        assert ("instance" in problem) is by_the_app, (status, problem)
