"""The engine's events (``rules/model/outcomes.py``): every type listed, each encoding byte for
byte as the dict literals it replaced (key order included: the audit chain stores compact
JSON of them and hashes it), each read back from its JSON, and every event the engine emits
over the recorded hands one of the listed types."""

from __future__ import annotations

import dataclasses
import json
import typing
from pathlib import Path

import pytest
from phh_data import PHH_DATA, acceptance_files

from dealerassist.audit.phh.reader import parse_phh, to_commands
from dealerassist.errors import DealerAssistError
from dealerassist.json_codec import compact
from dealerassist.profiles import get_profile
from dealerassist.replay import REPLAY_AT
from dealerassist.rules.engine import apply, new_table
from dealerassist.rules.floor.exposed import KEEP, REPLACE
from dealerassist.rules.hand.instructions import OWED_WORDS
from dealerassist.rules.hand.kills import KILL
from dealerassist.rules.hand.openers import SPLIT
from dealerassist.rules.model import outcomes
from dealerassist.rules.model.actions import Act, ActionKind
from dealerassist.rules.model.outcomes import (
    EVENT_TYPES,
    ActionTaken,
    AddedChips,
    AwardedResult,
    BettingReopened,
    BoxedCard,
    ButtonMoved,
    CancelledResult,
    ChangedSeat,
    ChoppedResult,
    DrawChanged,
    EntryAccepted,
    EntryOption,
    Event,
    Exposed,
    ExposedTaken,
    ExtraCard,
    FalseOpenerCleared,
    FloorWaitOver,
    HandCancelled,
    HandEnded,
    HandKilled,
    HandResult,
    HandStarted,
    KillLeg,
    KillRecord,
    Left,
    MissedBlind,
    Owed,
    PassedOut,
    PassedOutResult,
    PhaseEntered,
    Posted,
    PotAward,
    PotHeld,
    PotReleased,
    Returned,
    ReturnedToPlay,
    RulingMade,
    SatOut,
    Seated,
    StackAdjusted,
    TimeCollected,
    Voided,
    WaitsForBigBlind,
    event_from_json,
    result_from_json,
)
from dealerassist.rules.model.state import Phase, PlayerState
from dealerassist.rules.table.blinds import DEAD_SMALL, STRADDLE_OFFER, missed_marker
from dealerassist.rules.table.posting import POST_OPTIONS

RECORDED = Path(__file__).resolve().parents[3] / "hands" / "recorded"
_RESULT = AwardedResult(
    pots=(PotAward(6, (2, 3), (2,), {2: 6}, None),),
    winnings={2: 6},
    returned={},
    shown={2: "Ah Kh Qh Jh Th"},
    stacks={2: 104, 3: 94},
)
_ENTRY = {"type": "action", "seat": 3, "action": "draw", "amount": None, "count": 2}

