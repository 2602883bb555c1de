"""The browser pages: the dealer tablet (``/tablet``), the floor console (``/floor``), the
audit page (``/audit``) and the admin page (``/admin``: open a table), as one Flask blueprint
with its templates and static files.

The pages are plain clients of the ``/v1`` API: the HTML carries no table data and no
token, so the pages themselves need no auth; the scripts ask for the bearer token once
(kept in ``sessionStorage``) and send it on every ``/v1`` call. Every answer of this
blueprint (pages and static files) carries a Content-Security-Policy that allows scripts,
styles and connections to this origin only (no inline script, no CDN: the service runs on
a casino LAN), ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``.
The pages are not part of the API, so they are not in ``/openapi.json``.

The pages speak English, Spanish or French (``web.i18n``: Flask-Babel, the locale per
request from the device's choice or ``Accept-Language``); their scripts get their strings
from ``GET /i18n/<locale>.json``.
"""

from __future__ import annotations

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask.blueprints import BlueprintSetupState
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response as BaseResponse

from dealerassist.web import i18n

blueprint = Blueprint(
    "web",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/web/static",
)

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self'",
        "img-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
# the scripts are ES modules: browsers refuse a module served under another type, and
# mimetypes' answer for .js depends on the Python version and /etc/mime.types
STATIC_TYPES = {".js": "text/javascript", ".css": "text/css"}
PAGES = {
    "tablet": _l("Dealer tablet"),
    "floor": _l("Floor console"),
    "audit": _l("Audit"),
    "admin": _l("Admin"),
}


@blueprint.record_once
def _babel(state: BlueprintSetupState) -> None:
    """The app that serves the pages chooses a locale per request (``web.i18n``)."""
    i18n.init_app(state.app)


@blueprint.after_request
def _security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers[name] = value
    for suffix, mimetype in STATIC_TYPES.items():
        if request.path.endswith(suffix) and response.status_code in (200, 304):
            response.mimetype = mimetype
    return i18n.remember_choice(response)


@blueprint.get("/")
def index() -> BaseResponse:
    """The tablet is the page a browser at the table opens."""
    return redirect(url_for(".tablet"))


def _page(name: str) -> str:
    return render_template(
        f"{name}.html",
        page=name,
        pages=PAGES,
        title=PAGES[name],
        locale=i18n.current_locale(),
        languages=i18n.LANGUAGE_NAMES,
    )


@blueprint.get("/i18n/<locale>.json")
def catalog(locale: str) -> Response:
    """The scripts' strings in ``locale`` (public: they are the pages' words, no data)."""
    return i18n.catalog_response(locale)


@blueprint.get("/favicon.ico")
def favicon() -> Response:
    """No icon: 204, cached for a day. Every page load asks for /favicon.ico, and a 404 is an
    error in the browser's console on every page (tests/e2e fail on console errors)."""
    return Response(status=204, headers={"Cache-Control": "public, max-age=86400"})


@blueprint.get("/tablet")
def tablet() -> str:
    """The dealer tablet: the table, the dealing instructions, the legal actions as buttons."""
    return _page("tablet")


@blueprint.get("/floor")
def floor() -> str:
    """The floor console: the table, its open floor calls, and rulings."""
    return _page("floor")


@blueprint.get("/audit")
def audit() -> str:
    """The audit page: verify the chains and download the exports."""
    return _page("audit")


@blueprint.get("/admin")
def admin() -> str:
    """The admin page: open a table (variant, structure, stakes, profile, seats, mode)."""
    return _page("admin")
