"""What the engine says of a command it cannot read (400, ``InvalidInput``): an entry's or a
seat change's fields (``rules/model/actions.py``) and a floor ruling's body
(``rules/model/ruling_commands.py``).

Only the refusals a request can reach past the API's schemas are messages: the others guard
against a caller that builds commands in code and stay English. Field names (``seats``,
``waive``), effect names (``kill_hand``) and what the caller sent (``'7h5s'``) are
parameters or words the languages keep as they are: they are the JSON the caller wrote.
"""

from dealerassist.rules.model.said import Message

# -- an entry and a seat change (rules/model/actions.py) --------------------------------------

NOT_A_CARD = Message("command.not_a_card", "{field}: {token} is not a card like '7h'")
UNKNOWN_FIELDS = Message("command.unknown_fields", "unknown field(s): {fields}")
REQUIRED = Message("command.required", "{field} is required")
NOT_A_SEAT_NUMBER = Message("command.not_a_seat_number", "{field} must be a seat number from 1")
ACCEPT_NEEDS_ENTRY = Message(
    "command.accept_needs_entry", "accept_entry needs 'entry': the refused action"
)

# -- a floor ruling's body (rules/model/ruling_commands.py) -----------------------------------

NOT_AN_INTEGER = Message("command.not_an_integer", "{field} must be an integer")
AT_LEAST = Message("command.at_least", "{field} must be at least {minimum}")
EACH_SEAT_IN_POTS = Message("command.each_seat_in_pots", "each seat in pots")
NEEDS_A_SEAT = Message("command.needs_a_seat", "{effect} needs a seat")
FIRST_EFFECT_ONLY = Message(
    "command.first_effect_only", "void_last and misdeal must be a ruling's first effect"
)
ACCEPT_NEEDS_WAIVE = Message(
    "command.accept_needs_waive", "accept_entry needs 'waive': the rule ID the entry broke"
)
AWARD_NEEDS_SEATS = Message(
    "command.award_needs_seats", "award needs 'seats': a non-empty list of seats"
)
AWARD_SEATS_OR_POTS = Message(
    "command.award_seats_or_pots", "award takes 'seats' or 'pots', not both"
)
AWARD_EXACTLY_ONE = Message(
    "command.award_exactly_one",
    "award needs exactly one of 'seats' (every chip in the middle to them) or 'pots' (a list "
    "of seat lists, one per pot, main pot first)",
)
AWARD_SEAT_TWICE = Message("command.award_seat_twice", "award names a seat twice")
AWARD_NOBODY_FOR = Message("command.award_nobody_for", "award names nobody for {pot}")
AWARD_SEAT_TWICE_IN = Message(
    "command.award_seat_twice_in", "award names seat {seat} twice in {pot}"
)
CLEAR_SEAT_OR_PLAYER = Message(
    "command.clear_seat_or_player",
    "clear_false_opener needs exactly one of 'seat' (the marked seat) or 'player' (the ID of a "
    "marked player, seated or away)",
)
