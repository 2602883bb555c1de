"""What the floor's irregularities say on the deal: an extra card (IRREG-06), a card found face
up in the stub (DECK-06), a misdeal (IRREG-01), a foul hand after the draw (DRAW-10); the
phase words and the refusals the exposed cards share (``messages/exposed.py``)."""

from dealerassist.rules.model.said import Message

# A phase as a word ("the hand is in {phase}"), keyed by the phase's stored value (a Phase
# is that str), which is its English. The message modules import nothing of the model but
# said.py: the model's own modules say them too. (tests/unit/rules/floor checks every Phase.)
PHASES = {
    value: Message(f"irregular.phase.{value}", value)
    for value in (
        "posting",
        "deal",
        "betting_1",
        "draw_1",
        "betting_2",
        "draw_2",
        "betting_3",
        "draw_3",
        "betting_4",
        "showdown",
        "complete",
    )
}

# -- the card entered ------------------------------------------------------------------------

NOT_DEALT_IN = Message("irregular.not_dealt_in", "Seat {seat} is not dealt in this hand.")
NOT_A_CARD_OF_DECK = Message(
    "irregular.not_a_card_of_deck", "{card} is not a card of this {deck}-card deck."
)
RANK_NOT_OF_CARD = Message(
    "irregular.rank_not_of_card", "The rank {rank} is not the rank of {card}."
)
ENTER_ONE_EXPOSED_CARD = Message(
    "irregular.enter_one_exposed_card",
    "Card mode: enter the one exposed card as cards (e.g. '6h').",
)
ENTER_EXPOSED_RANK = Message(
    "irregular.enter_exposed_rank", "Count mode: enter the exposed card's rank (e.g. rank '6')."
)

# -- IRREG-01: a misdeal ---------------------------------------------------------------------

MISDEAL = Message(
    "irregular.misdeal",
    "{what} on this deal: that is a misdeal (IRREG-01). Leave the cards as they are and call "
    "the floor; the floor declares it with the misdeal ruling.",
)
MISDEAL_EXPOSED = Message(
    "irregular.misdeal_exposed",
    "{count} card exposed by the dealer",
    plural="{count} cards exposed by the dealer",
)
MISDEAL_EXTRA = Message(
    "irregular.misdeal_extra", "{count} extra card dealt", plural="{count} extra cards dealt"
)

# -- IRREG-06: an extra card on the deal -----------------------------------------------------

EXTRA_NOT_ON_DEAL = Message(
    "irregular.extra_not_on_deal",
    "An extra card is entered only on the initial deal, before the first betting action; the "
    "hand is in {phase}. Too many cards on the draw is IRREG-07: call the floor.",
)
EXTRA_SEAT_NOT_DEALT_IN = Message(
    "irregular.extra_seat_not_dealt_in",
    "Seat {seat} is not dealt in this hand. A card dealt to an empty or ineligible seat is a "
    "misdeal (IRREG-01): call the floor.",
)
EXTRA_NOTHING_ELSE = Message(
    "irregular.extra_nothing_else",
    "Enter extra_card with the seat and, in card mode, the extra card; nothing else.",
)
EXTRA_SEAT_ALONE = Message(
    "irregular.extra_seat_alone",
    "Count mode tracks no cards: enter extra_card with the seat alone.",
)
EXTRA_ONE_CARD = Message(
    "irregular.extra_one_card",
    "Card mode: enter the one extra card as cards (e.g. '9d'), the one dealt last.",
)
EXTRA_NAME_IT = Message(
    "irregular.extra_name_it",
    "Name the extra card: only an identifiable extra card goes back as the burn (IRREG-06). If "
    "it cannot be told from the seat's five, the seat has the wrong number of cards: a misdeal "
    "(IRREG-01), call the floor.",
)
EXTRA_AMONG_FIVE = Message(
    "irregular.extra_among_five",
    "{card} is one of the five entered for seat {seat}: the extra card is the one not entered. "
    "If the deal was entered with the extra card, void it and enter the five the seat keeps.",
)
EXTRA_IN_PLAY = Message(
    "irregular.extra_in_play",
    "{card} is already in play ({place}): enter the card seat {seat} got extra.",
)
EXTRA_TO_BURN = Message(
    "irregular.extra_to_burn",
    "Seat {seat} was dealt an extra card ({card}): return it face down to the burn pile; it is "
    "the burn{rest}",
)
EXTRA_TO_BURN_UNNAMED = Message(
    "irregular.extra_to_burn_unnamed",
    "Seat {seat} was dealt an extra card: return it face down to the burn pile; it is the "
    "burn{rest}",
)
EXTRA_BURN_NOTHING_MORE = Message(
    "irregular.extra_burn_nothing_more", ", so burn nothing more before the first draw"
)

# -- DECK-06: a card found face up in the stub -----------------------------------------------

BOXED_NOT_DEALING = Message(
    "irregular.boxed_not_dealing",
    "A card found face up in the stub is entered while the stub is being dealt: on the deal "
    "(before the first betting action) or in a draw; the hand is in {phase}. Call the floor.",
)
BOXED_STUB_EMPTY = Message(
    "irregular.boxed_stub_empty", "The stub is empty: no card can be found face up in it."
)
BOXED_SEAT_NOT_IN_HAND = Message(
    "irregular.boxed_seat_not_in_hand",
    "Seat {seat} is not in the hand: enter the seat whose cards were dealt.",
)
BOXED_NOTHING_ELSE = Message(
    "irregular.boxed_nothing_else",
    "Enter boxed_card with the seat and, in card mode, the card found; nothing else.",
)
BOXED_SEAT_ALONE = Message(
    "irregular.boxed_seat_alone",
    "Count mode tracks no cards: enter boxed_card with the seat alone.",
)
BOXED_ONE_CARD = Message(
    "irregular.boxed_one_card",
    "Card mode: enter the one card found face up as cards (e.g. 'Qh').",
)
BOXED_IN_PLAY = Message(
    "irregular.boxed_in_play",
    "{card} is already in play ({place}): a card in the stub has not been seen.",
)
BOXED_BLANK = Message(
    "irregular.boxed_blank",
    "The card found face up in the stub ({card}) is a blank: put it face down with the burn "
    "cards (it goes into a reshuffle, never to seat {seat}'s hand now) and deal seat {seat} "
    "the next card",
)
BOXED_BLANK_UNNAMED = Message(
    "irregular.boxed_blank_unnamed",
    "The card found face up in the stub is a blank: put it face down with the burn cards (it "
    "goes into a reshuffle, never to seat {seat}'s hand now) and deal seat {seat} the next card",
)
BOXED_VOID = Message(
    "irregular.boxed_void",
    "{count} card found face up in the stub in this hand: the hand is void (WSOP 23; RRoP: a "
    "misdeal). Leave the cards as they are and call the floor; the floor declares it with the "
    "misdeal ruling.",
    plural="{count} cards found face up in the stub in this hand: the hand is void (WSOP 23; "
    "RRoP: a misdeal). Leave the cards as they are and call the floor; the floor declares it "
    "with the misdeal ruling.",
)

# -- DRAW-10: a foul hand after the draw -----------------------------------------------------

# The English says "cards" for any count, as it always has; the plural form lets the
# catalogs say one card.
FOULED = Message(
    "irregular.fouled",
    "Seat {seat} has {held} cards after the draw: a hand must have exactly five, so it is foul "
    "(dead); its chips stay in the pot",
    plural="Seat {seat} has {held} cards after the draw: a hand must have exactly five, so it "
    "is foul (dead); its chips stay in the pot",
    plural_by="held",
)
