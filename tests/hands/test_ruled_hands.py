"""Whole hands with floor rulings in them, through the service, that the audit verifier replays.

Each script plays a hand at a fake table, the floor rules on it, the hand goes on to its end
(and the next hand starts), then ``audit.verify`` recomputes every hash and replays every
recorded command, the rulings included, through the engine.
"""

from __future__ import annotations

from typing import Any

import pytest
from fakes import FakeTableStore
from floor_fakes import floor_services

from dealerassist.audit.chain import seal
from dealerassist.audit.hands import hand_records
from dealerassist.audit.phh.writer import hand_to_phh
from dealerassist.audit.verify import verify
from dealerassist.rules.model.house_rules import DrawRules, HouseRules, ReshufflePool
from dealerassist.service import rulings as floor
from dealerassist.service import tables as uc
from dealerassist.service.ports import AnswerKind, Services
from dealerassist.service.tables import Actor, Preconditions

ADMIN = Actor("boss", "admin")
DEALER = Actor("tablet-1", "dealer")
FLOOR = Actor("floor-anna", "floor")
NONE = Preconditions()
SPEC = {
    "table_id": "T1",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20},
    "profile_id": "test",
}


class Hand:
    """A table driven through the use cases; ``do("1 call")`` enters an action."""

    def __init__(
        self, stacks: tuple[int, int, int] = (200, 200, 200), rules: HouseRules | None = None
    ) -> None:
        self.services: Services = floor_services(rules)
        uc.create_table(self.services, SPEC, ADMIN, NONE)
        for seat, stack in enumerate(stacks, start=1):
            uc.seat_player(self.services, "T1", seat, f"P{seat}", stack, DEALER, NONE)

    def start(self, button: int | None = None) -> None:
        assert uc.start_hand(self.services, "T1", button, DEALER, NONE).kind is AnswerKind.ACCEPTED

    def do(self, *steps: str) -> uc.Answer:
        answer = None
        for step in steps:
            seat, action, *rest = step.split()
            body: dict[str, Any] = {"seat": int(seat), "action": action}
            if rest:
                body["count" if action == "draw" else "amount"] = int(rest[0])
            answer = uc.submit_action(self.services, "T1", body, DEALER, NONE)
            assert answer.kind is AnswerKind.ACCEPTED, (step, answer.body)
        assert answer is not None
        return answer

    def rule(self, decision: str, *effects: dict[str, Any], **fields: Any) -> uc.Answer:
        body = {"decision": decision, "note": "floor", "effects": list(effects), **fields}
        return floor.issue_ruling(self.services, "T1", body, FLOOR, NONE)

    def table(self) -> dict[str, Any]:
        return uc.get_table(self.services, "T1")

    def stacks(self) -> dict[int, int]:
        return {s["seat"]: s["stack"] for s in self.table()["seats"] if s["player"]}

    @property
    def events(self) -> list[dict[str, Any]]:
        assert isinstance(self.services.tables, FakeTableStore)
        return self.services.tables.staged

    def verified(self) -> dict[str, Any]:
        return verify(self.events, self.services.profiles.version)


POSTS = ("2 post", "3 post")
TO_SHOWDOWN = ("1 call", "2 call", "3 check", "2 draw 1", "3 draw 2", "1 draw 3",
               "2 check", "3 check", "1 check")  # fmt: skip


def _show_all(hand: Hand) -> uc.Answer:
    shows = {1: "Ah Kd 9c 7s 2d", 2: "Qh Qd 9h 5s 3c", 3: "Jh Jd 8c 6s 4d"}
    answer = None
    while (table := hand.table())["next"] is not None:
        seat = table["next"]["seat"]
        answer = uc.submit_action(
            hand.services, "T1", {"seat": seat, "action": "show", "cards": shows[seat]}, DEALER,
            NONE,
        )  # fmt: skip
    assert answer is not None
    return answer


def test_a_misdealt_hand_and_its_redeal_verify() -> None:
    """IRREG-01: a misdeal after a raise returns every chip; the redeal (hand 2) keeps the
    button, plays to a showdown, and the whole log verifies."""
    hand = Hand()
    hand.start(button=1)
    hand.do(*POSTS, "1 raise 20")
    misdeal = hand.rule("misdeal", {"effect": "misdeal"}, rule_id="IRREG-01")
    assert misdeal.body["result"]["misdeal"] is True
    assert hand.stacks() == {1: 200, 2: 200, 3: 200}
    hand.start()
    assert hand.table()["hand"]["button"] == 1 and hand.table()["hand"]["hand_no"] == 2
    hand.do(*POSTS, *TO_SHOWDOWN)
    result = _show_all(hand).body["result"]
    assert result["pots"][0]["winners"] == [2] and hand.stacks()[2] == 220
    report = hand.verified()
    assert report["ok"], report["problems"]
    assert report["hands"] == 2


