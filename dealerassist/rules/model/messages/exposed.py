"""What a card exposed by the dealer says: on the initial deal, kept or replaced (IRREG-03,
``rules/floor/exposed.py``), and on the draw, never taken and replaced last (IRREG-04,
``rules/floor/exposed_draw.py``). The refusals both share are in ``messages/irregular.py``."""

from dealerassist.rules.model.said import Message

# -- IRREG-03: the house rule ----------------------------------------------------------------

HOUSE_KEEPS_EVERY = Message("irregular.house_keeps_every", "this house keeps every exposed card")
HOUSE_REPLACES_EVERY = Message(
    "irregular.house_replaces_every", "this house replaces every exposed card"
)
HOUSE_KEEPS_ONLY = Message("irregular.house_keeps_only", "this house keeps only {ranks}")

# -- IRREG-03: refusals ----------------------------------------------------------------------

EXPOSED_NOT_ON_DEAL = Message(
    "irregular.exposed_not_on_deal",
    "An exposed card is entered only on the initial deal, before the first betting action; the "
    "hand is in {phase}. A card exposed on the draw is IRREG-04: finish the draw and call the "
    "floor.",
)
EXPOSED_ITSELF = Message(
    "irregular.exposed_itself", "Enter the exposed card itself: everyone has seen it."
)
EXPOSED_NO_CARDS_YET = Message(
    "irregular.exposed_no_cards_yet",
    "Seat {seat} has no cards yet: enter its deal first, then the exposed card.",
)
EXPOSED_NOT_IN_HAND = Message(
    "irregular.exposed_not_in_hand",
    "{card} is not in seat {seat}'s hand: enter the exposed card from the cards dealt to that "
    "seat ({cards}).",
)
EXPOSED_NO_SUCH_RANK = Message(
    "irregular.exposed_no_such_rank", "{rank} is no rank of this deck ({ranks})."
)
EXPOSED_OPTION = Message(
    "irregular.exposed_option", "option is 'keep', 'replace' or left out, not '{option}'."
)
NEVER_CHOOSES_KEEP = Message(
    "irregular.never_chooses_keep",
    "The player never chooses (player chose to keep an exposed {rank}): {house}, so this card "
    "is replaced after the deal. Enter it without option, or with option 'replace'.",
)
NEVER_CHOOSES_REPLACE = Message(
    "irregular.never_chooses_replace",
    "The player never chooses (player chose to replace an exposed {rank}): {house}, so this "
    "card is kept. Enter it without option, or with option 'keep'.",
)

# -- IRREG-03: the dealer's step -------------------------------------------------------------

KEEPS = Message("irregular.keeps", "Seat {seat} keeps the exposed {card}: {house}")
REPLACED_NOW = Message(
    "irregular.replaced_now",
    "Seat {seat}'s exposed {card} is replaced ({house}): put it in the burn pile (it is the "
    "burn) and deal seat {seat} one card from the stub",
)
REPLACED_AFTER_DEAL = Message(
    "irregular.replaced_after_deal",
    "Seat {seat}'s exposed {card} is replaced ({house}): put it in the burn pile (it is the "
    "burn); when every seat has five cards, deal seat {seat} one card from the stub and enter "
    "it with deal",
)

# -- IRREG-04: refusals ----------------------------------------------------------------------

DRAW_NO_CARD_YET = Message(
    "irregular.draw_no_card_yet",
    "No card has been dealt in this draw yet: a card exposed on the draw is entered right after "
    "the deal that exposed it (IRREG-04).",
)
DRAW_MOVED_ON = Message(
    "irregular.draw_moved_on",
    "An exposed draw card is entered right after it is dealt, before the first action after "
    "the draw; the hand is in {phase} and has moved on (IRREG-04): call the floor.",
)
DRAW_NO_OPTION = Message(
    "irregular.draw_no_option",
    "The player may not take a card exposed on the draw, nor choose anything (IRREG-04): enter "
    "it without option.",
)
DRAW_ONLY_JUST_DEALT = Message(
    "irregular.draw_only_just_dealt",
    "Only a card just dealt can be entered as exposed, and the last cards went to seat {last} "
    "(IRREG-04). A card exposed earlier is the floor's.",
)
DRAW_NOT_JUST_DEALT = Message(
    "irregular.draw_not_just_dealt",
    "{card} is not one of the cards just dealt to seat {seat} ({cards}): enter the card that "
    "was exposed (IRREG-04).",
)
DRAW_NO_SUCH_RANK = Message(
    "irregular.draw_no_such_rank", "{rank} is no rank of this {deck}-card deck."
)
TAKE_NOT_WAITING = Message(
    "irregular.take_not_waiting",
    "Seat {seat} cannot take an exposed card: the player takes one only when the stub and the "
    "reshuffle pool cannot replace it and the hand waits for the floor (IRREG-04).",
)
TAKE_NOT_WAITING_OWED = Message(
    "irregular.take_not_waiting_owed",
    "Seat {seat} cannot take an exposed card: the player takes one only when the stub and the "
    "reshuffle pool cannot replace it and the hand waits for the floor (IRREG-04); seats owed "
    "one: [{owed}].",
)
TAKE_GONE = Message(
    "irregular.take_gone", "Seat {seat}'s exposed card is no longer where it was put."
)

# -- IRREG-04: the dealer's step and the floor -----------------------------------------------

TO_DISCARDS = Message(
    "irregular.to_discards", "put it with the discards (seat {seat} may never get it back)"
)
TO_BURN_SPARE = Message(
    "irregular.to_burn_spare",
    "put it in the burn pile (the exposed card already there is the next burn)",
)
TO_BURN_NEXT = Message(
    "irregular.to_burn_next",
    "put it in the burn pile: it is the next burn (no other card is burned then)",
)
NOT_TAKEN = Message("irregular.not_taken", "Seat {seat} may not take the exposed {card}: {where}.")
NOT_TAKEN_UNNAMED = Message(
    "irregular.not_taken_unnamed", "Seat {seat} may not take the exposed card: {where}."
)
REPLACEMENT_OWED = Message(
    "irregular.replacement_owed", "{taken} Replacement owed to seat {seat} at the end of the draw"
)
CANNOT_REPLACE = Message(
    "irregular.cannot_replace",
    "{taken} The stub and the reshuffle pool cannot replace seat {seat}'s exposed card: stop the "
    "draw and call the floor",
)
FLOOR_WAIT = Message(
    "irregular.floor_wait",
    "The stub and the reshuffle pool cannot replace seat {seat}'s exposed card (DRAW-06): stop "
    "the draw and call the floor. The player may be allowed to take the exposed card "
    "(take_exposed), or the floor rules a misdeal, a dead hand or an award",
)
FLOOR_WAIT_UNSEATED = Message(
    "irregular.floor_wait_unseated",
    "The stub and the reshuffle pool cannot replace a exposed card (DRAW-06): stop the draw and "
    "call the floor. The player may be allowed to take the exposed card (take_exposed), or the "
    "floor rules a misdeal, a dead hand or an award",
)
