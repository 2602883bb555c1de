"""The pages' language (dealerassist/web/i18n.py): chosen per request from the device's
choice (``?lang=``, then the ``lang`` cookie) else ``Accept-Language`` (best of en, es, fr;
English by default); the scripts' catalog at ``GET /i18n/<locale>.json`` with an ETag; chips
written as the locale writes numbers."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from flask import Flask
from flask.testing import FlaskClient

from dealerassist.web import pages

STATIC = Path(pages.__file__).parent / "static"
TRANSLATIONS = Path(pages.__file__).parents[1] / "translations"


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def _lang(client: FlaskClient, path: str = "/admin", **headers: str) -> str:
    response = client.get(path, headers=headers)
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    return text.split('<html lang="', 1)[1].split('"', 1)[0]


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("es-MX,es;q=0.9,en;q=0.5", "es"),
        ("fr-CA, fr;q=0.8", "fr"),
        ("de-DE,fr;q=0.4,es;q=0.6", "es"),
        ("de-DE,ja", "en"),
        ("", "en"),
    ],
)
def test_accept_language_picks_the_best_of_three(
    client: FlaskClient, accept: str, expected: str
) -> None:
    assert _lang(client, **{"Accept-Language": accept}) == expected


def test_the_admin_page_speaks_spanish_and_french(client: FlaskClient) -> None:
    """The room's words: ciega grande / grosse blinde, and no English label left."""
    es = client.get("/admin", headers={"Accept-Language": "es"}).get_data(as_text=True)
    fr = client.get("/admin", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    en = client.get("/admin").get_data(as_text=True)
    assert "Ciega grande" in es and "Abrir la mesa" in es and "Big blind" not in es
    assert "Grosse blinde" in fr and "Ouvrir la table" in fr and "Big blind" not in fr
    assert "Big blind" in en and "Ciega grande" not in en


def test_the_audit_page_speaks_spanish_and_french(client: FlaskClient) -> None:
    es = client.get("/audit", headers={"Accept-Language": "es"}).get_data(as_text=True)
    fr = client.get("/audit", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "Repetición de la mano" in es and "Hand replay" not in es
    assert "Relecture de la main" in fr and "Hand replay" not in fr


def test_the_cookie_overrides_accept_language(client: FlaskClient) -> None:
    client.set_cookie("lang", "fr")
    assert _lang(client, **{"Accept-Language": "es"}) == "fr"
    client.set_cookie("lang", "xx")  # not a language served: the browser's then
    assert _lang(client, **{"Accept-Language": "es"}) == "es"


def test_the_query_parameter_wins_and_is_remembered(client: FlaskClient) -> None:
    client.set_cookie("lang", "fr")
    response = client.get("/audit?lang=es", headers={"Accept-Language": "fr"})
    assert '<html lang="es">' in response.get_data(as_text=True)
    assert "lang=es" in response.headers["Set-Cookie"]
    assert _lang(client, "/admin") == "es"  # the cookie now says es
    bad = client.get("/admin?lang=de")
    assert "Set-Cookie" not in bad.headers


def test_a_page_varies_on_its_language(client: FlaskClient) -> None:
    response = client.get("/admin", headers={"Accept-Language": "fr"})
    assert "Accept-Language" in response.vary and "Cookie" in response.vary
    assert response.headers["Content-Language"] == "fr"


def test_the_chooser_lists_each_language_with_the_current_one_selected(client: FlaskClient) -> None:
    text = client.get("/admin", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert 'id="lang-select"' in text
    spanish = '<option value="es" lang="es" aria-label="ES · Español" title="Español" selected>'
    assert spanish + "ES</option>" in text
    french = '<option value="fr" lang="fr" aria-label="FR · Français" title="Français">'
    assert french + "FR</option>" in text


@pytest.mark.parametrize(
    ("locale", "word"), [("es", "Mesa {table} abierta."), ("fr", "Table {table} ouverte.")]
)
def test_the_scripts_catalog(client: FlaskClient, locale: str, word: str) -> None:
    response = client.get(f"/i18n/{locale}.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    body = json.loads(response.data)
    assert body["locale"] == locale
    assert body["messages"]["Table {table} opened."] == word
    assert body["messages"]["big blind"] in ("ciega grande", "grosse blinde")
    etag = response.headers["ETag"]
    again = client.get(f"/i18n/{locale}.json", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""


def test_the_english_catalog_is_empty_and_an_unknown_locale_is_404(client: FlaskClient) -> None:
    assert json.loads(client.get("/i18n/en.json").data) == {"locale": "en", "messages": {}}
    assert client.get("/i18n/de.json").status_code == 404
    assert (
        client.get("/i18n/es.json").headers["ETag"] != client.get("/i18n/fr.json").headers["ETag"]
    )


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed; i18n.js is not run")
    return node


def test_t_fills_named_parameters_and_falls_back_to_english(tmp_path: Path) -> None:
    script = tmp_path / "t.mjs"
    script.write_text(
        f'import {{ t, format, useMessages }} from "{STATIC / "i18n.js"}";\n'
        'const out = [t("Table {table} opened.", { table: "T1" })];\n'
        'useMessages({ "Table {table} opened.": "Mesa {table} abierta." });\n'
        'out.push(t("Table {table} opened.", { table: "T1" }), t("Not in the catalog {x}", {}),'
        ' format("{{literal}} {n}", { n: 3 }));\n'
        "console.log(JSON.stringify(out));\n"
    )
    done = subprocess.run([_node(), str(script)], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [
        "Table T1 opened.",
        "Mesa T1 abierta.",
        "Not in the catalog {x}",
        "{literal} 3",
    ]


def test_chips_are_written_as_babel_writes_the_locale(tmp_path: Path) -> None:
    """The scripts' chips(n) (Intl) agrees with babel.numbers for each locale: 15,000 /
    15.000 / 15 000 (French: a narrow no-break space). Four digits: CLDR's minimum grouping
    of Spanish writes 1500 (Intl applies it, babel.numbers does not: checked apart)."""
    values = [0, 7, 15000, 1234567, 1500]
    script = tmp_path / "chips.mjs"
    script.write_text(
        f'import {{ chips }} from "{STATIC / "i18n.js"}";\n'
        f"const values = {json.dumps(values)};\n"
        'const rows = ["en", "es", "fr"].map((l) => values.map((v) => chips(v, l)));\n'
        "console.log(JSON.stringify(rows));\n"
    )
    done = subprocess.run([_node(), str(script)], capture_output=True, text=True, check=True)
    got = json.loads(done.stdout)
    for row, locale in zip(got, ("en", "es", "fr"), strict=True):
        assert row[:-1] == [format_decimal(v, locale=locale) for v in values[:-1]], locale
    assert [row[-1] for row in got] == ["1,500", "1500", "1\u202f500"]


class _Texts(HTMLParser):
    """The text nodes and the aria-label/title/placeholder values of a page, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("aria-label", "title", "placeholder") and value:
                self.texts.append(value.strip())

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.texts.append(data.strip())


def _texts(client: FlaskClient, path: str, lang: str) -> list[str]:
    parser = _Texts()
    parser.feed(client.get(f"{path}?lang={lang}").get_data(as_text=True))
    return parser.texts


@pytest.mark.parametrize("path", ["/admin", "/audit"])
@pytest.mark.parametrize("lang", ["es", "fr"])
def test_no_english_word_left_on_the_translated_pages(
    client: FlaskClient, path: str, lang: str
) -> None:
    """Every text of the page differs from the English page's, but the words that are the
    same in both languages (a translation equal to its msgid: "Ante", "Structure"), proper
    names (dealerassist, the other languages' own names and codes) and file formats. A string left
    out of _() in a template shows here."""
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale=lang)
    same = {entry.id for entry in catalog if entry.id and entry.id == entry.string}
    same |= {"dealerassist", "English", "Español", "Français", "EN", "ES", "FR"}
    same |= {"EN · English", "ES · Español", "FR · Français"}  # a language by code and name
    english, translated = _texts(client, path, "en"), _texts(client, path, lang)
    assert len(english) == len(translated)
    untranslated = [
        text
        for text, other in zip(english, translated, strict=True)
        if text == other
        and re.search("[A-Za-z]", text)
        and text.removesuffix(" — dealerassist") not in same
    ]
    assert untranslated == []
