"""What the HTTP layer itself says in a problem's ``detail``: a body or header it cannot read,
a token it does not know or that may not do this, a backend that does not answer.

Messages as the engine's and the service's are (``rules/model/said.py``; IDs ``api.what``),
in the same ``rules`` gettext domain, so ``api/language.py`` renders every detail of a
``/v1`` answer one way. The English is what the API always wrote. A marshmallow field's own
words (the per-field ``errors``) are not among them: see ``docs/notes/i18n.md``.
"""

from dealerassist.rules.model.said import Message

# -- the request: its body, query and headers (api/http.py, api/schemas.py) -----------------

SCHEMA = Message("api.schema", "the request does not match its schema")
QUERY_TWICE = Message("api.query_twice", "a query parameter is given more than once")
KEY_TWICE = Message("api.key_twice", "a key is given twice in one object")
NOT_JSON = Message("api.not_json", "the body is not valid JSON")
NOT_AN_OBJECT = Message("api.not_an_object", "the body must be a JSON object")
TOO_DEEP = Message("api.too_deep", "the body is nested too deep")
NOT_UNICODE = Message("api.not_unicode", "the body holds text that is not Unicode")
SEND_JSON = Message("api.send_json", "send the body as application/json")
IDEMPOTENCY_KEY_LENGTH = Message(
    "api.idempotency_key_length", "Idempotency-Key must be 1 to {most} characters"
)

# -- who is asking (api/auth.py and the routes' own scope checks) ----------------------------

SEND_BEARER = Message("api.send_bearer", "send Authorization: Bearer <token>")
UNKNOWN_TOKEN = Message("api.unknown_token", "unknown token")
UNKNOWN_TABLET = Message("api.unknown_tablet", "unknown or revoked tablet")
TABLET_SIGNS_IN_ONLY = Message(
    "api.tablet_signs_in_only", "a registered tablet's credential only signs a dealer in"
)
SHIFT_ENDED = Message("api.shift_ended", "this shift session has ended: {why}")
SHIFT_EXPIRED = Message(
    "api.shift_expired", "this shift session has ended or expired: sign in again"
)
DEVICE_ONLY = Message("api.device_only", "only a registered tablet's device credential may do this")
SEND_DEVICE = Message(
    "api.send_device", "send Authorization: Bearer <the tablet's device credential>"
)
UNKNOWN_TABLET_AGAIN = Message(
    "api.unknown_tablet_again", "unknown or revoked tablet: register it again"
)
ROLE_MAY_NOT = Message("api.role_may_not", "a {role} token may not do this (needs {roles})")
TABLE_NOT_ALLOWED = Message("api.table_not_allowed", "this token is not allowed at table {table}")
TABLES_NOT_ALLOWED = Message(
    "api.tables_not_allowed", "this token is not allowed at table(s) {tables}"
)
HOUSE_WIDE = Message(
    "api.house_wide", "dealers are house-wide: this needs an admin token for every table"
)
SHIFT_ONLY = Message(
    "api.shift_only", "only a dealer's shift session may do this (POST /v1/tablet/sign-in)"
)
VERIFICATION_OUT_OF_SCOPE = Message(
    "api.verification_out_of_scope",
    "this verification covers tables this token is not allowed at",
)

# -- the auditor's synchronous verify, past its bounds (api/audit.py) -----------------------

VERIFY_LIMITED = Message(
    "api.verify_limited",
    "{why}: verify as a job instead (POST {url}), which runs on a worker of its own, or retry "
    "after {retry} s",
)
VERIFY_AS_JOB = Message("api.verify_as_job", "{why} (POST {url})")

# -- the service cannot answer (api/errors.py) ------------------------------------------------

BACKEND_DOWN = Message(
    "api.backend_down",
    "a backend (Redis or the audit store) does not answer; retry after Retry-After",
)
UNEXPECTED = Message("api.unexpected", "unexpected error; it was logged")
