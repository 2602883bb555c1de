"""What the engine says as data (``rules/model/said.py``): the English it renders is the
template filled, a plural chosen by the count, lists joined as the engine always joined
them; the JSON form renders to the same words; a bad message is refused when it is made."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from dealerassist.rules.model import messages  # noqa: F401 (registers them all)
from dealerassist.rules.model.said import (
    ENGLISH,
    MESSAGES,
    Join,
    Listed,
    Message,
    Said,
    render,
    render_json,
)


@pytest.fixture(autouse=True)
def _scratch_messages() -> Iterator[None]:
    """The made-up messages of these tests leave the engine's list as it was."""
    saved = dict(MESSAGES)
    global CARDS, OWES, SMALL, ANTE
    CARDS = Message(
        "test.cards", "Deal {count} card to seat {seat}", "Deal {count} cards to seat {seat}"
    )
    OWES = Message("test.owes", "Seat {seat} posts {what}: {amount}")
    SMALL = Message("test.small", "the small blind")
    ANTE = Message("test.ante", "the ante")
    yield
    MESSAGES.clear()
    MESSAGES.update(saved)


CARDS: Message
OWES: Message
SMALL: Message
ANTE: Message


class _Shouting:
    """A made-up language: every template upper-cased, numbers in brackets, lists with '+'."""

    def template(self, message: Message, count: int | None) -> str:
        shouted = ENGLISH.template(message, count).upper()
        return re.sub(r"\{(\w+)\}", lambda name: name[0].lower(), shouted)

    def number(self, value: int) -> str:
        return f"[{value}]"

    def join(self, items: list[str], join: Join) -> str:  # type: ignore[override]
        return " + ".join(items)


def test_english_fills_the_template_and_picks_the_plural() -> None:
    assert CARDS(count=1, seat=3).english() == "Deal 1 card to seat 3"
    assert CARDS(count=0, seat=3).english() == "Deal 0 cards to seat 3"
    assert CARDS(count=2, seat=3).english() == "Deal 2 cards to seat 3"


def test_a_list_joins_as_the_engine_wrote_it_and_nests() -> None:
    said = OWES(seat=2, what=Listed((SMALL(), ANTE())), amount=1000)
    assert said.english() == "Seat 2 posts the small blind and the ante: 1000"
    comma = OWES(seat=2, what=Listed((SMALL(), ANTE()), Join.COMMA), amount=5)
    assert comma.english() == "Seat 2 posts the small blind, the ante: 5"


def test_the_json_form_renders_the_same_words_in_any_language() -> None:
    said = OWES(seat=2, what=Listed((SMALL(), ANTE())), amount=1000)
    data = said.to_json()
    assert data == {
        "id": "test.owes",
        "params": {
            "seat": 2,
            "what": {
                "listed": [{"id": "test.small", "params": {}}, {"id": "test.ante", "params": {}}],
                "join": "and",
            },
            "amount": 1000,
        },
    }
    assert render_json(data, ENGLISH) == said.english()
    shouting = _Shouting()
    assert render_json(data, shouting) == render(said, shouting)
    assert render(said, shouting) == "SEAT [2] POSTS THE SMALL BLIND + THE ANTE: [1000]"


def test_english_and_json_in_one_walk_are_the_two_walks() -> None:
    """An instruction's words and JSON from one walk of the parameters: what ``render`` and
    ``to_json`` give, for strings, ints, a str enum, nested and listed parameters, plurals."""
    saids = [
        CARDS(count=1, seat=3),
        CARDS(count=4, seat="None"),
        OWES(seat=2, what=Listed((SMALL(), ANTE())), amount=1000),
        OWES(seat=2, what=Listed((SMALL(), 7), Join.COMMA), amount=5),
        OWES(seat=Join.AND, what=SMALL(), amount=1),
        OWES(seat=1, what=CARDS(count=1, seat=Join.COMMA), amount=0),
    ]
    for said in saids:
        assert said.english_and_json() == (render(said, ENGLISH), said.to_json())
        assert said.english() == render(said, ENGLISH)
    with pytest.raises(TypeError):
        Said(OWES, {"seat": True, "what": "x", "amount": 1}).english_and_json()


def test_a_message_id_exists_once_and_says_something() -> None:
    with pytest.raises(ValueError, match="defined twice"):
        Message("test.cards", "again")
    with pytest.raises(ValueError, match="says nothing"):
        Message("test.empty", "")
    assert MESSAGES["test.cards"] is CARDS


def test_a_bool_is_no_parameter() -> None:
    with pytest.raises(TypeError):
        Said(OWES, {"seat": True, "what": "x", "amount": 1}).english()


def test_every_message_of_the_engine_is_well_formed() -> None:
    """IDs are ``area.what``; a plural names its count in both forms."""
    for message in MESSAGES.values():
        assert message.id.count(".") >= 1 and message.id == message.id.strip(), message.id
        if message.plural is not None:
            assert (
                "{" + message.plural_by + "}" in message.plural
                or message.plural_by in message.fields()
            )
