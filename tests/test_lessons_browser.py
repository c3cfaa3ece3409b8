"""Learn to play, as a newcomer does it: headless Chromium (Playwright) against ``scorpion serve``.

From the start page's "Learn to play" through the four lessons, by clicking and by keyboard, with one
wrong move in each (the page must show the server's sentence for it: ``game.refusals`` of the lesson's
position), a reload in the middle of a lesson, and the fifth step: an easy winnable full game. Every
expectation comes from the lesson data and the engine; the waits are Playwright's ``expect``.
The servers, the browser and the player's helpers are tests/test_serve_browser.py's.
"""

from __future__ import annotations

import re

import pytest
from chromium import launch_or_skip
from test_lessons import LINES, WRONG, WRONG_RULE
from test_serve_browser import (
    CORNER,
    DESKTOP,
    PHONE,
    SOLVER_WAIT,
    card,
    click_move,
    column,
    expect,
    focused,
    keys_to,
    playwright_api,
    running_server,
)

from scorpion_solver.game.engine import parse_move
from scorpion_solver.game.refusals import refusal
from scorpion_solver.serve.lessons import lessons

GRADES_WAIT = 120_000  # ms: the first graded pick reads the committed results (seconds; more on a loaded machine)


@pytest.fixture(scope="module")
def browser():
    yield from launch_or_skip(playwright_api.sync_playwright)


@pytest.fixture
def fresh(browser, tmp_path):
    """A page on a server of its own (a new database: no lesson done yet)."""
    with running_server(tmp_path / "games.sqlite3") as base:
        context = browser.new_context(viewport={"width": DESKTOP[0], "height": DESKTOP[1]}, base_url=base)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        yield page
        context.close()
        assert errors == [], errors  # no script error on any page


def expected_refusal(number: int) -> str:
    """The server's sentence as the page shows it: card codes as a player reads them (3D as 3\u2666, TC as 10\u2663)."""
    lesson = lessons()[number - 1]
    sentence = refusal(lesson.start, parse_move(WRONG[number]), lesson.rules).sentence
    symbols = {"C": "\u2663", "S": "\u2660", "H": "\u2665", "D": "\u2666"}
    return re.sub(r"\b([A2-9TJQK])([CSHD])\b", lambda m: ("10" if m[1] == "T" else m[1]) + symbols[m[2]], sentence)


def check_lesson_shown(page, number: int) -> None:
    """The lesson's title, its first step in the live region, its cards marked and named, every card named."""
    lesson = lessons()[number - 1]
    expect(page).to_have_url(re.compile(f"/learn/{number}$"))
    expect(page.locator("#lesson-title")).to_have_text(f"Lesson {number}: {lesson.title}")
    expect(page.locator("#lesson-say")).to_have_text(lesson.steps[0].say)
    expect(page.locator("#lesson-say")).to_have_attribute("aria-live", "polite")
    expect(page.locator("#lesson-try")).to_have_text(lesson.invite)
    expect(page.locator("#tail-reason")).to_have_text("")  # no "the tail is dealt" where none was dealt
    marked = [c for c in lesson.steps[0].highlight if c != "tail"]
    expect(page.locator("#board .card.lesson-mark")).to_have_count(len(marked))
    for code in marked:
        expect(page.locator(f'#board .card.lesson-mark[data-card="{code}"]')).to_have_attribute(
            "aria-label", re.compile(r"this lesson's card$")
        )
    labels = page.evaluate("[...document.querySelectorAll('#board .card')].map(e => e.getAttribute('aria-label'))")
    on_table = sum(len(col) for col in lesson.start.columns)
    assert len(labels) == on_table and all(re.match(r"\w+ of \w+, column \d", label) for label in labels), labels


def check_refused(page, number: int) -> None:
    """The page shows the server's sentence for the wrong move, links the rule, and the lesson did not move."""
    why = page.locator("#lesson-why")
    expect(why).to_be_visible()
    expect(why).to_contain_text("Not allowed: " + expected_refusal(number))
    expect(why).to_have_attribute("data-rule", WRONG_RULE[number])
    expect(why.locator("a")).to_have_attribute("href", re.compile(r"^/rules#"))
    expect(page.locator("body")).to_have_attribute("data-ply", "0")


def click_wrong_move(page, number: int) -> None:
    """The lesson's wrong move with two clicks (the card, then the column), and the page's answer to it."""
    leader, columns = WRONG[number].split(":")
    source, target = columns.split(">")
    card(page, leader, int(source)).click(position=CORNER)
    column(page, int(target)).click()
    check_refused(page, number)


def finish(page, number: int) -> None:
    lesson = lessons()[number - 1]
    expect(page.locator("#banner")).to_have_text(f"Lesson {number} done!")
    expect(page.locator("#lesson-say")).to_have_text(lesson.done)
    expect(page.locator("body")).to_have_attribute("data-status", "won" if number == 4 else "done")


