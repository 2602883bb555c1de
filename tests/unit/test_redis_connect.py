"""REDIS_URL to a client: one Redis, or the primary of a Sentinel group."""

from __future__ import annotations

import pytest
from redis.sentinel import SentinelConnectionPool

from dealerassist.adapters.redis_connect import parse_sentinel_url, redis_client, split_redis_urls
from dealerassist.errors import InvalidInput


def test_a_sentinel_url_names_the_sentinels_the_service_and_the_database() -> None:
    target = parse_sentinel_url(
        "redis+sentinel://user:p%40ss@10.0.0.1:26379,10.0.0.2:26380/dealer-main/3"
        "?sentinel_password=s"
    )
    assert target.sentinels == (("10.0.0.1", 26379), ("10.0.0.2", 26380))
    assert (target.service, target.db) == ("dealer-main", 3)
    assert (target.username, target.password, target.sentinel_password) == ("user", "p@ss", "s")


@pytest.mark.parametrize(
    "url",
    [
        "redis+sentinel://h1:26379",  # no service name
        "redis+sentinel://h1:26379/da/x",  # database not a number
        "redis+sentinel://h1:port/da/0",  # port not a number
        "redis+sentinel://h1:26379/da/0/extra",
        "redis+sentinel://h1:26379/da/0?socket_timeout=1",  # an option we do not read
    ],
)
def test_a_malformed_sentinel_url_is_refused_with_what_is_wrong(url: str) -> None:
    with pytest.raises(InvalidInput, match="REDIS_URL"):
        parse_sentinel_url(url)


def test_a_sentinel_client_asks_the_sentinels_for_the_primary_of_the_service() -> None:
    client = redis_client("redis+sentinel://127.0.0.1:1,127.0.0.1:2/da/4", socket_timeout=0.5)
    pool = client.connection_pool
    assert isinstance(pool, SentinelConnectionPool)
    assert pool.service_name == "da" and pool.is_master
    assert pool.connection_kwargs["db"] == 4
    sentinels = pool.sentinel_manager.sentinels
    assert [s.connection_pool.connection_kwargs["port"] for s in sentinels] == [1, 2]
    assert sentinels[0].connection_pool.connection_kwargs["socket_timeout"] == 0.5


def test_the_commas_between_sentinels_do_not_split_the_redis_list() -> None:
    """A Sentinel URL's commas list its sentinels; a list of Redis (the retired modulo
    partitions) is refused, naming the move onto a cluster."""
    from dealerassist.bootstrap import jobs_redis_url
    from dealerassist.settings import Settings

    sentinel = "redis+sentinel://a:1,b:2,c:3/da/0"
    assert split_redis_urls(sentinel) == [sentinel]
    assert split_redis_urls("redis://a/0,redis://b/0") == ["redis://a/0", "redis://b/0"]
    with pytest.raises(InvalidInput, match="migrate-redis"):
        jobs_redis_url(Settings(redis_url="redis://a/0,,redis://b/0"))
