"""What the dealer's own correction of his last entry says when it cannot be made
(``service/corrections.py``: IRREG-15, the floor can)."""

from dealerassist.rules.model.said import Message

HAND_OVER = Message(
    "correction.hand_over",
    "The hand is over: only the floor can change it now (call the floor).",
)
NOT_AN_ACTION = Message(
    "correction.not_an_action",
    "The last entry of the hand is not a player's action: call the floor to correct it.",
)