def test_a_newcomer_clicks_through_the_four_lessons_and_lands_in_an_easy_full_game(fresh):
    page = fresh
    page.goto("/")
    expect(page.locator("#learn h2")).to_have_text("Learn to play")
    expect(page.locator("#learn-list li.new")).to_have_count(5)  # four lessons not yet done, and the full game
    page.get_by_role("link", name="Start: lesson 1").click()
    for lesson in lessons():
        n = lesson.number
        check_lesson_shown(page, n)
        click_wrong_move(page, n)
        for ply, move in enumerate(LINES[n].split(), start=1):
            click_move(page, move, ply)
            if n == 4 and ply == 2:  # a reload in the middle of a lesson continues it
                page.reload()
                expect(page.locator("body")).to_have_attribute("data-ply", "2")
                expect(page.locator("#lesson-say")).to_have_text(lesson.steps[2].say)
                expect(page.locator("#lesson-steps li.met")).to_have_count(2)
        finish(page, n)
        if n < 4:
            page.get_by_role("link", name=f"Next: lesson {n + 1}").click()
    page.get_by_role("button", name="Now a full game").click()
    expect(page).to_have_url(re.compile(r"/game/[^/]+$"), timeout=GRADES_WAIT)
    expect(page.locator("#game-title")).to_contain_text("(easy)")
    expect(page.locator("body")).to_have_attribute("data-ply", "0")
    page.goto("/")
    expect(page.locator("#learn-list li.done")).to_have_count(4)
    expect(page.locator("#learn-go")).to_have_text("All four lessons done: play a full game below")


def tab_to_board(page) -> None:
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('#board')"):
            return
    raise AssertionError("Tab never reached the board")


def index_of(page, code: str, col: int) -> int:
    return page.evaluate(f"window.scorpionGame.state().view.columns[{col}].findIndex(s => s.card === '{code}')")


def top_of(page, col: int) -> int:
    return page.evaluate(f"window.scorpionGame.state().view.columns[{col}].length - 1")


def key_move(page, move: str) -> None:
    """One move by keyboard only: arrows to the card, Enter, arrows to the column's top, Enter."""
    if move == "tail":
        page.locator("#tail").focus()
        page.keyboard.press("Enter")
        return
    leader, columns = move.split(":")
    source, target = (int(c) - 1 for c in columns.split(">"))
    if not page.evaluate("!!document.activeElement.closest('#board')"):
        tab_to_board(page)
    keys_to(page, source, index_of(page, leader, source))
    page.keyboard.press("Enter")
    expect(page.locator("body")).to_have_attribute("data-picked", leader)
    keys_to(page, target, top_of(page, target))
    assert focused(page)[0] == target
    page.keyboard.press("Enter")


def test_the_four_lessons_by_keyboard_only_with_a_wrong_move_each(fresh):
    page = fresh
    for lesson in lessons():
        n = lesson.number
        page.goto(f"/learn/{n}")
        check_lesson_shown(page, n)
        tab_to_board(page)
        key_move(page, WRONG[n])
        check_refused(page, n)
        for ply, move in enumerate(LINES[n].split(), start=1):
            key_move(page, move)
            expect(page.locator("body")).to_have_attribute("data-ply", str(ply))
        finish(page, n)
    page.goto("/")
    expect(page.locator("#learn-list li.done")).to_have_count(4)


def test_undo_and_restart_buttons_inside_a_lesson(fresh):
    page = fresh
    page.goto("/learn/4")
    check_lesson_shown(page, 4)
    for ply, move in enumerate(LINES[4].split()[:2], start=1):
        click_move(page, move, ply)
    expect(page.locator("#tail")).to_be_hidden()  # dealt: once
    expect(page.locator("#tail-reason")).to_have_text("the tail is dealt")
    page.locator("#hint").click()  # the fair hint says why its top move helps, naming it as the list does
    head = page.locator("#hint-head")
    expect(head).to_contain_text(re.compile(r"Why .+: it "), timeout=SOLVER_WAIT)
    best = page.locator("#hint-list li.best .mv").inner_text()
    assert f"Why {best}: it " in head.inner_text() and re.fullmatch(r"\S+ \d\u2192\d|tail", best), best
    assert not re.search(r"\b[A2-9TJQK][CSHD]\b", head.inner_text())  # no card in the engine's notation
    page.locator("#undo").click()
    expect(page.locator("body")).to_have_attribute("data-ply", "1")
    expect(page.locator("#tail")).to_have_class(re.compile("lesson-mark"))  # the step is the tail again
    expect(page.locator("#lesson-say")).to_have_text(lessons()[3].steps[1].say)
    page.once("dialog", lambda dialog: dialog.accept())  # a restart may ask first
    page.locator("#restart").click()
    expect(page.locator("body")).to_have_attribute("data-ply", "0")
    expect(page.locator("#lesson-say")).to_have_text(lessons()[3].steps[0].say)


