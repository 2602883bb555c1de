"""The dealer tablet's pure helpers (tablet.js), run by node: the tap guard, the kept
instructions, the pots line, the entry words and the countdown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from api.test_web import _node_json


def _run(tmp_path: Path, names: str, expression: str) -> Any:
    return _node_json(tmp_path, "tablet.js", names, expression)


def test_the_tap_guard_holds_a_new_state_for_400_ms_and_not_the_same_one(tmp_path: Path) -> None:
    """A new version drawn at t=1000 refuses a tap at 1180 and takes one at 1400; the same
    version drawn again does not hold the buttons again."""
    found = _run(tmp_path, "TapGuard", """(() => {
        let now = 1000; const g = new TapGuard(400, () => now);
        const out = [g.drawn("v1|call"), g.accepts(1180), g.accepts(1400)];
        now = 1500; out.push(g.drawn("v1|call"), g.accepts(1501));
        now = 1600; out.push(g.drawn("v2|call"), g.accepts(1700));
        return out; })()""")  # fmt: skip
    assert found == [True, False, True, False, True, True, False]


def test_a_poll_answer_overtaken_by_a_newer_state_or_the_same_state_is_not_drawn(
    tmp_path: Path,
) -> None:
    """A poll sent before an entry and answered after it: an older version of the table
    shown (v5 under v6) is not drawn, nor one for a table no longer shown (the floor opened
    T2 meanwhile); v6 again, the change's answer without its event and notices, is the
    same state (not redrawn), and v6 with "time" offered is not."""
    found = _node_json(tmp_path, "table_view.js", "TablePoller, sameState", """(() => {
        const store = new Map([["dealerassist.table", "T1"]]);
        globalThis.sessionStorage = { getItem: (k) => store.get(k) ?? null,
                                      setItem: (k, v) => store.set(k, v) };
        const p = new TablePoller(() => {});
        p.table = { table_id: "T1", version: 6 };
        const out = [5, 6, 7].map((version) => p.overtaken("T1", { table_id: "T1", version }));
        store.set("dealerassist.table", "T2");
        out.push(p.overtaken("T1", { table_id: "T1", version: 7 }),
                 p.overtaken("T2", { table_id: "T2", version: 1 }));
        const a = { table_id: "T1", version: 6, next: { seat: 3, legal: [] } };
        out.push(sameState({ ...a, event: { seq: 4 }, notices: [] }, a),
                 sameState(a, { ...a, next: { seat: 3, legal: [{ action: "time" }] } }));
        return out; })()""")  # fmt: skip
    assert found == [True, False, False, True, False, True, False]


def test_instructions_stay_until_the_phase_ends(tmp_path: Path) -> None:
    """The deal list given at the big blind's post is still shown (not bold) after seat 4
    calls in the same betting round; a new phase starts a new list."""
    first = {
        "version": 5,
        "hand": {"hand_no": 1, "phase": "betting_1"},
        "instructions": [{"code": "deal", "text": "Deal five cards to each"}],
    }
    second = {
        "version": 6,
        "hand": {"hand_no": 1, "phase": "betting_1"},
        "instructions": [{"code": "act", "text": "Seat 5 to act"}],
    }
    third = {"version": 9, "hand": {"hand_no": 1, "phase": "draw_1"},
             "instructions": []}  # fmt: skip
    kept = _run(tmp_path, "keepInstructions", f"""(() => {{
        const a = keepInstructions({{ key: null, version: null, steps: [] }}, {json.dumps(first)});
        const b = keepInstructions(a, {json.dumps(second)});
        const c = keepInstructions(b, {json.dumps(third)});
        return [b.steps, c.steps]; }})()""")  # fmt: skip
    assert [(s["text"], s["current"]) for s in kept[0]] == [
        ("Seat 5 to act", True),
        ("Deal five cards to each", False),
    ]
    assert kept[1] == []


def test_the_pots_line_names_each_pot_its_amount_and_its_seats(tmp_path: Path) -> None:
    """Seat 1 all in for 10, seats 2 and 3 in for 30: the main pot 30 for seats 1, 2, 3 and
    a side pot 40 for seats 2 and 3; one pot alone is not repeated before the showdown."""
    players = [
        {"seat": 1, "committed": 10, "bet": 10, "folded": False},
        {"seat": 2, "committed": 30, "bet": 30, "folded": False},
        {"seat": 3, "committed": 30, "bet": 30, "folded": False},
    ]
    hand = {"phase": "betting_1", "total_pot": 70, "players": players}
    one = {"phase": "betting_1", "total_pot": 60, "players": players[1:]}
    text = _run(
        tmp_path, "potsText", f"[potsText({json.dumps(hand)}), potsText({json.dumps(one)})]"
    )
    assert text == ["Main pot 30: seats 1, 2, 3 · Side pot 1 40: seats 2, 3", ""]


def test_entry_words_and_the_countdown(tmp_path: Path) -> None:
    found = _run(tmp_path, "entryText, countdown", """[
        entryText({seat: 5, action: "call"}), entryText({seat: 2, action: "raise", amount: 8}),
        entryText({seat: 3, action: "draw", count: 0}),
        entryText({seat: 3, action: "draw", count: 2}),
        countdown(7001), countdown(-5), countdown(65000)]""")  # fmt: skip
    assert found == [
        "Seat 5 · Call",
        "Seat 2 · Raise to 8",
        "Seat 3 · Pat",
        "Seat 3 · Draws 2",
        "0:08",
        "0:00",
        "1:05",
    ]


def test_no_limit_quick_amounts_min_half_pot_pot_and_all_in(tmp_path: Path) -> None:
    """No limit, blinds 5/10 and two calls (pot 30 with the small blind's 5 in): the big
    blind to raise to 20..500 is offered Min 20, ½ Pot 25, Pot 40 and All in 500 (the
    call is nothing to him; the pot is 30 + 0); facing nothing to call a bet of 8..500 with a
    pot of 30: ½ Pot 15, Pot 30."""
    hand = {"current_bet": 10, "total_pot": 30,
            "players": [{"seat": 3, "bet": 10, "stack": 490}]}  # fmt: skip
    raise_ = {"action": "raise", "min": 20, "max": 500}
    bet_hand = {"current_bet": 0, "total_pot": 30, "players": [{"seat": 3, "bet": 0, "stack": 490}]}
    bet = {"action": "bet", "min": 8, "max": 490}
    found = _run(tmp_path, "quickAmounts", f"""[
        quickAmounts({json.dumps(raise_)}, {json.dumps(hand)}, 3),
        quickAmounts({json.dumps(bet)}, {json.dumps(bet_hand)}, 3)]""")  # fmt: skip
    assert found == [
        [["Min", 20], ["½ Pot", 25], ["Pot", 40], ["All in", 500]],
        [["Min", 8], ["½ Pot", 15], ["Pot", 30], ["All in", 490]],
    ]


def test_the_session_clock_counts_hands_and_hands_per_hour(tmp_path: Path) -> None:
    """Opened at hand 3; 45 minutes later hand 12 is over: 9 hands, 12 an hour; under a
    minute no rate is given."""
    found = _run(tmp_path, "sessionFigures", """[
        sessionFigures({at: 0, hand: 3}, {at: 45 * 60000, hand: 12}),
        sessionFigures({at: 0, hand: 3}, {at: 30000, hand: 3})]""")  # fmt: skip
    assert found == [
        {"clock": "0:45", "hands": 9, "perHour": 12},
        {"clock": "0:00", "hands": 0, "perHour": None},
    ]


def test_the_seat_map_goes_clockwise_from_the_dealers_left_without_two_tiles_on_one_spot(
    tmp_path: Path,
) -> None:
    """seatSlots(n) for 2 to 10 seats: seat 1 in the bottom row left of the dealer's middle
    columns, the last seat in it right of them, the others up the left side, across the top
    and down the right; no two tiles (two columns wide) share a cell of the 10-column grid."""
    found = _node_json(
        tmp_path, "table_view.js", "seatSlots",
        "[2,3,4,5,6,7,8,9,10].map((n) => seatSlots(n))",
    )  # fmt: skip
    for count, layout in zip(range(2, 11), found, strict=True):
        slots, rows = layout["slots"], layout["rows"]
        assert len(slots) == count
        cells = [(s["row"], s["col"] + i) for s in slots for i in (0, 1)]
        assert len(set(cells)) == len(cells), count
        assert all(1 <= col <= 10 for _, col in cells)
        assert slots[0] == {"row": rows, "col": 2} and slots[-1] == {"row": rows, "col": 8}
        middle = [(s["row"], s["col"]) for s in slots[1:-1]]
        left = [c for c in middle if c[1] == 1]
        top = [c for c in middle if c[0] == 1]
        right = [c for c in middle if c[1] == 9]
        assert middle == left + top + right, count  # clockwise: up, across, down
        assert [r for r, _ in left] == sorted((r for r, _ in left), reverse=True)
        assert [c for _, c in top] == sorted(c for _, c in top)
        assert [r for r, _ in right] == sorted(r for r, _ in right)


def test_a_shortcut_never_fires_while_typing_with_a_modifier_or_under_a_dialog(
    tmp_path: Path,
) -> None:
    """shortcutTarget: "f" on the page finds the Fold button; in a field, with Ctrl, as a
    key's repeat, with a dialog open, or for a disabled button or a DRAW-07 pat change's,
    nothing."""
    found = _run(tmp_path, "shortcutTarget", """(() => {
        const button = (key, extra = {}) =>
          ({ key, disabled: false, closest: () => null, ...extra });
        const root = (buttons, dialog = null) => ({
          querySelector: () => dialog,
          querySelectorAll: (sel) => buttons.filter((b) => sel.includes(`"${b.key}"`)),
        });
        const page = { closest: () => null };
        const field = { closest: (sel) => (sel.includes("input") ? {} : null) };
        const fold = button("F");
        const ev = (extra) => ({ key: "f", target: page, ...extra });
        return [
          shortcutTarget(ev({}), root([fold])) === fold,
          shortcutTarget(ev({ target: field }), root([fold])),
          shortcutTarget(ev({ ctrlKey: true }), root([fold])),
          shortcutTarget(ev({ repeat: true }), root([fold])),
          shortcutTarget(ev({}), root([fold], {})),
          shortcutTarget(ev({}), root([button("F", { disabled: true })])),
          shortcutTarget(ev({}), root([button("F", { closest: () => ({}) })])),
          shortcutTarget(ev({ key: "Enter" }), root([fold])),
        ]; })()""")  # fmt: skip
    assert found == [True, None, None, None, None, None, None, None]