def test_a_killed_hand_plays_on_and_verifies() -> None:
    """IRREG-13: seat 1's hand is killed after it called; its 10 stay in the pot, which
    seat 2 wins at the showdown; verify replays the ruling."""
    hand = Hand()
    hand.start(button=1)
    hand.do(*POSTS, "1 call")
    hand.rule("no_redress", {"effect": "kill_hand", "seat": 1}, rule_id="IRREG-13")
    hand.do("2 call", "3 check", "2 draw 1", "3 draw 2", "2 check", "3 check")
    result = _show_all(hand).body["result"]
    assert result["pots"][0]["amount"] == 30 and hand.stacks() == {1: 190, 2: 220, 3: 190}
    report = hand.verified()
    assert report["ok"], report["problems"]


def test_a_voided_action_is_replaced_and_the_hand_verifies() -> None:
    """A mistaken raise is voided, the dealer enters the call that was made, the hand
    finishes, the next hand starts, and the log (void included) verifies."""
    hand = Hand()
    hand.start(button=1)
    hand.do(*POSTS, "1 raise 20")
    voided = hand.rule("correct_before_push", {"effect": "void_last"}, rule_id="SHOW-11")
    assert voided.body["next"]["seat"] == 1
    hand.do(*TO_SHOWDOWN)
    _show_all(hand)
    assert hand.stacks() == {1: 190, 2: 220, 3: 190}
    hand.start()
    hand.rule("late_adjustment", {"effect": "adjust_stack", "seat": 2, "amount": -1},
              rule_id="IRREG-14", hand_no=1)  # fmt: skip
    report = hand.verified()
    assert report["ok"], report["problems"]
    kinds = [event["kind"] for event in hand.events]
    assert kinds.count("ruling") == 2


def test_a_held_then_released_pot_with_a_floor_award_verifies() -> None:
    """SHOW-11: the pot is held (the dealer's show is refused and audited), released and
    awarded by the floor; the refusal and the rulings replay."""
    hand = Hand()
    hand.start(button=1)
    hand.do(*POSTS, *TO_SHOWDOWN)
    hand.rule("hold", {"effect": "hold_pot"}, rule_id="SHOW-11")
    refused = uc.submit_action(
        hand.services, "T1", {"seat": 1, "action": "show", "cards": "Ah Kd 9c 7s 2d"}, DEALER,
        NONE,
    )  # fmt: skip
    assert refused.kind is AnswerKind.REJECTED and refused.body["rule_id"] == "SHOW-11"
    awarded = hand.rule("custom", {"effect": "release_pot"}, {"effect": "award", "seats": [3]})
    assert awarded.body["result"]["pots"][0]["winners"] == [3]
    report = hand.verified()
    assert report["ok"], report["problems"]


def test_a_floor_award_pot_by_pot_with_an_all_in_player_verifies() -> None:
    """SHOW-07: seat 1 is all in for 25 (main pot 75), seats 2 and 3 play on for a side pot
    of 50; the floor gives the main pot to seat 1 and the side pot to seat 2 instead of a
    showdown; the next hand starts, the log verifies and the PHH export names the award."""
    hand = Hand(stacks=(25, 200, 200))
    hand.start(button=1)
    hand.do(*POSTS, "1 raise 20", "2 call", "3 raise 30", "1 call", "2 call")
    hand.do("2 draw 1", "3 draw 2", "1 draw 3", "2 check", "3 bet 20", "2 call")
    pots = {"effect": "award", "pots": [[1], [2]]}
    awarded = hand.rule("award_tabled", pots, rule_id="SHOW-03")
    assert awarded.kind is AnswerKind.ACCEPTED, awarded.body
    result = awarded.body["result"]
    assert [(p["amount"], p["winners"], p["by_ruling"]) for p in result["pots"]] == [
        (75, [1], True),
        (50, [2], True),
    ]
    assert hand.stacks() == {1: 75, 2: 200, 3: 150}
    hand.start()
    report = hand.verified()
    assert report["ok"], report["problems"]
    record = next(r for r in hand_records(hand.events) if r["hand_no"] == 1)
    assert record["result"]["pots"] == result["pots"]
    phh = hand_to_phh(record)
    assert "finishing_stacks = [200, 150, 75]" in phh and "award pots [[1], [2]]" in phh


