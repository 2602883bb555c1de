"""Dealer instructions as data, ``{"code", "seat", "count", "text"}``, for tablet and tests."""

from __future__ import annotations

from collections.abc import Iterable

from dealerassist.rules.hand.stub import Step
from dealerassist.rules.model.messages import dealing as say
from dealerassist.rules.model.outcomes import Instruction, Owed, PassedOutResult
from dealerassist.rules.model.said import Join, Listed, Message, Param, Said

OWED_WORDS: dict[Owed, Message] = {  # each of Owed (a test checks it)
    Owed.SMALL_BLIND: say.OWED_SMALL_BLIND,
    Owed.BIG_BLIND: say.OWED_BIG_BLIND,
    # as the posts have always worded it in English (the raw value): the instructions are part
    # of the stored state, so new English words would change recorded states' hashes
    Owed.BIG_BLIND_ANTE: say.OWED_BIG_BLIND_ANTE,
    Owed.ANTE: say.OWED_ANTE,
    Owed.RETURNING_BIG_BLIND: say.OWED_RETURNING_BIG_BLIND,
    Owed.ENTERING_BIG_BLIND: say.OWED_ENTERING_BIG_BLIND,
    Owed.DEAD_SMALL_BLIND: say.OWED_DEAD_SMALL_BLIND,
    Owed.STRADDLE_OFFER: say.OWED_STRADDLE_OFFER,
    Owed.STRADDLE: say.OWED_STRADDLE,  # a part posted, never owed: no post instruction names it
    Owed.KILL: say.OWED_KILL,
}
_WAITS = {
    "BLIND-05": say.WAITS_NEW_PLAYER,
    "BLIND-06": say.WAITS_FOR_BUTTON,
    "BLIND-08": say.WAITS_MISSED_BLINDS,
    "BLIND-12": say.WAITS_CHANGED_SEATS,
    "BLIND-13": say.WAITS_SKIPPED_BLIND,
    "OPEN-08": say.WAITS_FALSE_OPENER,
    "OPEN-09": say.WAITS_PASSED_OUT,
    "KILL-06": say.WAITS_KILL_IN_BLIND,
}


def instruction(code: str, seat: int | None, count: int | None, said: Said) -> Instruction:
    """One instruction: its English text, and the message ID and parameters the API renders
    in the dealer's language.

    >>> instruction("burn", None, 1, say.BURN())["text_id"]
    'deal.burn'
    """
    text, data = said.english_and_json()
    return Instruction(
        code=code,
        seat=seat,
        count=count,
        text=text,
        text_id=data["id"],
        params=data["params"],
    )


def post(seat: int, amount: int, owes: Iterable[Owed]) -> Instruction:
    what = Listed(tuple(_owed(item) for item in owes))
    return instruction("post", seat, amount, say.POST(seat=seat, what=what, amount=amount))


def _owed(item: Owed) -> Param:
    """What a seat posts, in words (an item no word names is said as it is stored)."""
    word = OWED_WORDS.get(item)
    return item if word is None else word()


def deal_hands(seats: list[int]) -> Instruction:
    listed = Listed(tuple(seats), Join.COMMA)
    return instruction("deal", None, 5, say.DEAL_HANDS(seats=listed, first=seats[0]))


def dealing_script(steps: Iterable[Step]) -> list[Instruction]:
    """DRAW-03/04/05/06: the burn, deals, come-backs, stops and reshuffles of one entry."""
    result = []
    reshuffled: set[int | None] = set()
    given: set[int | None] = set()
    for step in steps:
        match step.code:
            case "burn" if step.count == 0:  # IRREG-04/06: a card already burned stands for it
                result.append(instruction("burn", None, 0, say.BURN_NOTHING_MORE()))
            case "burn":
                result.append(instruction("burn", None, step.count, say.BURN()))
            case "reshuffle":
                result.append(reshuffle(step))
                reshuffled.add(step.seat)
            case "come_back":
                said = say.COME_BACK(seat=_seat(step.seat))
                result.append(instruction("come_back", step.seat, 1, said))
            case "stop":
                result.append(stop(step))
            case _:
                source: Param = say.FROM_NEW_STUB() if step.seat in reshuffled else ""
                if step.parts:
                    said = _owed_said(step, source)
                else:
                    dealt = say.DEAL_MORE_CARDS if step.seat in given else say.DEAL_CARDS
                    said = dealt(count=step.count, seat=_seat(step.seat), source=source)
                given.add(step.seat)
                result.append(instruction("deal", step.seat, step.count, said))
    return result


def _seat(seat: int | None) -> Param:
    """A step's seat as a parameter (a step for no seat says "None", as it always did)."""
    return "None" if seat is None else seat


