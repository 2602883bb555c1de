"""What the dealer is told to do (``rules/hand/instructions.py``), what the deal refuses
(``rules/hand/dealing.py``: DEAL-01, DECK-01/05, DRAW-06, IRREG-07/08) and the deck change
at the post (``rules/hand/flow.py``, GAME-05)."""

from dealerassist.rules.model.said import Message

# -- the dealer's instructions ------------------------------------------------------------

POST = Message("deal.post", "Seat {seat} posts {what}: {amount}")
DEAL_HANDS = Message(
    "deal.deal_hands",
    "Deal five cards to each of seats {seats}, one at a time, starting with seat {first}",
)
BURN = Message("deal.burn", "Burn one card")
BURN_NOTHING_MORE = Message(
    "deal.burn_nothing_more", "Burn nothing more: the card already in the burn pile is this burn"
)
COME_BACK = Message(
    "deal.come_back",
    "Seat {seat} gets four now: come back to it for the fifth card after every other seat has "
    "drawn (never five in a row)",
)
DEAL_CARDS = Message(
    "deal.deal_cards",
    "Deal {count} card to seat {seat}{source}",
    plural="Deal {count} cards to seat {seat}{source}",
)
DEAL_MORE_CARDS = Message(
    "deal.deal_more_cards",
    "Deal {count} more card to seat {seat}{source}",
    plural="Deal {count} more cards to seat {seat}{source}",
)
FROM_NEW_STUB = Message("deal.from_new_stub", " from the new stub")
FIFTH_OWED = Message(
    "deal.fifth_owed", "Deal seat {seat} its fifth card (owed since its five-card draw){source}"
)
REPLACEMENT_OWED = Message(
    "deal.replacement_owed",
    "Deal seat {seat} {count} card: the replacement owed to seat {seat} at the end of the draw "
    "(its exposed card was not taken){source}",
    plural="Deal seat {seat} {count} cards: the replacement owed to seat {seat} at the end of "
    "the draw (its exposed card was not taken){source}",
)
STOP = Message("deal.stop", "Stop: the stub cannot complete seat {seat}'s draw; {left}")
STOP_BOTTOM_CARD = Message(
    "deal.stop_bottom_card",
    "the last card (the bottom card) is not dealt: it goes into the reshuffle",
)
STOP_CARDS_LEFT = Message("deal.stop_cards_left", "the {count} cards left go into the reshuffle")
STOP_STUB_EMPTY = Message("deal.stop_stub_empty", "the stub is empty")
RESHUFFLE = Message(
    "deal.reshuffle",
    "Reshuffle for seat {seat}: shuffle face down and cut {taken} into a new stub of {count} "
    "cards.{kept}",
)
RESHUFFLE_KEEP_OUT = Message("deal.reshuffle_keep_out", " Keep out the discards of {seats}.")
POOL_BOTTOM_CARD = Message("deal.pool_bottom_card", "the 1 card left in the stub (the bottom card)")
POOL_STUB_LEFT = Message("deal.pool_stub_left", "the {count} cards left in the stub")
POOL_BURNS = Message("deal.pool_burns", "{count} burn card", plural="{count} burn cards")
POOL_MUCK = Message(  # English says "cards" for one too, as it always did
    "deal.pool_muck",
    "the {count} mucked cards of folded hands",
    plural="the {count} mucked cards of folded hands",
)
POOL_DISCARDS = Message("deal.pool_discards", "the discards of {seats}")
POOL_NOTHING = Message("deal.pool_nothing", "nothing")
SEAT_DISCARDS = Message("deal.seat_discards", "seat {seat} ({count})")
SEAT_DISCARDS_OWN = Message("deal.seat_discards_own", "seat {seat} ({count}, its own)")
ASK_DRAW = Message("deal.ask_draw", "Seat {seat}: how many cards?")
AWARD = Message("deal.award", "Push {amount} from {pot} to seat {seat}")
MAIN_POT = Message("deal.main_pot", "the main pot")
SIDE_POT = Message("deal.side_pot", "side pot {index}")
RETURN_UNCALLED = Message("deal.return_uncalled", "Return {amount} uncalled to seat {seat}")
SHOW_FIRST = Message("deal.show_first", "Seat {seat} shows first")
COLLECT = Message("deal.collect", "Collect the bets into the pot ({pot})")
SKIP = Message("deal.skip", "Do not deal seat {seat}: {why} ({rule})")
PASSED_OUT = Message(
    "deal.passed_out",
    "Nobody opened: collect the cards; the pot ({carried}) stays for the next deal and "
    "everyone antes again",
)

