"""json_codec writes exactly the bytes of the standard library's json, only faster."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealerassist import json_codec
from dealerassist.audit.phh.reader import VARIANTS, parse_phh, to_commands
from dealerassist.profiles import get_profile
from dealerassist.replay import REPLAY_AT
from dealerassist.rules.engine import apply, new_table, view

PHH = Path(__file__).resolve().parents[1] / "data" / "phh"  # real and generated hands

# JSON values as the service has them: no floats (chips are integers), 64-bit integers,
# any text (non-ASCII, quotes, control characters, JSON inside strings)
scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text()
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


def standard_canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


@given(values)
def test_canonical_is_the_standard_librarys_bytes(value: Any) -> None:
    assert json_codec.canonical(value) == standard_canonical(value)


@given(values)
def test_compact_is_the_standard_librarys_bytes_and_parses_back(value: Any) -> None:
    encoded = json_codec.compact(value)
    assert encoded == json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    assert json_codec.parse(encoded) == value


@given(values, st.booleans())
def test_ascii_compact_is_the_standard_librarys_default_text(value: Any, sort: bool) -> None:
    """What the hand's journal stores: json.dumps with compact separators, ensure_ascii on."""
    expected = json.dumps(value, separators=(",", ":"), sort_keys=sort)
    assert json_codec.ascii_compact(value, sort_keys=sort) == expected


def test_ascii_compact_escapes_what_orjson_leaves_as_it_is() -> None:
    for text in ("\x7f", "é", "\u2028", "♠", "\U0001f0a1"):
        assert json_codec.ascii_compact([text]) == json.dumps([text], separators=(",", ":"))
    assert json_codec.ascii_compact({"n": 2**70}) == '{"n":1180591620717411303424}'


def test_what_orjson_refuses_gets_the_standard_librarys_answer() -> None:
    huge = {"b": 2**70, "a": [1]}
    assert json_codec.canonical(huge) == standard_canonical(huge)
    assert json_codec.compact({1: "x"}) == b'{"1":"x"}'
    assert json_codec.parse(b'{"n": NaN}')["n"] != 0  # the standard library takes NaN
    with pytest.raises(ValueError):
        json_codec.parse(b'{"seat": 1')


def test_every_state_and_view_of_the_recorded_hands_encodes_the_same() -> None:
    rules = get_profile("replay-permissive")
    checked = 0
    for path in sorted(PHH.rglob("*.phh"))[:40]:
        hand = parse_phh(path.read_text(encoding="utf-8"))
        if hand.variant not in VARIANTS:
            continue
        spec, commands = to_commands(hand, rules.profile_id)
        state = new_table(spec)
        for command in commands:
            state = apply(state, command, rules, REPLAY_AT).state
            data = state.to_dict()
            assert json_codec.canonical(data) == standard_canonical(data)
            shown = view(state, rules, REPLAY_AT)
            assert json_codec.parse(json_codec.compact(shown)) == shown
            checked += 1
    assert checked > 500
