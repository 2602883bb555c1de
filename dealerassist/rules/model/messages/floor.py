"""What the floor's rulings, the showdown and the blinds' chop say (``rules/floor/rulings.py``,
``rules/floor/waivers.py``, ``rules/hand/showdown.py``, ``rules/hand/chop.py``: IRREG-02/04/14/15,
SHOW-01..08/11, OPEN-08, BLIND-03, GAME-06, RANK-05, KILL-06).

Effect names (``kill_hand``), rule IDs, card codes and deadlines' codes are parameters the
engine does not translate; a pot's name (``POT_MAIN``, ``POT_SIDE``) is a nested message.
"""

from dealerassist.rules.model.said import Message

# -- the pots, as the dealer and the floor call them (``ruling_commands.pot_name``) -----------

POT_MAIN = Message("floor.pot_main", "the main pot")
POT_SIDE = Message("floor.pot_side", "side pot {index}")
# "a; b; c": a list of pots (the core's lists join with "and" or a comma only)
SEMICOLON = Message("floor.semicolon", "{first}; {rest}")

# -- the hand waits for the floor (IRREG-04, SHOW-11) -----------------------------------------

WAIT_FOR_RULING = Message(
    "floor.wait_for_ruling",
    "The stub and the reshuffle pool cannot replace the card exposed on the draw: nothing is "
    "entered until the floor rules (IRREG-04).",
)
POT_HELD_WAIT = Message(
    "floor.pot_held_wait",
    "The floor holds the pot while surveillance checks; wait for its release.",
)
POT_HELD_RELEASE_FIRST = Message(
    "floor.pot_held_release_first", "The pot is held; release it before {effect}."
)
POT_HELD_ALREADY = Message("floor.pot_held_already", "The pot is held already.")
POT_NOT_HELD = Message("floor.pot_not_held", "The pot is not held.")

# -- the ruling's body does not fit the table or the catalog (400) ---------------------------

DECISION_NOT_AN_OPTION = Message(
    "floor.decision_not_an_option", "decision for {rule} must be one of {decisions}"
)
NO_RULE = Message("floor.no_rule", "a ruling without a rule")  # DECISION_NOT_AN_OPTION's {rule}
NOTE_REQUIRED = Message("floor.note_required", "a {decision} ruling needs a note giving the reason")
HAND_NOT_DEALT = Message("floor.hand_not_dealt", "hand {hand} has not been dealt at this table")
NO_STACK_TO_ADJUST = Message(
    "floor.no_stack_to_adjust", "seat {seat} is empty; there is no stack to adjust"
)
STACK_CANNOT_LOSE = Message(
    "floor.stack_cannot_lose", "seat {seat} has {stack}; it cannot lose {amount}"
)

# -- IRREG-14: the deadline -------------------------------------------------------------------

HAND_CLOSED = Message(
    "floor.hand_closed",
    "Hand {hand} closed when hand {current} started; only a stack adjustment with a note is "
    "possible now.",
)
# no hand in play at the table: the engine has always said "hand None"
HAND_CLOSED_NO_HAND = Message(
    "floor.hand_closed_no_hand",
    "Hand {hand} closed when hand None started; only a stack adjustment with a note is "
    "possible now.",
)

# -- IRREG-15: the effect cannot be carried out -----------------------------------------------

NEEDS_LIVE_HAND = Message("floor.needs_live_hand", "{effect} needs a hand in play; none is.")
ACCEPT_NEEDS_ACTION = Message(
    "floor.accept_needs_action", "accept_entry takes an action of a seat in the hand."
)
NOT_WAIVABLE = Message("floor.not_waivable", "{waive} cannot be waived here; waivable: {waivable}.")
NO_HAND_TO_VOID = Message("floor.no_hand_to_void", "There is no hand to void actions in.")
NO_HAND_TO_MISDEAL = Message(
    "floor.no_hand_to_misdeal", "There is no hand to declare a misdeal on."
)
KILL_NOT_DEALT = Message(
    "floor.kill_not_dealt", "The hands are not dealt yet; the seat may sit out instead."
)
ALREADY_DEAD = Message("floor.already_dead", "Seat {seat}'s hand is already dead.")
AWARD_NOT_DEALT = Message(
    "floor.award_not_dealt", "Nothing is dealt yet; declare a misdeal or let the posts finish."
)
BUTTON_BETWEEN_HANDS = Message(
    "floor.button_between_hands",
    "The button moves between hands; finish the hand or declare a misdeal.",
)
REOPEN_NOT_BETTING = Message(
    "floor.reopen_not_betting", "Betting can be reopened only during a betting round."
)
REOPEN_CANNOT_BET = Message("floor.reopen_cannot_bet", "Seat {seat} is out of the hand or all in.")

