"""The details the API and the service write are messages (``api/messages.py``,
``service/messages.py``): an error raised with English prose alone would answer the dealer
in English whatever his language. Every raise site under ``dealerassist/api`` and
``dealerassist/service`` that passes a string literal is one of the few listed here, each
with the reason it stays English; a new one fails until it says a message."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dealerassist.api import language
from dealerassist.errors import Forbidden, NotOnDuty
from dealerassist.rules.model.said import MESSAGES, render_json, said_from_json
from dealerassist.service import messages as told

ROOT = Path(__file__).resolve().parents[3] / "dealerassist"
ERRORS = {
    "InvalidInput", "InvalidFields", "NotFound", "AlreadyExists", "Conflict",
    "IdempotencyMismatch", "Forbidden", "NotOnDuty", "SignInRefused", "ProfileError",
    "RateLimited", "Unavailable", "ValidationFailed", "Unauthenticated", "ShiftEnded",
    "UnsupportedMediaType", "TooManyFloorCalls", "VerifyScopeTooLarge", "HandIncomplete",
}  # fmt: skip
ENGLISH_ON_PURPOSE = {
    # the tokens file, read when the service starts: no request sees it
    ("api/auth.py", "InvalidInput"): 8,
    # a command that is not create_table on a table that does not exist: never reached
    ("service/tables.py", "InvalidInput"): 1,
}


def _english_raises() -> dict[tuple[str, str], int]:
    found: dict[tuple[str, str], int] = {}
    for folder in ("api", "service"):
        for path in sorted((ROOT / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                if node.func.id not in ERRORS or not node.args:
                    continue
                first = node.args[0]
                prose = isinstance(first, ast.JoinedStr) or (
                    isinstance(first, ast.Constant) and isinstance(first.value, str)
                )
                if prose:
                    key = (f"{folder}/{path.name}", node.func.id)
                    found[key] = found.get(key, 0) + 1
    return found


def test_every_detail_the_api_and_the_service_raise_is_a_message() -> None:
    assert _english_raises() == ENGLISH_ON_PURPOSE


def test_an_error_said_as_a_message_is_its_english_byte_for_byte() -> None:
    said = told.NOT_ON_DUTY(dealer="E100", table="T1", on_duty="E200")
    error = NotOnDuty(said)
    assert str(error) == (
        "dealer E100 is not on duty at table T1 (E200 is): sign in at this table again"
    )
    assert error.said is said and error.code == "not_on_duty"
    assert Forbidden("plain words").said is None


@pytest.mark.parametrize("prefix", ["api.", "service."])
def test_the_api_and_service_words_are_in_the_catalog_check(prefix: str) -> None:
    """tests/unit/test_i18n_catalogs.py checks every registered message: these are."""
    assert sum(message_id.startswith(prefix) for message_id in MESSAGES) > 20


def test_a_said_read_back_from_its_json_is_the_same_words() -> None:
    """The 429 says the engine's refusal (its JSON) inside its own words."""
    inner = told.TABLET_NOT_AT(tables="T1, T2", table="T3")
    outer = told.PROFILE_GONE(table="'T3'", error=inner)
    again = said_from_json(outer.to_json())
    assert again == outer and again.english() == outer.english()
    assert render_json(outer.to_json(), language.words_for("fr")) == (
        "la table 'T3' joue un profil qui n'existe plus : cette tablette est enregistrée pour "
        "T1, T2, pas pour T3"
    )
    with pytest.raises(KeyError):
        said_from_json({"id": "test.never_said", "params": {}})
