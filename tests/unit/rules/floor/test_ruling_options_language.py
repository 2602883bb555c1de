"""The floor's ruling options (``rules/floor/ruling_options.py``) say their labels as
messages (``rules/model/messages/options.py``): one message ID per distinct label, its
English the label byte for byte, and every one of them in Spanish and French."""

from __future__ import annotations

import pytest

from dealerassist.api.language import words_for
from dealerassist.rules.floor.ruling_options import ALWAYS, GENERIC, OPTIONS, Option
from dealerassist.rules.model.messages import floor
from dealerassist.rules.model.said import render, render_json


def _every_option() -> list[Option]:
    return [*ALWAYS, *GENERIC, *(option for options in OPTIONS.values() for option in options)]


def test_one_message_id_per_distinct_label() -> None:
    by_label: dict[str, set[str]] = {}
    for option in _every_option():
        assert option.said.message.id.startswith("option.")
        assert option.label == option.said.message.english
        by_label.setdefault(option.label, set()).add(option.said.message.id)
    assert all(len(ids) == 1 for ids in by_label.values())
    assert len({ids.pop() for ids in by_label.values()}) == len(by_label)


def test_to_dict_answers_the_label_its_id_and_only_the_params_it_has() -> None:
    misdeal = OPTIONS["IRREG-01"][0].to_dict()
    assert misdeal == {
        "decision": "misdeal",
        "label": "Misdeal: every chip back, redeal with the same button",
        "label_id": "option.misdeal",
        "effects": ["misdeal"],
    }
    assert render_json({"id": misdeal["label_id"]}, words_for("en")) == misdeal["label"]
    with_params = Option("kill", floor.KILL(seat=3), ("kill_hand",)).to_dict()
    assert with_params["label"] == "Kill seat 3's hand"
    assert with_params["params"] == {"seat": 3}


@pytest.mark.parametrize("locale", ["es", "fr"])
def test_every_label_is_translated(locale: str) -> None:
    words = words_for(locale)
    untranslated = [o.label for o in _every_option() if render(o.said, words) == o.label]
    assert untranslated == []
    assert render(OPTIONS["SHOW-11"][1].said, words) in (
        "Retener el bote mientras vigilancia lo revisa",
        "Retenir le pot pendant la vérification de la surveillance",
    )