# -- IRREG-02: the misdeal deadline -----------------------------------------------------------

TOO_LATE_FOR_MISDEAL = Message(
    "floor.too_late_for_misdeal",
    "Too late for a misdeal: {why} (house deadline {deadline}). The hand is played out; only "
    "a fouled deck (DECK-01) still voids it.",
)
WHY_TWO_PLAYERS_ACTED = Message("floor.why_two_players_acted", "two players have acted")
WHY_SUBSTANTIAL_ACTION = Message(
    "floor.why_substantial_action", "there has been substantial action"
)

# -- instructions -----------------------------------------------------------------------------

MISDEAL = Message(
    "floor.misdeal", "Misdeal: return every chip to its owner; the redeal keeps the same button"
)
KILL = Message("floor.kill", "Kill seat {seat}'s hand")
GIVE_EXPOSED_CARD = Message(
    "floor.give_exposed_card",
    "Give seat {seat} its exposed {card}: it is its replacement (floor ruling)",
)
GIVE_EXPOSED = Message(
    "floor.give_exposed", "Give seat {seat} its exposed card: it is its replacement (floor ruling)"
)

# -- SHOW-07: an award names the pots and seats that may win them -----------------------------

AWARD_POT_COUNT = Message(
    "floor.award_pot_count",
    "The award names {named} pot but the hand has {pots}{back}: {listed}. Name the winners of "
    "each pot, main pot first.",
    plural="The award names {named} pots but the hand has {pots}{back}: {listed}. Name the "
    "winners of each pot, main pot first.",
    plural_by="named",
)
AFTER_UNCALLED = Message(
    "floor.after_uncalled", " after the uncalled {amount} went back to seat {seat}"
)
NO_CHIPS_IN_MIDDLE = Message("floor.no_chips_in_middle", "no chips in the middle")
POT_SEATS = Message("floor.pot_seats", "{pot} {amount} (seats {seats})")
CANNOT_SHARE = Message(
    "floor.cannot_share",
    "Seat {seat} cannot share {pot} ({amount}, seats {seats}): {why}. {advice}",
)
WHY_NOT_IN_HAND = Message("floor.why_not_in_hand", "it is not in the hand")
WHY_FOLDED = Message("floor.why_folded", "its hand is folded")
WHY_MATCHED_ONLY = Message(
    "floor.why_matched_only",
    "it put in {committed} in all and wins only what it matched from each opponent",
)
AWARD_AMONG = Message("floor.award_among", "Award {pot} to seats among {seats}.")
AWARD_EVERY_POT = Message(
    "floor.award_every_pot",
    "An award to seats gives them every pot: name seats among {seats}, or award pot by pot "
    "({pots}).",
)
POT_TO_SEATS = Message("floor.pot_to_seats", "{pot} {amount} to seats among {seats}")

# -- stacks and the button (GAME-06, BLIND-03) ------------------------------------------------

ADDED_CHIPS_NEXT_HAND = Message(
    "floor.added_chips_next_hand",
    "Seat {seat}'s {amount} added chips play from the next hand (table stakes): keep them "
    "beside its stack until this hand is over.",
)
BUTTON_NOT_ELIGIBLE = Message(
    "floor.button_not_eligible", "Seat {seat} cannot take the button: give it to one of [{seats}]."
)

# -- OPEN-08: clearing a false opener's wait --------------------------------------------------

NOTHING_TO_CLEAR = Message(
    "floor.nothing_to_clear", "{what} (OPEN-08): nothing to clear. {waiting}"
)
SEAT_NOT_FALSE_OPENER = Message(
    "floor.seat_not_false_opener", "Seat {seat} does not wait as a false opener"
)
PLAYER_NOT_FALSE_OPENER = Message(
    "floor.player_not_false_opener", "Player {player} does not wait as a false opener"
)
WAITING_FALSE_OPENERS = Message(
    "floor.waiting_false_openers", "Waiting as false openers: {waiting}."
)
NOBODY_WAITS = Message("floor.nobody_waits", "Nobody waits as one.")
WAITING_SEAT = Message("floor.waiting_seat", "seat {seat} ({player})")
WAITING_AWAY = Message("floor.waiting_away", "player {player} (away)")