# each event as it encodes, the compact JSON written as the dict literal it replaced wrote it
# (the order of the keys is the stored order: the audit chain hashes these bytes)
ENCODED: list[tuple[Event, str]] = [
    (ActionTaken(Act(2, ActionKind.POST)), '{"type":"action","seat":2,"action":"post"}'),
    (
        ActionTaken(
            Act(4, ActionKind.DRAW, count=2, discards=("7h", "2c"), option="split", rank="7")
        ),
        '{"type":"action","seat":4,"action":"draw","count":2,"discards":["7h","2c"],'
        '"rank":"7","option":"split"}',
    ),
    (
        ActionTaken(Act(1, ActionKind.SHOW, amount=5, cards=("Ah", "Kd"), ace_shown=True)),
        '{"type":"action","seat":1,"action":"show","amount":5,"cards":["Ah","Kd"],'
        '"ace_shown":true}',
    ),
    (PhaseEntered(Phase.BETTING_1), '{"type":"phase","phase":"betting_1"}'),
    (Posted(2, 1), '{"type":"posted","seat":2,"amount":1}'),
    (
        Posted(4, 4, EntryOption.STRADDLE),
        '{"type":"posted","seat":4,"amount":4,"option":"straddle"}',
    ),
    (WaitsForBigBlind(5), '{"type":"waits_for_big_blind","seat":5}'),
    (SatOut(3, MissedBlind.BIG), '{"type":"sat_out","seat":3,"missed_blind":"big"}'),
    (SatOut(3, None), '{"type":"sat_out","seat":3,"missed_blind":null}'),
    (Seated(3, "Cleo", 500), '{"type":"seated","seat":3,"player":"Cleo","stack":500}'),
    (Left(1, "P1", 90), '{"type":"left","seat":1,"player":"P1","stack":90}'),
    (ReturnedToPlay(2, True), '{"type":"returned_to_play","seat":2,"wait":true}'),
    (AddedChips(2, 50), '{"type":"added_chips","seat":2,"chips":50}'),
    (ChangedSeat(2, 6), '{"type":"changed_seat","seat":2,"to":6}'),
    (
        HandStarted(7, 1, (1, 2, 3)),
        '{"type":"hand_started","hand_no":7,"button":1,"dealt":[1,2,3]}',
    ),
    (
        HandStarted(8, 2, (1, 2), KillRecord(1, 4, 4, 8)),
        '{"type":"hand_started","hand_no":8,"button":2,"dealt":[1,2],'
        '"kill":{"seat":1,"blind":4,"small_bet":4,"big_bet":8}}',
    ),
    (
        HandEnded(_RESULT),
        '{"type":"hand_ended","result":{"pots":[{"amount":6,"eligible":[2,3],"winners":[2],'
        '"shares":{"2":6},"odd_chip":null}],"winnings":{"2":6},"returned":{},'
        '"shown":{"2":"Ah Kh Qh Jh Th"},"stacks":{"2":104,"3":94}}}',
    ),
    (
        HandCancelled(CancelledResult({1: 100})),
        '{"type":"hand_cancelled","result":{"pots":[],"cancelled":true,"stacks":{"1":100}}}',
    ),
    (
        PassedOut(PassedOutResult(3, {1: 99, 2: 98})),
        '{"type":"passed_out","result":{"pots":[],"passed_out":true,"carried":3,'
        '"stacks":{"1":99,"2":98}}}',
    ),
    (Returned(3, 10), '{"type":"returned","seat":3,"amount":10}'),
    (
        TimeCollected({"1": 6, "2": 4}, 10),
        '{"type":"time_collected","seats":{"1":6,"2":4},"amount":10}',
    ),
    (
        DrawChanged(3, [_ENTRY]),
        '{"type":"draw_changed","seat":3,"was":[{"type":"action","seat":3,"action":"draw",'
        '"amount":null,"count":2}]}',
    ),
    (
        Exposed(2, "6", "replace"),
        '{"type":"exposed","seat":2,"exposed":"6","ruling":"replace"}',
    ),
    (ExtraCard(1, "8h", "burn"), '{"type":"extra_card","seat":1,"card":"8h","ruling":"burn"}'),
    (
        ExtraCard(3, None, "misdeal"),
        '{"type":"extra_card","seat":3,"card":null,"ruling":"misdeal"}',
    ),
    (BoxedCard(2, "Jk", 1), '{"type":"boxed_card","seat":2,"card":"Jk","boxed":1}'),
    (
        RulingMade("IRREG-02", "play_on", ()),
        '{"type":"ruling","rule_id":"IRREG-02","decision":"play_on","effects":[]}',
    ),
    (
        RulingMade(None, "void", ("void_last", "hold_pot")),
        '{"type":"ruling","rule_id":null,"decision":"void","effects":["void_last","hold_pot"]}',
    ),
    (EntryAccepted("BET-03", 1), '{"type":"entry_accepted","waived":"BET-03","seat":1}'),
    (Voided([_ENTRY]), '{"type":"voided","actions":[' + compact(_ENTRY).decode() + "]}"),
    (HandKilled(3), '{"type":"hand_killed","seat":3}'),
    (
        StackAdjusted(2, -5, 95),
        '{"type":"stack_adjusted","seat":2,"amount":-5,"stack":95}',
    ),
    (
        StackAdjusted(2, 20, 95, 20),
        '{"type":"stack_adjusted","seat":2,"amount":20,"stack":95,"added":20}',
    ),
    (ButtonMoved(4), '{"type":"button_moved","next_button":4}'),
    (BettingReopened(2), '{"type":"betting_reopened","seat":2}'),
    (PotHeld(), '{"type":"pot_held"}'),
    (PotReleased(), '{"type":"pot_released"}'),
    (
        FalseOpenerCleared(None, "P3"),
        '{"type":"false_opener_cleared","seat":null,"player":"P3"}',
    ),
    (ExposedTaken(2, "Qs"), '{"type":"exposed_taken","seat":2,"card":"Qs"}'),
    (FloorWaitOver("IRREG-04"), '{"type":"floor_wait_over","rule_id":"IRREG-04"}'),
]


