"""What the table says between and around hands: posting (``rules/table/posting.py``: BLIND-01,
04..09, 14, KILL-01/05/06) and seating (``rules/table/seating.py``: GAME-01, BLIND-08, 12, 13,
15, OPEN-09)."""

from dealerassist.rules.model.said import Message, Param, Said

# -- posting (rules/table/posting.py) --------------------------------------------------------

NOT_DEALT_IN = Message(
    "table.not_dealt_in", "Seat {seat} is not dealt in this hand: {why} ({rule})."
)
POSTS_FIRST = Message("table.posts_first", "Seat {expected} posts first; seat {seat} must wait.")
STRADDLE_NOT_OFFERED = Message(
    "table.straddle_not_offered",
    "Seat {seat} may not straddle: only the seat left of the big blind may, if allowed.",
)
STRADDLE_TAKEN = Message(
    "table.straddle_taken", "Seat {seat} may not straddle: seat {straddle} has straddled."
)
OWES_BLIND_NO_WAIT = Message(
    "table.owes_blind_no_wait", "Seat {seat} owes its blind this hand; post {amount} or sit out."
)
BIG_BLIND_ALONE_REFUSED = Message(
    "table.big_blind_alone_refused",
    "Seat {seat} may not post the big blind alone: only a newcomer buying the button "
    "between the blinds and the button may, where the house sells it (buy_button); "
    "post {amount}.",
)
UNKNOWN_POST_OPTION = Message("table.unknown_post_option", "Unknown post option {option}.")
POST_EXACTLY = Message("table.post_exactly", "Seat {seat} owes {owed}; post exactly {amount}.")
POST_BIG_BLIND_ALONE_EXACTLY = Message(
    "table.post_big_blind_alone_exactly",
    "Seat {seat} posts the big blind alone; post exactly {amount}.",
)
# what a seat owes, in POST_EXACTLY's {owed}: a plain total is the number itself
OWED_LIVE_DEAD = Message("table.owed_live_dead", "{total} ({live} live, {dead} dead)")
OWED_KILL = Message("table.owed_kill", "{total} (the kill blind)")
OWED_KILL_AND = Message("table.owed_kill_and", "{total} (the kill blind and {others})")
KILL_NO_SIT_OUT = Message(
    "table.kill_no_sit_out",
    "Seat {seat} {why}: it may not sit out or leave before it posts the kill; post {amount}.",
)
WHY_KILL_DUE = Message("table.why_kill_due", "won the last two pots and must kill this hand")
WHY_KILL_CHOSEN = Message("table.why_kill_chosen", "chose to kill this hand")
NO_STRADDLE_IN_KILL_POT = Message(
    "table.no_straddle_in_kill_pot",
    "No straddle in a kill pot (seat {kill} kills this hand): seat {seat} posts {amount} "
    "without a straddle.",
)
KILL_FULL_CALL = Message(
    "table.kill_full_call",
    "The kill is all in for {short}, but a call is still the full kill blind of {kill_blind}: "
    "seat {seat} calls {owed}.",
)
BIG_BLIND_FULL_CALL = Message(
    "table.big_blind_full_call",
    "The big blind is all in for {short}, but a call is still the full blind: seat {seat} "
    "calls {owed}.",
)
# the dealer's instructions before the deal
BUYS_BUTTON = Message(
    "table.buys_button",
    "Seat {seat} buys the button; or posts the big blind alone ({amount}) and the button skips "
    "him next hand",
)
MAY_STRADDLE = Message("table.may_straddle", "Seat {seat} may straddle")

# A part of what a seat owes (``PlayerState.owes_what``), as OWED_KILL_AND lists it: its stored
# name with spaces for underscores.
PARTS: dict[str, Message] = {
    part: Message(f"table.part.{part}", part.replace("_", " "))
    for part in (
        "small_blind",
        "big_blind",
        "ante",
        "big_blind_ante",
        "returning_big_blind",
        "entering_big_blind",
        "dead_small_blind",
        "straddle_offer",
        "straddle",
    )
}


def part(name: str) -> Param:
    """The words for one part owed; a part this table does not know stays its name."""
    message = PARTS.get(name)
    return message() if message is not None else name.replace("_", " ")


# -- seating (rules/table/seating.py) --------------------------------------------------------

FOLDED_HAND_IN_PLAY = Message(
    "table.folded_hand_in_play",
    "Seat {seat}'s folded hand is still in this hand; seat a player there when the hand is over.",
)
IN_THE_HAND = Message(
    "table.in_the_hand", "Seat {seat} is in the hand; it may {what} when the hand is over."
)
WHAT_ADD_CHIPS = Message("table.what_add_chips", "add chips")
WHAT_LEAVE = Message("table.what_leave", "leave")
WHAT_SIT_OUT = Message("table.what_sit_out", "sit out")
WHAT_CHANGE_SEATS = Message("table.what_change_seats", "change seats")
COMES_BACK_WAITING = Message(
    "table.comes_back_waiting", "Seat {seat} {why}; it comes back waiting for the big blind."
)
WHY_CHANGED_SEATS = Message("table.why_changed_seats", "changed seats and may not take a free hand")
WHY_SINGLE_BLIND = Message(
    "table.why_single_blind", "skipped the blind and may re-enter only on the blind"
)
WHY_MISSED_BLINDS_WAIT = Message(
    "table.why_missed_blinds_wait",
    "missed the blinds, and this house makes it wait for the big blind",
)
BLIND_DODGING = Message(
    "table.blind_dodging",
    "Seat {seat} sat out just before its blind and returns after it passed "
    "(missed {missed}): possible blind dodging, call the floor.",
)
MISSED: dict[str, Message] = {  # a MissedBlind, by its stored value
    "small": Message("table.missed.small", "small"),
    "big": Message("table.missed.big", "big"),
}
NO_SEAT_CHANGE_CARRIED_POT = Message(
    "table.no_seat_change_carried_pot",
    "The antes of a passed-out deal ({carried}) are in the pot: no seat changes until that pot "
    "is won.",
)


def missed(value: str) -> Said | str:
    """The missed blind (``MissedBlind``'s value) in words."""
    message = MISSED.get(value)
    return message() if message is not None else value


# -- malformed seat commands (400, InvalidInput) -----------------------------------------------

SEAT_TAKEN_BY = Message(
    "table.seat_taken_by", "seat {seat} is taken by {player}; choose an empty seat"
)
SEAT_TAKEN = Message("table.seat_taken", "seat {seat} is taken; choose an empty seat")
SEAT_EMPTY = Message("table.seat_empty", "seat {seat} is empty")
SEAT_ALREADY_EMPTY = Message("table.seat_already_empty", "seat {seat} is already empty")
NOT_ACTIVE = Message("table.not_active", "seat {seat} is not an active player")
NOT_SITTING_OUT = Message("table.not_sitting_out", "seat {seat} is not sitting out or waiting")
CHIPS_AT_MOST = Message(
    "table.chips_at_most", "seat {seat} may have at most {high} chips; it may add {room}"
)
BUY_IN = Message("table.buy_in", "the buy-in here is {limits} chips; seat {seat} brought {stack}")
BUY_IN_RANGE = Message("table.buy_in_range", "{low}-{high}")
BUY_IN_AT_LEAST = Message("table.buy_in_at_least", "at least {low}")