def stop(step: Step) -> Instruction:
    """DRAW-05/06: the stub is out before the seat's draw is complete."""
    if step.count == 1:
        left = say.STOP_BOTTOM_CARD()
    elif step.count:
        left = say.STOP_CARDS_LEFT(count=step.count)
    else:
        left = say.STOP_STUB_EMPTY()
    return instruction("stop", step.seat, step.count, say.STOP(seat=_seat(step.seat), left=left))


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
    pieces: list[Param] = []
    left = parts.get("stub", 0)
    if left:
        pieces.append(say.POOL_BOTTOM_CARD() if left == 1 else say.POOL_STUB_LEFT(count=left))
    if parts.get("burns"):
        pieces.append(say.POOL_BURNS(count=parts["burns"]))
    if parts.get("muck"):
        pieces.append(say.POOL_MUCK(count=parts["muck"]))
    if discards:
        pieces.append(say.POOL_DISCARDS(seats=_seat_list(discards, None)))
    taken = _and(pieces) if pieces else say.POOL_NOTHING()
    kept_out: Param = say.RESHUFFLE_KEEP_OUT(seats=_seat_list(kept, step.seat)) if kept else ""
    said = say.RESHUFFLE(seat=_seat(step.seat), taken=taken, count=step.count, kept=kept_out)
    pool: dict[str, object] = {
        "stub": left,
        "burns": parts.get("burns", 0),
        "muck": parts.get("muck", 0),
        "discards": discards,
        "kept_out": kept,
    }
    made = instruction("reshuffle", step.seat, step.count, said)
    made["pool"] = pool
    return made


def _seat_list(counts: dict[str, int], own: int | None) -> Param:
    items: list[Param] = [
        (say.SEAT_DISCARDS_OWN if own is not None and seat == str(own) else say.SEAT_DISCARDS)(
            seat=_seat_number(seat), count=count
        )
        for seat, count in counts.items()
    ]
    return _and(items)


def _seat_number(seat: str) -> Param:
    """A seat of a pool part's name ("seat:3") as a number (as it is written if it is none)."""
    return int(seat) if seat.isdigit() else seat


def _and(items: list[Param]) -> Param:
    """ "a", "a and b", "a, b and c": commas, then "and" before the last."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return Listed(tuple(items))
    return Listed((Listed(tuple(items[:-1]), Join.COMMA), items[-1]))


def _owed_said(step: Step, source: Param = "") -> Said:
    """DRAW-03 / IRREG-04: the cards dealt to a seat after every other seat."""
    parts = dict(step.parts)
    if not parts.get("replacement"):
        return say.FIFTH_OWED(seat=_seat(step.seat), source=source)
    return say.REPLACEMENT_OWED(seat=_seat(step.seat), count=step.count, source=source)


def deal_replacement(seat: int, count: int) -> Instruction:
    """IRREG-04 (card mode): deal the replacement owed for a card exposed on the draw."""
    return instruction("deal", seat, count, _owed_said(Step("deal", count, seat, _REPLACED)))


_REPLACED = (("replacement", 1),)


def deal_fifth(seat: int) -> Instruction:
    """DRAW-03 (card mode): deal the fifth card owed to a five-card draw."""
    return instruction("deal", seat, 1, say.FIFTH_OWED(seat=seat, source=""))


def ask_draw(seat: int) -> Instruction:
    return instruction("ask_draw", seat, None, say.ASK_DRAW(seat=seat))


def award(seat: int, amount: int, pot_index: int) -> Instruction:
    pot = say.MAIN_POT() if pot_index == 0 else say.SIDE_POT(index=pot_index)
    return instruction("award", seat, amount, say.AWARD(amount=amount, pot=pot, seat=seat))


def return_bet(seat: int, amount: int) -> Instruction:
    return instruction("return", seat, amount, say.RETURN_UNCALLED(amount=amount, seat=seat))


def show_first(seat: int) -> Instruction:
    return instruction("show", seat, None, say.SHOW_FIRST(seat=seat))


def collect(pot: int) -> Instruction:
    return instruction("collect", None, pot, say.COLLECT(pot=pot))


def waits(seat: int, rule: str) -> Instruction:
    """BLIND-05/06/08/12/13: a seated player who is not dealt in this hand, and why."""
    said = say.SKIP(seat=seat, why=why_waiting(rule), rule=rule)
    return instruction("skip", seat, None, said)


def passed_out(result: PassedOutResult | None) -> Instruction:
    """OPEN-03: nobody opened."""
    carried = 0 if result is None else result.carried
    return instruction("passed_out", None, carried, say.PASSED_OUT(carried=carried))


def why_waiting(rule: str) -> Said:
    """Why a seat is not dealt in this hand, by the rule it waits under.

    >>> why_waiting("OPEN-09").english()
    'was not dealt in on the passed-out deal: dealt in once its antes are won'
    """
    return _WAITS.get(rule, say.WAITS_BIG_BLIND)()


def wait_reason(rule: str) -> str:
    """``why_waiting`` in English (for the callers not yet saying it as a ``Said``)."""
    return why_waiting(rule).english()