@pytest.mark.parametrize("size, name", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_screenshots_of_each_lesson_at_phone_and_desktop_widths(browser, tmp_path, size, name):
    """Each lesson after its wrong move: the instruction, the marked cards and the server's sentence."""
    import os
    from pathlib import Path

    named = os.environ.get("SCORPION_SCREENSHOTS")
    folder = Path(named) if named else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    with running_server(tmp_path / "games.sqlite3") as base:
        context = browser.new_context(viewport={"width": size[0], "height": size[1]}, base_url=base)
        page = context.new_page()
        for lesson in lessons():
            n = lesson.number
            page.goto(f"/learn/{n}")
            check_lesson_shown(page, n)
            # the lesson's cards are on the first screen, under the instruction (no scrolling to find them)
            bottoms = page.evaluate(
                "[...document.querySelectorAll('#board .card.lesson-mark')].map(c => c.getBoundingClientRect().bottom)"
            )
            assert bottoms and max(bottoms) <= size[1], (n, bottoms)
            assert page.locator("#lesson-say").bounding_box()["y"] < size[1]
            about = page.locator("#lesson-about")
            if size == PHONE:  # the intro is one tap away on a phone
                expect(page.locator("#lesson-intro")).to_be_hidden()
                about.locator("summary").click()
            expect(page.locator("#lesson-intro")).to_have_text(lesson.intro)
            steps = f" (step 1 of {len(lesson.steps)})" if len(lesson.steps) > 1 else ""
            expect(about.locator("summary")).to_have_text("About this lesson" + steps)
            click_wrong_move(page, n)
            assert page.evaluate("document.documentElement.scrollWidth") <= size[0]  # fits the width
            path = folder / f"serve-lesson{n}-{name}.png"
            page.screenshot(path=str(path), full_page=True)
            png = path.read_bytes()
            assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") == size[0]
        page.goto("/rules")
        expect(page.locator('[id="1-building"]')).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        context.close()


def test_the_rules_page_prints_without_buttons_in_black_on_white(fresh):
    page = fresh
    page.goto("/rules")
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    expect(page.locator(".page-links")).to_be_hidden()
    colours = page.evaluate(
        "[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color,"
        " getComputedStyle(document.querySelector('.rule-book pre')).backgroundColor]"
    )
    assert colours == ["rgb(255, 255, 255)", "rgb(0, 0, 0)", "rgb(255, 255, 255)"]


def test_a_lesson_prints_its_cards_in_black_on_white_without_buttons(fresh):
    page = fresh
    page.goto("/learn/1")
    check_lesson_shown(page, 1)
    page.emulate_media(media="print")
    expect(page.locator("#hint")).to_be_hidden()
    expect(page.locator("#undo")).to_be_hidden()
    inks = page.evaluate(
        """[...document.querySelectorAll('#board .card')].map(c => [getComputedStyle(c).backgroundColor,
             getComputedStyle(c.querySelector('.corner')).color])"""
    )
    assert len(inks) == 26 and set(map(tuple, inks)) == {("rgb(255, 255, 255)", "rgb(0, 0, 0)")}
    assert page.evaluate("getComputedStyle(document.getElementById('table')).backgroundImage") == "none"


def test_the_lesson_shows_even_when_its_script_arrives_after_the_board(fresh):
    """lesson.js loaded after the board was drawn (a slow network) still shows the lesson and marks its cards."""
    page = fresh

    def slow(route):
        page.wait_for_timeout(800)  # the state's answer and the board's first drawing come first
        route.continue_()

    page.route("**/static/lesson.js", slow)
    page.goto("/learn/2")
    check_lesson_shown(page, 2)


def test_the_full_game_pick_says_it_is_under_way_as_a_status_then_a_refusal_as_an_error(fresh):
    """While the server picks the easy deal the note is a status, not styled as an error; a refusal then is one."""
    held = []
    fresh.route(
        "**/api/games", lambda route: held.append(route) if route.request.method == "POST" else route.continue_()
    )
    fresh.goto("/")
    fresh.locator("#learn-full-game").click()
    note = fresh.locator("#learn-full-game + span")
    expect(note).to_have_text("finding an easy deal\u2026")
    expect(note).to_have_attribute("class", "pending")
    expect(note).to_have_attribute("role", "status")
    assert note.evaluate("e => getComputedStyle(e).color") == "rgb(68, 68, 68)"
    expect(fresh.locator("#learn-full-game")).to_be_disabled()
    assert len(held) == 1
    held[0].fulfill(status=503, content_type="application/json", body='{"error": "the grades are still loading"}')
    expect(note).to_have_text("the grades are still loading Play any deal instead")
    expect(note).to_have_attribute("class", "error")
    expect(note).to_have_attribute("role", "alert")
    assert note.evaluate("e => getComputedStyle(e).color") == "rgb(138, 0, 24)"
    expect(note.get_by_role("link", name="Play any deal instead")).to_have_attribute("href", "/?random=any&mode=clear")
    expect(fresh.locator("#learn-full-game")).to_be_enabled()
