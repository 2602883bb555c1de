"""The house's take audited (RAKE-01..03, issue 23): the rake and jackpot drop of a hand played
through the service are in its audit events, verify replays them, the JSONL and CSV exports
carry them and the PHH export writes them, so that ``dealerassist replay`` and pokerkit (given
the recorded takes as its rake function) replay the export to the stacks we recorded."""

from __future__ import annotations

import tomllib
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any

import pokerkit
import pytest
from fakes import fake_services

from dealerassist.audit.export import to_csv_lines, to_jsonl_lines
from dealerassist.audit.hands import hand_records
from dealerassist.audit.phh.reader import parse_phh, replay_seats
from dealerassist.audit.phh.writer import hand_to_phh
from dealerassist.audit.verify import verify
from dealerassist.errors import InvalidInput
from dealerassist.profiles import get_profile
from dealerassist.replay import finishing_stacks, replay_file, replay_hand
from dealerassist.rules.model.house_rules import Collection, HouseRules, RakeRules
from dealerassist.service import tables as use_cases
from dealerassist.service.ports import AnswerKind

RAKED = "casino-five-card-draw-raked"
LIMIT = {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20}
ACTOR = use_cases.Actor("dealer-1", "dealer")
PRE = use_cases.Preconditions()


class Table:
    """One count-mode table played through the service use cases on fakes."""

    def __init__(self, rules: HouseRules, variant: str) -> None:
        self.rules = rules
        self.services = fake_services({rules.profile_id: rules})
        spec = {
            "table_id": "R1",
            "variant": variant,
            "structure": "fixed_limit",
            "stakes": LIMIT,
            "profile_id": rules.profile_id,
            "mode": "count",
        }
        self._check(use_cases.create_table(self.services, spec, ACTOR, PRE))
        for seat in (1, 2, 3):
            answer = use_cases.seat_player(self.services, "R1", seat, f"P{seat}", 500, ACTOR, PRE)
            self._check(answer)

    @staticmethod
    def _check(answer: Any) -> Any:
        assert answer.kind is not AnswerKind.REJECTED, answer.body
        return answer

    def play(self, steps: list[str]) -> None:
        self._check(use_cases.start_hand(self.services, "R1", 1, ACTOR, PRE))
        for step in steps:
            seat, action, *rest = step.split(maxsplit=2)
            body: dict[str, Any] = {"seat": int(seat), "action": action}
            if action in ("bet", "raise"):
                body["amount"] = int(rest[0])
            elif action == "draw":
                body["count"] = int(rest[0])
            elif action == "show":
                body["cards"] = rest[0]
            answer = use_cases.submit_action(self.services, "R1", body, ACTOR, PRE)
            self._check(answer)

    def events(self) -> list[dict[str, Any]]:
        return list(self.services.tables.staged)  # type: ignore[attr-defined]

    def record(self) -> dict[str, Any]:
        return next(hand for hand in hand_records(self.events()) if hand["hand_no"] == 1)


POSTS = ["2 post", "3 post", "1 call", "2 call", "3 check", "2 draw 1", "3 draw 2", "1 draw 3"]
DRAW_HAND = [*POSTS, "2 check", "3 bet 20", "1 call", "2 fold", "3 show Ah Ad Kc Qs 2h", "1 muck"]
TRIPLE_HAND = [
    *POSTS,
    *["2 check", "3 check", "1 check", "2 draw 0", "3 draw 0", "1 draw 0"],
    *["2 check", "3 check", "1 check", "2 draw 0", "3 draw 0", "1 draw 0"],
    *["2 check", "3 bet 20", "1 call", "2 fold", "3 show 7h 5s 4d 3c 2d", "1 muck"],
]


