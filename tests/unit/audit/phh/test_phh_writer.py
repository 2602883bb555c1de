"""PHH export of audited hands (dealerassist.audit.phh.writer), replayed with pokerkit."""

from __future__ import annotations

import random
import tomllib
import warnings
from datetime import UTC, datetime
from typing import Any

import pokerkit
import pytest
from audit_chains import record
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealerassist.audit.hands import hand_records, table_at_hand_start
from dealerassist.audit.phh.reader import parse_phh
from dealerassist.audit.phh.writer import hand_to_phh, to_phhs_lines
from dealerassist.audit.replay import ReplayEngine, load_engine
from dealerassist.errors import InvalidInput
from dealerassist.profiles import default_profiles_dir, load_profiles
from dealerassist.rules.engine import apply, legal_actions, new_table
from dealerassist.rules.hand.dealing import deck_cards
from dealerassist.rules.model.actions import command_from_dict
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.violations import RuleViolation

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
LIMIT = {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20}


@pytest.fixture(scope="module")
def engine() -> ReplayEngine:
    loaded = load_engine()
    assert loaded is not None
    return loaded


def _rules(profile_id: str) -> HouseRules:
    return load_profiles(default_profiles_dir())[profile_id]


def _play(
    rules: HouseRules, variant: str, stacks: dict[int, int], button: int, script: list[str]
) -> list[dict[str, Any]]:
    """Commands of one hand: seats, start, then steps ("post", "bet", "draw2", "show:7h5d...")."""
    spec = {
        "table_id": "T9",
        "variant": variant,
        "structure": "fixed_limit",
        "stakes": LIMIT,
        "profile_id": rules.profile_id,
    }
    commands: list[dict[str, Any]] = [{"type": "create_table", "spec": spec}]
    commands += [
        {"type": "seat", "seat": seat, "player": f"P{seat}", "stack": stack}
        for seat, stack in stacks.items()
    ]
    commands.append({"type": "start_hand", "button": button})
    return _steps(commands, rules, script)


def _steps(
    commands: list[dict[str, Any]], rules: HouseRules, script: list[str]
) -> list[dict[str, Any]]:
    """Append one command per step, for whichever seat is to act."""
    for step in script:
        legal = legal_actions(_state(commands, rules), rules, AT)
        assert legal is not None, f"the hand ended before {step!r}"
        command: dict[str, Any] = {"type": "action", "seat": legal["seat"]}
        if step.startswith("draw"):
            command.update(action="draw", count=int(step[4:]))
        elif step.startswith("show:"):
            cards = step[5:]
            command.update(action="show", cards=[cards[i : i + 2] for i in range(0, 10, 2)])
        elif step in ("bet", "raise"):
            option = next(o for o in legal["legal"] if o["action"] == step)
            command.update(action=step, amount=option["min"])
        else:
            command["action"] = step
        commands.append(command)
    return commands


def _state(commands: list[dict[str, Any]], rules: HouseRules) -> Any:
    state = None
    for data in commands:
        command = command_from_dict(data)
        state = apply(
            state if state is not None else new_table(command.spec), command, rules, AT
        ).state
    return state


def _hand_record(events: list[dict[str, Any]], hand_no: int = 1) -> dict[str, Any]:
    """The record SqlAuditStore.get_hand builds, from the recorded events."""
    hand = [e for e in events if e["hand_no"] == hand_no]
    result = next(
        e["payload"]["result"] for e in hand if e["kind"] != "rejected" and e["payload"]["result"]
    )
    return {
        "table_id": hand[0]["table_id"],
        "hand_no": hand_no,
        "profile_id": hand[0]["profile_id"],
        "profile_sha256": hand[0]["profile_sha256"],
        "started_at": hand[0]["at"],
        "ended_at": hand[-1]["at"],
        "result": result,
        "events": hand,
        "table": table_at_hand_start(e for e in events if e["seq"] < hand[0]["seq"]),
    }


def _pokerkit_stacks(text: str) -> list[int]:
    state = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about unknown cards
        for state in pokerkit.HandHistory.loads(text):  # noqa: B007 - the last state counts
            pass
    assert state is not None
    return list(state.stacks)