def test_the_module_lists_every_event_type_once_as_a_frozen_slotted_dataclass() -> None:
    """``EVENT_TYPES`` is the ``Event`` union, each type named once by its stored ``type``."""
    assert set(EVENT_TYPES) == set(typing.get_args(outcomes.Event))
    assert len({cls.TYPE for cls in EVENT_TYPES}) == len(EVENT_TYPES) == 32
    for cls in EVENT_TYPES:
        params = getattr(cls, "__dataclass_params__")  # noqa: B009
        assert params.frozen and "__slots__" in vars(cls), cls


def test_every_type_has_an_encoding_pinned_here() -> None:
    assert {type(event) for event, _ in ENCODED} == set(EVENT_TYPES)


_RAKED = PotAward(30, (1, 2, 3), (1, 3), {3: 14, 1: 13}, 3, False, 2, 1)
# each kind of hand result with every optional key set and unset, as the engine stored it
RESULTS: list[tuple[HandResult, str]] = [
    (
        AwardedResult(
            pots=(_RAKED, PotAward(10, (1, 3), (1,), {1: 10}, None)),
            winnings={1: 23, 3: 14},
            returned={2: 5},
            shown={1: "Ah Ad Kc Ks 2d", 3: "Ac Ah Kd Kh 2c"},
            rake=2,
            jackpot_drop=1,
            jokers={1: "A"},
            stacks={1: 123, 2: 70, 3: 114},
            kill_leg=KillLeg(None, 0),
        ),
        '{"pots":[{"amount":30,"eligible":[1,2,3],"winners":[1,3],"shares":{"3":14,"1":13},'
        '"odd_chip":3,"rake":2,"jackpot_drop":1},{"amount":10,"eligible":[1,3],"winners":[1],'
        '"shares":{"1":10},"odd_chip":null}],"rake":2,"jackpot_drop":1,'
        '"winnings":{"1":23,"3":14},"returned":{"2":5},'
        '"shown":{"1":"Ah Ad Kc Ks 2d","3":"Ac Ah Kd Kh 2c"},"jokers":{"1":"A"},'
        '"stacks":{"1":123,"2":70,"3":114},"kill_leg":{"seat":null,"legs":0}}',
    ),
    (
        AwardedResult(
            pots=(PotAward(8, (2, 3), (2,), {2: 8}, None, by_ruling=True),),
            winnings={2: 8},
            returned={},
            shown={},
            kill_leg=KillLeg(2, 1),
        ),
        '{"pots":[{"amount":8,"eligible":[2,3],"winners":[2],"shares":{"2":8},"odd_chip":null,'
        '"by_ruling":true}],"winnings":{"2":8},"returned":{},"shown":{},'
        '"kill_leg":{"seat":2,"legs":1}}',
    ),
    (
        CancelledResult({1: 100, 2: 98}, carried=4),
        '{"pots":[],"cancelled":true,"stacks":{"1":100,"2":98},"carried":4}',
    ),
    (
        CancelledResult({1: 100}, misdeal=True),
        '{"pots":[],"cancelled":true,"misdeal":true,"stacks":{"1":100}}',
    ),
    (
        PassedOutResult(6, {1: 98, 2: 98, 3: 98}),
        '{"pots":[],"passed_out":true,"carried":6,"stacks":{"1":98,"2":98,"3":98}}',
    ),
    (
        ChoppedResult({1: 1, 2: 2}, {1: 100, 2: 100}),
        '{"pots":[],"chopped":{"1":1,"2":2},"stacks":{"1":100,"2":100}}',
    ),
]