def test_RAKE_01_accepts_the_rake_in_the_audit_events_verify_and_the_exports() -> None:
    """casino-five-card-draw-raked, a pot of 70: the event that ends the hand records rake 4
    and jackpot drop 1 (the engine's hand_ended event and the result); verify replays the
    hand to the same amounts; JSONL and CSV carry them in the payload."""
    table = Table(get_profile(RAKED), "five_card_draw")
    table.play(DRAW_HAND)
    events = table.events()
    last = events[-1]["payload"]
    assert (last["result"]["rake"], last["result"]["jackpot_drop"]) == (4, 1)
    ended = next(e for e in last["events"] if e["type"] == "hand_ended")
    assert ended["result"]["pots"][0]["rake"] == 4
    report = verify(events, table.services.profiles.version)
    assert report["ok"] and report["hands"] == 1, report["problems"]
    assert '"jackpot_drop":1' in list(to_jsonl_lines(events))[-1]
    assert '""rake"":4' in list(to_csv_lines(events))[-1]


def test_RAKE_01_refuses_a_log_whose_rake_the_replay_does_not_take() -> None:
    """Verify replays the rake: the same log checked against rules taking 5% (the recorded
    profile's SHA-256, another rake) reports that the replayed result differs."""
    rules = get_profile(RAKED)
    table = Table(rules, "five_card_draw")
    table.play(DRAW_HAND)
    other = replace(rules, rake=replace(rules.rake, percent=5))
    report = verify(table.events(), lambda _profile, _sha: other)
    assert not report["ok"]
    assert "differ" in report["problems"][0]["why"]


def test_RAKE_01_accepts_the_phh_export_writing_the_take() -> None:
    """The PHH export writes PHH's post-rake ``winnings`` and our ``_rake``, ``_jackpot_drop``
    and ``_pot_rake`` (five-card draw has no PHH variant code, so the reader does not replay
    it: the triple-draw test below replays one)."""
    table = Table(get_profile(RAKED), "five_card_draw")
    table.play(DRAW_HAND)
    text = hand_to_phh(table.record())
    data = tomllib.loads(text)
    assert data["players"] == ["P2", "P3", "P1"]
    assert data["winnings"] == [0, 65, 0] and data["finishing_stacks"] == [490, 535, 470]
    assert (data["_rake"], data["_jackpot_drop"], data["_pot_rake"]) == (4, 1, [[70, 4, 1]])


def _recorded_rake(text: str) -> Any:
    """A pokerkit rake function taking what the export recorded from each pot (by its
    amount): ``_pot_rake`` = [[amount, rake, jackpot drop], ...]."""
    takes = {amount: rake + drop for amount, rake, drop in tomllib.loads(text)["_pot_rake"]}

    def rake(amount: int, _state: Any) -> tuple[int, int]:
        taken = takes.get(amount, 0)
        return taken, amount - taken

    return rake


