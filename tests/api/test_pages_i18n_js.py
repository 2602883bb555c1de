"""The pages' scripts in the dealer's language, run by node: hand_words.js names every hand
as rules/cards/hand_words.py does in Spanish and French, read back from the view's English
name; api.js sends the page's locale as Accept-Language on every /v1 call."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from api.test_web import _node_json, _scripts
from dealerassist.rules.cards import hand_words
from dealerassist.rules.cards.cards import Rank


def _every_name() -> list[hand_words.HandName]:
    """Every key of hand_words with every rank (two ranks for the keys that name two)."""
    two = {"full_house", "two_pair", "low"}
    names = [hand_words.HandName("royal_flush", ())]
    for key in hand_words._TEMPLATES:
        if key == "royal_flush":
            continue
        if key in two:
            pairs = itertools.permutations(Rank, 2)
            names += [hand_words.HandName(key, pair) for pair in pairs]
        else:
            names += [hand_words.HandName(key, (rank,)) for rank in Rank]
    return names


def test_hand_words_js_names_every_hand_as_hand_words_does(tmp_path: Path) -> None:
    """For each key and ranks: the English name (the view's shown_as) becomes, in the
    script, hand_words' Spanish and French word for word ("brelan d'as", "escalera a la
    reina", "sept-cinq"); English stays as it came, and a name it cannot read too."""
    names = _every_name()
    english = [hand_words.words(name, "en") for name in names]
    got = _node_json(
        tmp_path,
        "hand_words.js",
        "handWords",
        f"{json.dumps([*english, 'no such hand'])}.map((n) => "
        "[handWords(n, 'en'), handWords(n, 'es'), handWords(n, 'fr')])",
    )
    wanted = [[hand_words.words(name, locale) for locale in ("en", "es", "fr")] for name in names]
    assert got == [*wanted, ["no such hand"] * 3]
    assert ["brelan d'as" in row for row in got].count(True) == 1


SETUP = """
globalThis.document = {
  documentElement: { lang: "fr" }, body: { dataset: { page: "tablet" } },
  getElementById: () => null, cookie: "",
};
const store = () => { const m = new Map(); return {
  getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)),
  removeItem: (k) => m.delete(k) }; };
globalThis.localStorage = store();
globalThis.sessionStorage = store();
globalThis.window = globalThis; // newKey: crypto.getRandomValues
globalThis.sent = [];
globalThis.fetch = async (url, init = {}) => {
  globalThis.sent.push({ url: String(url), headers: init.headers || {} });
  const catalog = String(url).startsWith("/i18n/");
  return new Response(JSON.stringify(catalog ? { messages: {} } : { version: 1 }), {
    status: 200, headers: { "Content-Type": "application/json" } });
};
"""


def test_api_js_sends_the_pages_language_on_every_v1_call(tmp_path: Path) -> None:
    """A page served in French (<html lang="fr">, whatever the browser's own header) says
    Accept-Language: fr on a GET and on a change; a caller's own header is kept."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed; api.js is not run")
    for path in _scripts():
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "setup.mjs").write_text(SETUP)
    (tmp_path / "run.mjs").write_text(
        'import "./setup.mjs";\nimport { call } from "./api.js";\n'
        'await call("table", { params: { table_id: "T1" } });\n'
        'await call("action", { params: { table_id: "T1" }, body: { seat: 1 }, version: 3 });\n'
        'const own = { "Accept-Language": "es" };\n'
        'await call("table", { params: { table_id: "T1" }, headers: own });\n'
        "console.log(JSON.stringify(globalThis.sent.filter((s) => s.url.startsWith('/v1'))));\n"
    )
    done = subprocess.run([node, "run.mjs"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    sent: list[dict[str, Any]] = json.loads(done.stdout)
    assert [s["url"] for s in sent] == ["/v1/tables/T1", "/v1/tables/T1/actions", "/v1/tables/T1"]
    assert [s["headers"]["Accept-Language"] for s in sent] == ["fr", "fr", "es"]