TRIPLE_DRAW_SCRIPT = [
    "post", "post", "call", "call", "check",
    "draw2", "draw1", "draw3", "bet", "call", "fold",
    "draw0", "draw1", "check", "bet", "call",
    "draw0", "draw0", "check", "check",
    "show:7h5d4c3s2h", "show:8h6d4s3c2d",
]  # fmt: skip


def test_triple_draw_hand_replays_in_pokerkit_to_our_stacks(engine: ReplayEngine) -> None:
    """A 3-handed 2-7 triple draw hand (draws, a fold, a showdown) exports as F2L3D that
    pokerkit replays to the finishing stacks our engine recorded."""
    rules = _rules("casino-triple-draw-27")
    commands = _play(
        rules, "deuce_to_seven_triple_draw", {1: 500, 3: 300, 4: 400}, 1, TRIPLE_DRAW_SCRIPT
    )
    record_ = _hand_record(record(engine, commands, rules))
    text = hand_to_phh(record_)
    data = tomllib.loads(text)
    assert data["variant"] == "F2L3D"
    assert data["players"] == ["P3", "P4", "P1"]
    assert data["starting_stacks"] == [300, 400, 500]
    ours = [record_["result"]["stacks"][str(seat)] for seat in (3, 4, 1)]
    assert data["finishing_stacks"] == ours
    assert _pokerkit_stacks(text) == ours
    assert parse_phh(text).variant == "F2L3D"


def test_actions_voided_by_a_ruling_are_not_in_the_history(engine: ReplayEngine) -> None:
    """A call voided by the floor (void_last) and entered again as a fold: the PHH has the
    fold only, and pokerkit replays it to the stacks our engine recorded."""
    rules = _rules("casino-triple-draw-27")
    commands = _play(
        rules, "deuce_to_seven_triple_draw", {1: 500, 3: 300, 4: 400}, 1, ["post", "post", "call"]
    )
    voided = dict(commands[-1])
    commands.append(
        {"type": "ruling", "decision": "custom", "note": "misentry",
         "effects": [{"effect": "void_last", "count": 1}]}
    )  # fmt: skip
    commands = _steps(commands, rules, ["fold", "call", "check", "draw2", "draw1", "bet", "fold"])
    record_ = _hand_record(record(engine, commands, rules))
    text = hand_to_phh(record_)
    actions = tomllib.loads(text)["actions"]
    name = f"p{[3, 4, 1].index(voided['seat']) + 1}"
    assert actions[3] == f"{name} f" and f"{name} cc" not in actions
    (ruling,) = tomllib.loads(text)["_rulings"]
    assert ruling.startswith("seq ") and "custom void_last count 1, by " in ruling
    assert ruling.endswith("; note: misentry")  # the floor's note is kept (issue 18)
    ours = [record_["result"]["stacks"][str(seat)] for seat in (3, 4, 1)]
    assert _pokerkit_stacks(text) == ours


def test_a_changed_pat_leaves_only_the_draw_in_the_history(engine: ReplayEngine) -> None:
    """DRAW-07: the last drawer stood pat, then drew two before anyone bet; the PHH has the
    two-card draw only (one discard line for that round), and pokerkit agrees on stacks."""
    rules = _rules("casino-triple-draw-27")
    script = ["post", "post", "call", "call", "check", "draw2", "draw1", "draw0"]
    commands = _play(rules, "deuce_to_seven_triple_draw", {1: 500, 3: 300, 4: 400}, 1, script)
    last = commands[-1]
    commands.append({"type": "action", "seat": last["seat"], "action": "draw", "count": 2})
    commands = _steps(commands, rules, ["bet", "fold", "fold"])
    record_ = _hand_record(record(engine, commands, rules))
    assert not any(e["kind"] == "rejected" for e in record(engine, commands, rules))
    text = hand_to_phh(record_)
    actions = tomllib.loads(text)["actions"]
    name = f"p{[3, 4, 1].index(last['seat']) + 1}"
    assert [a for a in actions if a.startswith(f"{name} sd")] == [f"{name} sd ????"]
    ours = [record_["result"]["stacks"][str(seat)] for seat in (3, 4, 1)]
    assert _pokerkit_stacks(text) == ours


