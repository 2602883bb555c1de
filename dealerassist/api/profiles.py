"""House-rule profiles over HTTP: one profile's options (``GET /v1/profiles/{profile_id}``),
and their part of the OpenAPI document (``openapi_components`` / ``openapi_paths``).

The answer mirrors the profile's TOML file section by section (``kill.mode``, ``draw.max_cards``
...), with the ``profile_id``, ``name`` and ``sha256`` that identify it. A page learns what a
table's profile allows from it: the tablet offers a voluntary kill (KILL-01) only where
``kill.mode`` is ``"optional"``. Any role may read a profile.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from apispec import APISpec
from flask import Blueprint, Response, jsonify

from dealerassist.api.auth import ANY_ROLE, requires
from dealerassist.api.http import no_query, services
from dealerassist.rules.model.house_rules import KillMode, KillSize

blueprint = Blueprint("profiles", __name__, url_prefix="/v1/profiles")

READ_ERRORS = (400, 401, 403, 404, 503)
PROFILE_ID_PATTERN = r"^[a-z0-9][a-z0-9-]*$"  # the file stems profiles.py accepts
OBJECT = {"type": "object", "additionalProperties": True}
PROFILE = {
    "type": "object",
    "required": ["profile_id", "name", "sha256", "game", "kill"],
    "properties": {
        "profile_id": {"type": "string"},
        "name": {"type": "string"},
        "sha256": {"type": "string", "description": "SHA-256 of the profile file's bytes"},
        "game": OBJECT,
        "kill": {
            "type": "object",
            "required": ["mode", "size"],
            "properties": {
                "mode": {"type": "string", "enum": [str(mode) for mode in KillMode]},
                "size": {"type": "string", "enum": [str(size) for size in KillSize]},
            },
        },
    },
    "additionalProperties": OBJECT,
}


@blueprint.get("/<profile_id>")
@requires(*ANY_ROLE)
def get_profile(profile_id: str) -> Response:
    """One house-rule profile's options, section by section as in its file (404 if unknown)."""
    no_query()
    return jsonify(asdict(services().profiles.get(profile_id)))


# -- OpenAPI ---------------------------------------------------------------------------------


def openapi_components(spec: APISpec) -> None:
    """Add the profile's response schema to ``spec``."""
    spec.components.schema("Profile", PROFILE)


def openapi_paths() -> dict[str, dict[str, Any]]:
    """The profile route of the OpenAPI document."""
    profile_id = {
        "name": "profile_id",
        "in": "path",
        "required": True,
        "schema": {"type": "string", "pattern": PROFILE_ID_PATTERN},
        "description": "house-rule profile ID (a table's ``profile``)",
    }
    responses: dict[str, Any] = {
        "200": {
            "description": "the profile's options, as in its file",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Profile"}}},
        }
    }
    for status in READ_ERRORS:
        responses[str(status)] = {"$ref": f"#/components/responses/E{status}"}
    return {
        "/v1/profiles/{profile_id}": {
            "parameters": [profile_id],
            "get": {
                "summary": "A house-rule profile's options (e.g. kill.mode for optional kills)",
                "description": "Role: any.",
                "responses": responses,
            },
        },
    }
