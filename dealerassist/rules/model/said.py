"""What the engine says, as data: a message ID and its parameters, never prose alone.

Every refusal (``RuleViolation``), notice and dealer instruction carries a :class:`Said`: a
:class:`Message` (a stable ID, the English words as a ``str.format`` template, and a plural
form when a count decides the grammar) and the parameters that fill it. The engine renders
nothing but the English (``Said.english()``, the words it always wrote, byte for byte, so
the table states and refusals recorded before message IDs replay as they did); the API
renders the same ``Said`` in the dealer's language from the JSON it answers
(``{"id", "params"}``: :func:`render_json`), and the audit log keeps the ID and the
parameters, so an auditor renders a recorded refusal in any language.

A parameter is an ``int`` (chips, seats, counts: the locale formats it), a ``str`` the
engine does not translate (card codes, a player's name, a rule ID), a nested ``Said`` (a
word or a clause that has its own message), or :class:`Listed` (several of those joined
with "and" or a comma, as the language joins them).

The messages themselves are listed by area under ``rules/model/messages/``; their IDs are
stable (stored in the audit log), and the ``rules`` gettext domain (``make i18n``) holds
their Spanish and French.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, Union

Param = Union[int, str, "Said", "Listed"]
_FORMATTER = string.Formatter()

MESSAGES: dict[str, Message] = {}  # every message, by its ID (filled as the modules load)


class Join(StrEnum):
    """How :class:`Listed` joins its items: "a and b" / "a, b" in English."""

    AND = "and"  # English: " and " between every two ("a and b and c"), as the engine wrote
    COMMA = "comma"  # English: ", "


@dataclass(frozen=True, slots=True)
class Message:
    """One thing the engine can say: a stable ID (``area.what``), the English template and,
    when a count decides the grammar, its plural (chosen by the ``count`` parameter named by
    ``plural_by``). Creating one registers it; an ID may exist once."""

    id: str
    english: str
    plural: str | None = None
    plural_by: str = "count"

    def __post_init__(self) -> None:
        if not self.english:  # "" is a catalog's header: it cannot be translated
            raise ValueError(f"message {self.id!r} says nothing")
        if self.id in MESSAGES:
            raise ValueError(f"message ID {self.id!r} is defined twice")
        MESSAGES[self.id] = self

    def __call__(self, **params: Param) -> Said:
        return Said(self, params)

    def fields(self) -> frozenset[str]:
        """The named parameters its templates use."""
        names = set(template_fields(self.english))
        if self.plural is not None:
            names |= template_fields(self.plural)
        return frozenset(names)


def template_fields(template: str) -> set[str]:
    return {name for _, name, _, _ in _FORMATTER.parse(template) if name}


@dataclass(frozen=True, slots=True)
class Listed:
    """Several parameters said as one: "the small blind and the ante"."""

    items: tuple[Param, ...]
    join: Join = Join.AND


@dataclass(frozen=True, slots=True)
class Said:
    """A message and its parameters: what the engine said, in any language."""

    message: Message
    params: Mapping[str, Param] = field(default_factory=dict)

    def english(self) -> str:
        return _english(self.message, self.params)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.message.id, "params": params_json(self.params)}

    def english_and_json(self) -> tuple[str, dict[str, Any]]:
        """``english()`` and ``to_json()`` in one walk of the parameters (an instruction
        holds both)."""
        shown: dict[str, Any] = {}
        data: dict[str, Any] = {}
        for name, value in self.params.items():
            kind = type(value)
            if kind is str:
                shown[name] = data[name] = value
            elif kind is int:
                shown[name] = str(value)
                data[name] = value
            else:
                shown[name], data[name] = _english_and_json(value)
        return _english_template(self.message, self.params).format_map(shown), {
            "id": self.message.id,
            "params": data,
        }


def _english_and_json(value: Param) -> tuple[str, Any]:
    """``_param(value, ENGLISH)`` and ``_param_json(value)`` in one walk."""
    if isinstance(value, Said):
        return value.english_and_json()
    if isinstance(value, Listed):
        shown, data = [], []
        for item in value.items:
            words, json = _english_and_json(item)
            shown.append(words)
            data.append(json)
        return ENGLISH.join(shown, value.join), {"listed": data, "join": str(value.join)}
    return _param(value, ENGLISH), _param_json(value)


def _english(message: Message, params: Mapping[str, Param]) -> str:
    """``render(Said(message, params), ENGLISH)``, the parameters walked inline: a ``str``
    is itself, an ``int`` its digits, anything else as :func:`_param` says it."""
    shown: dict[str, Any] = {}
    for name, value in params.items():
        kind = type(value)
        if kind is str:
            shown[name] = value
        elif kind is int:
            shown[name] = str(value)
        elif kind is Said:
            shown[name] = _english(value.message, value.params)  # type: ignore[union-attr]
        else:
            shown[name] = _param(value, ENGLISH)
    return _english_template(message, params).format_map(shown)


def _english_template(message: Message, params: Mapping[str, Param]) -> str:
    """:meth:`_English.template` with the count read as :func:`_fill` reads it."""
    if message.plural is None:
        return message.english
    count = params.get(message.plural_by)
    return message.english if isinstance(count, int) and count == 1 else message.plural


def params_json(params: Mapping[str, Param]) -> dict[str, Any]:
    return {name: _param_json(value) for name, value in params.items()}


def _param_json(value: Param) -> Any:
    if isinstance(value, Said):
        return value.to_json()
    if isinstance(value, Listed):
        return {"listed": [_param_json(item) for item in value.items], "join": str(value.join)}
    return value


class Words(Protocol):
    """A language: its template of a message, its numbers and its lists."""

    def template(self, message: Message, count: int | None) -> str: ...

    def number(self, value: int) -> str: ...

    def join(self, items: Sequence[str], join: Join) -> str: ...


class _English:
    """The engine's own words: the templates as written, numbers as digits."""

    def template(self, message: Message, count: int | None) -> str:
        if message.plural is not None and count != 1:
            return message.plural
        return message.english

    def number(self, value: int) -> str:
        return str(value)

    def join(self, items: Sequence[str], join: Join) -> str:
        return (" and " if join is Join.AND else ", ").join(items)


