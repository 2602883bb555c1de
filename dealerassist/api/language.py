"""The API answers in the dealer's language: the engine's words rendered per request.

The engine says everything as a message ID and its parameters (``rules/model/said.py``) and
writes only the English beside them. Every JSON answer of ``/v1`` (a table's view, an
accepted entry's instructions and notices, a refusal's problem+json) carries those IDs:
``message_id`` and ``params`` beside a ``message`` (a refusal, a notice), ``text_id`` and
``params`` beside a ``text`` (an instruction), ``label_id`` beside a ``label`` (a floor
ruling option); a problem the API or the service writes itself (403, 404, 412, 429, 503,
its own 400s: ``api/messages.py``, ``service/messages.py``) carries ``message_id`` and
``params`` beside its ``detail`` the same way. When ``Accept-Language`` best matches Spanish
or French, :func:`localize` renders each in that language from the ``rules`` gettext domain
(``make i18n``), with its numbers and lists formatted for the locale; the problem's
``title`` and ``detail`` too. Rule IDs, codes, the IDs themselves and the audit log stay
language-neutral; English answers are left as the service wrote them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.support import Translations
from flask import Flask, Response, json, request

from dealerassist.api import messages as _api_messages  # noqa: F401 (the API's own words)
from dealerassist.rules.model import messages as _messages  # noqa: F401 (registers them all)
from dealerassist.rules.model.said import ENGLISH, Join, Message, Words, render_json
from dealerassist.service import messages as _service_messages  # noqa: F401 (the service's)

LOCALES = ("en", "es", "fr")
DEFAULT_LOCALE = "en"
DOMAIN = "rules"
TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"
NUMBERS_KEPT = 100_000  # chips, seats and counts seen, per language (a few MB at most)
_JSON_TYPES = ("application/json", "application/problem+json")

# A problem's title by its type slug (api/errors.py): said in the dealer's language too.
TITLES = {
    slug: Message(f"api.title.{slug}", title)
    for slug, title in (
        ("rule-violation", "Rule violation"),
        ("invalid-input", "Invalid input"),
        ("unauthenticated", "Authentication required"),
        ("sign-in-refused", "Sign-in refused"),
        ("forbidden", "Forbidden"),
        ("not-found", "Not found"),
        ("already-exists", "Already exists"),
        ("stale-version", "Precondition failed"),
        ("unsupported-media-type", "Unsupported media type"),
        ("idempotency-key-reused", "Idempotency-Key reused"),
        ("rate-limited", "Too many requests"),
        ("too-many-floor-calls", "Too many open floor calls"),
        ("hand-incomplete", "Hand not stored whole"),
        ("verify-scope-too-large", "Too large to verify within a request"),
        ("replay-too-large", "Too large to replay within a request"),
        ("unavailable", "Service unavailable"),
        ("profile-error", "House-rule profile invalid"),
    )
}


class CatalogWords:
    """A language from the ``rules`` catalog: its templates, numbers and lists."""

    def __init__(self, locale: str) -> None:
        self.locale = Locale.parse(locale)
        self.translations = Translations.load(str(TRANSLATIONS), [locale], domain=DOMAIN)
        self._numbers: dict[int, str] = {}  # babel's formatting is most of a rendering's cost

    def template(self, message: Message, count: int | None) -> str:
        if message.plural is None:
            return str(self.translations.pgettext(message.id, message.english))
        n = 2 if count is None else count
        return str(self.translations.npgettext(message.id, message.english, message.plural, n))

    def number(self, value: int) -> str:
        text = self._numbers.get(value)
        if text is None:
            text = format_decimal(value, locale=self.locale)
            if len(self._numbers) < NUMBERS_KEPT:
                self._numbers[value] = text
        return text

    def join(self, items: Sequence[str], join: Join) -> str:
        if join is Join.AND and len(items) > 1:
            return format_list(list(items), style="standard", locale=self.locale)
        return ", ".join(items)


@cache
def words_for(locale: str) -> Words:
    return ENGLISH if locale == DEFAULT_LOCALE else CatalogWords(locale)


def request_locale() -> str:
    """The best match of the request's ``Accept-Language`` (English when none matches)."""
    return request.accept_languages.best_match(LOCALES, DEFAULT_LOCALE) or DEFAULT_LOCALE


def localize(data: Any, words: Words) -> Any:
    """``data`` (a JSON answer) with every said thing rendered in ``words``."""
    if isinstance(data, list):
        return [localize(item, words) for item in data]
    if not isinstance(data, dict):
        return data
    out = {key: localize(value, words) for key, value in data.items()}
    if "message_id" in data:
        said = {"id": data["message_id"], "params": data.get("params")}
        _put(out, ("message", "detail"), said, words)
    if "text_id" in data:
        _put(out, ("text",), {"id": data["text_id"], "params": data.get("params")}, words)
    if "label_id" in data:
        _put(out, ("label",), {"id": data["label_id"], "params": data.get("params")}, words)
    slug = str(data.get("type", "")).rpartition("/")[2]
    if "title" in data and "status" in data and slug in TITLES:
        out["title"] = render_json({"id": TITLES[slug].id}, words)
    return out


def _put(out: dict[str, Any], keys: tuple[str, ...], said: dict[str, Any], words: Words) -> None:
    try:
        text = render_json(said, words)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        # an ID this version does not know (nested too), or params that do not fill its
        # words (an answer stored by another version, replayed by its Idempotency-Key):
        # the English the service wrote stays
        return
    for key in keys:
        if key in out:
            out[key] = text


def _localize_response(response: Response) -> Response:
    if not request.path.startswith("/v1/") or response.mimetype not in _JSON_TYPES:
        return response
    response.vary.add("Accept-Language")
    locale = request_locale()
    response.content_language.add(locale)
    if locale == DEFAULT_LOCALE or response.direct_passthrough or response.is_streamed:
        return response
    body = response.get_data()
    if not any(mark in body for mark in (b'message_id"', b'text_id"', b'label_id"', b'"title"')):
        return response
    response.set_data(json.dumps(localize(json.loads(body), words_for(locale))))
    return response


def register_language(app: Flask) -> None:
    app.after_request(_localize_response)
