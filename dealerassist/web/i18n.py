"""The pages' language: English, Spanish or French, chosen per request (Flask-Babel).

The locale of a request is, in this order: a ``lang`` query parameter (``/admin?lang=fr``,
remembered in the ``lang`` cookie for a year), the ``lang`` cookie (set by the chooser of
every page, ``static/i18n.js``, which also keeps the choice in ``localStorage``), else the
best match of ``Accept-Language`` among :data:`LOCALES`, else English.

Two gettext domains under ``dealerassist/translations``: ``messages`` (the Python code and
the Jinja templates) and ``scripts`` (the pages' scripts, extracted by Babel's JavaScript
extractor from ``t("...")`` calls). The scripts get theirs from ``GET /i18n/<locale>.json``
(public, ``ETag``): ``{"locale": ..., "messages": {msgid: text}}``.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from babel.support import Translations
from flask import Response, abort, request
from flask.sansio.app import App
from flask_babel import Babel, get_locale

from dealerassist import json_codec

LOCALES = ("en", "es", "fr")
DEFAULT_LOCALE = "en"
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600
TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"
SCRIPTS_DOMAIN = "scripts"
# the chooser shows each language in its own words
LANGUAGE_NAMES = {"en": "English", "es": "Español", "fr": "Français"}


def chosen_locale() -> str | None:
    """The device's choice: ``?lang=`` first, then the ``lang`` cookie (None: no valid one)."""
    for value in (request.args.get(COOKIE), request.cookies.get(COOKIE)):
        if value in LOCALES:
            return value
    return None


def select_locale() -> str:
    """Flask-Babel's locale selector: the device's choice, else ``Accept-Language``."""
    return chosen_locale() or request.accept_languages.best_match(LOCALES, DEFAULT_LOCALE)


def current_locale() -> str:
    return str(get_locale() or DEFAULT_LOCALE)


def remember_choice(response: Response) -> Response:
    """A valid ``?lang=`` is kept in the cookie, so the next page opens in it too."""
    if response.mimetype == "text/html":
        # a page's words depend on these: a shared cache keeps one copy per language
        response.vary.update(("Accept-Language", "Cookie"))
        response.content_language.add(current_locale())
    value = request.args.get(COOKIE)
    if value in LOCALES and request.cookies.get(COOKIE) != value:
        response.set_cookie(COOKIE, value, max_age=COOKIE_MAX_AGE, samesite="Lax", httponly=False)
    return response


def init_app(app: App) -> None:
    Babel(
        app,
        locale_selector=select_locale,
        default_translation_directories=str(TRANSLATIONS),
        default_domain="messages",
    )


@cache
def script_catalog(locale: str) -> tuple[bytes, str]:
    """The scripts' translations of ``locale`` as JSON bytes and their ETag (English: empty,
    the msgids are the English)."""
    messages: dict[str, str] = {}
    if locale != DEFAULT_LOCALE:
        translations = Translations.load(str(TRANSLATIONS), [locale], domain=SCRIPTS_DOMAIN)
        catalog: dict[object, str] = getattr(translations, "_catalog", {})
        messages = {
            key: text for key, text in catalog.items() if isinstance(key, str) and key and text
        }
    body = json_codec.compact({"locale": locale, "messages": dict(sorted(messages.items()))})
    return body, hashlib.sha256(body).hexdigest()[:32]


def catalog_response(locale: str) -> Response:
    """``GET /i18n/<locale>.json``: 404 for a locale not served; 304 for a known ETag."""
    if locale not in LOCALES:
        abort(404)
    body, etag = script_catalog(locale)
    response = Response(body, mimetype="application/json")
    response.set_etag(etag)
    # revalidated on every load (a new release changes the ETag), answered 304 mostly
    response.headers["Cache-Control"] = "public, no-cache"
    response.make_conditional(request)
    return response
