"""What the model says: the hand journal's refusals (``rules/model/journal.py``, IRREG-15) and
why a table state or a command cannot be read (``state.py``, ``actions.py``: 400s)."""

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

# -- malformed input (400, InvalidInput): a table state, a command and its fields ------------
# ``field`` is the field's name as the API spells it (``max_seats``): never translated

SEAT_NOT_IN_HAND = Message("model.seat_not_in_hand", "seat {seat} is not in the hand")
NO_SUCH_SEAT = Message("model.no_such_seat", "seat {seat} does not exist (1..{seats})")
NOT_A_TABLE_STATE = Message("model.not_a_table_state", "not a table state: {error}")
STAKES_NOT_OBJECT = Message("model.stakes_not_object", "stakes must be an object")
MAX_SEATS_RANGE = Message("model.max_seats_range", "max_seats must be between {low} and {high}")
NOT_A_COMMAND = Message("model.not_a_command", "not a command: {command}")
COMMAND_NOT_OBJECT = Message("model.command_not_object", "a command must be an object")
CREATE_TABLE_NEEDS_SPEC = Message(
    "model.create_table_needs_spec", "create_table needs a spec object"
)
UNKNOWN_COMMAND_TYPE = Message("model.unknown_command_type", "unknown command type {kind}")
ACCEPT_ENTRY_NEEDS_ENTRY = Message(
    "model.accept_entry_needs_entry", "accept_entry needs 'entry': the refused action"
)
MUST_BE_BOOLEAN = Message("model.must_be_boolean", "{field} must be true or false")
MUST_BE_STRING = Message("model.must_be_string", "{field} must be a string")
RANK_SYMBOL = Message("model.rank_symbol", "{field} must be a rank symbol such as '7', 'T' or 'A'")
CARDS_STRING_OR_LIST = Message(
    "model.cards_string_or_list", "{field} must be a string or a list of cards"
)
NOT_A_CARD = Message("model.not_a_card", "{field}: {token} is not a card like '7h'")
ONE_OF = Message("model.one_of", "{field} must be one of {allowed}, not {value}")
UNKNOWN_FIELDS = Message("model.unknown_fields", "unknown field(s): {fields}")
MUST_BE_INTEGER = Message("model.must_be_integer", "{field} must be an integer")
MUST_NOT_BE_NEGATIVE = Message("model.must_not_be_negative", "{field} must not be negative")
REQUIRED = Message("model.required", "{field} is required")
SEAT_NUMBER = Message("model.seat_number", "{field} must be a seat number from 1")
NON_EMPTY_STRING = Message("model.non_empty_string", "{field} must be a non-empty string")
