"""The floor console's and the audit page's words, run by node over the static modules:
what a ruling will do before it is issued, how long a call has waited, the verdict of a
verify with nothing in scope, and a replayed entry in words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from api.test_web import _node_json

TABLE = {
    "seats": [{"seat": 1, "player": "Ann"}, {"seat": 3, "player": "Cy"}],
    "hand": {"phase": "betting_2", "players": [
        {"seat": 1, "committed": 10, "dead": 0, "folded": False, "all_in": False},
        {"seat": 3, "committed": 10, "dead": 0, "folded": False, "all_in": False}],
        "dead": 0},
}  # fmt: skip


def _floor(tmp_path: Path, names: str, expression: str) -> Any:
    return _node_json(tmp_path, "floor.js", names, expression)


def test_a_kill_or_an_award_says_who_gets_what_before_it_is_issued(tmp_path: Path) -> None:
    """The confirmation's lines: the killed seat, the award of everything in the middle (and
    split), a stack change, a misdeal."""
    effects = [
        {"effect": "kill_hand", "seat": 3},
        {"effect": "award", "seats": [1]},
        {"effect": "award", "seats": [1, 3]},
        {"effect": "adjust_stack", "seat": 1, "amount": -5},
        {"effect": "misdeal"},
    ]
    name = "(s) => `seat ${s} (${{1: 'Ann', 3: 'Cy'}[s]})`"
    lines = _floor(
        tmp_path,
        "effectPreview",
        f"{json.dumps(effects)}.map((e) => effectPreview(e, {json.dumps(TABLE)}, {name}))",
    )
    assert lines == [
        "Kill the hand of seat 3 (Cy): its chips stay in the pot.",
        "All 20 in the middle → seat 1 (Ann)",
        "All 20 in the middle → seat 1 (Ann) and seat 3 (Cy), 10 each",
        "Take 5 chips from seat 1 (Ann)'s stack.",
        "Misdeal: the hand is cancelled and every chip goes back.",
    ]


def test_how_long_a_call_has_waited_and_what_the_dealer_entered(tmp_path: Path) -> None:
    """Seconds, then minutes, then hours; an entry with its cards."""
    waited = _floor(tmp_path, "duration", "[4, 65, 3725].map(duration)")
    assert waited == ["4 s", "1 min 05 s", "1 h 02 min"]
    entry = {"seat": 3, "action": "show", "cards": "Kc Qh Js 8d 3c"}
    assert _floor(tmp_path, "entryText", f"entryText({json.dumps(entry)})") == (
        "seat 3 show Kc Qh Js 8d 3c"
    )


def test_a_verify_with_no_events_is_not_verified(tmp_path: Path) -> None:
    """ok with 0 events is "nothing verified", never the green verdict; problems are red."""
    reports = [
        [{"ok": True, "events": 0, "hands": 0, "problems": []}, "NOPE"],
        [{"ok": True, "events": 0, "hands": 0, "problems": []}, ""],
        [{"ok": True, "events": 12, "hands": 1, "problems": []}, "T1"],
        [{"ok": False, "events": 12, "hands": 1, "problems": [{}]}, "T1"],
    ]
    verdicts = _node_json(
        tmp_path, "audit.js", "verdict", f"{json.dumps(reports)}.map(([r, t]) => verdict(r, t))"
    )
    assert [v["kind"] for v in verdicts] == ["empty", "empty", "ok", "bad"]
    assert verdicts[0]["text"] == "⚠ Nothing verified: the audit store has no events of table NOPE"


def test_a_replayed_entry_in_words(tmp_path: Path) -> None:
    """A ruling with its note, a refusal with its rule, a floor call, an action with cards."""
    steps = [
        {"kind": "ruling", "ruling": {"decision": "custom", "rule_id": "IRREG-13",
                                      "effects": [{"effect": "kill_hand"}], "note": "fouled"}},
        {"kind": "rejected", "refused": {"rule_id": "BET-08"},
         "command": {"seat": 2, "action": "check"}},
        {"kind": "floor_call", "call": {"rule_id": "SHOW-04", "note": "miscall"}},
        {"kind": "action", "command": {"seat": 1, "action": "show", "cards": "Kc Kd"}},
    ]  # fmt: skip
    words = _node_json(tmp_path, "audit.js", "stepText", f"{json.dumps(steps)}.map(stepText)")
    assert words == [
        "Ruling: custom (IRREG-13) — kill hand — “fouled”",
        "Refused by BET-08: seat 2 check",
        "Floor called (SHOW-04): miscall",
        "seat 1 show Kc Kd",
    ]
