"""GET /v1/tables/{table_id}/floor-calls/{call_id}: the tablet that called the floor reads
the call back, and once the floor has ruled, the ruling that closed it (decision, label,
note, effects)."""

from __future__ import annotations

from api.conftest import Api


def test_the_dealer_reads_the_floor_s_ruling_on_his_call(api: Api) -> None:
    """Open while the floor has not ruled; closed with the decision's label and the floor's
    note after; another table's path or an auditor is refused."""
    api.ready_hand("T1")
    call = api.call("POST", "/v1/tables/T1/floor-calls", "dealer",
                    {"rule_id": "IRREG-01", "note": "six cards"})  # fmt: skip
    assert call.status_code == 201
    call_id = call.get_json()["call_id"]
    path = f"/v1/tables/T1/floor-calls/{call_id}"
    first = api.call("GET", path, "dealer")
    assert first.status_code == 200 and first.get_json()["status"] == "open"
    assert first.get_json()["ruling"] is None
    ruling = {"call_id": call_id, "decision": "misdeal", "note": "redeal",
              "effects": [{"effect": "misdeal"}]}  # fmt: skip
    assert api.call("POST", "/v1/tables/T1/rulings", "floor", ruling).status_code == 200
    answered = api.call("GET", path, "dealer").get_json()
    assert answered["status"] == "closed"
    assert answered["ruling"] == {
        "decision": "misdeal",
        "label": "Misdeal: every chip back, redeal with the same button",
        "label_id": "option.misdeal",
        "rule_id": "IRREG-01",
        "note": "redeal",
        "effects": ["misdeal"],
    }
    # the tablet reads the ruling in the dealer's language: the label from its ID
    spanish = api.call("GET", path, "dealer", headers={"Accept-Language": "es"}).get_json()
    assert spanish["ruling"]["label"].startswith("Reparto nulo")
    assert spanish["ruling"]["note"] == "redeal"  # the floor's own words stay as written
    assert api.call("GET", f"/v1/tables/T2/floor-calls/{call_id}", "dealer").status_code == 404
    assert api.call("GET", path, "auditor").status_code == 403
