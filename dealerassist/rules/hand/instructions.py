"""Dealer instructions as data, ``{"code", "seat", "count", "text"}``, for tablet and tests."""

from __future__ import annotations

from collections.abc import Iterable

from dealerassist.rules.hand.stub import Step
from dealerassist.rules.model.outcomes import Instruction, Owed, PassedOutResult

OWED_WORDS: dict[Owed, str] = {  # each of Owed (a test checks it)
    Owed.SMALL_BLIND: "the small blind",
    Owed.BIG_BLIND: "the big blind",
    # as the posts have always worded it (the raw value): the instructions are part of the
    # stored state, so new words would change the state hashes of recorded big-blind-ante hands
    Owed.BIG_BLIND_ANTE: "big_blind_ante",
    Owed.ANTE: "the ante",
    Owed.RETURNING_BIG_BLIND: "the missed big blind (live)",
    Owed.ENTERING_BIG_BLIND: "a big blind to enter (live)",
    Owed.DEAD_SMALL_BLIND: "the small blind (dead)",
    Owed.STRADDLE_OFFER: "(may straddle)",
    Owed.STRADDLE: "the straddle",  # a part posted, never owed: no post instruction names it
    Owed.KILL: "the kill blind",
}
_WAITS = {
    "BLIND-05": "a new player waiting for the big blind",
    "BLIND-06": "a new player between the blinds and the button, waiting for the button to pass",
    "BLIND-08": "owes missed blinds and waits for the big blind",
    "BLIND-12": "changed seats and waits for the big blind",
    "BLIND-13": "skipped the blind and re-enters only on the blind",
    "OPEN-08": "opened falsely all in: sits out until a legally opened pot has been won",
    "OPEN-09": "was not dealt in on the passed-out deal: dealt in once its antes are won",
    "KILL-06": "a new player who may not buy the button while the kill is in a blind",
}


def instruction(code: str, seat: int | None, count: int | None, text: str) -> Instruction:
    """One instruction.

    >>> instruction("burn", None, 1, "Burn one card")["code"]
    'burn'
    """
    return Instruction(code=code, seat=seat, count=count, text=text)


def post(seat: int, amount: int, owes: Iterable[Owed]) -> Instruction:
    what = " and ".join(OWED_WORDS.get(item, item) for item in owes)
    return instruction("post", seat, amount, f"Seat {seat} posts {what}: {amount}")


def deal_hands(seats: list[int]) -> Instruction:
    listed = ", ".join(str(seat) for seat in seats)
    text = (
        f"Deal five cards to each of seats {listed}, one at a time, starting with seat {seats[0]}"
    )
    return instruction("deal", None, 5, text)


def dealing_script(steps: Iterable[Step]) -> list[Instruction]:
    """DRAW-03/04/05/06: the burn, deals, come-backs, stops and reshuffles of one entry."""
    result = []
    reshuffled: set[int | None] = set()
    given: set[int | None] = set()
    for step in steps:
        match step.code:
            case "burn" if step.count == 0:  # IRREG-04/06: a card already burned stands for it
                text = "Burn nothing more: the card already in the burn pile is this burn"
                result.append(instruction("burn", None, 0, text))
            case "burn":
                result.append(instruction("burn", None, step.count, "Burn one card"))
            case "reshuffle":
                result.append(reshuffle(step))
                reshuffled.add(step.seat)
            case "come_back":
                text = (
                    f"Seat {step.seat} gets four now: come back to it for the fifth card after "
                    "every other seat has drawn (never five in a row)"
                )
                result.append(instruction("come_back", step.seat, 1, text))
            case "stop":
                result.append(stop(step))
            case _:
                more = " more" if step.seat in given else ""
                plural = "s" if step.count != 1 else ""
                text = f"Deal {step.count}{more} card{plural} to seat {step.seat}"
                if step.parts:
                    text = _owed_text(step)
                if step.seat in reshuffled:
                    text += " from the new stub"
                given.add(step.seat)
                result.append(instruction("deal", step.seat, step.count, text))
    return result


