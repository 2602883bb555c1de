"""create_app: the Flask application factory; nothing is built at import time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, jsonify


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; ``config`` overrides settings (tests pass fakes here)."""
    app = Flask(__name__)
    if config:
        app.config.update(config)

    @app.get("/healthz")
    def healthz() -> Any:
        return jsonify({"status": "ok"})

    return app