def test_RAKE_01_accepts_pokerkit_replaying_a_raked_triple_draw_export(tmp_path: Path) -> None:
    """2-7 triple draw (PHH F2L3D, which pokerkit deals) under the raked profile's rake: pokerkit
    with a rake function taking the recorded ``_pot_rake`` reaches our finishing stacks, and so
    does ``dealerassist replay`` under the same rules; the rules without the rake do not."""
    raked = get_profile(RAKED)
    rules = replace(get_profile("casino-triple-draw-27"), rake=raked.rake)
    table = Table(rules, "deuce_to_seven_triple_draw")
    table.play(TRIPLE_HAND)
    text = hand_to_phh(table.record())
    data = tomllib.loads(text)
    assert (data["variant"], data["_rake"], data["_jackpot_drop"]) == ("F2L3D", 4, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about unknown cards
        states = list(pokerkit.HandHistory.loads(text, rake=_recorded_rake(text)))
    assert list(states[-1].stacks) == data["finishing_stacks"] == [490, 535, 470]
    hand = parse_phh(text)
    assert finishing_stacks(replay_hand(hand, rules), replay_seats(hand)) == [490, 535, 470]
    path = tmp_path / "raked.phh"
    path.write_text(text, encoding="utf-8")
    replayed = replay_file(path, rules)
    assert replayed.ok and replayed.finishing_stacks == [490, 535, 470], replayed
    unraked = replay_file(path, get_profile("casino-triple-draw-27"))
    assert not unraked.ok and unraked.finishing_stacks == [490, 540, 470], unraked


TIMED = RakeRules(collection=Collection.TIME, time_amount=5, time_period_minutes=30)


def _timed_export() -> tuple[HouseRules, str]:
    """A timed 2-7 triple-draw hand (the table's first: it starts a period) and its export."""
    rules = replace(get_profile("casino-triple-draw-27"), rake=TIMED)
    table = Table(rules, "deuce_to_seven_triple_draw")
    table.play(TRIPLE_HAND)
    return rules, hand_to_phh(table.record())


def test_RAKE_05_accepts_pokerkit_and_replay_reaching_a_timed_exports_stacks(
    tmp_path: Path,
) -> None:
    """RAKE-05 (issue 23, house policy: time collection, "an amount per seat per period, due
    from each seat dealt in when the period starts", taken after the posts and before the
    deal): the PHH export's ``starting_stacks`` are the stacks the hand was played with (500
    less the 5 of time) and ``_time_collected`` the charge, so pokerkit, which knows no time,
    reaches our finishing stacks from them; ``dealerassist replay`` under the timed rules
    seats 500 and lets the engine take the time once (not twice); without time it does not."""
    rules, text = _timed_export()
    data = tomllib.loads(text)
    assert data["players"] == ["P2", "P3", "P1"]
    assert data["starting_stacks"] == [495, 495, 495] and data["_time_collected"] == [5, 5, 5]
    assert data["finishing_stacks"] == [485, 535, 465]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about unknown cards
        states = list(pokerkit.HandHistory.loads(text))
    assert list(states[-1].stacks) == data["finishing_stacks"]
    hand = parse_phh(text)
    assert finishing_stacks(replay_hand(hand, rules), replay_seats(hand)) == [485, 535, 465]
    path = tmp_path / "timed.phh"
    path.write_text(text, encoding="utf-8")
    replayed = replay_file(path, rules)
    assert replayed.ok and replayed.finishing_stacks == [485, 535, 465], replayed
    untimed = replay_file(path, get_profile("casino-triple-draw-27"))
    assert not untimed.ok and untimed.finishing_stacks == [490, 540, 470], untimed


def test_RAKE_05_accepts_replaying_an_untimed_hand_under_the_time_profile() -> None:
    """RAKE-05: a hand dealt within a period paid no time (no ``_time_collected``): replayed
    under the timed rules the engine takes none either (the replay table is in a period)."""
    rules, text = _timed_export()
    untimed = text.replace("_time_collected = [5, 5, 5]\n", "").replace(
        "starting_stacks = [495, 495, 495]", "starting_stacks = [500, 500, 500]"
    )
    untimed = untimed.replace(
        "finishing_stacks = [485, 535, 465]", "finishing_stacks = [490, 540, 470]"
    )
    hand = parse_phh(untimed)
    assert hand.time_collected == ()
    assert finishing_stacks(replay_hand(hand, rules), replay_seats(hand)) == [490, 540, 470]


@pytest.mark.parametrize(
    ("field", "why"),
    [
        ("_time_collected = [5, 5]", "2 entries for 3 players"),
        ("_time_collected = [5, -5, 5]", "non-negative whole numbers"),
        ("_time_collected = 5", "_time_collected"),
    ],
)
def test_RAKE_05_refuses_a_malformed_time_collected(field: str, why: str) -> None:
    """RAKE-05: the reader refuses a ``_time_collected`` that is not one charge in chips per
    player (InvalidInput, naming the field), rather than seat wrong stacks."""
    _rules, text = _timed_export()
    bad = text.replace("_time_collected = [5, 5, 5]", field)
    with pytest.raises(InvalidInput, match=why):
        parse_phh(bad)
