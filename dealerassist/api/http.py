"""Request and response helpers shared by the blueprints: JSON bodies, If-Match, ETag."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, cast

import orjson
from flask import Response, current_app, request
from flask.json.provider import DefaultJSONProvider
from marshmallow import Schema

from dealerassist.api import messages as says
from dealerassist.api.errors import UnsupportedMediaType, ValidationFailed, rule_violation_problem
from dealerassist.api.schemas import StrictSchema, load
from dealerassist.errors import InvalidInput
from dealerassist.service.ports import AnswerKind, Services
from dealerassist.service.tables import Answer, Preconditions

SERVICES_EXTENSION = "dealerassist.services"
MAX_IDEMPOTENCY_KEY = 255
_ETAG = re.compile(r'^(?:W/)?"v(\d{1,18})"$')
STALE = -1  # an If-Match that names no version of ours never matches
MAX_JSON_DEPTH = 32  # the deepest body (a ruling's effects' entries) nests 4 levels


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON provider with orjson writing the answers (a table view ~7x faster).

    Flask's own conversions are kept: dates, dataclasses, UUIDs and decimals go through its
    ``default`` as before, and anything orjson refuses (huge integers, non-string keys)
    through the standard library. Keys keep their order; debug mode still indents. Reading
    stays with the standard library (``json_body``): orjson reads a huge integer as a float.
    """

    sort_keys = False
    _PASSTHROUGH = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs.keys() <= {"separators"}:
            try:
                return orjson.dumps(obj, default=self.default, option=self._PASSTHROUGH).decode()
            except TypeError:
                pass
        return super().dumps(obj, **kwargs)


def services() -> Services:
    """The process's services (built lazily on first use by the app factory's registry)."""
    registry = current_app.extensions[SERVICES_EXTENSION]
    return cast(Services, registry.get())


def query_args(schema: Schema) -> dict[str, Any]:
    """The query string validated by ``schema``. A parameter given twice is a 400 naming it:
    Werkzeug keeps the first, a proxy or a log reader may keep the last (``table_id=T1&
    table_id=T2``), so the request would mean one thing here and another there."""
    repeated = sorted(name for name, values in request.args.lists() if len(values) > 1)
    if repeated:
        why = {name: ["given more than once"] for name in repeated}
        raise ValidationFailed(says.QUERY_TWICE(), why)
    return load(schema, request.args.to_dict())


_NO_QUERY = StrictSchema()


def no_query() -> None:
    """For a route that reads no query string: any parameter is a 400 naming it, so a filter
    the route does not have (``/v1/audit/checkpoints?table_id=T2``) is not silently ignored
    and answered with every table the token sees."""
    query_args(_NO_QUERY)


def json_body(schema: Schema, optional: bool = False) -> dict[str, Any]:
    """The request body, validated by ``schema`` (415 if not JSON, 400 if malformed)."""
    raw = request.get_data(cache=True)
    if not raw.strip() and optional:
        return {}
    if not request.is_json:
        raise UnsupportedMediaType(says.SEND_JSON())
    try:
        data = json.loads(raw, object_pairs_hook=_unique_keys)
    except DuplicateKey as exc:
        twice = {"_body": [str(exc)]}
        raise ValidationFailed(says.KEY_TWICE(), twice) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValidationFailed(says.NOT_JSON(), {"_body": [str(exc)]}) from None
    except RecursionError:
        why = f"nested deeper than the parser reads (at most {MAX_JSON_DEPTH} levels)"
        raise ValidationFailed(says.NOT_JSON(), {"_body": [why]}) from None
    if not isinstance(data, dict):
        raise ValidationFailed(says.NOT_AN_OBJECT(), {"_body": ["not an object"]})
    check_json_text(data)
    return load(schema, data)


