"""The shared fixtures reach a real Redis and a real SQL database."""

import redis
import sqlalchemy


def test_redis_fixture_round_trips_a_value(redis_client: redis.Redis) -> None:
    """The Redis fixture stores and returns a value."""
    redis_client.set("k", "v")
    assert redis_client.get("k") == b"v"


def test_sql_fixture_gives_an_empty_database(sql_url: str) -> None:
    """Each sql_url database starts without tables and accepts DDL."""
    engine = sqlalchemy.create_engine(sql_url)
    with engine.begin() as conn:
        assert sqlalchemy.inspect(conn).get_table_names() == []
        conn.execute(sqlalchemy.text("CREATE TABLE probe (x INTEGER)"))
    engine.dispose()
