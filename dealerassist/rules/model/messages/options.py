"""What the floor console offers as a ruling (``rules/floor/ruling_options.py``, answered by
``GET /v1/rulings/options``): one message per label, in the floor manager's language.

An ID is ``option.<rule>_<decision>`` for a rule's own option (``option.deck05_blank``) and
``option.<decision>`` for a label several rules offer (``option.misdeal``) or every rule does
(``option.custom``, ``option.discretionary``). Rule IDs and the rule books' references
(``TDA 71``, ``WSOP 55``) stay in the words as written.
"""

from dealerassist.rules.model.said import Message

# -- offered for every rule (custom; IRREG-15) and for a rule without its own list --
CUSTOM = Message("option.custom", "Custom ruling: describe it in the note")
DISCRETIONARY = Message(
    "option.discretionary", "IRREG-15 discretionary ruling (fairness override; reason required)"
)
UPHOLD = Message("option.uphold", "The refusal stands: the entry is not recorded")
ACCEPT_ENTRY = Message(
    "option.accept_entry", "The entry binds as made (the refused check is waived)"
)
VOID_LAST = Message("option.void_last", "Void the last action(s) and re-enter")

# -- one label for several rules: a misdeal (IRREG-01/04/10), a dead hand (DECK-05, IRREG-04/10),
# the hand plays on (DEAL-02) --
MISDEAL = Message("option.misdeal", "Misdeal: every chip back, redeal with the same button")
PLAY_ON = Message("option.play_on", "The hand plays on as dealt")
DEAD_HAND = Message("option.dead_hand", "The hand is dead; its chips stay in the pot")

# -- DEAL-02 --
DEAL02_KILL_ABSENT = Message(
    "option.deal02_kill_absent", "Player absent when the deal completed: hand killed, posts stay"
)
DEAL02_MISDEAL = Message(
    "option.deal02_misdeal", "Entitled seat dealt out or empty seat dealt, before action: misdeal"
)

# -- DECK-01 --
DECK01_VOID_REFUND = Message(
    "option.deck01_void_refund", "Fouled deck (duplicate or different back): void, all bets back"
)
DECK01_STANDS = Message("option.deck01_stands", "Only missing cards: a finished hand stands")

# -- DECK-05 --
DECK05_REPLACE = Message(
    "option.deck05_replace", "Found before the player acted: the stray card is replaced"
)
DECK05_MISDEAL = Message("option.deck05_misdeal", "Before substantial action (TDA): misdeal")
DECK05_BLANK = Message("option.deck05_blank", "After substantial action: the card plays as a blank")

# -- DECK-06 --
DECK06_REPLACE = Message(
    "option.deck06_replace", "One boxed card: a blank, replaced by the next card"
)
DECK06_MISDEAL = Message(
    "option.deck06_misdeal", "Two or more boxed cards among those needed: misdeal"
)

# -- BLIND-03 --
BLIND03_CORRECT_NEXT_HAND = Message(
    "option.blind03_correct_next_hand", "Correct the button for the next hand"
)
BLIND03_STANDS = Message(
    "option.blind03_stands", "Action has happened: the hand plays, fix it next hand"
)

# -- BLIND-10 --
BLIND10_DEAD_HAND = Message(
    "option.blind10_dead_hand", "Looked before posting and not acted: the hand is dead"
)
BLIND10_PLAYS_POST_NEXT = Message(
    "option.blind10_plays_post_next", "Acted with chips in: the hand plays; post on the next deal"
)

# -- BLIND-15 --
BLIND15_PENALTY = Message(
    "option.blind15_penalty", "Deliberate dodge: penalty (TDA 71), chips adjusted"
)
BLIND15_WARNING = Message("option.blind15_warning", "Warning; the blind stays owed")

# -- OPEN-04 --
OPEN04_DECLARED_OPEN = Message(
    "option.open04_declared_open", "Pot declared open: false opener dead, his opening bet stays"
)
OPEN04_NOT_DECLARED = Message(
    "option.open04_not_declared", "Nobody declares it open: bets back but the opening bet and antes"
)

# -- OPEN-05 --
OPEN05_RETRIEVE_ALLOWED = Message(
    "option.open05_retrieve_allowed", "The opener may retrieve the discarded hand to prove openers"
)
OPEN05_NOT_PROVEN = Message("option.open05_not_proven", "Openers not proven: the opener cannot win")

# -- OPEN-06 --
OPEN06_POT_PLAYS = Message(
    "option.open06_pot_plays", "Raise, two callers or pre-draw action complete: the pot plays"
)
OPEN06_OPENER_DEAD = Message(
    "option.open06_opener_dead", "The opener's hand is dead; the others play for the pot"
)

# -- OPEN-07 --
OPEN07_POT_LOST = Message(
    "option.open07_pot_lost", "Hand plus discards could not hold openers: the pot is lost"
)
OPEN07_SPLIT_PROVEN = Message(
    "option.open07_split_proven", "The discards prove the openers: the hand stands"
)

