"""What the model says: the hand journal's refusals (``rules/model/journal.py``, IRREG-15) and a
seat the table or the hand does not have (``rules/model/state.py``)."""

from dealerassist.rules.model.said import Message

NO_HAND_IN_JOURNAL = Message(
    "model.no_hand_in_journal", "There is no hand in the journal to go back to."
)
# the English always said "action(s)"; its plural is the same words, so the other languages
# can say one action as one
VOID_AT_MOST = Message(
    "model.void_at_most",
    "The hand has {count} action(s); void at most that many.",
    plural="The hand has {count} action(s); void at most that many.",
)

# -- a seat the table or the hand does not have (``rules/model/state.py``, 400) ---------------

NO_SUCH_SEAT = Message("model.no_such_seat", "seat {seat} does not exist (1..{seats})")
SEAT_NOT_IN_HAND = Message("model.seat_not_in_hand", "seat {seat} is not in the hand")
