"""create_app: the Flask application factory; nothing is built at import time.

Services are registered here (svcs-style) and built on first use, in the process that
uses them: gunicorn forks its workers first, so each worker opens its own connections.
Tests pass ``config={"SERVICES": fakes_or_real, "TOKENS": TokenBook(...)}``.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask

from dealerassist.api import (
    audit,
    audit_browse,
    docs,
    health,
    profiles,
    rulings,
    shifts,
    tables,
)
from dealerassist.api.auth import TOKENS_EXTENSION, TokenBook
from dealerassist.api.errors import register_error_handlers
from dealerassist.api.http import SERVICES_EXTENSION, JSONProvider
from dealerassist.api.language import register_language
from dealerassist.api.observability import register_observability
from dealerassist.api.security import register_security_headers
from dealerassist.bootstrap import build_services
from dealerassist.errors import ProfileError
from dealerassist.profiles import load_profiles
from dealerassist.rules.model.house_rules import GameRules
from dealerassist.service.ports import Services
from dealerassist.settings import Settings
from dealerassist.web import pages


class ServiceRegistry:
    """Builds the services once, on first use (thread-safe); a failed build is retried."""

    def __init__(self, factory: Callable[[], Services]) -> None:
        self._factory = factory
        self._lock = threading.Lock()
        self._services: Services | None = None

    def get(self) -> Services:
        if self._services is None:
            with self._lock:
                if self._services is None:
                    self._services = self._factory()
        return self._services


def _profile_games(settings: Settings) -> dict[str, GameRules]:
    """Each installed profile's game, for the OpenAPI document (none if one cannot load:
    ``serve`` refuses to start then anyway, with the file and field)."""
    try:
        return {pid: rules.game for pid, rules in load_profiles(settings.profiles_dir).items()}
    except (ProfileError, OSError):
        return {}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; ``config`` may carry SETTINGS, SERVICES and TOKENS (tests use fakes)."""
    config = dict(config or {})
    settings: Settings = config.pop("SETTINGS", None) or Settings.from_env()
    services: Services | None = config.pop("SERVICES", None)
    tokens: TokenBook | None = config.pop("TOKENS", None)
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.config[docs.PROFILE_IDS_CONFIG] = sorted(
        p.stem for p in settings.profiles_dir.glob("*.toml")
    )
    app.config[docs.PROFILE_GAMES_CONFIG] = _profile_games(settings)
    app.config[health.MAX_BACKLOG_CONFIG] = settings.ready_max_backlog_seconds
    app.config.update(config)
    app.json = JSONProvider(app)
    app.url_map.strict_slashes = False
    app.extensions[TOKENS_EXTENSION] = tokens if tokens is not None else _tokens(settings)
    app.extensions[SERVICES_EXTENSION] = ServiceRegistry(
        (lambda: services) if services is not None else (lambda: build_services(settings))
    )
    register_observability(app, settings.metrics, settings.access_log)
    register_error_handlers(app)
    register_security_headers(app)
    register_language(app)
    for module in (health, tables, profiles, audit, audit_browse, docs, rulings, shifts):
        app.register_blueprint(module.blueprint)
    app.register_blueprint(pages.blueprint)  # the tablet, floor and audit pages (not /v1)
    return app


def create_served_app(config: Mapping[str, Any] | None = None) -> Flask:
    """``create_app`` for a gunicorn worker (``dealerassist serve``, bench/api.py).

    After the app is built, ``gc.freeze()`` moves the ~95,000 objects of the imports and
    the app into the permanent generation, where the cyclic collector never scans them
    again. Without it, each full collection walked all of them: ~60 us per request on
    average, in pauses of ~100 ms that land on some tablet's p99. Objects made later
    (requests, the lazily built services) are collected as before.
    """
    app = create_app(config)
    gc.collect()
    gc.freeze()
    return app


def _tokens(settings: Settings) -> TokenBook:
    if settings.tokens_file is None:
        return TokenBook()
    return TokenBook.from_file(settings.tokens_file)
