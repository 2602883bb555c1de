"""What the service itself says when it refuses a request (not the engine: the tables'
write path, undo, floor calls, shifts, the audit's reads, and the adapters under them).

Each is a :class:`~dealerassist.rules.model.said.Message` as the engine's are (an ID
``service.what``, its English as the template): raised as ``SomeError(MESSAGE(...))``, the
error's text is the English the service always wrote, byte for byte, and the API answers the
ID and parameters beside it (``api/language.py`` renders them in the dealer's language, from
the ``rules`` gettext domain). The service may not import Flask, so these are not the pages'
``messages`` domain.

Parameters the service does not translate: IDs as the service quoted them (``repr``: the
English said ``no table 'T1'``), role names (``dealer``, ``floor``), ETags (``"v12"``),
employee and tablet IDs. Counts and chips are ints (the locale formats them).
"""

from dealerassist.rules.model.said import Message

# -- tables and hands (service/tables.py, service/corrections.py) --------------------------

NO_TABLE = Message("service.no_table", "no table {table}")
NO_HAND = Message("service.no_hand", "table {table} has no hand {hand}")
TABLE_EXISTS = Message("service.table_exists", "table {table} exists already")
STALE_VERSION = Message(
    "service.stale_version",
    "If-Match names version {tag} but the table is at {current}: read the table again (GET, "
    "its ETag) and decide on what it shows now",
)
STALE_NO_VERSION = Message(
    "service.stale_no_version",
    "If-Match names no version of this table (send the ETag a read answered, such as "
    "{current}, or *): read the table again and send its ETag",
)
NOT_ON_DUTY = Message(
    "service.not_on_duty",
    "dealer {dealer} is not on duty at table {table} ({on_duty} is): sign in at this table again",
)
NOT_ON_DUTY_NOBODY = Message(
    "service.not_on_duty_nobody",
    "dealer {dealer} is not on duty at table {table} (nobody is): sign in at this table again",
)
IDEMPOTENCY_REUSED = Message(
    "service.idempotency_reused",
    "this Idempotency-Key was used with another request; use a new key",
)
CHIP_BOUND = Message(
    "service.chip_bound", "seat {seat} would hold {held} chips; a seat holds at most {most}"
)
REFUSALS_LIMITED = Message(
    "service.refusals_limited",
    "{refusal} This token had more than {limit} refused entries within {window} s: further "
    "refusals are neither applied nor recorded for {retry} s (accepted entries go through as "
    "always).",
)
PROFILE_GONE = Message(
    "service.profile_gone", "table {table} plays a profile that is gone: {error}"
)
UNDO_ROLE = Message("service.undo_role", "a {role} may not take back an entry")
UNDO_NEEDS_IF_MATCH = Message(
    "service.undo_needs_if_match",
    'an undo needs If-Match: the version the entry produced (e.g. "v12")',
)
TABLE_BUSY = Message("service.table_busy", "the table is busy; read it again and retry")
TABLE_CHANGED = Message("service.table_changed", "the table changed since it was read")
TABLE_FORKED = Message(
    "service.table_forked",
    "table {table} is suspended: its audit chain forked at seq {seq} (Redis went back to an "
    "older state than the audit store holds); the floor closes it and opens a new table",
)

# -- the floor: rulings and calls (service/rulings.py, adapters/redis_floor_calls.py) -------

RULE_ROLE = Message("service.rule_role", "a {role} may not rule; the floor does")
CALL_ROLE = Message("service.call_role", "a {role} may not call the floor")
NO_CALL = Message("service.no_call", "no floor call {call}")
NO_CALL_AT_TABLE = Message("service.no_call_at_table", "no floor call {call} at table {table}")
NO_CALL_KEPT = Message(
    "service.no_call_kept", "no floor call {call} (unknown, or its record has been dropped)"
)
NO_CALL_STORE = Message("service.no_call_store", "no floor-call store is configured")
CALL_NEEDS = Message(
    "service.call_needs", "send the refused 'entry', its audit 'seq', or a 'rule_id' and 'note'"
)
CALL_ENTRY = Message("service.call_entry", "entry must be the refused action object")
ACCEPTS_NOW = Message(
    "service.accepts_now", "the table accepts this entry now; record it as an action instead"
)
NO_REFUSAL_SEQ = Message(
    "service.no_refusal_seq",
    "no refused entry with seq {seq} at table {table} in the audit store yet; send the entry "
    "itself",
)
CALLS_AT_TABLE = Message(
    "service.calls_at_table",
    "table {table} has {limit} open floor calls, the most it may have: the floor rules on one "
    "(or it expires) before another is opened",
)
CALLS_OF_TOKEN = Message(
    "service.calls_of_token",
    "{token} has {limit} open floor calls, the most one token may have: the floor rules on one "
    "(or it expires) before another is opened",
)
BAD_CURSOR = Message("service.bad_cursor", "cursor {cursor} is not a page's 'next'")

# -- shifts: tablets, dealers, sign-in (service/shifts.py) ----------------------------------

