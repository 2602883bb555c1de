"""The pages' language in a browser: the chooser of the top bar switches the page, the
choice is remembered on this device (cookie and localStorage) across pages and a cleared
cookie, and the page's scripts speak it too (their catalog, /i18n/<locale>.json)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from selenium.webdriver.support.ui import Select

from e2e.conftest import Console, Page


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