def test_the_next_hand_starts_from_stacks_a_ruling_adjusted(engine: ReplayEngine) -> None:
    """adjust_stack between hands (IRREG-14 allows it until the next hand starts): the next
    hand's record starts from the adjusted stack, as the engine's table did."""
    rules = _rules("casino-triple-draw-27")
    commands = _play(
        rules, "deuce_to_seven_triple_draw", {1: 500, 3: 300, 4: 400}, 1, ["post", "post", "raise"]
    )
    commands = _steps(commands, rules, ["fold", "fold"])
    commands.append(
        {"type": "ruling", "decision": "custom", "note": "chip count",
         "effects": [{"effect": "adjust_stack", "seat": 4, "amount": 25}]}
    )  # fmt: skip
    commands.append({"type": "start_hand", "button": None})
    state = _state(commands, rules)
    events = record(engine, commands, rules)
    start = table_at_hand_start(e for e in events if e["hand_no"] != 2)
    assert {seat: info["stack"] for seat, info in start["seats"].items()} == {
        seat.seat: seat.stack for seat in state.seats if seat.player
    }
    assert start["seats"][4]["stack"] == 400 - 10 + 25


def test_a_kill_pot_is_named_in_the_history(engine: ReplayEngine) -> None:
    """PHH has no kill blind: the hand's kill (KILL-01) is written as a _kill table, with the
    player who kills (seat 1, after the button: player 3), and a hand without one has none."""
    rules = _rules("casino-triple-draw-27")
    commands = _play(
        rules, "deuce_to_seven_triple_draw", {1: 500, 3: 300, 4: 400}, 1, TRIPLE_DRAW_SCRIPT
    )
    record_ = _hand_record(record(engine, commands, rules))
    assert "_kill" not in tomllib.loads(hand_to_phh(record_))
    kill = {"seat": 1, "blind": 20, "small_bet": 20, "big_bet": 40}
    for event in record_["events"]:
        for item in event["payload"].get("events") or ():
            if item.get("type") == "hand_started":
                item["kill"] = kill
    assert tomllib.loads(hand_to_phh(record_))["_kill"] == {**kill, "player": 3}


def test_draw_round_discards_come_before_its_deals(engine: ReplayEngine) -> None:
    """Within a draw round every discard precedes the replacement deals (as PHH orders them)."""
    rules = _rules("casino-triple-draw-27")
    commands = _play(
        rules, "deuce_to_seven_triple_draw", {1: 500, 3: 300, 4: 400}, 1, TRIPLE_DRAW_SCRIPT
    )
    actions = tomllib.loads(hand_to_phh(_hand_record(record(engine, commands, rules))))["actions"]
    first_draw = actions[6:12]
    assert first_draw == [
        "p1 sd ????",
        "p2 sd ??",
        "p3 sd ??????",
        "d dh p1 ????",
        "d dh p2 ??",
        "d dh p3 ??????",
    ]
    assert actions[:3] == ["d dh p1 ??????????", "d dh p2 ??????????", "d dh p3 ??????????"]


def test_heads_up_puts_the_big_blind_first(engine: ReplayEngine) -> None:
    """Heads-up, player 1 is the big blind and player 2 the button; pokerkit agrees on stacks."""
    rules = _rules("casino-triple-draw-27")
    script = ["post", "post", "raise", "fold"]
    commands = _play(rules, "deuce_to_seven_triple_draw", {2: 200, 5: 300}, 2, script)
    record_ = _hand_record(record(engine, commands, rules))
    text = hand_to_phh(record_)
    data = tomllib.loads(text)
    assert data["players"] == ["P5", "P2"]
    assert data["blinds_or_straddles"] == [5, 10]
    assert (
        _pokerkit_stacks(text)
        == data["finishing_stacks"]
        == [record_["result"]["stacks"][s] for s in ("5", "2")]
    )


def test_a_game_without_a_phh_code_says_so(engine: ReplayEngine) -> None:
    """Five-card draw has no PHH variant code: the export names our game and says why."""
    rules = _rules("casino-five-card-draw")
    commands = _play(
        rules,
        "five_card_draw",
        {1: 100, 2: 100, 3: 100},
        1,
        ["post", "post", "raise", "fold", "fold"],
    )
    text = hand_to_phh(_hand_record(record(engine, commands, rules)))
    assert text.startswith("# PHH has no variant code for fixed_limit/five_card_draw")
    data = tomllib.loads(text)
    assert data["variant"] == "fixed_limit/five_card_draw"
    assert data["_table_id"] == "T9" and data["_last_seq"] > data["_first_seq"]