NO_SIGN_IN = Message("service.no_sign_in", "dealer sign-in is not available in this process")
EMPLOYEE_ID_FORM = Message(
    "service.employee_id_form", "an employee ID is 1 to 32 letters, digits, '-' or '_'"
)
PIN_FORM = Message("service.pin_form", "a PIN is 4 to 12 digits")
TABLET_NEEDS_TABLE = Message("service.tablet_needs_table", "a tablet serves at least one table")
NO_TABLET = Message("service.no_tablet", "no tablet {tablet}")
TABLET_OUT_OF_SCOPE = Message(
    "service.tablet_out_of_scope", "tablet {tablet} serves tables this token is not allowed at"
)
PAIRING_LIMITED = Message(
    "service.pairing_limited", "too many wrong pairing codes: wait, or register the tablet again"
)
BAD_PAIRING_CODE = Message(
    "service.bad_pairing_code", "this pairing code is unknown, used or expired"
)
TABLET_NOT_AT = Message(
    "service.tablet_not_at", "this tablet is registered to {tables}, not {table}"
)
TABLET_LIMITED = Message(
    "service.tablet_limited", "too many failed sign-ins on this tablet: call the floor"
)
PIN_LOCKED = Message(
    "service.pin_locked",
    "employee {employee} is locked out after {limit} wrong PINs: wait, or ask the floor to "
    "reset the PIN",
)
PIN_LOCKS = Message("service.pin_locks", "{limit} wrong PINs: employee {employee} is locked out")
WRONG_PIN = Message("service.wrong_pin", "the employee ID or the PIN is wrong")
SHIFT_NOT_AT = Message("service.shift_not_at", "this shift covers {tables}, not {table}")
# why a shift session ended (``ShiftEnd.words``, the 401 ``shift_ended``'s detail)
ENDED_PUSHED = Message("service.ended_pushed", "{who} signed in as the next dealer on this tablet")
DEALER_NAMED = Message("service.dealer_named", "{name} ({employee})")  # ENDED_PUSHED's {who}
ANOTHER_DEALER = Message("service.another_dealer", "another dealer")
ENDED_ELSEWHERE = Message("service.ended_elsewhere", "this dealer signed in on tablet {tablet}")
ANOTHER_TABLET = Message("service.another_tablet", "another tablet")  # ENDED_ELSEWHERE's
ENDED_SIGN_OUT = Message("service.ended_sign_out", "this dealer signed out")
ENDED_REVOKED = Message("service.ended_revoked", "an admin revoked this tablet")
NOT_SIGNED_IN = Message(
    "service.not_signed_in", "dealer {dealer} is not signed in at a table of this token"
)
ENDED_BY_FLOOR = Message("service.ended_by_floor", "the floor ({name}) ended this shift")
ENDED_EXPIRED = Message("service.ended_expired", "this shift ran out its time")
DUTY_BUSY = Message(
    "service.duty_busy", "table {table} is too busy to record who deals there; retry"
)

# -- the audit store's reads (service/audit.py, service/audit_browse.py) --------------------

NO_STORED_HAND = Message(
    "service.no_stored_hand", "the audit store has no hand {hand} of table {table}"
)
NO_VERIFICATION = Message(
    "service.no_verification", "no verification {verification} (unknown, or its result has expired)"
)
NO_INTEGRITY = Message(
    "service.no_integrity", "audit integrity reports are not available in this process"
)
NO_JOBS = Message("service.no_jobs", "verification jobs are not available in this process")
NO_BROWSING = Message(
    "service.no_browsing", "browsing the audit store is not available in this process"
)
NO_REPLAY = Message("service.no_replay", "the rules engine cannot be loaded to replay")
HAND_IN_PLAY = Message(
    "service.hand_in_play",
    "hand {hand} of table {table} is still being played; its audited record exists once it "
    "ends and is stored (the table's own view: GET {path})",
)
HAND_DRAINING = Message(
    "service.hand_draining",
    "hand {hand} of table {table} has ended but is not stored whole yet: retry in a moment",
)
# the synchronous verify's and the replay's bounds (a verification job has none)
SCOPE_TABLE = Message("service.scope_table", "table {table}")
SCOPE_STORE = Message("service.scope_store", "the audit store")
VERIFY_TOO_MANY = Message(
    "service.verify_too_many",
    "{scope} holds more than the {limit} events one request verifies: start a verification "
    "job instead",
)
VERIFY_TOO_LONG = Message(
    "service.verify_too_long",
    "verifying {scope} takes longer than the {seconds} s one request may take: start a "
    "verification job instead",
)
REPLAY_TOO_MANY = Message(
    "service.replay_too_many",
    "hand {hand} of table {table} comes after more than {limit} events; one request replays "
    "no more (verify the table as a job, and export the hand)",
)
VERIFY_SLOTS = Message(
    "service.verify_slots",
    "{slots} synchronous verify(s) already running on this host (they run on the workers that "
    "serve the tablets)",
)
VERIFY_EVENTS = Message(
    "service.verify_events",
    "this token verified its {events} events for this {window} s window within requests",
)
