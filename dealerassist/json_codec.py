"""The project's JSON codec: orjson where it writes the same bytes, the standard library
where orjson refuses.

Encoding an 8 KB table state with ``json.dumps(sort_keys=True)`` took ~150 µs per request
and reading it back ~125 µs (its journal is JSON text inside JSON, every quote escaped);
orjson does the same in ~30 µs each, byte for byte (``tests/unit/test_json_codec.py``
checks that over generated values and every state of the recorded hands).

Where the two differ, orjson raises and the standard library answers instead, so the
bytes never depend on which one ran: integers beyond 64 bits, non-string keys, lone
surrogates. The one difference without an error is floats (``1e+16`` against ``1e16``);
no audited value holds a float (chips are integers, every schema field is an integer or
a string), and a hash is always recomputed by this same function.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_SORTED = orjson.OPT_SORT_KEYS


def canonical(value: Any) -> bytes:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``
    encoded as UTF-8: the form the audit chain hashes.

    >>> canonical({"b": 1, "a": [1, "é"]})
    b'{"a":[1,"\\xc3\\xa9"],"b":1}'
    """
    try:
        return orjson.dumps(value, option=_SORTED)
    except TypeError:
        return _slow(value, sort_keys=True)


def compact(value: Any) -> bytes:
    """Compact JSON (keys in their order, UTF-8) for answers and records.

    >>> compact({"version": 2, "seats": [1, None]})
    b'{"version":2,"seats":[1,null]}'
    """
    try:
        return orjson.dumps(value)
    except TypeError:
        return _slow(value, sort_keys=False)


def ascii_compact(value: Any, *, sort_keys: bool = False) -> str:
    """``json.dumps(value, separators=(",", ":"), sort_keys=sort_keys)``: compact, every
    character outside printable ASCII escaped (``ensure_ascii``), as text.

    orjson writes UTF-8 and leaves DEL (0x7f) as it is, so its answer is taken only when it
    is printable ASCII; anything else gets the standard library's.

    >>> print(ascii_compact({"seat": 3, "player": "Zoë"}))
    {"seat":3,"player":"Zo\\u00eb"}
    >>> print(ascii_compact({"seat": 3, "player": "Zoë"}, sort_keys=True))
    {"player":"Zo\\u00eb","seat":3}
    """
    try:
        encoded = orjson.dumps(value, option=_SORTED if sort_keys else None)
    except TypeError:
        return _ascii(value, sort_keys)
    if encoded.isascii() and b"\x7f" not in encoded:
        return encoded.decode()
    return _ascii(value, sort_keys)


def _ascii(value: Any, sort_keys: bool) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=sort_keys)


def parse(raw: bytes | bytearray | str) -> Any:
    """JSON text the service wrote (stored tables and records) to Python values.

    What orjson refuses (``NaN``, ...) gets the standard library's answer, its errors
    included. Not for request bodies: orjson reads an integer beyond 64 bits as a float,
    where the service's own values are all bounded (chips at most 10**12).
    """
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)


def _slow(value: Any, sort_keys: bool) -> bytes:
    text = json.dumps(value, sort_keys=sort_keys, separators=(",", ":"), ensure_ascii=False)
    return text.encode()
