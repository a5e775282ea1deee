"""The browser the reader's-view tests use: Debian's Chromium as Playwright starts it, with the address bar's
pop-ups turned off and every feature Playwright turns off still off."""

from __future__ import annotations

from .conftest import _PLAYWRIGHTS, DISABLED_FEATURES


def test_the_browser_keeps_playwrights_disabled_features_and_makes_no_omnibox_pages(browser: object) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto("chrome://version")
    started = page.inner_text("#command_line").split()
    switches = [a.split("=", 1)[1].split(",") for a in started if a.startswith("--disable-features=")]
    assert switches, started
    kept = set(switches[-1])  # (Chromium keeps the last of the switch)
    theirs = [name for name in _PLAYWRIGHTS if name]
    assert theirs, "Playwright's own disabled features were read"
    assert set(theirs) <= kept and set(DISABLED_FEATURES) <= kept, (theirs, kept)
    session = browser.new_browser_cdp_session()  # type: ignore[attr-defined]
    targets = session.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
    assert [t["url"] for t in targets if t["type"] == "browser_ui"] == [], targets
    assert any(t["type"] == "page" and t["url"].startswith("chrome://version") for t in targets), targets
    page.close()
