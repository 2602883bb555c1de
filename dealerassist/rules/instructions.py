"""Dealer instructions as data, ``{"code", "seat", "count", "text"}``, for tablet and tests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dealerassist.rules.stub import Step

Instruction = dict[str, Any]

_OWES = {
    "small_blind": "the small blind",
    "big_blind": "the big blind",
    "ante": "the ante",
    "returning_big_blind": "the missed big blind (live)",
    "entering_big_blind": "a big blind to enter (live)",
    "dead_small_blind": "the small blind (dead)",
    "straddle_offer": "(may straddle)",
}
_WAITS = {
    "BLIND-05": "a new player waiting for the big blind",
    "BLIND-06": "a new player between the blinds and the button, waiting for the button to pass",
    "BLIND-08": "owes missed blinds and waits for the big blind",
    "BLIND-12": "changed seats and waits for the big blind",
    "BLIND-13": "skipped the blind and re-enters only on the blind",
}


def instruction(code: str, seat: int | None, count: int | None, text: str) -> Instruction:
    """One instruction.

    >>> instruction("burn", None, 1, "Burn one card")["code"]
    'burn'
    """
    return {"code": code, "seat": seat, "count": count, "text": text}


def post(seat: int, amount: int, owes: Iterable[str]) -> Instruction:
    what = " and ".join(_OWES.get(item, item) for item in owes)
    return instruction("post", seat, amount, f"Seat {seat} posts {what}: {amount}")


def deal_hands(seats: list[int]) -> Instruction:
    listed = ", ".join(str(seat) for seat in seats)
    text = (
        f"Deal five cards to each of seats {listed}, one at a time, starting with seat {seats[0]}"
    )
    return instruction("deal", None, 5, text)


def dealing_script(steps: Iterable[Step]) -> list[Instruction]:
    """DRAW-04/06: the burn, deals and reshuffles of one draw, in order."""
    result = []
    for step in steps:
        match step.code:
            case "burn":
                result.append(instruction("burn", None, step.count, "Burn one card"))
            case "reshuffle":
                text = (
                    "The stub is out: shuffle the burn cards, the discards allowed by the house "
                    f"rules and what is left of the stub into a new stub of {step.count} cards"
                )
                result.append(instruction("reshuffle", None, step.count, text))
            case "come_back":
                text = f"Come back to seat {step.seat} for the fifth card after the others draw"
                result.append(instruction("come_back", step.seat, 1, text))
            case "stop":
                text = (
                    f"Stop: the stub cannot complete seat {step.seat}'s draw; "
                    f"{step.count} card(s) left go into the reshuffle"
                )
                result.append(instruction("stop", step.seat, step.count, text))
            case _:
                text = f"Deal {step.count} card{'s' if step.count != 1 else ''} to seat {step.seat}"
                result.append(instruction("deal", step.seat, step.count, text))
    return result


def ask_draw(seat: int) -> Instruction:
    return instruction("ask_draw", seat, None, f"Seat {seat}: how many cards?")


def award(seat: int, amount: int, pot_index: int) -> Instruction:
    name = "the main pot" if pot_index == 0 else f"side pot {pot_index}"
    return instruction("award", seat, amount, f"Push {amount} from {name} to seat {seat}")


def return_bet(seat: int, amount: int) -> Instruction:
    return instruction("return", seat, amount, f"Return {amount} uncalled to seat {seat}")


def show_first(seat: int) -> Instruction:
    return instruction("show", seat, None, f"Seat {seat} shows first")


def collect(pot: int) -> Instruction:
    return instruction("collect", None, pot, f"Collect the bets into the pot ({pot})")


def waits(seat: int, rule: str) -> Instruction:
    """BLIND-05/06/08/12/13: a seated player who is not dealt in this hand, and why."""
    why = _WAITS.get(rule, "waits for the big blind")
    return instruction("skip", seat, None, f"Do not deal seat {seat}: {why} ({rule})")


def passed_out(result: dict[str, Any]) -> Instruction:
    """OPEN-03: nobody opened."""
    carried = result.get("carried", 0)
    text = (
        "Nobody opened: collect the cards; the pot "
        f"({carried}) stays for the next deal and everyone antes again"
    )
    return instruction("passed_out", None, carried, text)