# -- the showdown (SHOW-01/02/03/05, DECK-01, RANK-05) ----------------------------------------

SHOWS_FIRST = Message(
    "floor.shows_first", "Seat {expected} shows (or mucks) first{why}; seat {seat} must wait."
)
WHY_SIDE_POT_FIRST = Message(
    "floor.why_side_pot_first",
    ": {pot} is shown down before a hand all in for less (side-pot hands show first, WSOP 149)",
)
ONLY_HAND_LEFT = Message(
    "floor.only_hand_left",
    "Seat {seat} is the only hand left for a pot; it wins without mucking.",
)
TABLE_FIVE_CARDS = Message(
    "floor.table_five_cards",
    "Table all five cards of seat {seat} to show (e.g. '7h 5s 4d 3c 2d').",
)
SHOW_HELD_CARDS = Message("floor.show_held_cards", "Seat {seat} holds {cards}; show those cards.")
SHOWN_ELSEWHERE = Message(
    "floor.shown_elsewhere",
    "A card shown here was already shown by another seat; re-enter the cards.",
)
SAY_PAIR = Message(
    "floor.say_pair",
    "Seat {seat} shows a paired hand: in lowball the player must say 'pair' as he spreads it. "
    "If another player threw his hand away because it was not announced, call the floor (the "
    "pot may be at risk for the seat that did not announce it).",
)
LOW_NUMBER = Message("floor.low_number", "Seat {seat} shows {ranks}: number {number}")

# -- the blinds' chop (SHOW-08, KILL-06, BET-08) ----------------------------------------------

CHOP_NOT_ALLOWED = Message(
    "floor.chop_not_allowed", "this table's house rules do not allow chopping the blinds"
)
CHOP_KILL_IN_BLIND = Message(
    "floor.chop_kill_in_blind",
    "no blind chop when the kill sits in a blind (seat {kill} kills this hand)",
)
CHOP_SMALL_BLINDS_TURN = Message(
    "floor.chop_small_blinds_turn",
    "it is seat {small}'s turn: the chop is entered for the small blind, seat {small}, when both "
    "blinds agree; seat {seat} may not enter it",
)
CHOP_BEFORE_DRAW = Message(
    "floor.chop_before_draw",
    "the blinds may chop only before the draw, when everyone else folded to them",
)
CHOP_NEEDS_BLINDS = Message(
    "floor.chop_needs_blinds", "a chop needs a small and a big blind in the hand"
)
CHOP_HEADS_UP = Message(
    "floor.chop_heads_up", "in a hand dealt to two nobody folded to the blinds: it is played out"
)
CHOP_STRADDLE = Message("floor.chop_straddle", "seat {seat} straddled: the straddle plays, no chop")
CHOP_KILL_POT = Message(
    "floor.chop_kill_pot", "seat {seat} killed this hand: a kill pot is played out"
)
CHOP_STILL_IN = Message(
    "floor.chop_still_in",
    "seat(s) {seats} still in the hand: the blinds chop only when all others fold",
)
CHOP_ALREADY_ACTED = Message(
    "floor.chop_already_acted",
    "the small blind already acted: the blinds chop only before it completes or raises",
)
CHOP_DEAD_MONEY = Message(
    "floor.chop_dead_money",
    "more than the two blinds is in the pot (antes, dead money or the post of a seat that "
    "folded): the pot is played out",
)
CHOP_ON_SMALL_BLINDS_TURN = Message(
    "floor.chop_on_small_blinds_turn",
    "the chop is entered on the small blind's turn (seat {small})",
)
CHOP_OFFER = Message(
    "floor.chop_offer",
    "Only when both blinds agree: each blind takes back its blind and the hand ends (no pot, no "
    "showdown)",
)
CHOPPED = Message(
    "floor.chopped", "The blinds agreed to chop: {taken}; no pot, no showdown: muck both hands"
)
TAKES_BACK = Message("floor.takes_back", "seat {seat} takes back {chips}")
