"""What kill pots say (``rules/hand/kills.py``: KILL-01..06)."""

from dealerassist.rules.model.said import Message

# KILL-01: the kill pot's limits, "doubled to 20/40"
LIMITS_DOUBLED = Message("kill.limits_doubled", "doubled to {low}/{high}")
LIMITS_RAISED_BY_HALF = Message("kill.limits_raised_by_half", "raised by half to {low}/{high}")
SIZE_NOTE = Message(  # added to a wrong bet size refusal (``betting``)
    "kill.size_note", " (the kill is on: seat {kill} killed the pot, limits are {limits} this hand)"
)

# KILL-01: the table's stakes
NOT_FIXED_LIMIT = Message(
    "kill.not_fixed_limit",
    "Profile {profile} plays kill pots, a fixed-limit device with a kill blind of the big "
    "blind's multiple: create the table fixed_limit with blinds.",
)
HALF_KILL_ODD_STAKES = Message(
    "kill.half_kill_odd_stakes",
    "A half kill is 1.5x the big blind and the limits, and chips are whole: big blind "
    "{big_blind}, small bet {small_bet} and big bet {big_bet} must all be even (e.g. 10, 10, 20).",
)

# KILL-02/04: the start of a kill pot
POT_STARTS = Message(
    "kill.pot_starts",
    "Kill pot: seat {seat} posts the kill blind of {amount}; limits are {limits} this hand; "
    "{order}",
)
POT_STARTS_VOLUNTARY = Message(
    "kill.pot_starts_voluntary",
    "Kill pot: seat {seat} kills voluntarily and posts the kill blind of {amount}; limits are "
    "{limits} this hand; {order}",
)
ORDER_ACTS_LAST = Message(
    "kill.order_acts_last",
    "before the draw the action starts to seat {seat}'s left and seat {seat} acts last",
)
ORDER_IN_TURN = Message("kill.order_in_turn", "before the draw seat {seat} acts in turn")

# KILL-01/06: a voluntary kill refused
NOT_DEALT_IN = Message(
    "kill.not_dealt_in",
    "Seat {seat} is not dealt in this hand ({why}): only a seat dealt in may kill; start the "
    "hand without kill_seat, or name a seat that plays.",
)
WHY_SEAT_EMPTY = Message("kill.why.seat_empty", "the seat is empty")
WHY_SITTING_OUT = Message("kill.why.sitting_out", "it is sitting out")
WHY_NO_CHIPS = Message("kill.why.no_chips", "it has no chips")
WHY_NOT_PLAYING = Message("kill.why.not_playing", "it does not play this hand")
SHORT_OF_THE_KILL = Message(
    "kill.short_of_the_kill",
    "Seat {seat} has {stack} in chips, less than the {owes} it would post to kill{besides}: a "
    "voluntary kill is posted in full; start the hand without kill_seat, or add chips first.",
)
BESIDES_OWED = Message("kill.besides_owed", " (the kill blind of {blind} and what it owes)")
NO_KILL_POTS = Message(
    "kill.no_kill_pots",
    "Profile {profile} plays no kill pots: seat {seat} may not kill; start the hand without "
    "kill_seat.",
)
ONE_PER_DEAL = Message(
    "kill.one_per_deal",
    "One kill per deal: seat {due} won the last two pots and kills this hand, so seat {seat} "
    "may not kill it too; start the hand without kill_seat.",
)
REQUIRED_ONLY = Message(
    "kill.required_only",
    "Profile {profile} plays required kills only: a seat kills after winning two pots in a row, "
    "never by choice{already}; start the hand without kill_seat.",
)
ALREADY_DUE = Message("kill.already_due", " (seat {seat} is due to kill this hand anyway)")

# KILL-02/03: the kill button
BUTTON_NEUTRAL = Message("kill.button_neutral", "The kill button is neutral")
LEG_UP = Message(
    "kill.leg_up", "Seat {seat} has a leg up: put the kill button in front of seat {seat}"
)
KILLS_NEXT = Message(
    "kill.kills_next",
    "Seat {seat} won two pots in a row: it kills the next hand, posting {amount}; limits "
    "{limits} (turn the kill button over)",
)
BUTTON_NEUTRAL_AWAY = Message(
    "kill.button_neutral_away",
    "The kill button is neutral: {player} left with a leg up and has it back if he sits down "
    "again before the next pot is won",
)

# KILL-05: the seat due to kill stays for it
DUE_BEFORE_SIT_OUT = Message(
    "kill.due_before_sit_out",
    "Seat {seat} won two pots in a row and must kill the next hand: it posts the kill "
    "({amount}) and plays that hand before it may sit out.",
)
DUE_BEFORE_LEAVING = Message(
    "kill.due_before_leaving",
    "Seat {seat} won two pots in a row and must kill the next hand: it posts the kill "
    "({amount}) and plays that hand before it may leave the table; if the player is gone, post "
    "the kill from his chips, the floor kills his hand once dealt, and he leaves after that hand.",
)