def stop(step: Step) -> Instruction:
    """DRAW-05/06: the stub is out before the seat's draw is complete."""
    if step.count == 1:
        left = "the last card (the bottom card) is not dealt: it goes into the reshuffle"
    elif step.count:
        left = f"the {step.count} cards left go into the reshuffle"
    else:
        left = "the stub is empty"
    text = f"Stop: the stub cannot complete seat {step.seat}'s draw; {left}"
    return instruction("stop", step.seat, step.count, text)


def reshuffle(step: Step) -> Instruction:
    """DRAW-06: exactly which cards make the new stub, which stay out, and its size.

    >>> step = Step("reshuffle", 5, 2, (("stub", 1), ("burns", 1), ("seat:1", 3), ("kept:2", 2)))
    >>> reshuffle(step)["text"]  # doctest: +NORMALIZE_WHITESPACE
    'Reshuffle for seat 2: shuffle face down and cut the 1 card left in the stub (the bottom
    card), 1 burn card and the discards of seat 1 (3) into a new stub of 5 cards. Keep out
    the discards of seat 2 (2, its own).'
    """
    parts = dict(step.parts)
    discards = {name[5:]: count for name, count in step.parts if name.startswith("seat:")}
    kept = {name[5:]: count for name, count in step.parts if name.startswith("kept:")}
    pieces = []
    left = parts.get("stub", 0)
    if left:
        pieces.append(
            "the 1 card left in the stub (the bottom card)"
            if left == 1
            else f"the {left} cards left in the stub"
        )
    if parts.get("burns"):
        pieces.append(f"{parts['burns']} burn card{'s' if parts['burns'] != 1 else ''}")
    if parts.get("muck"):
        pieces.append(f"the {parts['muck']} mucked cards of folded hands")
    if discards:
        pieces.append("the discards of " + _seat_list(discards, None))
    taken = _and(pieces) if pieces else "nothing"
    text = (
        f"Reshuffle for seat {step.seat}: shuffle face down and cut {taken} "
        f"into a new stub of {step.count} cards."
    )
    if kept:
        text += " Keep out the discards of " + _seat_list(kept, step.seat) + "."
    pool: dict[str, object] = {
        "stub": left,
        "burns": parts.get("burns", 0),
        "muck": parts.get("muck", 0),
        "discards": discards,
        "kept_out": kept,
    }
    made = instruction("reshuffle", step.seat, step.count, text)
    made["pool"] = pool
    return made


def _seat_list(counts: dict[str, int], own: int | None) -> str:
    items = [
        f"seat {seat} ({count}{', its own' if own is not None and seat == str(own) else ''})"
        for seat, count in counts.items()
    ]
    return _and(items)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _owed_text(step: Step) -> str:
    """DRAW-03 / IRREG-04: the cards dealt to a seat after every other seat."""
    parts = dict(step.parts)
    if not parts.get("replacement"):
        return f"Deal seat {step.seat} its fifth card (owed since its five-card draw)"
    plural = "s" if step.count != 1 else ""
    return (
        f"Deal seat {step.seat} {step.count} card{plural}: the replacement owed to seat "
        f"{step.seat} at the end of the draw (its exposed card was not taken)"
    )


def deal_replacement(seat: int, count: int) -> Instruction:
    """IRREG-04 (card mode): deal the replacement owed for a card exposed on the draw."""
    return instruction("deal", seat, count, _owed_text(Step("deal", count, seat, _REPLACED)))


_REPLACED = (("replacement", 1),)


def deal_fifth(seat: int) -> Instruction:
    """DRAW-03 (card mode): deal the fifth card owed to a five-card draw."""
    text = f"Deal seat {seat} its fifth card (owed since its five-card draw)"
    return instruction("deal", seat, 1, text)


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
    why = wait_reason(rule)
    return instruction("skip", seat, None, f"Do not deal seat {seat}: {why} ({rule})")


def passed_out(result: PassedOutResult | None) -> Instruction:
    """OPEN-03: nobody opened."""
    carried = 0 if result is None else result.carried
    text = (
        "Nobody opened: collect the cards; the pot "
        f"({carried}) stays for the next deal and everyone antes again"
    )
    return instruction("passed_out", None, carried, text)


def wait_reason(rule: str) -> str:
    """Why a seat is not dealt in this hand, by the rule it waits under.

    >>> wait_reason("OPEN-09")
    'was not dealt in on the passed-out deal: dealt in once its antes are won'
    """
    return _WAITS.get(rule, "waits for the big blind")
