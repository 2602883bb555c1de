"""The fast TOML reader of PHH files (dealerassist.audit.phh.toml) reads what tomllib reads,
as tomllib reads it, and leaves the rest, errors included, to tomllib."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealerassist.audit.phh import toml

SCALARS = st.one_of(st.text(max_size=8), st.integers(-(10**12), 10**12), st.booleans())
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4), max_leaves=12)


@given(st.dictionaries(st.from_regex(r"[A-Za-z0-9_-]{1,8}", fullmatch=True), VALUES, max_size=6))
def test_what_our_writer_writes_reads_as_tomllib_reads_it(data: dict[str, object]) -> None:
    """Lines as ``toml.line`` writes them (JSON's text), any strings and nesting."""
    text = "\n".join(toml.line(key, value) for key, value in data.items()) + "\n"
    assert toml.parse(text) == tomllib.loads(text) == data


@pytest.mark.parametrize(
    "text",
    [
        "a = 'x'\nb = ['p1 f', 'p2 cc']",  # literal strings (pokerkit's)
        'a = "x" # a comment\n  b = 1',
        "a = [\n  1,\n  2,\n]",  # an array over lines
        'a = "tab\there"',
        "a = 'say \"hi\"'",
        "a = 1.5\nb = 1e3",
        "a = +1\nb = 0x1f",
        'a = "\\u00e9 \\"q\\" \\\\"',
        "[1]\na = 1",  # a .phhs section
        'a = {seat = 2, player = 1}\nb = {x = "y"}',
        "a.b = 1",
        "a = 2026-12-01",
    ],
)
def test_other_toml_reads_as_tomllib_reads_it(text: str) -> None:
    """What the fast path does not read itself it hands to tomllib: the same mapping."""
    assert toml.parse(text) == tomllib.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        "a = 1\na = 2",  # a key twice
        "a = null",
        "a = [1, null]",
        'a = "x\x7f"',  # DEL, raw
        "a = 01",
        "a = NaN",
        'a = {"k": 1}',
        "a = ",
        "a = [1, 2",
        "a = 1\r",
        'a = "\\/"',  # JSON's escaped solidus is no TOML escape
    ],
)
def test_text_tomllib_refuses_is_refused(text: str) -> None:
    """The fast path never accepts what TOML forbids (JSON's null, leading zeros ...)."""
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(text)
    with pytest.raises(tomllib.TOMLDecodeError):
        toml.parse(text)
