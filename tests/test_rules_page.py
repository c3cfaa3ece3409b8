"""The rules page (``/rules``): the player's part (docs/playing.md) first, then the complete rule book.

A refusal in a lesson links to a section of the player's part; every rule word of ``game.refusals`` has
one, and it lies above the rule book. The rule book's own checks (its anchors, its shipped copy) are in
tests/test_lessons.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from chromium import launch_or_skip
from starlette.testclient import TestClient
from test_refusals import rule_words
from test_serve_browser import DESKTOP, PHONE, expect, playwright_api, running_server

from scorpion_solver.serve import Config, create_app
from scorpion_solver.serve.games import GAMES, OWN_RULES, RULE_SECTIONS, rule_section
from scorpion_solver.serve.rules_page import SHIPPED_PAGES, render_rules, slug

ROOT = Path(__file__).resolve().parents[1]
PLAYING = ROOT / "docs" / "playing.md"


@pytest.fixture
def page_html(tmp_path) -> str:
    with TestClient(create_app(Config(db=tmp_path / "games.sqlite3")), base_url="http://127.0.0.1") as client:
        r = client.get("/rules")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    return r.text


def rule_sections() -> dict[str, str]:
    """serve/games.py's RULE_SECTIONS: rule word -> the id its refusal links to (the server sends it)."""
    return dict(RULE_SECTIONS)


def test_the_shipped_players_part_is_docs_playing_md():
    assert (SHIPPED_PAGES / "playing.md").read_text(encoding="utf-8") == PLAYING.read_text(encoding="utf-8"), (
        "the package's copy is stale: cp docs/playing.md scorpion_solver/serve/pages/playing.md"
    )


def test_the_players_part_comes_first_then_the_rule_book(page_html):
    playing = PLAYING.read_text(encoding="utf-8")
    assert render_rules(playing) in page_html
    first = page_html.index('id="how-to-play-scorpion"')
    note = page_html.index('id="the-complete-rule-book"')
    book = page_html.index('id="the-rules-of-scorpion-as-scorpion-solver-plays-them"')
    assert first < note < book
    headings = re.findall(r"^#+ (.+)$", playing, flags=re.M)
    assert len(headings) == 15  # the general part, then each relative's own (Double Scorpion the last)
    for heading in headings:
        assert page_html.index(f'id="{slug(heading)}"') < note, heading
    # its link to the rule book is plain text on the page (the server does not serve docs/), as in the rule book
    assert "<span>docs/rules.md</span>" in page_html


def test_every_refusal_links_to_a_section_of_the_players_part(page_html):
    sections = rule_sections()
    assert set(sections) == rule_words()
    note = page_html.index('id="the-complete-rule-book"')
    for rule, section in sections.items():
        assert 0 <= page_html.find(f'id="{section}"') < note, (rule, section)


@pytest.fixture(scope="module")
def browser():
    yield from launch_or_skip(playwright_api.sync_playwright)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_refusals_rule_link_opens_the_players_section(browser, tmp_path, size):
    """In Chromium: /rules#empty-columns scrolls to the player's words on empty columns, and the page fits."""
    with running_server(tmp_path / "games.sqlite3") as base:
        context = browser.new_context(viewport={"width": size[0], "height": size[1]}, base_url=base)
        page = context.new_page()
        page.goto("/rules")
        expect(page.locator("main h1").first).to_have_text("How to play Scorpion")
        assert page.locator("main h1").first.bounding_box()["y"] < size[1]
        page.goto("/rules#empty-columns")
        heading = page.locator('[id="empty-columns"]')
        expect(heading).to_be_in_viewport()
        expect(heading).to_have_text("Empty columns")
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        context.close()


def test_each_game_has_its_part_and_its_own_rules_link_there(page_html):
    """Every game the server offers names a section of the player's part (above the rule book); a refusal of a
    rule the game changes links to that part, any other to the general section."""
    note = page_html.index('id="the-complete-rule-book"')
    for mode, game in GAMES.items():
        assert 0 <= page_html.find(f'id="{game.section}"') < note, mode
        for rule in rule_words():
            expected = game.section if rule in OWN_RULES.get(mode, ()) else RULE_SECTIONS[rule]
            assert rule_section(rule, mode) == expected
    assert (
        rule_section("space-leftmost", "wasp") == "wasp" and rule_section("space-leftmost", "clear") == "empty-columns"
    )
