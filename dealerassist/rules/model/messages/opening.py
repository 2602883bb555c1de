"""What ante games with openers say (``rules/hand/openers.py``: OPEN-02/03/05/07/08)."""

from dealerassist.rules.model.said import Message

NO_OPENERS = Message(
    "open.no_openers",
    "Seat {seat} holds {cards}: no jacks or better to open. It may check (pass) or fold.",
)
OPENED_KEEP_OPENERS = Message(
    "open.opened_keep_openers",
    "Seat {seat} opened: it must keep its openers to show them at the end of the hand",
)
ASK_ALL_IN = Message(
    "open.ask_all_in",
    "Seat {seat} is all in for the antes: ask whether it opens. With openers it may declare the "
    "pot open; every caller puts in the full opening bet of {size}, and it plays only for the "
    "antes it matched",
)
ONLY_OPENER_SPLITS = Message(
    "open.only_opener_splits",
    "Seat {seat} did not open this pot: only the opener splits openers. Enter the draw without "
    "'split'.",
)
SPLITS_OPENERS = Message(
    "open.splits_openers",
    "Seat {seat} splits openers: keep its discards under a chip until the pot is decided",
)
CANNOT_SHOW_OPENERS = Message(
    "open.cannot_show_openers",
    "Seat {seat} opened but cannot show openers ({cards}): its hand is dead and cannot win the pot",
)
SHOW_OPENERS = Message(
    "open.show_openers",
    "Seat {seat} opened: it shows its openers to the table before the pot is pushed",
)

# OPEN-08: an all-in false opener sits out
UNTIL_LEGAL_POT = Message(
    "open.until_legal_pot", "until a legally opened pot has been won (even if he rebuys)"
)
FALSE_OPENER_SITS_OUT = Message(
    "open.false_opener_sits_out",
    "Seat {seat} opened falsely while all in for the antes: it loses the antes and is not dealt "
    "in {until}",
)
FALSE_OPENER_NO_CARDS = Message(
    "open.false_opener_no_cards",
    "Seat {seat} opened falsely while all in for the antes and is not dealt in {until}; it has "
    "no cards in this hand.",
)
FALSE_OPENER_NO_CARDS_NEXT = Message(
    "open.false_opener_no_cards_next",
    "Seat {seat} opened falsely while all in for the antes and is not dealt in {until}; it has "
    "no cards in this hand: enter seat {to_act}'s action.",
)
FALSE_OPENERS_TOO_FEW = Message(  # English says "Seat 2, 5" for any number, as it always has
    "open.false_openers_too_few",
    "Seat {seats} opened falsely while all in for the antes and is not dealt in {until}: at "
    "least two other players with chips are needed to deal.",
)

# OPEN-03: nobody opened (``rules/table/blinds.py``)
SAME_DEALER = Message(
    "open.same_dealer", "Nobody opened: seat {seat} deals again; start without naming a button."
)