@pytest.mark.parametrize(("result", "stored"), RESULTS, ids=lambda item: type(item).__name__)
def test_each_hand_result_encodes_as_stored_and_reads_back(result: HandResult, stored: str) -> None:
    """A hand's result writes the keys the engine's dicts wrote, in their order, an optional
    key only when set; ``result_from_json`` tells the kind from its marking key."""
    assert json.dumps(result.to_json(), separators=(",", ":")) == stored
    back = result_from_json(json.loads(stored))
    assert back == result and type(back) is type(result)


@pytest.mark.parametrize(("event", "stored"), ENCODED, ids=lambda v: getattr(v, "TYPE", ""))
def test_each_event_encodes_as_stored_and_reads_back(event: Event, stored: str) -> None:
    """Byte for byte the old dict literal's compact JSON (key order kept), and read back from
    that JSON it is the same event."""
    assert compact(event.to_json()).decode() == stored
    assert event_from_json(json.loads(stored)) == event


def test_an_event_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Posted(2, 1).seat = 3  # type: ignore[misc]


def test_an_unknown_type_is_not_read() -> None:
    with pytest.raises(KeyError):
        event_from_json({"type": "table_created"})


def _hand_texts() -> list[str]:
    paths = [*acceptance_files(PHH_DATA), *sorted(RECORDED.glob("*.phh"))]
    texts = [path.read_text(encoding="utf-8") for path in paths]
    return [text for text in texts if parse_phh(text).variant in ("F2L3D", "N2L1D")]


def test_every_event_over_the_recorded_hands_is_a_listed_type_and_round_trips() -> None:
    """Over the real, generated and service-exported hands (replay-permissive), every event
    is an instance of a listed type and reads back from its stored JSON unchanged (a hand
    stops at a refused entry, as ``bench/engine_fingerprint.py`` replays them)."""
    rules = get_profile("replay-permissive")
    seen: set[str] = set()
    accepted = 0
    for text in _hand_texts():
        try:
            spec, commands = to_commands(parse_phh(text), rules.profile_id)
        except DealerAssistError:
            continue
        state = new_table(spec)
        for command in commands:
            try:
                outcome = apply(state, command, rules, REPLAY_AT)
            except DealerAssistError:
                break
            accepted += 1
            for event in outcome.events:
                assert isinstance(event, EVENT_TYPES), event
                stored = json.loads(compact(event.to_json()))
                assert event_from_json(stored) == event
                seen.add(event.TYPE)
            state = outcome.state
    assert accepted > 5000
    assert {"action", "phase", "posted", "hand_started", "hand_ended", "returned"} <= seen


def test_the_closed_sets_are_the_values_the_hooks_name() -> None:
    """``EntryOption`` is every option an entry may carry (the API's schema lists it), in the
    hooks' own words; ``Owed`` every part a seat may owe, each worded for the dealer;
    ``MissedBlind`` the markers BLIND-07 gives."""
    assert list(EntryOption) == [*POST_OPTIONS, SPLIT, KEEP, REPLACE]
    assert {DEAD_SMALL, STRADDLE_OFFER, KILL} <= set(Owed)
    assert set(OWED_WORDS) == set(Owed)
    owing = [PlayerState(1, 100, owes_what=(owed,)) for owed in ("big_blind", "small_blind")]
    assert [missed_marker(player) for player in owing] == [MissedBlind.BIG, MissedBlind.SMALL]
    assert set(MissedBlind) == {MissedBlind.BIG, MissedBlind.SMALL}
