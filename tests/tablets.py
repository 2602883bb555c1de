"""What a tablet taps next: the first legal entry the table's answer offers."""

from __future__ import annotations

from typing import Any


def next_entry(body: dict[str, Any], prefer: str | None = None) -> dict[str, Any] | None:
    """The action body for the first legal entry of ``body["next"]`` (a table's answer), or
    the ``prefer``-red action where it is legal (``"fold"``: short hands); None when no one
    is to act (the hand is over)."""
    upcoming = body.get("next")
    if not upcoming or not upcoming.get("legal"):
        return None
    legal = upcoming["legal"]
    choice = next((option for option in legal if option["action"] == prefer), legal[0])
    action: dict[str, Any] = {"seat": upcoming["seat"], "action": choice["action"]}
    if choice["action"] in ("post", "call"):
        action["amount"] = choice.get("amount")
    if choice["action"] == "draw":
        action["count"] = 1
    return action
