"""The hash chain: canonical JSON and SHA-256 links between consecutive audit events.

Format (pinned by golden vectors in ``tests/unit/audit``):

* canonical JSON = ``json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``
  encoded as UTF-8;
* ``hash = sha256(canonical_json(event without its "hash" member)).hexdigest()``;
* the first event of a table links to ``GENESIS_HASH`` (64 zeros).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from dealerassist.json_codec import canonical

GENESIS_HASH = "0" * 64


# Serialise a value the one way the chain hashes it (the format above; orjson, checked
# byte for byte against the standard library in tests/unit/test_json_codec.py).
canonical_json = canonical


def event_hash(event: Mapping[str, Any]) -> str:
    """SHA-256 of the event's canonical JSON, its own ``hash`` member left out.

    >>> event = seal({"table_id": "T1", "seq": 1, "kind": "seat"}, GENESIS_HASH)
    >>> event_hash(event) == event["hash"]
    True
    >>> event_hash({**event, "seq": 2}) == event["hash"]  # any change shows
    False
    """
    body = {key: value for key, value in event.items() if key != "hash"}
    return hashlib.sha256(canonical_json(body)).hexdigest()


def seal(event: Mapping[str, Any], prev_hash: str) -> dict[str, Any]:
    """Return a copy of ``event`` linked to ``prev_hash`` and carrying its own hash.

    >>> first = seal({"table_id": "T1", "seq": 1, "kind": "seat"}, GENESIS_HASH)
    >>> first["prev_hash"] == GENESIS_HASH, len(first["hash"])
    (True, 64)
    >>> second = seal({"table_id": "T1", "seq": 2, "kind": "leave"}, first["hash"])
    >>> second["prev_hash"] == first["hash"]
    True
    """
    linked = dict(event)
    linked["prev_hash"] = prev_hash
    linked["hash"] = event_hash(linked)
    return linked