class DuplicateKey(ValueError):
    """One JSON object names a key twice."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's members as a dict, refusing a key given twice: the standard library
    keeps the last (``{"player": "A", "player": "B"}`` seated B), a proxy or a log reader may
    keep the first, so the body would mean one thing here and another there.

    >>> _unique_keys([("seat", 1), ("seat", 2)])
    Traceback (most recent call last):
    ...
    dealerassist.api.http.DuplicateKey: 'seat' is given twice in one object
    """
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise DuplicateKey(f"{key!r} is given twice in one object")
        data[key] = value
    return data


def check_json_text(data: Any) -> None:
    """Refuse what JSON can say but the service cannot keep: a string (or key) holding a lone
    surrogate (``"\\ud800"`` parses, but is no Unicode text: it can be neither stored nor
    sent as UTF-8), or nesting deeper than ``MAX_JSON_DEPTH`` (no body of the API nests more
    than a few levels). Walked without recursion, so any depth the parser returned is safe.

    >>> check_json_text({"player": "Zo\u00eb", "effects": [{"seat": 2}]})
    >>> check_json_text({"player": "A" + chr(0xD800)})
    Traceback (most recent call last):
    ...
    dealerassist.api.errors.ValidationFailed: the body holds text that is not Unicode
    """
    pending: list[tuple[str, Any, int]] = [("", data, 0)]
    while pending:
        path, value, depth = pending.pop()
        if depth > MAX_JSON_DEPTH:
            why = f"nested more than {MAX_JSON_DEPTH} levels deep"
            raise ValidationFailed(says.TOO_DEEP(), {"_body": [why]})
        if isinstance(value, dict):
            for key, item in value.items():
                where = f"{path}.{key}" if path else str(key)
                _check_text(key, where or "a key")
                pending.append((where, item, depth + 1))
        elif isinstance(value, list):
            pending.extend((f"{path}[{i}]", item, depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str):
            _check_text(value, path)


def _check_text(text: str, where: str) -> None:
    if text.isascii():
        return
    try:
        text.encode()
    except UnicodeEncodeError:
        field = where.split(".", 1)[0].split("[", 1)[0] or "_body"
        why = f"{where}: a lone surrogate (\\ud800-\\udfff) is not a character; send UTF-8 text"
        raise ValidationFailed(says.NOT_UNICODE(), {field: [why]}) from None


def preconditions() -> Preconditions:
    """If-Match (``"v41"``; ``*`` means any) and Idempotency-Key from the headers."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY:
        raise InvalidInput(says.IDEMPOTENCY_KEY_LENGTH(most=MAX_IDEMPOTENCY_KEY))
    return Preconditions(if_match=_if_match(request.headers.get("If-Match")), idempotency_key=key)


def _if_match(header: str | None) -> int | None:
    if header is None or header.strip() == "*":
        return None
    match = _ETAG.fullmatch(header.strip())
    return int(match.group(1)) if match else STALE


def etag(version: int) -> str:
    """The ETag of a table version.

    >>> etag(41)
    '"v41"'
    """
    return f'"v{version}"'


def table_response(
    body: Mapping[str, Any], status: int = 200, body_json: bytes | None = None
) -> Response:
    """A JSON answer that shows a table: it carries ``ETag: "v<version>"``.

    ``body_json`` is ``body`` already encoded (compact, as Flask would) by the use case.
    """
    if body_json is None or current_app.debug:
        response = cast(Response, current_app.json.response(body))  # Flask's own class
    else:
        response = current_app.response_class(body_json + b"\n", mimetype="application/json")
    response.status_code = status
    version = body.get("version")
    if isinstance(version, int):
        response.headers["ETag"] = etag(version)
    return response


def answer_response(answer: Answer) -> Response:
    """Translate a use case's answer: 201 created, 200 accepted, 409 rejected."""
    if answer.kind is AnswerKind.REJECTED:
        response = rule_violation_problem(answer.body)
    else:
        status = 201 if answer.kind is AnswerKind.CREATED else 200
        response = table_response(answer.body, status, answer.body_json)
    if answer.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response
