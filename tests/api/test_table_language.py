"""A malformed seat command (400, ``InvalidInput``) is said in the dealer's language too: the
problem carries the message ID and parameters beside the English detail, which
``api/language.py`` renders for Spanish and French."""

from __future__ import annotations

from api.conftest import Api


def _seat_taken(api: Api, language: str) -> dict[str, object]:
    response = api.call(
        "PUT",
        "/v1/tables/T1/seats/1",
        "dealer",
        {"player": "Ben", "stack": 100},
        headers={"Accept-Language": language},
    )
    assert response.status_code == 400, response.get_json()
    body: dict[str, object] = response.get_json()
    return body


def test_a_seat_taken_in_english_spanish_and_french(api: Api) -> None:
    assert api.create_table(table_id="T1").status_code == 201
    assert api.seat("T1", 1, "Ada").status_code == 200
    english = _seat_taken(api, "en")
    assert english["detail"] == "seat 1 is taken by Ada; choose an empty seat"
    assert english["message_id"] == "table.seat_taken_by"
    assert english["params"] == {"seat": 1, "player": "Ada"}
    spanish = _seat_taken(api, "es")
    assert spanish["detail"] == "el asiento 1 está ocupado por Ada; elija un asiento libre"
    assert spanish["title"] != english["title"] == "Invalid input"
    french = _seat_taken(api, "fr")
    assert french["detail"] == "le siège 1 est occupé par Ada ; choisissez un siège libre"
