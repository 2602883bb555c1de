"""What the betting rounds say (``rules/hand/betting.py``: GAME-06, BET-01..09, KILL-04,
BLIND-02, OPEN-08) and the start of a hand (``rules/table/blinds.py``: BLIND-02/03, DEAL-02,
GAME-05/07)."""

from dealerassist.rules.model.said import Message

NOT_YOUR_TURN = Message(
    "bet.not_your_turn", "It is seat {expected}'s turn{why}; seat {seat} must wait."
)
WHY_KILL_ACTS_LAST = Message(
    "bet.why_kill_acts_last",
    " (kill pot: the action starts left of the kill, seat {kill} acts last)",
)
WHY_KILL_IN_TURN = Message(
    "bet.why_kill_in_turn", " (kill pot: seat {kill} kills and acts in turn)"
)
WHY_HEADS_UP_SMALL_BLIND = Message(
    "bet.why_heads_up_small_blind",
    " (heads-up: the small blind, seat {small}, acts last after the draw)",
)

# -- a refusal and what the seat may do instead (``_require``, ``_describe``) -------------------

REFUSED = Message("bet.refused", "{why}. Seat {seat} may {allowed}.")

# the actions a seat may take, as verbs: "Seat 3 may {call}", "may not {raise}"
CHECK = Message("bet.action.check", "check")
CALL = Message("bet.action.call", "call")
BET = Message("bet.action.bet", "bet")
RAISE = Message("bet.action.raise", "raise")
FOLD = Message("bet.action.fold", "fold")
ACTIONS = {"check": CHECK, "call": CALL, "bet": BET, "raise": RAISE, "fold": FOLD}

MAY_AMOUNT = Message("bet.may_amount", "{action} {amount}")  # "call 20"
MAY_TO = Message("bet.may_to", "{action} to {low}")  # "raise to 40"
MAY_RANGE = Message("bet.may_range", "{action} to {low}-{high}")  # "raise to 40-80"

# -- why the entry is refused (GAME-06, BET-01..06, DRAW-11, OPEN-08) ---------------------------

FACES_A_BET = Message("bet.faces_a_bet", "Seat {seat} faces a bet")
NOTHING_TO_CALL = Message("bet.nothing_to_call", "There is nothing to call")
NO_LIMPING = Message("bet.no_limping", "This game allows no limping")
CALL_IS = Message("bet.call_is", "A call is {amount}")
MAY_NOT = Message("bet.may_not", "Seat {seat} may not {action}: {why}")
CANNOT_RAISE = Message("bet.cannot_raise", "The seat cannot raise")
ENTER_AMOUNT = Message("bet.enter_amount", "Enter the amount to {action} to")
BELOW_MINIMUM = Message("bet.below_minimum", "{amount} is below the minimum{note}{short}")
ABOVE_MAXIMUM = Message("bet.above_maximum", "{amount} is above the maximum")
NOT_THE_BET_SIZE = Message("bet.not_the_bet_size", "{amount} is not the bet size{note}")
SHORT_RAISE_MADE_FULL = Message(
    "bet.short_raise_made_full",
    "; {amount} adds half the minimum raise or more, so it is made a full raise to "
    "{raise_to} (BET-09)",
)
SHORT_RAISE_STANDS_AS_CALL = Message(
    "bet.short_raise_stands_as_call",
    "; {amount} adds less than half the minimum raise, so it stands as a call of {call} (BET-09)",
)
OPEN_ALL_IN_FULL_BET = Message(
    "bet.open_all_in_full_bet",
    "Seat {seat} is all in for the antes: it may open only for the full opening bet of {size}, "
    "which every caller puts in (it puts in nothing more), not {amount}",
)

# why a seat may not bet or raise (``Options.blocked``)
BLOCKED_TIMED_OUT = Message("bet.blocked.timed_out", "the seat was declared pat by the draw timer")
BLOCKED_CHECK_RAISE = Message("bet.blocked.check_raise", "check-raise is not allowed in this game")
BLOCKED_NOT_REOPENED = Message(
    "bet.blocked.not_reopened", "a short all-in raise did not reopen the betting"
)
BLOCKED_CAP = Message(  # English says "raises" for any count, as it always has
    "bet.blocked.cap",
    "the raise cap is reached (bet + {raises} raises)",
    plural="the raise cap is reached (bet + {raises} raises)",
    plural_by="raises",
)
BLOCKED_POKERKIT_SHORT_CALL = Message(
    "bet.blocked.pokerkit_short_call",
    "a short all-in cannot be raised: the call of {owed} is less than the round's largest bet "
    "or raise ({largest}) (pokerkit)",
)
BLOCKED_POKERKIT_SHORT_ALL_INS = Message(
    "bet.blocked.pokerkit_short_all_ins",
    "the seat has acted, and the short all-ins since ({shorts}) do not add up to the round's "
    "largest bet or raise ({largest}) (pokerkit)",
)
BLOCKED_POKERKIT_NOBODY_BEHIND = Message(
    "bet.blocked.pokerkit_nobody_behind",
    "every other player has folded or is all in for no more than the bet (pokerkit)",
)

# -- the button and the players dealt in (``rules/table/blinds.py``: BLIND-02/03, DEAL-02,
# GAME-05/07) ------------------------------------------------------------------------------------

BUTTON_CHOICE = Message(
    "bet.button_choice", "Seat {seat} cannot take the button: give it to one of [{seats}]."
)
BUTTON_MOVES = Message(
    "bet.button_moves",
    "The button moves to seat {seat}; start the hand without naming a button.",
)
HEADS_UP_BUTTON = Message(
    "bet.heads_up_button",
    "Heads-up: seat {seat} had the big blind, so it takes the button and the small blind; "
    "start without naming a button.",
)
TOO_FEW_TO_DEAL = Message(
    "bet.too_few_to_deal", "At least two active seats with chips are needed to deal a hand."
)
STRIPPED_MOST_PLAYERS = Message(
    "bet.stripped_most_players",
    "A-7 stripped deals at most {most} players ({count} are active); sit someone out first.",
)
TOO_MANY_PLAYERS = Message(
    "bet.too_many_players",
    "{count} players are active but this game deals at most {most}; sit someone out first.",
)
