"""The error hierarchy shared by every layer.

::

    DealerAssistError                 root; never raised itself
    ├── RuleViolation (rules.violations)   an entry the rule book forbids   -> 409
    ├── InvalidInput                  malformed or impossible input         -> 400
    │   └── InvalidFields             ... naming the fields at fault (``errors``)
    ├── NotFound                      no such table / hand / seat           -> 404
    ├── AlreadyExists                 a table with that ID exists already   -> 409
    ├── Conflict                      state moved on (stale version)        -> 412
    ├── IdempotencyMismatch           same key, another body                -> 422
    ├── Forbidden                     role or table not allowed             -> 403
    │   └── NotOnDuty                 a shift session's dealer was pushed out
    ├── SignInRefused                 a dealer's employee ID or PIN is wrong -> 401
    ├── ProfileError                  bad house-rule profile (field path)   -> start-up error
    ├── RateLimited                   a token over one of its rate limits   -> 429
    └── Unavailable                   Redis or the audit store is down      -> 503

The pure core raises only ``RuleViolation`` and ``InvalidInput``; the HTTP layer maps each
class to one status code in one place (``api/errors.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the engine's words (the engine imports this module, not the reverse)
    from dealerassist.rules.model.said import Said


class DealerAssistError(Exception):
    """Root of every error dealerassist raises on purpose.

    ``message`` is the English, or a :class:`Said` (a message ID and its parameters,
    ``rules/model/said.py``): the error's text is then its English, byte for byte, and the
    API answers the ID and parameters beside it (``message_id``, ``params``) for
    ``api/language.py`` to render in the dealer's language."""

    # a stable machine-readable reason for the answer's ``code`` (None: the type says it all)
    code: str | None = None
    said: Said | None = None

    def __init__(self, message: str | Said = "") -> None:
        if isinstance(message, str):
            super().__init__(message)
        else:
            super().__init__(message.english())
            self.said = message


class InvalidInput(DealerAssistError):
    """Input that cannot be understood (a card "Zx", a negative stack).

    ``said`` (optional): the same words as a message ID and parameters
    (``rules/model/said.py``); the message is then its English, and the API answers the ID
    beside it to render in the dealer's language."""

    def __init__(self, message: str | Said = "", said: Said | None = None) -> None:
        super().__init__(said if said is not None else message)


class InvalidFields(InvalidInput):
    """Input whose named fields cannot stand together (a small blind above the big blind, a
    table of another game than its profile's); ``errors`` maps each field to its messages, a
    nested field by its parent (``{"stakes": {"small_blind": [...]}}``), as a schema does."""

    def __init__(self, message: str | Said, errors: Mapping[str, Any]) -> None:
        super().__init__(message)
        self.errors = dict(errors)


class NotFound(DealerAssistError):
    """The table, seat or hand named does not exist."""


class AlreadyExists(DealerAssistError):
    """Something with that ID exists already (creating a table twice)."""


class Conflict(DealerAssistError):
    """The table changed since the client read it (compare-and-set lost)."""

    def __init__(self, message: str | Said, current_version: int | None = None) -> None:
        super().__init__(message)
        self.current_version = current_version


class IdempotencyMismatch(DealerAssistError):
    """An Idempotency-Key was reused with a different request body."""


class Forbidden(DealerAssistError):
    """The caller's role or table scope does not allow this."""


class NotOnDuty(Forbidden):
    """A dealer's shift session acts at a table where another dealer is now on duty."""

    code = "not_on_duty"


class SignInRefused(DealerAssistError):
    """A dealer's sign-in at a tablet failed (``code``: ``wrong_pin``, ``table_not_registered``
    ...); audited at the table where it was tried."""

    def __init__(self, message: str | Said, code: str) -> None:
        super().__init__(message)
        self.code = code


class ProfileError(DealerAssistError):
    """A house-rule profile is invalid; the message names the field path."""


class RateLimited(DealerAssistError):
    """A token is over one of its rate limits (refused entries, synchronous verifies): retry
    after ``retry_after`` seconds; ``details`` go into the answer (a refusal's rule_id ...)."""

    def __init__(
        self, message: str | Said, retry_after: int, details: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.retry_after = max(1, retry_after)
        self.details = dict(details or {})


class Unavailable(DealerAssistError):
    """A backend (Redis, the audit store) cannot be reached."""
