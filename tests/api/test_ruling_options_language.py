"""The floor console's ruling options in the floor manager's language: GET
/v1/rulings/options answers each option's ``label`` (English), ``label_id`` beside it, and
``Accept-Language`` renders the label from the ``rules`` catalog; the decisions and effects
stay the codes they are."""

from __future__ import annotations

from typing import Any

import pytest

from api.conftest import Api

PATH = "/v1/rulings/options?rule_id=IRREG-01"
DECISIONS = ["misdeal", "play_on", "custom", "discretionary"]
EFFECTS = [["misdeal"], [], ["any"], ["any"]]
ENGLISH = [
    "Misdeal: every chip back, redeal with the same button",
    "Deadline passed or no cause: the hand plays",
    "Custom ruling: describe it in the note",
    "IRREG-15 discretionary ruling (fairness override; reason required)",
]
SAID = {
    "es": [
        "Reparto nulo: se devuelven todas las fichas, nuevo reparto con el mismo botón",
        "Plazo pasado o sin motivo: la mano se juega",
        "Decisión libre: descríbala en la nota",
        "Decisión discrecional IRREG-15 (por equidad; motivo obligatorio)",
    ],
    "fr": [
        "Fausse donne : tous les jetons rendus, nouvelle donne avec le même bouton",
        "Délai passé ou aucun motif : la main se joue",
        "Décision libre : décrivez-la dans la note",
        "Décision discrétionnaire IRREG-15 (équité ; motif obligatoire)",
    ],
}


def _options(api: Api, path: str, language: str) -> Any:
    response = api.call("GET", path, "floor", headers={"Accept-Language": language})
    assert response.status_code == 200
    assert response.headers["Content-Language"] == language
    return response.get_json()["options"]


def test_the_options_carry_their_label_ids_beside_the_english(api: Api) -> None:
    options = _options(api, PATH, "en")
    assert [o["label"] for o in options] == ENGLISH
    assert [o["label_id"] for o in options] == [
        "option.misdeal",
        "option.irreg01_play_on",
        "option.custom",
        "option.discretionary",
    ]
    assert all("params" not in o for o in options)  # no label has a parameter


@pytest.mark.parametrize("language", ["es", "fr"])
def test_the_options_in_spanish_and_french(api: Api, language: str) -> None:
    options = _options(api, PATH, language)
    assert [o["label"] for o in options] == SAID[language]
    assert [o["decision"] for o in options] == DECISIONS
    assert [o["effects"] for o in options] == EFFECTS
    assert options[0]["label_id"] == "option.misdeal"


@pytest.mark.parametrize(("language", "word"), [("es", "Mazo viciado"), ("fr", "Paquet faussé")])
def test_DECK_01_options_say_the_room_s_words(api: Api, language: str, word: str) -> None:
    """Every option of a rule is rendered: none is left in English."""
    english = _options(api, "/v1/rulings/options?rule_id=DECK-01", "en")
    said = _options(api, "/v1/rulings/options?rule_id=DECK-01", language)
    assert said[0]["label"].startswith(word)
    assert [o["decision"] for o in said] == ["void_refund", "stands", "custom", "discretionary"]
    assert all(s["label"] != e["label"] for s, e in zip(said, english, strict=True))