def test_refused_entries_are_left_out(engine: ReplayEngine) -> None:
    """A refused entry (audited as rejected) writes no PHH action."""
    rules = _rules("casino-five-card-draw")
    commands = _play(
        rules, "five_card_draw", {1: 100, 2: 100, 3: 100}, 1, ["post", "post", "raise"]
    )
    commands.append(
        {"type": "action", "seat": 2, "action": "check"}
    )  # refused: seat 2 faces a raise
    commands += [
        {"type": "action", "seat": 2, "action": "fold"},
        {"type": "action", "seat": 3, "action": "fold"},
    ]
    events = record(engine, commands, rules)
    assert sum(e["kind"] == "rejected" for e in events) == 1
    actions = tomllib.loads(hand_to_phh(_hand_record(events)))["actions"]
    assert actions[3:] == ["p3 cbr 20", "p1 f", "p2 f"]


def test_hand_records_of_a_log_and_a_phhs_file_pokerkit_reads(engine: ReplayEngine) -> None:
    """hand_records finds each finished hand in one pass; to_phhs_lines writes them as .phhs
    sections that pokerkit replays to our stacks, the second hand starting from the first's."""
    rules = _rules("casino-triple-draw-27")
    commands = _play(
        rules, "deuce_to_seven_triple_draw", {1: 500, 3: 300, 4: 400}, 1, TRIPLE_DRAW_SCRIPT
    )
    commands.append({"type": "start_hand", "button": None})
    events = record(
        engine, _steps(commands, rules, ["post", "post", "raise", "fold", "fold"]), rules
    )
    hands = list(hand_records(events))
    assert [hand["hand_no"] for hand in hands] == [1, 2]
    assert hands[0] == _hand_record(events, 1)
    assert hands[1]["table"]["seats"][3]["stack"] == hands[0]["result"]["stacks"]["3"]
    text = "".join(to_phhs_lines(hands))
    histories = list(pokerkit.HandHistory.loads_all(text))
    assert len(histories) == 2
    for history, hand in zip(histories, hands, strict=True):
        assert _pokerkit_stacks(history.dumps()) == list(history.finishing_stacks)
        assert sorted(history.finishing_stacks) == sorted(hand["result"]["stacks"].values())


def test_seats_sitting_out_moved_or_topped_up_export_as_dealt(engine: ReplayEngine) -> None:
    """Issue 5 seat commands: a seat sitting out is not a PHH player; a seat change and a
    top-up before the hand give the moved player's seat and stack."""
    rules = _rules("casino-triple-draw-27")
    stacks = {1: 500, 3: 300, 4: 400, 5: 200}
    commands = _play(rules, "deuce_to_seven_triple_draw", stacks, 1, [])
    start = commands.pop()
    commands += [
        {"type": "sit_out", "seat": 5},
        {"type": "change_seat", "seat": 4, "to": 6},
        {"type": "add_chips", "seat": 6, "chips": 100},
        start,
    ]
    commands = _steps(commands, rules, ["post", "post", "fold", "fold"])
    text = hand_to_phh(_hand_record(record(engine, commands, rules)))
    data = tomllib.loads(text)
    assert data["players"] == ["P3", "P4", "P1"]
    assert data["starting_stacks"] == [300, 500, 500]
    assert _pokerkit_stacks(text) == data["finishing_stacks"]


def _legal_entry(state: Any, rules: HouseRules, rng: random.Random) -> dict[str, Any] | None:
    """A random legal entry for the seat to act (None when nobody is to act)."""
    legal = legal_actions(state, rules, AT)
    if legal is None:
        return None
    option = rng.choice(legal["legal"])
    command: dict[str, Any] = {"type": "action", "seat": legal["seat"], "action": option["action"]}
    if option["action"] in ("bet", "raise"):
        command["amount"] = option["min"]
    elif option["action"] == "draw":
        command["count"] = rng.randint(0, option["max"])
    elif option["action"] == "show":
        shown = {c for p in state.hand.players if p.shown for c in p.shown}
        command["cards"] = rng.sample(sorted(deck_cards(state.hand.deck) - shown), 5)
    elif option["action"] == "sit_out":
        command["action"] = "post"
    return command


