"""What the betting rounds say (``rules/hand/betting.py``, KILL-04, BLIND-02)."""

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
