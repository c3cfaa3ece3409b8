"""Game pages (``scorpion show``): the data the engine computes, the HTML file, and the page in a real browser.

The first half checks the page data and the command without a browser:
every position on a page is the reference engine's, each move's effect
(group, flips, sweeps, freezes) is exact, the file loads nothing from
anywhere, and hand-made data for play without peeking (shares with
intervals, unknown cards) passes the schema.

The second half opens pages in headless Chromium (the Debian package
``chromium``) driven by Playwright, presses keys as a keyboard would,
and reads what the page drew: after End the won deal shows no card left (Clear
runs), the board matches the engine's position at every step, and the page
fits a phone's width. It takes screenshots at a phone and a desktop width.
Without Chromium it fails in CI (``CI`` set) and is skipped elsewhere.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from chromium import launch_or_skip
from click.testing import CliRunner

from scorpion_solver.analysis.hints import hint
from scorpion_solver.cli import main
from scorpion_solver.game.cards import card_text
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import legal_moves, move_text, parse_moves, replay_positions
from scorpion_solver.game.position import Position, position_problems
from scorpion_solver.game.rules import get_rules
from scorpion_solver.game.view import Observation
from scorpion_solver.game.view_text import parse_view
from scorpion_solver.page import Choice, choices_view, page_data, page_problems, render_html
from scorpion_solver.page.data import card_words, face_down_cards, position_view
from scorpion_solver.play.fair import fair_hint
from scorpion_solver.solver.result import DEFAULT_MEMORY_MB, Limits
from scorpion_solver.solver.search import solve

CLEAR = get_rules("clear")

# Two suits left: spades (2S face down) and hearts, with the tail still to deal.
# 4S:4>2 flips 2S; the tail deal completes the spades run in column 2 (swept at once)
# and AH:3>1 completes the hearts in column 1: won.
ENDGAME = """\
mode: clear
col1: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H
col2: KS QS JS TS 9S 8S 7S 6S 5S
col3:
col4: 2S* 4S 3S
col5:
col6:
col7:
tail: 2H AS AH
"""
ENDGAME_LINE = "4S:4>2 2S:4>2 tail AH:3>1"

# Deal 5 is won in both modes (a 52-move solution); deal 1 is lost in Clear runs (dead at the root).
WON_DEAL, LOST_DEAL, WASP_DEAL = 5, 1, 7

# ENDGAME as a player sees it: the face-down card of column 4 and the tail unknown (2S 2H AS AH unseen).
ENDGAME_VIEW = ENDGAME.replace("2S*", "??*").replace("tail: 2H AS AH", "tail: ?? ?? ??")
# Small budgets keep the fair pages fast: a few layouts, few nodes per solve.
FAIR_ARGS = ("--fair", "--samples", "3", "--nodes", "20000")
FAIR_LIMITS = Limits(nodes=20_000, memory_mb=DEFAULT_MEMORY_MB)


def embedded(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)[1])


def show(tmp_path: Path, *args: str, name: str = "page.html") -> tuple[dict, Path]:
    out = tmp_path / name
    result = CliRunner().invoke(main, ["show", *args, "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"wrote {out}")
    return embedded(out.read_text()), out


def cards(view: dict) -> list[list[str]]:
    return view["columns"]


def engine_columns(position) -> list[list[str]]:
    return [[card_text(c) for c in col] for col in position.columns]


@pytest.fixture(scope="module")
def endgame_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("positions") / "endgame.txt"
    path.write_text(ENDGAME)
    return path


# --------------------------------------------------------------------------
# the page data


def test_solution_page_steps_are_the_engines_positions(tmp_path):
    data, _ = show(tmp_path, str(WON_DEAL), "--solution")
    assert data["deal"] == WON_DEAL and data["rules"]["name"] == "clear"
    assert data["verdict"]["status"] == "won"
    assert data["command"] == f"scorpion show {WON_DEAL} --solution --html {tmp_path / 'page.html'}"
    steps = data["line"]["steps"]
    moves = parse_moves(" ".join(step["move"]["text"] for step in steps[1:]))
    assert len(moves) == 52
    positions = replay_positions(deal(WON_DEAL, CLEAR), moves, CLEAR)
    for step, position in zip(steps, positions, strict=True):
        assert cards(step["position"]) == engine_columns(position)
        assert step["position"]["down"] == list(position.hidden)
        assert step["position"]["tail"] == [card_text(c) for c in position.tail]
    assert steps[-1]["position"] == {
        "columns": [[]] * 7,
        "down": [0] * 7,
        "tail": [],
        "swept": ["C", "S", "H", "D"],
        "frozen": [],
        "state": "won",
    }
    assert [s["position"]["state"] for s in steps[:-1]] == ["in play"] * 52
    assert page_problems(data) == []


def test_move_effects_name_the_group_flips_and_sweeps(tmp_path, endgame_file):
    data, _ = show(tmp_path, str(endgame_file), "--moves", ENDGAME_LINE)
    effects = [step["move"] for step in data["line"]["steps"][1:]]
    assert [{k: e[k] for k in ("text", "group", "src", "dst", "flips", "sweeps", "frozen")} for e in effects] == [
        {"text": "4S:4>2", "group": ["4S", "3S"], "src": 3, "dst": [1], "flips": [[3, 0]], "sweeps": [], "frozen": []},
        {"text": "2S:4>2", "group": ["2S"], "src": 3, "dst": [1], "flips": [], "sweeps": [], "frozen": []},
        {
            "text": "tail",
            "group": ["2H", "AS", "AH"],
            "src": None,
            "dst": [0, 1, 2],
            "flips": [],
            "sweeps": [[1, "S"]],
            "frozen": [],
        },
        {"text": "AH:3>1", "group": ["AH"], "src": 2, "dst": [0], "flips": [], "sweeps": [[0, "H"]], "frozen": []},
    ]
    assert [e["description"] for e in effects] == [
        "4\u2660 3\u2660 from column 4 onto column 2; 2\u2660 turned face up in column 4",
        "2\u2660 from column 4 onto column 2",
        "the tail is dealt: 2\u2665 A\u2660 A\u2665 onto columns 1, 2, 3; the spades run swept from column 2",
        "A\u2665 from column 3 onto column 1; the hearts run swept from column 1",
    ]
    assert data["title"] == "Scorpion endgame.txt (clear)" and data["deal"] is None
    final = data["line"]["steps"][-1]["position"]
    assert final["state"] == "won" and final["swept"] == ["C", "S", "H", "D"]


def test_classic_marks_the_frozen_runs(tmp_path):
    data, _ = show(tmp_path, str(WON_DEAL), "--mode", "classic", "--solution")
    steps = data["line"]["steps"]
    final = steps[-1]["position"]
    assert final["state"] == "won" and final["swept"] == []
    assert sorted(suit for _, _, suit in final["frozen"]) == ["C", "D", "H", "S"]
    for column, start, suit in final["frozen"]:
        run = final["columns"][column][start : start + 13]
        assert run == [r + suit for r in "KQJT98765432A"]
    assert sorted(s for step in steps[1:] for s in step["move"]["frozen"]) == ["C", "D", "H", "S"]
    assert "the hearts run frozen" in steps[-1]["move"]["description"]


def test_hint_page_lists_every_legal_move_with_the_hints_verdict(tmp_path):
    data, _ = show(tmp_path, str(WON_DEAL), "--hint")
    choices = data["choices"]
    start = deal(WON_DEAL, CLEAR)
    report = hint(start, CLEAR, Limits(nodes=5_000_000))
    assert choices["kind"] == "verdict" and choices["at"] == 0
    assert [(o["move"], o["verdict"]) for o in choices["options"]] == [(v.text, v.verdict) for v in report.moves]
    assert sorted(o["move"] for o in choices["options"]) == sorted(move_text(m) for m in legal_moves(start, CLEAR))
    tail = next(o for o in choices["options"] if o["move"] == "tail")
    assert tail["verdict"] == "lost" and tail["position"]["tail"] == []
    assert tail["position"]["columns"][0][-1] == card_text(start.tail[0])


def hint_after_two_moves(tmp_path: Path, endgame_file: Path) -> tuple[dict, Path]:
    return show(tmp_path, str(endgame_file), "--moves", "4S:4>2 2S:4>2", "--hint")


def test_hint_after_moves_judges_the_position_reached(tmp_path, endgame_file):
    data, _ = hint_after_two_moves(tmp_path, endgame_file)
    assert len(data["line"]["steps"]) == 3 and data["choices"]["at"] == 2
    options = {o["move"]: o for o in data["choices"]["options"]}
    assert options["tail"]["verdict"] == "winnable" and options["tail"]["detail"] == "a win in 2 moves"


def test_hint_page_opens_at_the_judged_position_and_tries_a_move(browser, tmp_path, endgame_file):
    data, path = hint_after_two_moves(tmp_path, endgame_file)
    tab = open_page(browser, path)
    assert tab.evaluate(STATE)["step"] == 2
    index = [o["move"] for o in data["choices"]["options"]].index("tail")
    tab.click(f'#choices li button[data-option="{index}"]')
    state = tab.evaluate(STATE)
    assert state["choice"] == "tail" and state["sweepsDrawn"] == 1 and state["swept"] == ["C", "S", "D"]
    assert "keeps it winnable: a win in 2 moves" in state["caption"]
    tab.key("ArrowLeft")
    assert tab.evaluate(STATE)["choice"] is None and tab.evaluate(STATE)["step"] == 2
    tab.key("ArrowLeft")
    assert tab.evaluate(STATE)["step"] == 1


def test_lost_deal_page_states_the_proof(tmp_path):
    data, _ = show(tmp_path, str(LOST_DEAL), "--solution")
    assert data["verdict"]["status"] == "lost"
    assert "no sequence of moves wins" in data["verdict"]["text"]
    assert len(data["line"]["steps"]) == 1


def test_fair_choices_carry_a_share_and_unknown_cards_are_masked():
    """Hand-made data in the form play without peeking will give: shares with intervals, unseen cards as ??."""
    start = deal(WON_DEAL, CLEAR)
    moves = parse_moves("9H:6>1 5H:1>3")
    data = page_data(start, CLEAR, moves, deal=WON_DEAL, command="hand-made", mask=face_down_cards)
    reached = replay_positions(start, moves, CLEAR)[-1]
    legal = legal_moves(reached, CLEAR)
    shares = [
        Choice(m, share=round(0.9 / (i + 1), 3), interval=(0.5 / (i + 1), 0.95 / (i + 1)), samples=200)
        for i, m in enumerate(legal)
    ]
    data["choices"] = choices_view(reached, CLEAR, shares, 2, title="Fair hint", mask=face_down_cards)
    assert page_problems(data) == []
    first = data["line"]["steps"][0]["position"]
    assert first["tail"] == ["??"] * 3
    assert [col[:3] for col in first["columns"][:4]] == [["??"] * 3] * 4
    assert all("??" not in col[3:] for col in first["columns"])
    after = data["line"]["steps"][2]["position"]  # 5H:1>3 turned 3C face up in column 1
    assert after["columns"][0] == ["??", "??", "3C"]
    option = data["choices"]["options"][0]
    assert data["choices"]["kind"] == "share" and option["share"] == 0.9 and option["interval"] == [0.5, 0.95]
    assert "verdict" not in option

    broken = json.loads(json.dumps(data))
    broken["choices"]["options"][0]["share"] = 1.2
    broken["choices"]["options"][1]["interval"] = [0.9, 0.95]
    broken["line"]["steps"][0]["position"]["columns"][4][0] = "XX"
    problems = page_problems(broken)
    assert any("share 1.2" in p for p in problems)
    assert any("does not hold the share" in p for p in problems)
    assert any("'XX' is not a card" in p for p in problems)
    with pytest.raises(ValueError, match="page data"):
        render_html(broken)
    with pytest.raises(ValueError, match="all verdicts or all shares"):
        choices_view(reached, CLEAR, [shares[0], Choice(legal[1], verdict="lost")], 2, title="mixed")


def all_positions(data: dict) -> list[dict]:
    return [step["position"] for step in data["line"]["steps"]] + [o["position"] for o in data["choices"]["options"]]


def test_fair_page_ranks_the_moves_as_hint_fair_and_holds_no_hidden_card(tmp_path):
    data, path = show(tmp_path, str(WON_DEAL), *FAIR_ARGS)
    start = deal(WON_DEAL, CLEAR)
    report = fair_hint(Observation.of(start), CLEAR, 3, 0, FAIR_LIMITS)
    choices = data["choices"]
    assert choices["kind"] == "share" and choices["at"] == 0 and page_problems(data) == []
    assert [(o["move"], o["share"], o["interval"], o["samples"]) for o in choices["options"]] == [
        (m.text, m.share, list(m.interval), 3) for m in report.moves
    ]
    assert sorted(o["move"] for o in choices["options"]) == sorted(move_text(m) for m in legal_moves(start, CLEAR))
    assert data["verdict"]["text"].startswith(f"winnable in {report.wins} of 3 sampled layouts of the 15 unseen")
    assert "--fair --samples 3" in data["command"]
    # What the player cannot see is nowhere in the file: every face-down and tail slot is unknown
    # (also after a move that turns one up), and no hidden card is named or described.
    for view in all_positions(data):
        assert all(card == "??" for col, down in zip(view["columns"], view["down"]) for card in col[:down])
        assert all(card == "??" for card in view["tail"])
    html = path.read_text()
    hidden = face_down_cards(start)
    assert len(hidden) == 15
    for card in hidden:
        assert f'"{card_text(card)}"' not in html, card_text(card)
    words = [o["effect"]["description"] for o in choices["options"]]
    assert not any(card_words(card_text(c)) in text for c in hidden for text in words)
    flip = next(o for o in choices["options"] if o["move"] == "5H:1>3")  # turns up a face-down card of column 1
    column = flip["position"]["columns"][0]
    assert column[-1] == "??" and flip["effect"]["flips"] == [[0, len(column) - 1]]
    assert "an unseen card turned face up in column 1" in flip["effect"]["description"]
    assert next(o for o in choices["options"] if o["move"] == "tail")["effect"]["group"] == ["??"] * 3


def test_fair_page_of_a_view_file_and_moves_that_reveal_nothing(tmp_path):
    path = tmp_path / "view.txt"
    path.write_text(ENDGAME_VIEW)
    data, _ = show(tmp_path, str(path), "--moves", "KS:2>3", *FAIR_ARGS)
    view, _ = parse_view(ENDGAME_VIEW)
    reached = view.after(parse_moves("KS:2>3")[0], CLEAR)
    report = fair_hint(reached, CLEAR, 3, 0, FAIR_LIMITS)
    assert data["choices"]["at"] == 1 and len(data["line"]["steps"]) == 2
    assert [o["move"] for o in data["choices"]["options"]] == [m.text for m in report.moves]
    assert data["line"]["steps"][1]["position"]["columns"][2][0] == "KS"
    for position in all_positions(data):
        assert position["columns"][3][0] == "??" and position["tail"] in (["??"] * 3, [])
    refused = CliRunner().invoke(main, ["show", str(path), "--fair", "--moves", "4S:4>2", "--html", "x.html"])
    assert refused.exit_code == 2 and refused.output.startswith("error: move 1: 4S:4>2 turns up an unseen card")


def test_the_page_loads_nothing_and_its_data_cannot_close_the_script(tmp_path):
    data = page_data(deal(WON_DEAL, CLEAR), CLEAR, command="scorpion show 5 </script><script>alert(1)</script>")
    html = render_html(data)
    for outside in ("http://", "https://", "src=", "<link", "@import", "url(", "@font-face"):
        assert outside not in html
    assert html.count("</script>") == 2  # the data block and the page's script, nothing injected
    assert embedded(html) == data
    assert "\u2665" in html or "\\u2665" in html  # suit symbols are text


def test_position_view_writes_masked_cards_as_unknown():
    start = deal(WON_DEAL, CLEAR)
    view = position_view(start, CLEAR, unknown=face_down_cards(start))
    assert sum(card == "??" for col in view["columns"] for card in col) == 12
    assert view["tail"] == ["??"] * 3


@pytest.mark.parametrize(
    "args, message",
    [
        (["5", "--solution", "--hint"], "give one of them"),
        (["5", "--moves", "KS:1>2"], "move 1: KS:1>2 is not legal here"),
        (["5", "--moves", "nonsense"], "'nonsense' is not a move"),
        (["0"], "deal number"),
        (["5", "--moves", "9H:6>1", "--moves-file", "x"], "not both"),
        (["5", "--fair", "--hint"], "--fair and --hint"),
        (["5", "--fair", "--solution"], "--fair and --solution"),
        (["5", "--samples", "3"], "give them with --fair"),
        (["no-such-file.txt"], "no-such-file.txt"),
    ],
)
def test_user_mistakes_are_one_error_line(tmp_path, args, message):
    result = CliRunner().invoke(main, ["show", *args, "--html", str(tmp_path / "x.html")])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], result.output
    assert not (tmp_path / "x.html").exists()


def test_html_is_required_and_unwritable_paths_are_reported(tmp_path):
    missing = CliRunner().invoke(main, ["show", "5"])
    assert missing.exit_code == 2 and "--html" in missing.output
    blocked = tmp_path / "file"
    blocked.write_text("")
    result = CliRunner().invoke(main, ["show", "5", "--html", str(blocked / "page.html")])
    assert result.exit_code == 2 and result.output.startswith("error: cannot write")


def test_the_hardest_deals_notebook_links_a_sound_page_for_every_deal_it_names():
    notebooks = Path(__file__).resolve().parents[1] / "notebooks"
    cells = json.loads((notebooks / "hardest_and_dead_deals.ipynb").read_text())["cells"]
    tables = "".join("".join(o.get("data", {}).get("text/markdown", "")) for c in cells for o in c.get("outputs", []))
    rows = re.findall(r"^\| \d+ \| (\d+) \| (\w+) \|.*?\| \[page\]\(([^)]+)\) \|", tables, re.M)
    assert len(rows) >= 30, "the hardest-deals tables link no pages"
    for number, status, link in rows:
        mode = re.fullmatch(rf"pages/deal-{number}-(\w+)\.html", link)[1]
        data = embedded((notebooks / link).read_text())
        assert page_problems(data) == [] and data["deal"] == int(number) and data["rules"]["name"] == mode
        assert data["verdict"]["status"] == status
        final = data["line"]["steps"][-1]["position"]
        assert (final["state"] == "won") == (status == "won"), link


# --------------------------------------------------------------------------
# in a real browser

PHONE, DESKTOP = (390, 844), (1280, 900)
STATE = "scorpionPage.state()"

# The cards the page drew, column by column, and the tail: read from the DOM, not from the data.
DRAWN = """(() => ({
  columns: [...document.querySelectorAll('#board .column')].map(
    c => [...c.querySelectorAll('.card')].map(e => e.dataset.card)),
  down: [...document.querySelectorAll('#board .column')].map(c => c.querySelectorAll('.card.back').length),
  tail: [...document.querySelectorAll('#tail .card')].map(e => e.dataset.card),
}))()"""


def test_ci_installs_chromium():
    """CI runs on a fresh machine: .ci/run installs Chromium when it is missing, before the tests."""
    lines = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text().splitlines()
    install = next(i for i, line in enumerate(lines) if "apt-get install -y chromium" in line)
    assert lines[install].startswith("command -v chromium >/dev/null || {") and "apt-get update &&" in lines[install]
    assert install < next(i for i, line in enumerate(lines) if "pytest" in line)


class Tab:
    """One page in headless Chromium, driven by Playwright: keys, clicks, script, screenshots.

    It records what the page asked for and every script or console error, which the tests check."""

    def __init__(self, browser, url: str, width: int, height: int, mobile: bool):
        self.context = browser.new_context(
            viewport={"width": width, "height": height}, device_scale_factor=1, is_mobile=mobile
        )
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda message: self.errors.append(message.text) if message.type == "error" else None)
        self.page.goto(url)  # returns once the load event has fired

    def key(self, key: str, times: int = 1) -> None:
        for _ in range(times):
            self.page.keyboard.press(key)

    def click(self, selector: str) -> None:
        self.page.click(selector)

    def evaluate(self, expression: str):
        return self.page.evaluate(expression)

    def screenshot(self, path: Path) -> Path:
        self.page.screenshot(path=str(path), full_page=True)
        return Path(path)

    def requested_urls(self) -> list[str]:
        return list(self.requests)

    def console_errors(self) -> list[str]:
        return list(self.errors)


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) of a PNG, from its header."""
    head = Path(path).read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (Debian's) under Playwright; in CI a missing one fails, elsewhere it skips."""
    yield from launch_or_skip(None)


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    """Where screenshots go: SCORPION_SCREENSHOTS if set (to look at them), else a temporary folder."""
    named = os.environ.get("SCORPION_SCREENSHOTS")
    folder = Path(named) if named else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_page(browser, path: Path, size=DESKTOP):
    tab = Tab(browser, path.resolve().as_uri(), *size, mobile=size[0] < 600)
    assert tab.evaluate("typeof scorpionPage") == "object", tab.console_errors()
    return tab


def check_clean(tab, path: Path) -> None:
    assert tab.console_errors() == []
    assert set(tab.requested_urls()) <= {path.resolve().as_uri()}


def photograph(tab, shots: Path, name: str, width: int) -> None:
    png = tab.screenshot(shots / f"{name}.png")
    size = png_size(png)
    assert size[0] == width and size[1] > 300
    assert png.stat().st_size > 10_000  # a drawn page, not a blank one


def test_won_deal_steps_to_the_won_position_with_the_keys(browser, shots, tmp_path):
    data, path = show(tmp_path, str(WON_DEAL), "--solution", name="deal5.html")
    steps = data["line"]["steps"]
    last = len(steps) - 1
    tab = open_page(browser, path)
    state = tab.evaluate(STATE)
    assert state["step"] == 0 and state["cardsDrawn"] == 49 and state["tail"] == 3
    photograph(tab, shots, "deal5-start-desktop", DESKTOP[0])

    tab.key("End")
    state = tab.evaluate(STATE)
    assert state["step"] == last and state["state"] == "won"
    assert state["cardsDrawn"] == 0 and state["tail"] == 0 and state["swept"] == ["C", "S", "H", "D"]
    assert "won" in tab.evaluate("document.getElementById('state-banner').textContent")
    photograph(tab, shots, "deal5-won-desktop", DESKTOP[0])

    tab.key("Home")
    assert tab.evaluate(STATE)["step"] == 0
    tab.key("ArrowRight", times=last)
    assert tab.evaluate(STATE) == state
    tab.key("ArrowRight")  # past the end: stays
    assert tab.evaluate(STATE)["step"] == last
    tab.key("ArrowLeft")
    state = tab.evaluate(STATE)
    assert state["step"] == last - 1 and state["move"] == steps[-2]["move"]["text"]
    assert state["cardsDrawn"] == sum(len(col) for col in steps[-2]["position"]["columns"])

    tab.key("Home")
    tab.key("ArrowRight", times=2)  # 5H:1>3 carries 11 cards and turns 3C face up
    state = tab.evaluate(STATE)
    group = steps[2]["move"]["group"]
    assert state["move"] == "5H:1>3" and state["movedDrawn"] == len(group) == state["ghostsDrawn"]
    assert state["flipsDrawn"] == 1 and "3\u2663 turned face up in column 1" in state["caption"]
    moved = tab.evaluate("[...document.querySelectorAll('#board .card.moved')].map(e => e.dataset.card)")
    assert moved == group
    assert tab.evaluate("document.querySelector('#board .card.flipped').dataset.card") == "3C"
    check_clean(tab, path)


def test_the_page_draws_the_engines_position_at_every_step(browser, tmp_path):
    data, path = show(tmp_path, str(WON_DEAL), "--solution")
    tab = open_page(browser, path)
    for k, step in enumerate(data["line"]["steps"]):
        tab.evaluate(f"scorpionPage.go({k})")
        drawn = tab.evaluate(DRAWN)
        assert drawn["columns"] == step["position"]["columns"], f"step {k}"
        assert drawn["down"] == step["position"]["down"], f"step {k}"
        assert drawn["tail"] == step["position"]["tail"], f"step {k}"


def test_buttons_and_the_move_list_step_too(browser, tmp_path):
    data, path = show(tmp_path, str(WON_DEAL), "--solution")
    tab = open_page(browser, path, PHONE)
    tab.click("#next")
    tab.click("#next")
    assert tab.evaluate(STATE)["step"] == 2
    tab.click("#last")
    assert tab.evaluate(STATE)["cardsDrawn"] == 0
    tab.click("#prev")
    assert tab.evaluate(STATE)["step"] == len(data["line"]["steps"]) - 2
    tab.click('#moves button[data-step="21"]')
    assert tab.evaluate(STATE)["move"] == data["line"]["steps"][21]["move"]["text"]
    tab.click("#first")
    assert tab.evaluate(STATE)["step"] == 0
    assert tab.evaluate("location.hash") == "#step=0"


def test_phone_and_desktop_widths_fit(browser, shots, tmp_path):
    _, path = show(tmp_path, str(WON_DEAL), "--solution")
    line = solve(deal(WON_DEAL, get_rules("clear")), get_rules("clear")).solution.split()
    sweep = line.index("8S:2>6") + 1  # the move that sweeps the spades (after the line's detour cut)
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        tab = open_page(browser, path, size)
        tab.key("ArrowRight", times=sweep)
        assert tab.evaluate(STATE)["sweepsDrawn"] == 1
        assert tab.evaluate("document.documentElement.scrollWidth") <= size[0]
        board = tab.evaluate("document.getElementById('board').getBoundingClientRect().right")
        assert board <= size[0]
        photograph(tab, shots, f"deal5-step47-{name}", size[0])


def test_lost_deal_hint_lists_losing_moves_and_shows_each(browser, shots, tmp_path):
    data, path = show(tmp_path, str(LOST_DEAL), "--hint", name="deal1-hint.html")
    assert data["verdict"]["status"] == "lost"
    options = data["choices"]["options"]
    assert options and {o["verdict"] for o in options} == {"lost"}
    tab = open_page(browser, path, PHONE)
    assert tab.evaluate("document.querySelectorAll('#choices li button').length") == len(options)
    tab.click('#choices li button[data-option="1"]')
    state = tab.evaluate(STATE)
    assert state["choice"] == options[1]["move"] and state["move"] == options[1]["move"]
    assert "loses" in state["caption"]
    assert tab.evaluate(DRAWN)["columns"] == options[1]["position"]["columns"]
    photograph(tab, shots, "deal1-hint-phone", PHONE[0])
    tab.key("ArrowLeft")
    state = tab.evaluate(STATE)
    assert state["choice"] is None and state["step"] == 0
    check_clean(tab, path)


def test_wasp_deal_steps_to_its_win(browser, shots, tmp_path):
    data, path = show(tmp_path, str(WASP_DEAL), "--mode", "wasp", "--solution", name="wasp.html")
    assert data["rules"]["name"] == "wasp" and data["verdict"]["status"] == "won"
    tab = open_page(browser, path)
    assert tab.evaluate("document.getElementById('rules-name').textContent") == "wasp"
    assert f"scorpion show {WASP_DEAL} --mode wasp --solution" in tab.evaluate(
        "document.getElementById('command').textContent"
    )
    tab.key("End")
    state = tab.evaluate(STATE)
    assert state["state"] == "won" and state["cardsDrawn"] == 0 and state["step"] == len(data["line"]["steps"]) - 1
    photograph(tab, shots, "wasp-won-desktop", DESKTOP[0])


def test_hand_made_position_steps_through_flips_tail_and_sweeps(browser, shots, tmp_path, endgame_file):
    _, path = show(tmp_path, str(endgame_file), "--moves", ENDGAME_LINE, name="endgame.html")
    tab = open_page(browser, path, PHONE)
    tab.key("ArrowRight")
    assert tab.evaluate(STATE)["flipsDrawn"] == 1
    tab.key("ArrowRight", times=2)  # the tail deal sweeps the spades
    state = tab.evaluate(STATE)
    assert state["move"] == "tail" and state["sweepsDrawn"] == 1 and state["swept"] == ["C", "S", "D"]
    assert tab.evaluate("document.querySelectorAll('#tail .ghost').length") == 3
    photograph(tab, shots, "endgame-tail-phone", PHONE[0])
    tab.key("End")
    state = tab.evaluate(STATE)
    assert state["state"] == "won" and state["cardsDrawn"] == 0

    data, solved = show(tmp_path, str(endgame_file), "--solution", name="endgame-solved.html")
    tab = open_page(browser, solved)
    tab.key("End")
    state = tab.evaluate(STATE)
    assert state["state"] == "won" and state["cardsDrawn"] == 0 and state["step"] == len(data["line"]["steps"]) - 1


def test_fair_page_draws_shares_and_unknown_cards(browser, shots, tmp_path):
    start = deal(WON_DEAL, CLEAR)
    data = page_data(start, CLEAR, deal=WON_DEAL, command="hand-made fair data", mask=face_down_cards)
    legal = sorted(legal_moves(start, CLEAR), key=lambda m: move_text(m) != "5H:1>3")  # 5H:1>3 turns up 3C
    shares = [
        Choice(m, share=0.73 / (i + 1), interval=(0.61 / (i + 1), 0.83 / (i + 1)), samples=200)
        for i, m in enumerate(legal)
    ]
    data["choices"] = choices_view(start, CLEAR, shares, 0, title="Fair hint", mask=face_down_cards)
    path = tmp_path / "fair.html"
    path.write_text(render_html(data))
    tab = open_page(browser, path, PHONE)
    state = tab.evaluate(STATE)
    assert state["unknownDrawn"] == 15  # 12 face-down cards and the 3 of the tail
    assert tab.evaluate("document.querySelectorAll('#board .card.unknown .q').length") == 12
    tab.click('#choices li button[data-option="0"]')
    state = tab.evaluate(STATE)
    assert "73% of layouts keep it winnable (95%: 61%\u201383%, 200 samples)" in state["caption"]
    assert state["unknownDrawn"] == 14  # the move turned one unknown card face up
    photograph(tab, shots, "fair-phone", PHONE[0])
    check_clean(tab, path)


def test_fair_page_of_a_view_with_unknown_cards_in_the_browser(browser, shots, tmp_path):
    view_file = tmp_path / "view.txt"
    view_file.write_text(ENDGAME_VIEW)
    data, path = show(tmp_path, str(view_file), *FAIR_ARGS, name="fair-view.html")
    options = data["choices"]["options"]
    tab = open_page(browser, path, PHONE)
    assert tab.evaluate(STATE)["unknownDrawn"] == 4  # the face-down card of column 4 and the 3 of the tail
    assert tab.evaluate("document.querySelectorAll('#choices li button').length") == len(options)
    best = options[0]
    tab.click('#choices li button[data-option="0"]')
    state = tab.evaluate(STATE)
    assert state["choice"] == best["move"]
    assert f"{best['share']:.0%} of layouts keep it winnable" in state["caption"]
    assert tab.evaluate(DRAWN)["columns"] == best["position"]["columns"]
    photograph(tab, shots, "fair-view-phone", PHONE[0])
    tab.key("ArrowLeft")
    assert tab.evaluate(STATE)["choice"] is None
    check_clean(tab, path)


# A column of 20 face-up cards holding every rank (the J, Q and K twice), the rest spread over the table.
LONG_COLUMN = "KS QH JD TC 9S 8H 7D 6C 5S 4H 3D 2C AS KH QD JC TS 9H 8D 7C".split()

# Per card of column 1: its box, its corner's box and text, the corner's type size, and which card the
# browser finds at the middle of the corner (what a person sees there), once the corner is scrolled into view.
CORNERS = """(() => {
  const cards = [...document.querySelectorAll('#board .column')[0].querySelectorAll('.card')];
  return cards.map((card, k) => {
    const corner = card.querySelector('.corner');
    corner.scrollIntoView({block: 'center'});
    const box = card.getBoundingClientRect(), c = corner.getBoundingClientRect();
    const hit = document.elementFromPoint((c.left + c.right) / 2, (c.top + c.bottom) / 2);
    const next = cards[k + 1] ? cards[k + 1].getBoundingClientRect().top : null;
    return {card: card.dataset.card, text: corner.textContent, top: box.top, right: box.right,
            cornerTop: c.top, cornerBottom: c.bottom, cornerRight: c.right, nextTop: next,
            fontPx: parseFloat(getComputedStyle(corner).fontSize),
            seen: hit && hit.closest('.card') ? hit.closest('.card').dataset.card : null};
  });
})()"""


def long_column_position() -> Position:
    from scorpion_solver.game.cards import parse_card

    first = [parse_card(card)[0] for card in LONG_COLUMN]
    rest = [c for c in range(52) if c not in first]
    tail, rest = rest[:3], rest[3:]
    columns = [tuple(first)] + [tuple(rest[k::6]) for k in range(6)]
    return Position(columns=tuple(columns), hidden=(0,) * 7, tail=tuple(tail))


@pytest.mark.parametrize("size, name", [((1280, 900), "desktop"), (PHONE, "phone")])
def test_a_20_card_column_keeps_every_rank_readable(browser, shots, tmp_path, size, name):
    start = long_column_position()
    assert position_problems(start) == []
    path = tmp_path / "long-column.html"
    path.write_text(render_html(page_data(start, CLEAR, command="hand-made: a column of 20 cards")))
    tab = open_page(browser, path, size)
    drawn = tab.evaluate(CORNERS)
    assert [d["card"] for d in drawn] == LONG_COLUMN
    for d in drawn:
        rank = "10" if d["card"][0] == "T" else d["card"][0]
        assert d["text"].startswith(rank), d  # the corner names the rank
        assert d["seen"] == d["card"], f"{d['card']}'s corner is covered by {d['seen']}"
        assert d["cornerTop"] >= d["top"] and d["cornerRight"] <= d["right"] + 0.5, d
        assert d["nextTop"] is None or d["cornerBottom"] <= d["nextTop"] + 0.5, f"{d['card']}: the next card hides it"
        assert d["fontPx"] >= 12, d
    # the table fits the window's width, and its height too (it would scroll, not clip, past the floor size)
    tab.evaluate("window.scrollTo(0, 0)")
    assert tab.evaluate("document.documentElement.scrollWidth") <= size[0]
    bottom = tab.evaluate(
        "document.querySelectorAll('#board .column')[0].querySelector('.stack').getBoundingClientRect().bottom"
    )
    assert bottom <= tab.evaluate("document.getElementById('table').getBoundingClientRect().bottom")
    assert bottom <= size[1], "a 20-card column fits the window"
    photograph(tab, shots, f"long-column-{name}", size[0])
    check_clean(tab, path)