def _table_change(state: Any, rng: random.Random) -> dict[str, Any]:
    """A random change between hands: sit out, return, move, add chips, leave, a new player,
    or a floor's adjust_stack."""
    seated = [s.seat for s in state.seats if s.player]
    empty = [s.seat for s in state.seats if not s.player]
    seat = rng.choice(seated)
    choices: list[dict[str, Any]] = [
        {"type": "sit_out", "seat": seat},
        {"type": "return", "seat": seat, "wait": rng.random() < 0.5},
        {"type": "add_chips", "seat": seat, "chips": rng.choice([10, 55])},
        {"type": "ruling", "decision": "custom", "note": "count",
         "effects": [{"effect": "adjust_stack", "seat": seat, "amount": rng.choice([-3, 7])}]},
    ]  # fmt: skip
    if empty:
        choices.append({"type": "change_seat", "seat": seat, "to": rng.choice(empty)})
        choices.append({"type": "seat", "seat": empty[0], "player": "New", "stack": 80})
    if len(seated) > 3:
        choices.append({"type": "leave", "seat": seat})
    return rng.choice(choices)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6))
def test_every_hands_starting_table_is_the_engines(engine: ReplayEngine, seed: int) -> None:
    """A session of hands with random play and random changes between hands (and during
    them): the table each hand record starts from, rebuilt from the events before it,
    holds the players and stacks the engine's table held."""
    rng = random.Random(seed)
    rules = _rules("casino-five-card-draw")
    spec = {"table_id": "T9", "variant": "five_card_draw", "structure": "fixed_limit",
            "stakes": LIMIT, "profile_id": rules.profile_id, "max_seats": 6}  # fmt: skip
    commands: list[dict[str, Any]] = [{"type": "create_table", "spec": spec}]
    commands += [
        {"type": "seat", "seat": seat, "player": f"P{seat}", "stack": rng.choice([60, 200])}
        for seat in (1, 2, 3, 4)
    ]
    state = _state(commands, rules)
    starts: list[tuple[int, dict[int, tuple[str, int]]]] = []

    def enter(command: dict[str, Any]) -> None:
        nonlocal state
        try:
            state = apply(state, command_from_dict(command), rules, AT).state
        except (RuleViolation, InvalidInput):
            return
        commands.append(command)

    for number in range(4):
        for _ in range(rng.randint(0, 3) if number else 0):  # the first hand starts as seated
            enter(_table_change(state, rng))
        seats = {s.seat: (s.player, s.stack) for s in state.seats if s.player}
        before = len(commands)
        enter({"type": "start_hand", "button": 1 if number == 0 else None})
        if len(commands) == before:
            continue
        starts.append((before, seats))
        while (entry := _legal_entry(state, rules, rng)) is not None:
            if rng.random() < 0.05:
                enter(_table_change(state, rng))
            enter(entry)
    events = record(engine, commands, rules)
    assert all(event["kind"] != "rejected" for event in events)
    assert starts  # the first hand always starts (four players, fresh stacks)
    for index, seats in starts:
        table = table_at_hand_start(events[:index])
        rebuilt = {seat: (info["player"], info["stack"]) for seat, info in table["seats"].items()}
        assert rebuilt == seats, f"hand starting at event {index + 1}"


def test_control_characters_in_stored_names_still_export_as_toml(engine: ReplayEngine) -> None:
    """Names stored before the API refused control characters (DEL, NUL, ESC, C1) export as
    valid TOML all the same, each read back as the character it was; notes too."""
    rules = _rules("casino-triple-draw-27")
    names = {1: "Ann\x7f", 3: "B\x00b\x1b[31m", 4: "C\x85\x9f"}
    commands = _play(
        rules, "deuce_to_seven_triple_draw", {1: 500, 3: 300, 4: 400}, 1, ["post", "post"]
    )
    for command in commands:
        if command["type"] == "seat":
            command["player"] = names[command["seat"]]
    commands.append(
        {"type": "ruling", "decision": "custom", "note": "del\x7f here",
         "effects": [{"effect": "kill_hand", "seat": 1}]}
    )  # fmt: skip
    commands = _steps(commands, rules, ["fold"])
    text = hand_to_phh(_hand_record(record(engine, commands, rules)))
    data = tomllib.loads(text)
    assert data["players"] == [names[3], names[4], names[1]]
    (ruled,) = data["_ruled"]
    assert ruled[1]["note"] == "del\x7f here"
    text.encode()  # and UTF-8 throughout
