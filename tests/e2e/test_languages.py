"""The pages' language in a browser: the chooser of the top bar switches the page, the
choice is remembered on this device (cookie and localStorage) across pages and a cleared
cookie, and the page's scripts speak it too (their catalog, /i18n/<locale>.json)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from selenium.webdriver.support.ui import Select

from e2e.conftest import FIVE_CARD_DRAW, LANDSCAPE, PORTRAIT, TOP_BAR, Console, Page, set_viewport


@pytest.fixture
def forgets_language(page: Page) -> Iterator[Page]:
    """The browser is shared by the session's tests: leave no language chosen behind."""
    yield page
    page.driver.get(f"{page.service.base}/healthz")
    page.driver.delete_all_cookies()
    page.driver.execute_script("window.localStorage.clear()")


def _lang(page: Page) -> str:
    return str(page.driver.find_element("tag name", "html").get_attribute("lang"))


def test_the_chooser_switches_and_remembers_the_language(
    forgets_language: Page, console: Console
) -> None:
    page = forgets_language
    page.driver.get(f"{page.service.base}/admin")
    assert _lang(page) == "en"  # headless chromium asks for en-US
    Select(page.by_id("lang-select")).select_by_value("fr")
    page.until(lambda: _lang(page) == "fr", "the page reloaded in French")
    assert "Jeton d'accès" in page.driver.find_element("id", "login-form").text

    page.open("admin", "admin")
    assert page.by_id("lang-select").get_attribute("value") == "fr"
    page.driver.find_element("css selector", "#create-form button[type=submit]").click()
    # the script's own words, from the French catalog
    error = page.until(
        lambda: page.by_id("error-table_id").is_displayed() and page.text("error-table_id"), ""
    )
    assert error == "Obligatoire."
    assert "Vérifiez le formulaire" in page.banner().text
    hint = page.text("stakes-hint")
    assert hint.startswith("Limite fixe") and "grosse blinde" in hint

    page.driver.get(f"{page.service.base}/audit")  # another page: the same language
    assert _lang(page) == "fr"
    page.driver.delete_cookie("lang")  # cleared: localStorage puts it back
    page.driver.get(f"{page.service.base}/audit")
    page.until(lambda: _lang(page) == "fr" and page.driver.get_cookie("lang"), "French again")
    assert page.driver.execute_script("return localStorage.getItem('dealerassist.lang')") == "fr"

    Select(page.by_id("lang-select")).select_by_value("es")
    page.until(lambda: _lang(page) == "es", "the page reloaded in Spanish")
    assert "Verificar el registro de auditoría" in page.driver.page_source


def test_the_top_bar_of_the_floor_audit_and_admin_pages_takes_one_line_or_two(
    forgets_language: Page,
) -> None:
    """Signed in, in each language: at 1024x768 an English bar is one line; every bar is two
    lines at most, at 1024x768 and 768x1024, and no taller than two lines' worth. With the
    room pages' roomier bar a Spanish or French one took three lines in portrait (179 px of
    the 1024) and an English one two at 1024 (137 px, the language chooser alone on the
    second)."""
    page = forgets_language
    page.service.call("POST", "/v1/tables", "admin", {"table_id": "L9", **FIVE_CARD_DRAW})
    seen = {}
    for name, who in (("floor", "floor"), ("audit", "auditor"), ("admin", "admin")):
        for lang in ("en", "es", "fr"):
            page.driver.get(f"{page.service.base}/healthz")
            page.driver.execute_script("localStorage.clear(); sessionStorage.clear()")
            page.driver.add_cookie({"name": "lang", "value": lang})
            page.open(name, who, "L9" if name == "floor" else None)
            assert _lang(page) == lang
            for size in (LANDSCAPE, PORTRAIT):
                set_viewport(page.driver, size)
                seen[name, lang, size] = page.driver.execute_script(TOP_BAR + "return topBar;")
            set_viewport(page.driver, None)
    wrong = {
        where: bar
        for where, bar in seen.items()
        if bar["lines"] > (1 if where[1:] == ("en", LANDSCAPE) else 2) or bar["bar"] > bar["two"]
    }
    assert not wrong, wrong
