"""What the draw refuses (``rules/hand/drawing.py``: DRAW-01/02/03/06/07) and what the dealer
is told of the stub before it (``rules/hand/stub.py``: DRAW-04/05/06/13)."""

from dealerassist.rules.model.said import Message

# -- the draw's refusals -------------------------------------------------------------------

NOT_NEXT = Message("draw.not_next", "Seat {declaring} draws next{why}; seat {seat} must wait.")
WHY_HEADS_UP_SMALL_BLIND = Message(
    "draw.why_heads_up_small_blind", " (heads-up: the small blind, seat {small}, draws last)"
)
LIMIT = Message("draw.limit", "Seat {seat} may draw 0 to {plain} cards{ace}.")
LIMIT_WITH_ACE = Message("draw.limit_with_ace", ", or {with_ace} with an ace shown to the table")
STUB_GIVES_ONLY = Message(  # English says "card(s)" for any number, as it always did
    "draw.stub_gives_only",
    "The stub and a reshuffle can give only {most} card(s); draw at most {most}.",
    plural="The stub and a reshuffle can give only {most} card(s); draw at most {most}.",
    plural_by="most",
)
NO_FIVE_IN_A_ROW = Message(
    "draw.no_five_in_a_row",
    "Five cards in a row are not dealt: enter four now, the fifth after the others.",
)
COUNT_MISMATCH = Message(
    "draw.count_mismatch", "{count} cards requested but {named} discarded; they must match."
)
ENTER_COUNT = Message("draw.enter_count", "Enter how many cards the seat draws (0 to stand pat).")
DISCARD_NOT_HELD = Message(
    "draw.discard_not_held", "{card} is not in seat {seat}'s hand; discard cards it holds."
)
ACE_KEPT = Message(
    "draw.ace_kept",
    "Seat {seat} keeps {kept}: {count} cards are drawn only while keeping an ace{joker}; "
    "draw at most {most}.",
)
OR_THE_JOKER = Message("draw.or_the_joker", " or the joker")
LOCKED = Message(
    "draw.locked",
    "Seat {seat}'s draw is locked: cards were dealt or a later seat has acted on it.",
)
PAT_STANDS = Message(
    "draw.pat_stands",
    "Seat {seat} stood pat and the betting after the draw has begun: the pat stands.",
)
CANNOT_SUPPLY = Message("draw.cannot_supply", "The stub and a reshuffle cannot supply these cards.")
STUB_FIRST = Message(  # English says "card(s)" for any number, as it always did
    "draw.stub_first",
    "{from_pool} of these cards are discards, but the stub still has {usable} card(s) to deal: "
    "deal from the stub first; discards come back only in a reshuffle.",
    plural="{from_pool} of these cards are discards, but the stub still has {usable} card(s) to "
    "deal: deal from the stub first; discards come back only in a reshuffle.",
    plural_by="usable",
)
FIFTH_COMES_AFTER = Message(
    "draw.fifth_comes_after",
    "Seat {seat}'s fifth card comes after every other seat has drawn (never five in a row); "
    "deal to seat {to_act} now.",
)
ONLY_DRAWER_RECEIVES = Message(
    "draw.only_drawer_receives", "Only the seat that has drawn (seat {to_act}) receives cards now."
)

# -- the stub before the draw (rules/hand/stub.py) -------------------------------------------

REACH = Message(
    "draw.reach",
    "Draw {round}: {stub} cards in the stub; {usable} can be dealt before a reshuffle is needed "
    "({burn}{bottom}). If it runs out, stop and shuffle face down {pool} into a new stub",
)
ONE_BURN = Message("draw.one_burn", "one burn, ")
BOTTOM_NEVER = Message("draw.bottom_never", "the bottom card is not dealt")
BOTTOM_IF_IT_COMPLETES = Message(
    "draw.bottom_if_it_completes",
    "the bottom card is dealt only if it completes every remaining draw",
)
BOTTOM_NORMAL = Message("draw.bottom_normal", "the bottom card is dealt like any other")
POOL_EARLIER_DISCARDS_BOTTOM_BURNS = Message(
    "draw.pool_earlier_discards_bottom_burns",
    "the bottom card, the burn cards and the discards of the other seats (never the drawer's "
    "own, nor those of a seat still owed cards)",
)
POOL_PREVIOUS_ROUNDS_MUCK_BURNS = Message(
    "draw.pool_previous_rounds_muck_burns",
    "what is left of the stub, the burn cards, the muck and the discards of earlier draws "
    "(this draw's discards stay out)",
)
POOL_ALL_DISCARDS_EXCEPT_OWN = Message(
    "draw.pool_all_discards_except_own",
    "what is left of the stub, the burn cards, the muck and every discard except the drawer's "
    "own (and those of a seat still owed cards)",
)
POOL_ALL_DISCARDS = Message(
    "draw.pool_all_discards", "what is left of the stub, the burn cards and every discard"
)
POOL_LATER_DRAWERS = Message(
    "draw.pool_later_drawers",
    "the bottom card, the burn cards and the discards of the seats that drew before in this "
    "draw (never the drawer's own, nor those of a seat still to draw or owed cards)",
)
POOL_FIRST_DRAW = Message(
    "draw.pool_first_draw",
    "what is left of the stub, the burn cards, the muck and the discards of earlier draws "
    "(in the first draw: of the seats already served; never the drawer's own)",
)
OFF_LIMITS = Message(
    "draw.off_limits",
    "Discards and the stub are off limits: nobody looks through them, and no card is shown "
    "after the hand. A card found face up in the stub is a blank: enter it (boxed_card), put "
    "it with the burn cards and deal the next one (two or more among the cards needed: call "
    "the floor)",
)
