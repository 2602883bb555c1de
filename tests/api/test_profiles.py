"""GET /v1/profiles/{profile_id}: a house-rule profile's options, as in its file, for any role."""

from __future__ import annotations

import hashlib
import tomllib

import pytest

from api.conftest import Api
from dealerassist.profiles import REPO_PROFILES_DIR

PROBLEM = "application/problem+json"


@pytest.mark.parametrize(
    ("profile_id", "kill_mode"),
    [
        ("casino-triple-draw-27-optional-kill", "optional"),
        ("casino-triple-draw-27-kill", "required"),
        ("casino-five-card-draw", "off"),
    ],
)
def test_a_profile_answers_its_kill_mode(api: Api, profile_id: str, kill_mode: str) -> None:
    """The answer names the profile and carries its kill section (KILL-01: "optional" is the
    mode where the dealer may name a seat that kills by choice)."""
    response = api.call("GET", f"/v1/profiles/{profile_id}", "dealer")
    assert response.status_code == 200 and response.mimetype == "application/json"
    body = response.get_json()
    assert body["profile_id"] == profile_id
    assert body["kill"]["mode"] == kill_mode and body["kill"]["size"] in ("full", "half")


def test_a_profile_mirrors_its_file(api: Api) -> None:
    """Every section and key the file sets is in the answer with the file's value, the name
    is the file's, and sha256 is the SHA-256 of the file's bytes."""
    path = REPO_PROFILES_DIR / "casino-triple-draw-27-optional-kill.toml"
    data = path.read_bytes()
    raw = tomllib.loads(data.decode())
    body = api.call("GET", f"/v1/profiles/{path.stem}", "auditor").get_json()
    assert body["name"] == raw["name"]
    assert body["sha256"] == hashlib.sha256(data).hexdigest()
    for section, values in raw.items():
        if isinstance(values, dict):
            assert body[section] | values == body[section], section


@pytest.mark.parametrize("who", ["admin", "dealer", "floor", "auditor"])
def test_any_role_reads_a_profile(api: Api, who: str) -> None:
    """Each role's token may read a profile."""
    assert api.call("GET", "/v1/profiles/casino-five-card-draw", who).status_code == 200


def test_an_unknown_profile_is_404_and_no_token_is_401(api: Api) -> None:
    """An unknown ID is a 404 problem naming the known profiles; without a token, 401."""
    response = api.call("GET", "/v1/profiles/no-such-profile", "dealer")
    assert response.status_code == 404 and response.mimetype == PROBLEM
    assert "casino-five-card-draw" in response.get_json()["detail"]
    assert api.call("GET", "/v1/profiles/casino-five-card-draw", None).status_code == 401