# -- OPEN-08 --
OPEN08_FALSE_OPEN_ALL_IN = Message(
    "option.open08_false_open_all_in", "All-in false opener loses the antes and sits out"
)
OPEN08_PLAYS_FOR_ANTES = Message("option.open08_plays_for_antes", "Plays for the antes he matched")
OPEN08_LIFT_WAIT = Message(
    "option.open08_lift_wait", "The open was legal (or marked by mistake): dealt in again"
)

# -- OPEN-10 --
OPEN10_NO_REFUND = Message(
    "option.open10_no_refund", "A caller who cannot beat the openers gets no refund"
)

# -- BET-07 --
BET07_VOID_POST_DRAW = Message(
    "option.bet07_void_post_draw", "Sevens rule: wins only the pre-draw pot, post-draw action void"
)
BET07_FORFEIT_POT = Message(
    "option.bet07_forfeit_pot", "House rule: the checked seven forfeits the pot"
)
BET07_RETURN_VIOLATOR = Message(
    "option.bet07_return_violator", "The violator's post-check chips are returned"
)
BET07_NO_PENALTY = Message("option.bet07_no_penalty", "The checker was beaten: no penalty")

# -- BET-08 --
BET08_ACTION_STANDS = Message(
    "option.bet08_action_stands", "Out-of-turn action stands: the action to him did not change"
)
BET08_TAKE_BACK = Message(
    "option.bet08_take_back", "The action changed: he may take the chips back and reconsider"
)
BET08_FOLD_BINDING = Message("option.bet08_fold_binding", "An out-of-turn fold is binding")
BET08_BACK_UP = Message(
    "option.bet08_back_up", "Back up to the correct player; the entry is not recorded"
)

# -- BET-09 --
BET09_CALL_ONLY = Message("option.bet09_call_only", "String bet or single oversized chip: a call")
BET09_FULL_RAISE = Message(
    "option.bet09_full_raise", "Half a raise or more: it is made a full raise"
)
BET09_CORRECT_AMOUNT = Message(
    "option.bet09_correct_amount", "Wrong amount corrected before the round ends"
)

# -- DRAW-07 --
DRAW07_REQUEST_STANDS = Message(
    "option.draw07_request_stands", "A card was dealt or a later player acted: the request stands"
)
DRAW07_CHANGE_ALLOWED = Message(
    "option.draw07_change_allowed", "Nothing dealt or acted on yet: the change is allowed"
)

# -- DRAW-08 --
DRAW08_RAP_IS_PAT = Message("option.draw08_rap_is_pat", "A rap in the draw is pat")
DRAW08_RAISED_POT_EXCEPTION = Message(
    "option.draw08_raised_pot_exception",
    "Rapped pat unaware of a raise: hand live, betting reopened",
)

# -- DRAW-10 --
DRAW10_GIVE_CARD = Message(
    "option.draw10_give_card", "Before the first player acted: the short hand gets its card"
)
DRAW10_DRAW_TO_FIVE = Message(
    "option.draw10_draw_to_five", "After action: the short hand draws to five"
)
DRAW10_MISDEAL = Message(
    "option.draw10_misdeal", "Short non-button hand before any action (RRoP draw high): misdeal"
)
DRAW10_DEAD_HAND = Message("option.draw10_dead_hand", "After the draw not five cards: foul, dead")

# -- IRREG-01 --
IRREG01_PLAY_ON = Message("option.irreg01_play_on", "Deadline passed or no cause: the hand plays")

# -- IRREG-02 --
IRREG02_PLAY_ON = Message(
    "option.irreg02_play_on", "After the misdeal deadline: the hand is played out, no refund"
)
IRREG02_FOULED_DECK = Message("option.irreg02_fouled_deck", "Fouled deck: void anyway (DECK-01)")

# -- IRREG-03 --
IRREG03_KEEP = Message("option.irreg03_keep", "Keep the exposed card (house table by rank)")
IRREG03_REPLACE = Message(
    "option.irreg03_replace", "Replace it after the deal; the first exposed card is the burn"
)
IRREG03_MISDEAL = Message(
    "option.irreg03_misdeal", "Two or more cards exposed by the dealer: misdeal"
)

# -- IRREG-04 --
IRREG04_REPLACE_LAST = Message(
    "option.irreg04_replace_last", "The exposed card is not taken; served last from the stub"
)
IRREG04_TAKE_EXPOSED = Message(
    "option.irreg04_take_exposed",
    "The player takes the exposed card (no replacement can be supplied)",
)
IRREG04_AWARD = Message("option.irreg04_award", "The pot is awarded")

# -- IRREG-05 --
IRREG05_EXPOSED = Message(
    "option.irreg05_exposed", "Flashed by the dealer: an exposed card (IRREG-03/04)"
)
IRREG05_PLAYS = Message("option.irreg05_plays", "Flashed by the player: the card plays")
IRREG05_DEAD_HAND = Message(
    "option.irreg05_dead_hand", "Dropped cards: no replacement, the hand is dead"
)

# -- IRREG-06 --
IRREG06_BURN = Message("option.irreg06_burn", "One extra card: it goes back as the burn")
IRREG06_MISDEAL = Message("option.irreg06_misdeal", "Two or more extra cards: misdeal")

