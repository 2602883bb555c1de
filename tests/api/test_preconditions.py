"""If-Match (412), Idempotency-Key (replay once, 422 on another body) and racing tablets."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from api.conftest import TABLE_BODY, Api, auth
from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.service.ports import Services, TableStore, TableTransaction


def _pending(services: Services) -> int:
    queue = services.audit_queue
    assert isinstance(queue, RQAuditQueue)
    return queue.depth()


def test_matching_if_match_is_applied(api: Api) -> None:
    """If-Match naming the current version lets the action through."""
    api.ready_hand()
    response = api.call(
        "POST", "/v1/tables/T1/actions", body={"seat": 2, "action": "post"},
        headers={"If-Match": '"v5"'},
    )  # fmt: skip
    assert response.status_code == 200
    assert response.headers["ETag"] == '"v6"'


def test_stale_if_match_is_412_with_the_current_version(api: Api) -> None:
    """If-Match naming an older version is a 412 carrying the current version."""
    api.ready_hand()
    response = api.call(
        "POST", "/v1/tables/T1/actions", body={"seat": 2, "action": "post"},
        headers={"If-Match": '"v4"'},
    )  # fmt: skip
    assert response.status_code == 412
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["current_version"] == 5
    assert response.headers["ETag"] == '"v5"'
    detail = response.get_json()["detail"]
    assert "v4" in detail and '"v5"' in detail and "read the table again" in detail


def test_unreadable_if_match_never_matches(api: Api) -> None:
    """An If-Match that is not one of our ETags is a 412, not a silent pass."""
    api.ready_hand()
    response = api.call(
        "PUT", "/v1/tables/T1/seats/4", body={"player": "D", "stack": 50},
        headers={"If-Match": "banana"},
    )  # fmt: skip
    assert response.status_code == 412
    detail = response.get_json()["detail"]
    assert "-1" not in detail  # the service's marker for "no version of ours" stays inside
    assert '"v5"' in detail and "read the table again" in detail
    assert response.headers["ETag"] == '"v5"'


def test_if_match_star_matches_any_version(api: Api) -> None:
    """If-Match: * is satisfied by any existing table."""
    api.create_table()
    response = api.call(
        "PUT", "/v1/tables/T1/seats/1", body={"player": "A", "stack": 50},
        headers={"If-Match": "*"},
    )  # fmt: skip
    assert response.status_code == 200


def test_idempotent_replay_returns_the_first_answer_applied_once(
    api: Api, services: Services
) -> None:
    """The same key and body twice: one change, one audit event, the same answer twice."""
    api.ready_hand()
    before = _pending(services)
    headers = {"Idempotency-Key": "tablet-1-0001"}
    first = api.call("POST", "/v1/tables/T1/actions", body={"seat": 2, "action": "post"},
                     headers=headers)  # fmt: skip
    second = api.call("POST", "/v1/tables/T1/actions", body={"seat": 2, "action": "post"},
                      headers=headers)  # fmt: skip
    assert first.status_code == second.status_code == 200
    assert first.get_json() == second.get_json()
    assert second.headers["Idempotent-Replayed"] == "true"
    assert second.headers["ETag"] == '"v6"'
    assert _pending(services) == before + 1
    assert api.call("GET", "/v1/tables/T1").get_json()["version"] == 6


def test_idempotency_key_with_another_body_is_422(api: Api) -> None:
    """Reusing a key for a different action is refused with 422 and changes nothing."""
    api.ready_hand()
    headers = {"Idempotency-Key": "k-1"}
    api.call("POST", "/v1/tables/T1/actions", body={"seat": 2, "action": "post"},
             headers=headers)  # fmt: skip
    response = api.call("POST", "/v1/tables/T1/actions", body={"seat": 3, "action": "post"},
                        headers=headers)  # fmt: skip
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert api.call("GET", "/v1/tables/T1").get_json()["version"] == 6


def test_idempotent_replay_of_a_rejection_is_the_same_409(api: Api, services: Services) -> None:
    """A refused entry retried with its key answers the same 409 and is audited once."""
    api.ready_hand()
    before = _pending(services)
    headers = {"Idempotency-Key": "k-2"}
    first = api.call("POST", "/v1/tables/T1/actions", body={"seat": 1, "action": "fold"},
                     headers=headers)  # fmt: skip
    second = api.call("POST", "/v1/tables/T1/actions", body={"seat": 1, "action": "fold"},
                      headers=headers)  # fmt: skip
    assert first.status_code == second.status_code == 409
    assert first.get_json() == second.get_json()
    assert _pending(services) == before + 1


def test_idempotent_replay_of_create_is_201_again(api: Api) -> None:
    """Creating a table twice with one key answers 201 twice, not 409."""
    headers = {"Idempotency-Key": "create-T1"}
    body = api.create_table().get_json()  # a different table first, without a key
    assert body["table_id"] == "T1"
    first = api.call("POST", "/v1/tables", "admin", {**_table("T9")}, headers)
    second = api.call("POST", "/v1/tables", "admin", {**_table("T9")}, headers)
    assert first.status_code == second.status_code == 201
    assert first.get_json() == second.get_json()


def test_overlong_idempotency_key_is_400(api: Api) -> None:
    """An Idempotency-Key over 255 characters is a 400."""
    api.create_table()
    response = api.call("PUT", "/v1/tables/T1/seats/1", body={"player": "A", "stack": 5},
                        headers={"Idempotency-Key": "k" * 256})  # fmt: skip
    assert response.status_code == 400


def _table(table_id: str) -> dict[str, Any]:
    return {**TABLE_BODY, "table_id": table_id}


class _ReadTogether:
    """A TableStore wrapper: the first transaction of each of two threads waits for the
    other's, so both read the same version before either commits."""

    def __init__(self, inner: TableStore) -> None:
        self.inner = inner
        self.barrier = threading.Barrier(2, timeout=10)
        self.waited: set[int] = set()

    @contextmanager
    def transaction(self, table_id: str, key: str | None) -> Iterator[TableTransaction]:
        with self.inner.transaction(table_id, key) as tx:
            if threading.get_ident() not in self.waited:
                self.waited.add(threading.get_ident())
                self.barrier.wait()
            yield tx

    def load(self, table_id: str) -> Any:
        return self.inner.load(table_id)

    def ping(self) -> None:
        self.inner.ping()