ENGLISH: Words = _English()


def render(said: Said, words: Words) -> str:
    """``said`` in ``words``' language."""
    return _fill(said.message, said.params, words, lambda value: _param(value, words))


def _param(value: Param, words: Words) -> str:
    if isinstance(value, Said):
        return render(value, words)
    if isinstance(value, Listed):
        return words.join([_param(item, words) for item in value.items], value.join)
    if isinstance(value, bool):  # a bool is an int: never a parameter
        raise TypeError("a message parameter may not be a bool")
    if isinstance(value, int):
        return words.number(value)
    return value


def _fill(
    message: Message, params: Mapping[str, Any], words: Words, show: Callable[[Any], str]
) -> str:
    count = params.get(message.plural_by) if message.plural is not None else None
    template = words.template(message, count if isinstance(count, int) else None)
    return template.format_map({name: show(value) for name, value in params.items()})


def render_json(data: Mapping[str, Any], words: Words) -> str:
    """A said recorded as JSON (``{"id", "params"}``) in ``words``' language; raises
    ``KeyError`` for an ID no message has (a newer version's, say)."""
    message = MESSAGES[data["id"]]
    return _fill(message, data.get("params") or {}, words, lambda value: _json(value, words))


def _json(value: Any, words: Words) -> str:
    if isinstance(value, dict) and "id" in value:
        return render_json(value, words)
    if isinstance(value, dict) and "listed" in value:
        items = [_json(item, words) for item in value["listed"]]
        return words.join(items, Join(value.get("join", Join.AND)))
    if isinstance(value, int) and not isinstance(value, bool):
        return words.number(value)
    return str(value)


def said_from_json(data: Mapping[str, Any]) -> Said:
    """The :class:`Said` that :meth:`Said.to_json` wrote (``{"id", "params"}``, nested
    too), so a service that holds a refusal's JSON can say it inside its own words; raises
    ``KeyError`` for an ID no message has."""
    message = MESSAGES[data["id"]]
    params = data.get("params") or {}
    return Said(message, {name: _from_json(value) for name, value in params.items()})


def _from_json(value: Any) -> Param:
    if isinstance(value, Mapping) and "id" in value:
        return said_from_json(value)
    if isinstance(value, Mapping) and "listed" in value:
        items = tuple(_from_json(item) for item in value["listed"])
        return Listed(items, Join(value.get("join", Join.AND)))
    if isinstance(value, int | str) and not isinstance(value, bool):
        return value
    raise TypeError(f"{value!r} is not a message parameter")
