"""Redis clients from ``REDIS_URL``: the one place a URL becomes a client.

Two kinds of URL:

* ``redis://host:port/db``, ``rediss://…``, ``unix:///path?db=N``: one Redis, through
  ``redis.Redis.from_url``;
* ``redis+sentinel://[[user]:password@]host1:port1,host2:port2,host3:port3/<service>/<db>``:
  the primary of the Sentinel group ``service``, found through any of the sentinels listed
  (redis-py's ``Sentinel.master_for``). A connection that breaks, or meets a ``READONLY``
  answer (the primary it knew was demoted), is dropped, and the next one asks the sentinels
  again: so a client follows a failover without a restart. The password applies to the
  Redis servers; a sentinel that needs one too takes ``?sentinel_password=…``.

Every process (API workers, the audit drain, the verification worker, the CLI) builds its
clients here, so all of them follow the same primary.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import parse_qs, unquote, urlsplit

import redis
from redis.retry import Retry
from redis.sentinel import Sentinel

from dealerassist.errors import InvalidInput

T = TypeVar("T")
SENTINEL_SCHEME = "redis+sentinel"
DEFAULT_SENTINEL_PORT = 26379


@dataclass(frozen=True, slots=True)
class SentinelTarget:
    """What a ``redis+sentinel://`` URL names."""

    sentinels: tuple[tuple[str, int], ...]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None
    sentinel_password: str | None = None


def is_sentinel_url(url: str) -> bool:
    """Whether ``url`` names a Sentinel group (not one Redis).

    >>> is_sentinel_url("redis+sentinel://a:26379/da/0"), is_sentinel_url("redis://a/0")
    (True, False)
    """
    return url.strip().lower().startswith(SENTINEL_SCHEME + "://")


def parse_sentinel_url(url: str) -> SentinelTarget:
    """The sentinels, service name and database of a ``redis+sentinel://`` URL.

    >>> target = parse_sentinel_url("redis+sentinel://:pw@h1:26379,h2:26380,h3/da/5")
    >>> target.sentinels, target.service, target.db, target.password
    ((('h1', 26379), ('h2', 26380), ('h3', 26379)), 'da', 5, 'pw')
    """
    parts = urlsplit(url.strip())
    if parts.scheme.lower() != SENTINEL_SCHEME:
        raise InvalidInput(f"not a {SENTINEL_SCHEME}:// URL: {redacted(url)!r}")
    userinfo, _, hosts = parts.netloc.rpartition("@")
    username, _, password = userinfo.partition(":")
    sentinels = tuple(_host_port(entry, url) for entry in hosts.split(","))
    path = [segment for segment in parts.path.split("/") if segment]
    if not path or len(path) > 2:
        raise InvalidInput(
            f"REDIS_URL {redacted(url)!r} must end in /<service name>/<db> "
            "(the name the sentinels monitor the primary under, then the database number)"
        )
    db_text = path[1] if len(path) == 2 else "0"
    if not db_text.isdigit():
        raise InvalidInput(f"REDIS_URL {redacted(url)!r}: the database must be a number")
    query = parse_qs(parts.query)
    unknown = sorted(set(query) - {"sentinel_password"})
    if unknown:
        raise InvalidInput(f"REDIS_URL {redacted(url)!r}: unknown options {unknown}")
    sentinel_password = query.get("sentinel_password", [None])[-1]
    return SentinelTarget(
        sentinels=sentinels,
        service=unquote(path[0]),
        db=int(db_text),
        username=unquote(username) or None,
        password=unquote(password) or None,
        sentinel_password=sentinel_password,
    )


def _host_port(entry: str, url: str) -> tuple[str, int]:
    host, _, port = entry.strip().rpartition(":") if ":" in entry else (entry.strip(), "", "")
    if not host or (port and not port.isdigit()):
        raise InvalidInput(f"REDIS_URL {redacted(url)!r}: {entry!r} is not host:port")
    return host, int(port) if port else DEFAULT_SENTINEL_PORT


def redacted(url: str) -> str:
    """``url`` without its password (for logs and messages).

    >>> redacted("redis+sentinel://:secret@h1:26379/da/0")
    'redis+sentinel://:***@h1:26379/da/0'
    """
    parts = urlsplit(url.strip())
    userinfo, at, hosts = parts.netloc.rpartition("@")
    if not at or ":" not in userinfo:
        return url
    username = userinfo.partition(":")[0]
    return parts._replace(netloc=f"{username}:***@{hosts}").geturl()


def redis_client(url: str, **options: Any) -> redis.Redis:
    """A client for ``url`` (see the module docstring); ``options`` are redis-py connection
    options (timeouts, ``retry``, ``health_check_interval`` …), for the servers and, where
    they are socket options, for the sentinels too."""
    if not is_sentinel_url(url):
        return redis.Redis.from_url(url.strip(), **options)
    target = parse_sentinel_url(url)
    sentinel_options: dict[str, Any] = {
        key: value for key, value in options.items() if key.startswith("socket_")
    }
    if target.sentinel_password is not None:
        sentinel_options["password"] = target.sentinel_password
    sentinel = Sentinel(  # type: ignore[no-untyped-call]
        list(target.sentinels), sentinel_kwargs=sentinel_options
    )
    client: redis.Redis = sentinel.master_for(  # type: ignore[no-untyped-call]
        target.service,
        db=target.db,
        username=target.username,
        password=target.password,
        **options,
    )
    return client


def split_redis_urls(value: str) -> list[str]:
    """The URLs of a comma-separated ``REDIS_URL``: a ``redis+sentinel://`` URL keeps the
    commas between its sentinels (an entry without ``://`` continues the URL before it).

    >>> split_redis_urls("redis+sentinel://a:1,b:2/da/0")
    ['redis+sentinel://a:1,b:2/da/0']
    >>> split_redis_urls("redis://a/0, redis://b/0")
    ['redis://a/0', 'redis://b/0']
    """
    urls: list[str] = []
    for piece in value.split(","):
        entry = piece.strip()
        if urls and entry and "://" not in entry and is_sentinel_url(urls[-1]):
            urls[-1] += "," + entry
        else:
            urls.append(entry)
    return urls


_resent = threading.local()


class CountingRetry(Retry):
    """redis-py's ``Retry`` that also counts, per thread, the failures it retried or gave up
    on (``resends``): a write whose answer was lost with its connection may have been
    applied, and the caller can tell that case from a lost race (``redis_tables``)."""

    def call_with_retry(
        self,
        do: Callable[[], T],
        fail: Callable[..., Any],
        is_retryable: Callable[[Exception], bool] | None = None,
        with_failure_count: bool = False,
    ) -> T:
        def counted(error: Exception, *count: int) -> Any:
            _resent.count = resends() + 1
            return fail(error, *count)

        return super().call_with_retry(do, counted, is_retryable, with_failure_count)


def resends() -> int:
    """How many commands this thread's ``CountingRetry`` saw fail on a connection so far."""
    count: int = getattr(_resent, "count", 0)
    return count
