"""The TOML of PHH files: a fast reader for the lines PHH files are made of, and the writer.

PHH files (ours, pokerkit's, the PHH dataset's) are one ``key = value`` a line, each value a
string, an integer, a boolean, an array of them on one line, or (ours) an inline table.
``parse`` reads such a text with the C JSON decoder where a value's text means the same in
JSON and TOML, and hands any other text whole to ``tomllib``, so what it accepts, and every
error, is TOML's (tests/unit/audit/phh/test_toml.py checks it against ``tomllib``).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from typing import Any

# a line ``key = value`` with a bare key; anything else (tables, dotted keys) is tomllib's
_LINE = re.compile(r"([A-Za-z0-9_-]+)[ \t]*=[ \t]*(.*)")
# a value's text that JSON reads as TOML does: no escapes, comments, inline tables or
# literal strings (a line with ``'`` and no ``"`` is turned into JSON first, ``_json_text``)
_NOT_JSON = re.compile(r"[\\{}'#\x7f\t]|null|NaN|Infinity")
_INLINE_ENTRY = re.compile(r"[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*")


class _NotSubset(Exception):
    """The text is not in the subset ``parse`` reads itself."""


def parse(text: str) -> dict[str, Any]:
    """The TOML ``text`` as ``tomllib.loads`` returns it (and its errors).

    >>> parse("variant = 'F2L3D'\\nantes = [0, 0]\\n_kill = {seat = 2, player = 1}  # ours")
    {'variant': 'F2L3D', 'antes': [0, 0], '_kill': {'seat': 2, 'player': 1}}
    """
    try:
        return _parse_lines(text)
    except _NotSubset:
        return tomllib.loads(text)


def _parse_lines(text: str) -> dict[str, Any]:
    if "\r" in text:
        raise _NotSubset
    data: dict[str, Any] = {}
    for line in text.split("\n"):
        stripped = line.strip(" \t")
        if not stripped or stripped[0] == "#":
            continue
        found = _LINE.fullmatch(stripped)
        if found is None or found[1] in data:
            raise _NotSubset
        data[found[1]] = _value(found[2])
    return data


def _value(text: str) -> Any:
    """One line's value: JSON's reading of it when JSON and TOML read it alike."""
    if text[:1] == "{":
        return _inline_table(text)
    value = _json_value(_json_text(text))
    if isinstance(value, float):
        raise _NotSubset  # TOML's floats differ from JSON's in the small (``1.``, ``01.5``)
    return value


def _json_text(text: str) -> str:
    """``text`` as JSON: literal strings (``'…'``) as basic ones when no ``"`` is in it."""
    if "'" in text and '"' not in text and "\\" not in text:
        text = text.replace("'", '"')
    if _NOT_JSON.search(text) is not None:
        raise _NotSubset
    return text


def _json_value(text: str) -> Any:
    try:
        value = json.loads(text)
    except ValueError:
        raise _NotSubset from None
    if isinstance(value, list) and not _plain_array(value):
        raise _NotSubset
    return value


def _plain_array(values: list[Any]) -> bool:
    """An array of strings, integers, booleans and such arrays (no float, no null)."""
    kinds = set(map(type, values))
    if kinds <= _SCALARS:
        return True
    return kinds <= _SCALARS_AND_LISTS and all(map(_plain_array, filter(_is_list, values)))


_SCALARS = frozenset({str, int, bool})
_SCALARS_AND_LISTS = _SCALARS | {list}


def _is_list(value: Any) -> bool:
    return type(value) is list


def _inline_table(text: str) -> dict[str, Any]:
    """Our ``_kill``: ``{name = integer, …}`` on one line; other tables are tomllib's."""
    if not text.endswith("}") or '"' in text or "'" in text:
        raise _NotSubset
    table: dict[str, Any] = {}
    for entry in text[1:-1].split(","):
        found = _INLINE_ENTRY.match(entry)
        if found is None or found[1] in table:
            raise _NotSubset
        number = entry[found.end() :].strip(" \t")
        if not number.isdigit() or (number[0] == "0" and number != "0"):
            raise _NotSubset
        table[found[1]] = int(number)
    return table


# JSON writes these raw inside strings, where TOML forbids them: DEL must be escaped, and a
# lone surrogate is no Unicode scalar value (TOML has no escape for it, nor has UTF-8)
_NOT_TOML = re.compile("[\x7f\ud800-\udfff]")


def toml_value(value: Any) -> str:
    """A string, integer, boolean or array of them as a TOML value: JSON's text, which is
    TOML's but for DEL (written ``\\u007f``) and a lone surrogate (stored by an earlier
    version that let one in: written as U+FFFD, the replacement character). Whatever a stored
    name holds, the export stays valid TOML and valid UTF-8.

    >>> print(toml_value(["Ann", "B" + chr(0x7F) + "ob", "nul" + chr(0)]))
    ["Ann", "B\\u007fob", "nul\\u0000"]
    >>> print(toml_value("x" + chr(0xD800)))
    "x\\ufffd"
    """
    text = json.dumps(value, ensure_ascii=False)
    return _NOT_TOML.sub(lambda found: "\\u007f" if found[0] == "\x7f" else "\\ufffd", text)


def inline(value: Any) -> str:
    """``value`` as a TOML value on one line: a mapping is an inline table (bare keys), a list
    an array; strings, integers and booleans are written as JSON writes them, which is TOML.

    >>> inline([[3, {"decision": "custom", "effects": [{"effect": "hold_pot"}]}]])
    '[[3, {decision = "custom", effects = [{effect = "hold_pot"}]}]]'
    """
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key} = {inline(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(inline(item) for item in value) + "]"
    return toml_value(value)


def line(key: str, value: Any) -> str:
    """One TOML ``key = value`` line (JSON's strings, integers and arrays are valid TOML)."""
    return f"{key} = {toml_value(value)}"