# what a seat posts (``Owed``, by its stored value), joined with "and"
OWED_SMALL_BLIND = Message("deal.owed_small_blind", "the small blind")
OWED_BIG_BLIND = Message("deal.owed_big_blind", "the big blind")
OWED_ANTE = Message("deal.owed_ante", "the ante")
OWED_RETURNING_BIG_BLIND = Message("deal.owed_returning_big_blind", "the missed big blind (live)")
OWED_ENTERING_BIG_BLIND = Message("deal.owed_entering_big_blind", "a big blind to enter (live)")
OWED_DEAD_SMALL_BLIND = Message("deal.owed_dead_small_blind", "the small blind (dead)")
OWED_STRADDLE_OFFER = Message("deal.owed_straddle_offer", "(may straddle)")
OWED_KILL = Message("deal.owed_kill", "the kill blind")

# why a seated player is not dealt in, by the rule it waits under
WAITS_BIG_BLIND = Message("deal.waits_big_blind", "waits for the big blind")
WAITS_NEW_PLAYER = Message("deal.waits_new_player", "a new player waiting for the big blind")
WAITS_FOR_BUTTON = Message(
    "deal.waits_for_button",
    "a new player between the blinds and the button, waiting for the button to pass",
)
WAITS_MISSED_BLINDS = Message(
    "deal.waits_missed_blinds", "owes missed blinds and waits for the big blind"
)
WAITS_CHANGED_SEATS = Message(
    "deal.waits_changed_seats", "changed seats and waits for the big blind"
)
WAITS_SKIPPED_BLIND = Message(
    "deal.waits_skipped_blind", "skipped the blind and re-enters only on the blind"
)
WAITS_FALSE_OPENER = Message(
    "deal.waits_false_opener",
    "opened falsely all in: sits out until a legally opened pot has been won",
)
WAITS_PASSED_OUT = Message(
    "deal.waits_passed_out",
    "was not dealt in on the passed-out deal: dealt in once its antes are won",
)
WAITS_KILL_IN_BLIND = Message(
    "deal.waits_kill_in_blind",
    "a new player who may not buy the button while the kill is in a blind",
)

# -- the deal's refusals (rules/hand/dealing.py) ---------------------------------------------

SAME_CARD_TWICE = Message("deal.same_card_twice", "The same card is entered twice.")
WRONG_COUNT = Message(
    "deal.wrong_count",
    "Seat {seat} receives {count} card(s), not {entered}: a hand has five.",
    plural="Seat {seat} receives {count} card(s), not {entered}: a hand has five.",
)
TOO_MANY_ON_DRAW = Message(
    "deal.too_many_on_draw",
    "Seat {seat} receives {count} card(s) now, not {entered}. If the extra card was not mixed "
    "into the hand, take it back as an exposed card and enter the others; if it was, the hand "
    "is foul (six cards): call the floor.",
    plural="Seat {seat} receives {count} card(s) now, not {entered}. If the extra card was not "
    "mixed into the hand, take it back as an exposed card and enter the others; if it was, the "
    "hand is foul (six cards): call the floor.",
)
TOO_FEW_ON_DRAW = Message(
    "deal.too_few_on_draw",
    "Seat {seat} receives {count} card(s) now, not {entered}: complete the draw from the stub "
    "before the betting starts (a hand after the draw has exactly five).",
    plural="Seat {seat} receives {count} card(s) now, not {entered}: complete the draw from the "
    "stub before the betting starts (a hand after the draw has exactly five).",
)
JOKER_ENTRY = Message("deal.joker_entry", "Enter the joker as {joker}, not {card}.")
BLANK_CARD = Message(
    "deal.blank_card",
    "{card} is not used in this {deck}-card game: it is a blank. Replace it with the next card "
    "from the stub before the player acts (acting on it kills the hand).",
)
NOT_IN_DECK = Message("deal.not_in_deck", "{card} is not a card of this {deck}-card deck.")
OWN_DISCARD = Message(
    "deal.own_discard", "{card} is seat {seat}'s own discard and may not be dealt back to it."
)
DISCARD_OF_OWED_SEAT = Message(
    "deal.discard_of_owed_seat",
    "{card} is a discard of seat {owner}, who is still owed cards in this draw; it stays out "
    "of the reshuffle: deal another card.",
)
IN_BURN_PILE = Message(
    "deal.in_burn_pile",
    "{card} is in the burn pile: a card exposed (IRREG-03) or dealt extra (IRREG-06) on the "
    "deal is the burn, out of play until a reshuffle; deal another card.",
)
IN_PLAY = Message("deal.in_play", "{card} is already in play ({place}).")
DEAL_NEXT = Message("deal.deal_next", "Deal to seat {seat} next (clockwise from the button).")

# -- the post (rules/hand/flow.py) ---------------------------------------------------------

DECK_CHANGES = Message(
    "deal.deck_changes",
    "The deck changes: {players} players are dealt in after the post, so this hand is dealt "
    "with the {deck}-card deck, not the {announced}-card deck announced ({change})",
)
TAKE_SIXES_OUT = Message("deal.take_sixes_out", "take the sixes out")
ADD_SIXES = Message("deal.add_sixes", "add the four sixes")
