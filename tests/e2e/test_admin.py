"""The admin page (/admin) in a browser: a table opened through the form, and bad input
shown next to its field (checked by the page, or refused by the API)."""

from __future__ import annotations

from selenium.webdriver.support.ui import Select

from e2e.conftest import Console, Page, Served, serious_accessibility_findings


def _submit(page: Page) -> None:
    page.driver.find_element("css selector", "#create-form button[type=submit]").click()


def _field_error(page: Page, field: str) -> str:
    """The error shown next to ``field``, once shown."""
    box = f"error-{field}"
    return str(page.until(lambda: page.by_id(box).is_displayed() and page.text(box), box))


def test_a_table_opened_through_the_form(page: Page, service: Served, console: Console) -> None:
    """A bad table ID is marked by the page before anything is sent; an unknown profile is
    refused by the API (400) and its message is shown next to the profile field; corrected,
    the form opens a 2-7 single draw no-limit table that the API serves as entered, and the
    link opens it on the tablet. axe-core finds nothing serious or critical (WCAG 2.2 AA)
    with the errors shown, nor once the table is open."""
    console.expect(400)
    page.open("admin", "admin")
    page.type("table_id", "bad id!")
    Select(page.by_id("variant")).select_by_value("deuce_to_seven_single_draw")
    Select(page.by_id("structure")).select_by_value("no_limit")
    visible = {
        label.get_attribute("data-stake-label")
        for label in page.css("[data-stake-label]")
        if label.is_displayed()
    }
    assert visible == {"small_blind", "big_blind", "min_bet", "ante"}  # no limit's stakes
    page.type("stake-small_blind", "1")
    page.type("stake-big_blind", "2")
    page.type("profile", "no-such-profile")
    _submit(page)
    assert _field_error(page, "table_id").startswith("Letters, digits")
    assert page.by_id("table_id").get_attribute("aria-invalid") == "true"
    assert "Check the form" in page.banner().text
    assert not page.by_id("error-profile").is_displayed()  # not sent: the API has not seen it

    page.type("table_id", "AD1")
    _submit(page)
    refused = _field_error(page, "profile")
    assert refused.startswith("no house-rule profile 'no-such-profile'; known:")
    assert "single-draw-27-no-limit" in refused
    assert page.by_id("profile").get_attribute("aria-invalid") == "true"
    assert not page.by_id("error-table_id").is_displayed()
    assert "(400)" in page.banner().text
    assert service.status("GET", "/v1/tables/AD1", "admin") == 404
    assert serious_accessibility_findings(page.driver) == []

    page.type("profile", "single-draw-27-no-limit")
    _submit(page)
    created = page.until(lambda: page.by_id("created").is_displayed() and page.text("created"), "")
    assert created.splitlines()[0] == "TABLE AD1 IS OPEN"  # h2: capitals by CSS
    facts = {
        row.find_element("css selector", "th").text: row.find_element("css selector", "td").text
        for row in page.css("#created tr")
    }
    assert (facts["Game"], facts["Structure"], facts["Seats"]) == (
        "2-7 single draw",
        "no limit",
        "6",
    )
    assert not page.by_id("error-profile").is_displayed()
    assert not page.by_id("problem").is_displayed()
    assert serious_accessibility_findings(page.driver) == []
    table = service.table("AD1")
    assert (table["variant"], table["structure"], table["profile"], table["max_seats"]) == (
        "deuce_to_seven_single_draw",
        "no_limit",
        "single-draw-27-no-limit",
        6,
    )
    assert (table["stakes"]["small_blind"], table["stakes"]["big_blind"]) == (1, 2)
    assert table["mode"] == "count" and table["version"] == 1

    page.driver.find_element("link text", "Open table AD1 on the tablet").click()
    page.until(lambda: page.by_id("login-table").is_displayed(), "the tablet's login")
    assert page.by_id("login-table").get_attribute("value") == "AD1"  # prefilled
