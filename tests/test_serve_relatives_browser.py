"""Issue 52 in Chromium: every relative the server offers is chosen on the start page, played to its end at
a phone's and a desktop's size, and helped by the fair hint; a refused move in a game links to its rule.

The screenshots (``SCORPION_SCREENSHOTS=docs`` writes them where docs/serve.md shows them) are of each game
at both sizes, a few moves in, with the fair hint on the board.
"""

from __future__ import annotations

import re

import pytest
from test_serve_browser import (
    CORNER,
    DESKTOP,
    PHONE,
    SOLVER_WAIT,
    browser,  # noqa: F401 (a fixture)
    card,
    card_name,
    click_move,
    column,
    drawn,
    expect,
    focused,
    keys_to,
    leading_card,
    seen_columns,
    server,  # noqa: F401 (a fixture)
    shots,  # noqa: F401 (a fixture)
    solver_line,
)

from scorpion_solver.game.cards import card_text
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import lead_index, parse_move, play
from scorpion_solver.game.rules import get_rules
from scorpion_solver.serve.games import GAMES

RELATIVES = ("scorpion2", "wasp", "goodsol", "mice", "double", "double-dealt")
DEALS = {"scorpion2": 5, "wasp": 5, "goodsol": 5, "mice": 4, "double": 1, "double-dealt": 2}  # won in each
# Double Scorpion: a column this long is checked (and shot) when the line first makes one, and the longest
# column of the line (50 cards in deal 1, 52 in all-dealt deal 2) is checked too
LONG = 20

# Per face-up card on the board: whether the browser finds the card itself at the middle of its corner once
# the corner is scrolled into view (what a person sees there), and the corner's type size.
CORNERS = """() => [...document.querySelectorAll('#board .card.face')].map(card => {
  const corner = card.querySelector('.corner');
  corner.scrollIntoView({block: 'center'});
  const c = corner.getBoundingClientRect();
  const hit = document.elementFromPoint((c.left + c.right) / 2, (c.top + c.bottom) / 2);
  return {card: card.dataset.card, text: corner.textContent, seen: !!hit && hit.closest('.card') === card,
          font: parseFloat(getComputedStyle(corner).fontSize)};
})"""


def assert_corners_readable(page) -> None:
    """Every face-up card's rank and suit in sight, at a readable size (the squeeze of long columns)."""
    for corner in page.evaluate(CORNERS):
        assert corner["seen"], f"{corner['card']}'s corner is covered"
        assert corner["font"] >= 9, corner  # px
    page.evaluate("window.scrollTo(0, 0)")


DEAL = 5


def longest_column(number: int, rules, line: list[str]) -> int:
    """The most cards a column holds along ``line`` from deal ``number`` (the engine's count)."""
    position, most = deal(number, rules), 0
    for move in line:
        position = play(position, parse_move(move), rules)
        most = max(most, *(len(c) for c in position.columns))
    return most


def play_move(page, move: str, ply: int) -> None:
    """``click_move``, and a reserve card's move (``AD:r>4``): the card in the reserve, then the column."""
    if ":r>" not in move:
        click_move(page, move, ply)
        return
    leader, target = move.split(":r>")
    page.locator(f'#reserve-cards .card[data-card="{leader}"]').click()
    expect(page.locator("body")).to_have_attribute("data-picked", leader)
    column(page, int(target)).click()
    expect(page.locator("body")).to_have_attribute("data-ply", str(ply))


@pytest.fixture
def sized(browser, server, request):  # noqa: F811
    size = request.param
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, base_url=server)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page, size
    context.close()
    assert errors == [], errors


