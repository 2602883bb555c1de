"""The dealer's instruction: a typed dict of its own module, so the table's state
(``state.py``, which keeps the last command's instructions) and the list of everything the
engine answers (``outcomes.py``, which imports the state) both name it without a cycle."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class Instruction(TypedDict):
    """What the dealer is told to do (``hand/instructions.py`` words them): the step's
    ``code``, the seat and the number of cards or chips it names, and its text (its English
    words, and the message ID and parameters they render, for the dealer's language). A typed
    dict: the table's state keeps the last command's instructions, and its codec stores them as
    these keys (a reshuffle adds the ``pool`` it is made of, DRAW-06)."""

    code: str
    seat: int | None
    count: int | None
    text: str  # the English words of ``text_id`` and ``params``
    text_id: NotRequired[str]  # what it says (``model/said.py``): the API renders it
    params: NotRequired[dict[str, Any]]
    pool: NotRequired[dict[str, object]]