def test_a_refused_award_pot_by_pot_is_audited_and_verifies() -> None:
    """An award that gives seat 1 (all in for 25) the side pot is refused with SHOW-07,
    audited as rejected, and the replay refuses it with the same rule."""
    hand = Hand(stacks=(25, 200, 200))
    hand.start(button=1)
    hand.do(*POSTS, "1 raise 20", "2 call", "3 raise 30", "1 call", "2 call")
    refused = hand.rule("custom", {"effect": "award", "pots": [[2], [1]]})
    assert refused.kind is AnswerKind.REJECTED and refused.body["rule_id"] == "SHOW-07"
    assert refused.body["seat"] == 1
    report = hand.verified()
    assert report["ok"], report["problems"]


def test_IRREG_04_a_stuck_replacement_taken_by_ruling_plays_out_and_verifies() -> None:
    """IRREG-04: seat 1's draw card and then each replacement are exposed until the stub and a
    pool of earlier rounds, muck and burns cannot replace it; the answer tells the dealer to
    call the floor and the hand waits (an entry is refused); the floor lets seat 1 take the
    exposed card, the hand plays to the showdown and verify replays it all."""
    draw = DrawRules(reshuffle_pool=ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS)
    hand = Hand(rules=HouseRules(profile_id="test", sha256="ab" * 32, draw=draw))
    hand.start(button=1)
    hand.do(*POSTS, "1 call", "2 call", "3 check", "2 draw 0", "3 draw 0", "1 draw 1")
    notices: list[dict[str, Any]] = []
    for _ in range(60):
        notices = hand.do("1 exposed").body["notices"]
        if notices:
            break
    assert [n["rule_id"] for n in notices] == ["IRREG-04"] and "call the floor" in notices[0][
        "message"
    ]
    table = hand.table()
    assert table["next"] == {"seat": 1, "phase": "draw_1", "legal": [], "floor": "IRREG-04"}
    refused = uc.submit_action(hand.services, "T1", {"seat": 2, "action": "check"}, DEALER, NONE)
    assert refused.kind is not AnswerKind.ACCEPTED and refused.body["rule_id"] == "IRREG-04"
    ruled = hand.rule("take_exposed", {"effect": "take_exposed", "seat": 1}, rule_id="IRREG-04")
    assert ruled.kind is AnswerKind.ACCEPTED, ruled.body
    assert ruled.body["hand"]["phase"] == "betting_2"
    hand.do("2 check", "3 check", "1 check")
    result = _show_all(hand).body["result"]
    assert result["pots"][0]["amount"] == 30 and sum(hand.stacks().values()) == 600
    report = hand.verified()
    assert report["ok"], report["problems"]


def test_verify_notices_a_ruling_that_was_rewritten() -> None:
    """A ruling re-sealed with another seat killed no longer replays to its recorded state."""
    hand = Hand()
    hand.start(button=1)
    hand.do(*POSTS, "1 call")
    hand.rule("no_redress", {"effect": "kill_hand", "seat": 1}, rule_id="IRREG-13")
    hand.do("2 call")
    events = [dict(event) for event in hand.events]
    index = next(i for i, e in enumerate(events) if e["kind"] == "ruling")
    payload = dict(events[index]["payload"])
    payload["command"] = {**payload["command"], "effects": [{"effect": "kill_hand", "seat": 2}]}
    resealed = []
    prev = events[index - 1]["hash"]
    for event in events[index:]:
        body = {key: value for key, value in event.items() if key not in ("hash", "prev_hash")}
        if event is events[index]:
            body["payload"] = payload
        sealed = seal(body, prev)
        resealed.append(sealed)
        prev = sealed["hash"]
    report = verify(events[:index] + resealed, hand.services.profiles.version)
    assert not report["ok"]
    assert any("state" in problem["why"] for problem in report["problems"])


@pytest.mark.parametrize("effect", [{"effect": "void_last", "count": 2}, {"effect": "misdeal"}])
def test_structural_rulings_leave_a_clean_journal(effect: dict[str, Any]) -> None:
    """After a void or a misdeal the next entries and rulings still replay."""
    hand = Hand()
    hand.start(button=1)
    hand.do(*POSTS, "1 call", "2 call")
    assert hand.rule("custom", effect).kind is AnswerKind.ACCEPTED
    if effect["effect"] == "misdeal":
        hand.start()
        hand.do(*POSTS)
    hand.do("1 call")
    assert hand.rule("custom", {"effect": "adjust_stack", "seat": 3, "amount": 5}).kind is (
        AnswerKind.ACCEPTED
    )
    assert hand.rule("custom", {"effect": "void_last"}).kind is AnswerKind.ACCEPTED
    report = hand.verified()
    assert report["ok"], report["problems"]