@pytest.mark.parametrize("sized", [PHONE, DESKTOP], ids=["phone", "desktop"], indirect=True)
@pytest.mark.parametrize("mode", RELATIVES)
def test_a_relative_chosen_on_the_start_page_is_played_to_a_win_with_a_fair_hint(sized, shots, mode):  # noqa: F811
    page, size = sized
    game, rules = GAMES[mode], get_rules(mode)
    page.goto("/")
    choice = page.get_by_role("radio", name=game.name, exact=True)
    expect(choice).to_be_visible()
    expect(page.locator(f"#differs-{mode}")).to_have_text(game.differs)  # its line on how it differs
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    label = "phone" if size == PHONE else "desktop"
    choice.check()
    grades = page.locator("button[data-random]:not([data-random='any'])")
    for k in range(3):  # every game has graded deals; a game without would turn its buttons off, with a note
        expect(grades.nth(k)).to_be_enabled() if game.graded else expect(grades.nth(k)).to_be_disabled()
    expect(page.locator("#grades-note")).to_be_hidden() if game.graded else expect(
        page.locator("#grades-note")
    ).to_contain_text("no graded deals")
    if mode == RELATIVES[0]:  # the start page with its choice of game, once a size
        page.screenshot(path=str(shots / f"serve-start-{label}.png"), full_page=True)
    number = DEALS[mode]
    page.locator("#deal").fill(str(number))
    page.locator("#open").click()
    expect(page.locator("#mode")).to_have_text(game.name)
    expect(page.locator("body")).to_have_attribute("data-ply", "0")
    assert drawn(page) == seen_columns(deal(number, rules))  # the game's own layout (Easy Scorpion: column 4 up)
    start = deal(number, rules)
    reserve = page.locator("#reserve-cards .card")
    expect(reserve).to_have_count(len(start.reserves))  # Three Blind Mice's two, shown face up
    area = expect(page.locator("#reserve-area"))
    area.to_be_visible() if start.reserves else area.to_be_hidden()  # no empty "Reserve" in another game
    if start.reserves:
        assert reserve.evaluate_all("cards => cards.map(c => c.dataset.card)") == [card_text(c) for c in start.reserves]
        expect(reserve.first).to_have_attribute(
            "aria-label", f"{card_name(card_text(start.reserves[0]))}, reserve card"
        )
    line = solver_line(number, rules)
    played = 10 if start.reserves else 5  # Three Blind Mice: past its first reserve card (AD:r>4, the 9th)
    for ply, move in enumerate(line[:played], start=1):
        play_move(page, move, ply)
    if start.reserves:  # one played, never refilled; a card carried from a column is not put on the other
        expect(reserve).to_have_count(len(start.reserves) - 1)
        expect(page.locator("#reserve-count")).to_have_text("1 of 2 left (never refilled)")
        top = page.evaluate("scorpionGame.state().view.columns[0].slice(-1)[0].card")
        card(page, top, 1).click(position={"x": 10, "y": 6})
        reserve.first.click()
        expect(page.locator("#announce")).to_contain_text("nothing is put on a reserve card")
        assert page.locator("#announce a.rule-link").get_attribute("href") == "/rules#three-blind-mice"
        expect(page.locator("body")).to_have_attribute("data-ply", str(played))
    page.keyboard.press("h")  # the fair hint, from what the player sees
    expect(page.locator("#hint-list li").first).to_be_visible(timeout=SOLVER_WAIT)
    expect(page.locator("#hint-head")).to_contain_text("Why ")
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    assert_corners_readable(page)
    page.screenshot(path=str(shots / f"serve-{mode}-{label}.png"), full_page=True)
    longest = longest_column(number, rules, line)
    checked: set[int] = set()
    for ply, move in enumerate(line[played:], start=played + 1):
        play_move(page, move, ply)
        if rules.decks == 2:
            length = max(len(c) for c in drawn(page))
            for mark in sorted({LONG, longest} - checked):
                if length >= mark:  # the long columns of the game: still every corner in sight, at both sizes
                    checked.add(mark)
                    assert_corners_readable(page)
                    if mark == LONG:
                        page.screenshot(path=str(shots / f"serve-{mode}-long-{label}.png"), full_page=True)
    assert checked == ({LONG, longest} if rules.decks == 2 else set())
    expect(page.locator("#banner")).to_contain_text("You won!")
    expect(page.locator("#announce")).to_contain_text("You won")
    page.goto("/stats")
    expect(page.locator(f'#chosen tbody tr[data-mode="{mode}"] td').first).to_have_text(game.name)