# -- IRREG-07 --
IRREG07_REMOVE_EXCESS = Message(
    "option.irreg07_remove_excess",
    "Excess card identifiable and unseen: removed, treated as exposed",
)
IRREG07_FOULED = Message(
    "option.irreg07_fouled", "Mixed into the hand: foul, chips in the pot stay"
)

# -- IRREG-08 --
IRREG08_REPLACE_END = Message(
    "option.irreg08_replace_end", "Mucked draw cards: replaced at the end of the draw"
)
IRREG08_COMPLETE_FROM_STUB = Message(
    "option.irreg08_complete_from_stub",
    "Shortfall caught before the betting: completed from the stub",
)
IRREG08_FOULED = Message("option.irreg08_fouled", "Bet with fewer than five after the draw: foul")

# -- IRREG-09 --
IRREG09_SERVE_SKIPPED = Message(
    "option.irreg09_serve_skipped", "Serve the skipped player next from the stub"
)
IRREG09_MOVE_CARDS = Message(
    "option.irreg09_move_cards", "Unseen cards of the out-of-turn drawer go to the skipped player"
)
IRREG09_LEAVE_CARDS = Message(
    "option.irreg09_leave_cards",
    "Cards seen or mixed: they stay; skipped player served from the stub",
)
IRREG09_FLOOR_DISCRETION = Message(
    "option.irreg09_floor_discretion", "Post-draw betting has begun: floor discretion"
)

# -- IRREG-10 --
IRREG10_LIVE_SHORT = Message(
    "option.irreg10_live_short", "Short before the draw: the hand stays live (DRAW-10)"
)
IRREG10_GIVE_CARD = Message("option.irreg10_give_card", "Give the missing card before the draw")
IRREG10_DRAW_TO_FIVE = Message("option.irreg10_draw_to_five", "Let him draw to five")

# -- IRREG-11 --
IRREG11_RECONSTRUCT = Message("option.irreg11_reconstruct", "Reconstruct the stub's order")
IRREG11_RESHUFFLE_STUB = Message("option.irreg11_reshuffle_stub", "Reshuffle the stub alone")
IRREG11_SHUFFLE_WITH_MUCK = Message(
    "option.irreg11_shuffle_with_muck", "Mixed with the muck: shuffle together and cut"
)

# -- IRREG-12 --
IRREG12_CORRECT_NEXT_HAND = Message(
    "option.irreg12_correct_next_hand", "Cash: correct the button and blinds next hand"
)
IRREG12_ERROR_STANDS = Message(
    "option.irreg12_error_stands", "After substantial action: the error stands"
)
IRREG12_MISDEAL_AND_CORRECT = Message(
    "option.irreg12_misdeal_and_correct", "Before action: misdeal and correct the button"
)

# -- IRREG-13 --
IRREG13_NO_REDRESS = Message(
    "option.irreg13_no_redress", "Killed by mistake or fouled beyond identification: no redress"
)
IRREG13_LIVE_IDENTIFIABLE = Message(
    "option.irreg13_live_identifiable", "An identifiable fouled hand stays live"
)
IRREG13_THROWN_DEAD = Message(
    "option.irreg13_thrown_dead", "Cards thrown into another hand are dead"
)

# -- IRREG-14 --
IRREG14_LATE_ADJUSTMENT = Message(
    "option.irreg14_late_adjustment", "After the next hand started: a stack adjustment with a note"
)
IRREG14_HOUSE_ERROR = Message(
    "option.irreg14_house_error", "House error (WSOP 55): stacks corrected"
)
IRREG14_TOO_LATE = Message("option.irreg14_too_late", "Dispute made too late: the result stands")

# -- SHOW-03 --
SHOW03_NOT_TABLED = Message(
    "option.show03_not_tabled", "Not all five cards tabled: the hand cannot win"
)
SHOW03_AWARD_TABLED = Message("option.show03_award_tabled", "The tabled winner is awarded the pot")

# -- SHOW-04 --
SHOW04_CARDS_SPEAK = Message("option.show04_cards_speak", "Cards speak: the best hand wins")
SHOW04_MISCALL_KILLS = Message(
    "option.show04_miscall_kills",
    "A miscall made another discard: miscaller dead, best remaining wins",
)
SHOW04_SHARE_REMAINING = Message(
    "option.show04_share_remaining",
    "Hands were discarded: the pot is shared by the remaining hands",
)

# -- SHOW-11 --
SHOW11_CORRECT_BEFORE_PUSH = Message(
    "option.show11_correct_before_push", "Error pointed out before the push: corrected"
)
SHOW11_HOLD = Message("option.show11_hold", "Hold the pot while surveillance checks")
SHOW11_RELEASE = Message("option.show11_release", "Release the pot")

# -- KILL-05 --
KILL05_POST_KILL = Message("option.kill05_post_kill", "The kill is owed: post it before playing")

# -- KILL-07 --
KILL07_MAKE_UP_OR_LOSE = Message(
    "option.kill07_make_up_or_lose", "Kill announced and shown: make up the amount or lose it"
)
KILL07_TAKE_BACK = Message(
    "option.kill07_take_back", "Kill not announced: take the chips back and reconsider"
)