def _race(
    app: Flask, requests: list[tuple[str, str, dict[str, Any], dict[str, str]]]
) -> list[TestResponse]:
    results: list[TestResponse | None] = [None, None]

    def run(index: int) -> None:
        method, path, body, headers = requests[index]
        client = app.test_client()
        results[index] = client.open(path, method=method, json=body,
                                     headers={**auth("dealer"), **headers})  # fmt: skip

    threads = [threading.Thread(target=run, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert all(result is not None for result in results)
    return [result for result in results if result is not None]


@pytest.fixture
def racing(services: Services) -> _ReadTogether:
    return _ReadTogether(services.tables)


def test_two_tablets_racing_with_if_match_exactly_one_wins(
    api: Api, app: Flask, services: Services, racing: _ReadTogether
) -> None:
    """Both read v5 and post; one is applied, the other gets 412 with the current version."""
    api.ready_hand()
    object.__setattr__(services, "tables", racing)
    headers = {"If-Match": '"v5"'}
    responses = _race(app, [
        ("POST", "/v1/tables/T1/actions", {"seat": 2, "action": "post"}, headers),
        ("POST", "/v1/tables/T1/actions", {"seat": 2, "action": "sit_out"}, headers),
    ])  # fmt: skip
    assert sorted(r.status_code for r in responses) == [200, 412]
    loser = next(r for r in responses if r.status_code == 412)
    assert loser.get_json()["current_version"] == 6
    object.__setattr__(services, "tables", racing.inner)
    assert api.call("GET", "/v1/tables/T1").get_json()["version"] == 6


def test_two_tablets_racing_without_if_match_are_both_applied_in_turn(
    api: Api, app: Flask, services: Services, racing: _ReadTogether
) -> None:
    """Without If-Match the loser is re-run on the new state: both seats are taken."""
    api.create_table()
    object.__setattr__(services, "tables", racing)
    responses = _race(app, [
        ("PUT", "/v1/tables/T1/seats/1", {"player": "A", "stack": 10}, {}),
        ("PUT", "/v1/tables/T1/seats/2", {"player": "B", "stack": 10}, {}),
    ])  # fmt: skip
    object.__setattr__(services, "tables", racing.inner)
    assert [r.status_code for r in responses] == [200, 200]
    body = api.call("GET", "/v1/tables/T1").get_json()
    assert body["version"] == 3
    assert [seat["player"] for seat in body["seats"][:2]] == ["A", "B"]