def test_a_refused_drop_in_wasp_and_in_clear_runs_links_to_the_rule_it_breaks(browser, server):  # noqa: F811
    """A card dropped on a column that is no legal place: the server says why, and the page links the rule's
    section of the rules page (Clear runs: only a King enters an empty column; Wasp: any card may)."""
    context = browser.new_context(viewport={"width": DESKTOP[0], "height": DESKTOP[1]}, base_url=server)
    page = context.new_page()
    page.goto(f"/?deal={DEAL}&mode=clear")
    expect(page.locator("body")).to_have_attribute("data-ply", "0")
    state = page.evaluate("scorpionGame.state()")
    top = state["view"]["columns"][0][-1]["card"]  # column 1's top card onto column 2's: not its suit, or no rank
    legal = {m["move"] for m in state["legal"]}
    assert f"{top}:1>2" not in legal
    card(page, top, 1).click(position={"x": 10, "y": 6})
    column(page, 2).click()
    link = page.locator("#announce a.rule-link")
    expect(link).to_be_visible()
    assert link.get_attribute("href") == "/rules#moving-cards"
    expect(page.locator("body")).to_have_attribute("data-ply", "0")  # refused: nothing moved
    link.click()
    expect(page.locator('[id="moving-cards"]')).to_be_in_viewport()
    context.close()


@pytest.mark.parametrize("mode", ["double", "double-dealt"])
def test_a_double_scorpion_game_plays_by_drag_and_by_keyboard_with_undo_and_redo(browser, server, mode):  # noqa: F811
    """The board's other ways to move, in the two-deck games: a drag, then the keyboard only (arrow keys to
    the card, Enter, arrow keys to the column, Enter), then the undo and redo keys; the board drawn is the
    engine's view after each."""
    context = browser.new_context(viewport={"width": DESKTOP[0], "height": DESKTOP[1]}, base_url=server)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    rules, number = get_rules(mode), DEALS[mode]
    line = solver_line(number, rules)[:2]
    page.goto(f"/?deal={number}&mode={mode}")
    expect(page.locator("body")).to_have_attribute("data-ply", "0")
    positions = [deal(number, rules)]
    for move in line:
        positions.append(play(positions[-1], parse_move(move), rules))
    leader, columns = line[0].split(":")
    source, target = (int(c) for c in columns.split(">"))
    leading_card(page, leader, source).drag_to(
        page.locator(f'#board .column[data-column="{target}"]'), source_position=CORNER
    )
    expect(page.locator("body")).to_have_attribute("data-ply", "1")
    assert drawn(page) == seen_columns(positions[1])
    for _ in range(20):  # Tab until the board has the focus
        page.keyboard.press("Tab")
        if focused(page)[0] >= 0:
            break
    move = parse_move(line[1])
    keys_to(page, move.src, lead_index(positions[1], move, rules.decks))
    page.keyboard.press("Enter")
    expect(page.locator("body")).to_have_attribute("data-picked", line[1][:2])
    expect(page.locator(f'#board .column[data-column="{move.dst + 1}"]')).to_have_class(re.compile(r"\bdest\b"))
    keys_to(page, move.dst, len(positions[1].columns[move.dst]) - 1)
    page.keyboard.press("Enter")
    expect(page.locator("body")).to_have_attribute("data-ply", "2")
    assert drawn(page) == seen_columns(positions[2])
    page.keyboard.press("u")
    expect(page.locator("body")).to_have_attribute("data-ply", "1")
    assert drawn(page) == seen_columns(positions[1])
    page.keyboard.press("Control+z")
    expect(page.locator("body")).to_have_attribute("data-ply", "0")
    assert drawn(page) == seen_columns(positions[0])
    page.keyboard.press("r")
    expect(page.locator("body")).to_have_attribute("data-ply", "1")
    page.keyboard.press("Control+y")
    expect(page.locator("body")).to_have_attribute("data-ply", "2")
    assert drawn(page) == seen_columns(positions[2])
    context.close()
    assert errors == [], errors
