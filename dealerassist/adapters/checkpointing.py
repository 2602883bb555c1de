"""Signed checkpoints made by the audit worker, and the keys they are signed and checked with.

Keys live apart from the database: the private key in a file
(``DEALERASSIST_CHECKPOINT_KEY_FILE``, PEM, PKCS#8, as ``dealerassist checkpoint-key``
writes it) or an environment variable (``DEALERASSIST_CHECKPOINT_KEY``: PEM text or the
32-byte seed in hex); the verifier needs only public keys
(``DEALERASSIST_CHECKPOINT_PUBLIC_KEYS``: hex keys, or ``@file`` naming a file of them one
a line, separated by commas or spaces; several, for a rotation). Without a private key the
worker makes no checkpoints (it says so once at WARNING).

``Checkpointer`` collects the heads the drain stored and signs a checkpoint of the heads
that moved when a hand ended (at most one a ``MIN_SECONDS``: a busy room ends a hand every
second or so, and every checkpoint is one more signature for each full verify to check),
at least every ``MAX_SECONDS`` while events come, and when the drain job ends because
nothing more came; so a stored event waits at most ``MAX_SECONDS`` for its checkpoint,
and about ``MIN_SECONDS`` once its hand ended (at most 8,640 checkpoints a day). Each goes to the
store's ``checkpoints`` and, with ``DEALERASSIST_CHECKPOINT_LOG``, is appended (and
fsynced) to that file too: put it where the store's writer cannot rewrite it.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
    load_pem_public_key,
)

from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.checkpoints import (
    Head,
    key_id,
    make_checkpoint,
    public_key_from_hex,
    raw_public_key,
)
from dealerassist.audit.envelope import format_at
from dealerassist.errors import InvalidInput

KEY_ENV = "DEALERASSIST_CHECKPOINT_KEY"
KEY_FILE_ENV = "DEALERASSIST_CHECKPOINT_KEY_FILE"
PUBLIC_KEYS_ENV = "DEALERASSIST_CHECKPOINT_PUBLIC_KEYS"
LOG_ENV = "DEALERASSIST_CHECKPOINT_LOG"
MIN_SECONDS = 10.0
MAX_SECONDS = 60.0
APPEND_ATTEMPTS = 5

log = logging.getLogger(__name__)


def _private_key(data: bytes, where: str) -> Ed25519PrivateKey:
    text = data.strip()
    try:
        if text.startswith(b"-----BEGIN"):
            key = load_pem_private_key(text, password=None)
        else:
            key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(text.decode()))
    except (ValueError, TypeError, UnicodeDecodeError) as error:
        raise InvalidInput(f"{where}: not an Ed25519 private key ({error})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise InvalidInput(f"{where}: the key is not Ed25519")
    return key


def signing_key_from_env(env: Mapping[str, str] | None = None) -> Ed25519PrivateKey | None:
    """The checkpoint signing key the environment names, or None (no checkpoints)."""
    env = os.environ if env is None else env
    if env.get(KEY_ENV):
        return _private_key(env[KEY_ENV].encode(), KEY_ENV)
    path = env.get(KEY_FILE_ENV)
    if not path:
        return None
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise InvalidInput(f"{KEY_FILE_ENV}={path}: {error}") from None
    return _private_key(data, f"{KEY_FILE_ENV}={path}")


def _public_key(text: str, where: str) -> Ed25519PublicKey:
    try:
        if text.startswith("-----BEGIN"):
            key = load_pem_public_key(text.encode())
            if not isinstance(key, Ed25519PublicKey):
                raise ValueError("not Ed25519")
            return key
        return public_key_from_hex(text)
    except ValueError as error:
        raise InvalidInput(f"{where}: not an Ed25519 public key ({error})") from None


def public_keys(
    specs: Iterable[str] = (), env: Mapping[str, str] | None = None
) -> dict[str, Ed25519PublicKey]:
    """The public keys of ``specs`` and of ``DEALERASSIST_CHECKPOINT_PUBLIC_KEYS`` by key ID:
    each a hex key or ``@file`` (hex keys one a line, ``#`` comments)."""
    env = os.environ if env is None else env
    words = [*specs, *env.get(PUBLIC_KEYS_ENV, "").replace(",", " ").split()]
    keys: dict[str, Ed25519PublicKey] = {}
    for word in words:
        if word.startswith("@"):
            try:
                text = Path(word[1:]).read_text()
            except OSError as error:
                raise InvalidInput(f"public keys file {word[1:]}: {error}") from None
            if text.lstrip().startswith("-----BEGIN"):
                found = [_public_key(text.strip(), word)]
            else:
                lines = (line.split("#")[0].strip() for line in text.splitlines())
                found = [_public_key(line, word) for line in lines if line]
        else:
            found = [_public_key(word, "public key")]
        keys.update({key_id(key): key for key in found})
    return keys


def write_key_file(path: Path) -> str:
    """A new Ed25519 key in ``path`` (PEM, mode 0600, never overwritten); its public key
    in ``path`` + ``.pub`` (hex); return the public key's hex."""
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as output:
        output.write(pem)
    public_hex = raw_public_key(key.public_key()).hex()
    Path(f"{path}.pub").write_text(public_hex + "\n")
    return public_hex


def _now_text() -> str:
    return format_at(datetime.now(UTC))


class Checkpointer:
    """The worker's side: heads in, signed checkpoints out (to the store, and the log)."""

    def __init__(
        self,
        store: SqlAuditStore,
        key: Ed25519PrivateKey,
        log_path: Path | None = None,
        min_seconds: float = MIN_SECONDS,
        max_seconds: float = MAX_SECONDS,
        now: Callable[[], str] = _now_text,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.key = key
        self.log_path = log_path
        self.min_seconds = min_seconds
        self.max_seconds = max_seconds
        self.now = now
        self.monotonic = monotonic
        self.pending: dict[str, Head] = {}
        self.hand_ended = False
        self.last_made = monotonic()
        self.previous: dict[str, Any] | None = None
        self.made = 0

    def note(self, heads: Iterable[Head], hand_ended: bool) -> None:
        """Heads the drain just stored (the newest of a table wins)."""
        for head in heads:
            known = self.pending.get(head.table_id)
            if known is None or head.seq > known.seq:
                self.pending[head.table_id] = head
        self.hand_ended = self.hand_ended or hand_ended

    def due(self) -> bool:
        """A checkpoint is due: a hand ended (and the last is MIN_SECONDS old), or the heads
        waited MAX_SECONDS."""
        if not self.pending:
            return False
        waited = self.monotonic() - self.last_made
        return waited >= self.max_seconds or (self.hand_ended and waited >= self.min_seconds)

    def maybe(self) -> dict[str, Any] | None:
        """Make a checkpoint if one is due."""
        return self.flush() if self.due() else None

    def flush(self) -> dict[str, Any] | None:
        """Make a checkpoint of the pending heads now (None if nothing moved)."""
        if not self.pending:
            return None
        for _ in range(APPEND_ATTEMPTS):
            previous = self.previous if self.previous is not None else self._latest()
            record = make_checkpoint(previous, self.pending.values(), self.now(), self.key)
            if self.store.append_checkpoint(record):
                break
            self.previous = None  # another worker took the number: build on its checkpoint
        else:
            raise InvalidInput(f"no free checkpoint number after {APPEND_ATTEMPTS} attempts")
        self._log(record)
        self.previous = record
        self.pending = {}
        self.hand_ended = False
        self.last_made = self.monotonic()
        self.made += 1
        return record

    def _latest(self) -> dict[str, Any] | None:
        return self.store.latest_checkpoint()

    def _log(self, record: Mapping[str, Any]) -> None:
        if self.log_path is None:
            return
        with open(self.log_path, "a", encoding="utf-8") as output:
            output.write(json.dumps({"checkpoint": record}, sort_keys=True) + "\n")
            output.flush()
            os.fsync(output.fileno())


def checkpointer_from_env(
    store: SqlAuditStore, env: Mapping[str, str] | None = None
) -> Checkpointer | None:
    """The worker's checkpointer as the environment configures it (None: no key)."""
    env = os.environ if env is None else env
    key = signing_key_from_env(env)
    if key is None:
        log.warning(
            "no checkpoint key (%s or %s): the audit worker signs no checkpoints, and verify "
            "cannot see a deleted tail or a re-sealed chain",
            KEY_FILE_ENV,
            KEY_ENV,
        )
        return None
    log_path = Path(env[LOG_ENV]) if env.get(LOG_ENV) else None
    return Checkpointer(store, key, log_path)
