#!/usr/bin/env python3
"""Serve benchmark: move and fair-hint latency of ``scorpion serve`` over loopback, and its memory.

Starts ``scorpion serve`` in a subprocess on a free port of 127.0.0.1 with a
fresh database, validates it (deal 5 in Clear runs played with the solver's
line to the announced win), warms the solver up (compile time excluded), then
measures wall-clock latency as a client sees it (httpx, one connection per
client):

* **moves, one client**: the solver's line of deal 5 played ``--rounds`` times
  (restart between rounds), p50 and p95 of each move's round trip;
* **moves, N clients at once**: ``--clients`` threads, each its own game of
  deal 5, all playing the line at the same time; p50, p95 and the errors (any
  answer other than 200);
* **fair hint at K samples** on a mid-game view (deal 5 after ``--ply`` moves
  of the line), one client, ``--hints`` requests with different seeds;
* **fair hints, N clients at once**: one hint request from each client at the
  same time: how many were answered and how many the bounded pool refused
  (503, by design: 2 workers and a queue of 8);
* **server memory**: the server's peak resident set (VmHWM from /proc);
* **moves in every game** (``--parts games``): one client plays the solver's line of a won deal of each game
  the server offers (:data:`GAME_DEALS`), p50 and p95 of each move's round trip and of the app's time;
* **the page's cost of a move** (``--parts page``): headless Chromium (Playwright; Debian's ``chromium``)
  plays ``--page-moves`` moves of each game's line at 1280x800 and 390x844 and reads the renderer's own
  counters (the DevTools protocol's ``Performance.getMetrics``, thread CPU time): the task, script,
  layout and style time a move costs. The moves are played by a script in the page (:data:`PAGE_DRIVER`:
  a click on the card, a frame drawn, a click on the column's number, then the answer drawn), because
  Playwright's own clicks cost the renderer about as much as the page does (its actionability checks and
  DevTools commands: 17 ms of a move's 56 in Clear runs, measured). Those clicks are still timed on Clear
  runs and Double Scorpion at 1280x800, for the wall time from the first click until the page shows the
  move, and their renderer time with the DevTools commands' share beside it;
* **Double Scorpion's fair hint** (``--parts double-hint``): the fair hint the page asks (the game's own
  number of samples) on each two-deck game's line after 0, 15 and 40 moves, its wall time and answer, and
  meanwhile the round trips of another client's moves (deal 5's line in Clear runs, over and over): the
  server stays responsive while a long hint runs.

Each answer carries the time the app itself spent (its ``Server-Timing``
header), reported beside the round trip: the difference is the network, uvicorn
and the wait for the event loop (with many clients, and the clients themselves
running on the same cores).

Targets on a 2-core machine (issue 22): a move within 50 ms at p95, a fair hint
within 2 s at p95, zero errors in the concurrent move run. Everything is bounded
(``--max-seconds`` stops a part early and says so).

    python benchmarks/bench_serve.py                      # 3 rounds, 20 clients, 10 hints at K=30 after 8 moves
    python benchmarks/bench_serve.py --rounds 1 --clients 4 --hints 3 --quick
    python benchmarks/bench_serve.py --parts games,page --label after   # every game's moves and the page's cost
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import httpx  # noqa: E402
from common import machine_record, write_report  # noqa: E402

from scorpion_solver.game.deal import deal  # noqa: E402
from scorpion_solver.game.rules import get_rules  # noqa: E402
from scorpion_solver.serve.games import PLAYABLE  # noqa: E402
from scorpion_solver.solver.search import solve  # noqa: E402

# a deal the solver wins in each game (the browser tests play the same ones), whose line the games part plays
GAME_DEALS = {
    "clear": 5,
    "classic": 5,
    "scorpion2": 5,
    "wasp": 5,
    "goodsol": 5,
    "mice": 4,
    "double": 1,
    "double-dealt": 2,
}
PAGE_GAMES = ("clear", "double")  # played by Playwright's clicks too: one deck in seven columns, two in ten
PAGE_SIZE = (1280, 800)
PAGE_SIZES = ((1280, 800), (390, 844))  # desktop and phone, as the browser tests draw them
PARTS = ("latency", "games", "page", "double-hint")
DOUBLE_HINT_PLIES = (0, 15, 40)  # the positions of each two-deck game's line a fair hint is timed at
# the renderer's counters of a move (Performance.getMetrics, seconds): all its tasks, and of them its
# scripts, its layouts and its style recalculations
RENDERER_METRICS = (
    "TaskDuration",
    "ScriptDuration",
    "LayoutDuration",
    "RecalcStyleDuration",
    "DevToolsCommandDuration",
)
# Moves played inside the page, as a person's clicks reach it: the card (the reserve's, or a column's; 6C+ is
# the second face-up 6C of its column), a frame drawn with the pick shown, the column's number, then the move
# drawn (the body's data-ply, then a frame).
PAGE_DRIVER = """async (moves) => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const shown = (ply) => new Promise((done) => {
    if (document.body.dataset.ply === String(ply)) return done();
    const watch = new MutationObserver(() => {
      if (document.body.dataset.ply === String(ply)) { watch.disconnect(); done(); }
    });
    watch.observe(document.body, { attributes: true, attributeFilter: ["data-ply"] });
  });
  let ply = Number(document.body.dataset.ply);
  const walls = [];
  for (const move of moves) {
    const start = performance.now();
    ply += 1;
    if (move === "tail") document.getElementById("tail").click();
    else {
      const [leader, columns] = move.split(":");
      const [source, target] = columns.split(">");
      const from = source === "r" ? "#reserve-cards" : `#board .column[data-column="${source}"]`;
      const cards = document.querySelectorAll(`${from} .card[data-card="${leader.slice(0, 2)}"]`);
      (leader.endsWith("+") ? cards[1] : cards[0]).click();
      await frame();
      document.querySelector(`#board .column[data-column="${target}"] .number`).click();
    }
    await shown(ply);
    await frame();
    walls.push(performance.now() - start);
  }
  return walls;
}"""


def percentile(values: list[float], q: float) -> float:
    """The q-quantile by the nearest-rank method (no interpolation): a latency some request really had."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-q * len(ordered) // 1))))
    return ordered[rank - 1]


def start_server(db: Path) -> tuple[subprocess.Popen, str]:
    # no graded pool: its grading in the background would share the cores with what is timed
    command = [sys.executable, "-m", "scorpion_solver", "serve", "--port", "0", "--db", str(db), "--pool", "0"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = re.search(r"http://\S+/", server.stdout.readline()).group(0)
    for _ in range(200):
        try:
            httpx.get(url + "api/stats", timeout=5)
            return server, url
        except httpx.ConnectError:
            time.sleep(0.05)
    raise SystemExit("the server did not answer")


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def app_seconds(response: httpx.Response) -> float:
    """The time the app spent on the request (its Server-Timing header), without network and queueing."""
    match = re.search(r"app;dur=([0-9.]+)", response.headers.get("server-timing", ""))
    return float(match.group(1)) / 1000 if match else float("nan")


def play_line(
    client: httpx.Client, url: str, line: list[str], timings: list[float], errors: list[str], app_times=None
) -> dict:
    game = client.post(url + "api/games", json={"deal": 5, "mode": "clear"}).json()["game"]
    for text in line:
        start = time.perf_counter()
        r = client.post(url + f"api/games/{game['id']}/move", json={"move": text, "version": game["version"]})
        timings.append(time.perf_counter() - start)
        if app_times is not None:
            app_times.append(app_seconds(r))
        if r.status_code != 200:
            errors.append(f"{r.status_code} {r.text[:80]}")
            return game
        game = r.json()["game"]
    return game


def one_move_work(line: list[str]) -> dict:
    """What one move costs the service, counted in process over deal 5's line (issue 48 item 6): the engine's
    ``legal_moves`` and ``apply_move`` calls made by the serve modules, and the SQL statements the store runs
    (reads: SELECT; writes: INSERT, UPDATE, DELETE; transactions: BEGIN and COMMIT); the mean and the most
    per move. Counts, not times: they do not drift with the machine."""
    from unittest import mock

    from scorpion_solver.serve import service as service_module
    from scorpion_solver.serve import table as table_module
    from scorpion_solver.serve.config import Config
    from scorpion_solver.serve.service import GameService

    counts: dict[str, int] = {}

    def counted(name, real):
        def call(*args, **kwargs):
            counts[name] = counts.get(name, 0) + 1
            return real(*args, **kwargs)

        return call

    def trace(sql: str) -> None:
        word = sql.split(None, 1)[0].upper()
        kind = "sql_reads" if word == "SELECT" else "sql_transactions" if word in ("BEGIN", "COMMIT") else "sql_writes"
        counts[kind] = counts.get(kind, 0) + 1

    per_move: list[dict[str, int]] = []
    with tempfile.TemporaryDirectory() as folder:
        service = GameService.open(Config(db=Path(folder) / "games.sqlite3", pool_target=0))
        try:
            game = service.create("clear", deal=5)
            state = service.state(game)
            patches = [
                mock.patch.object(module, name, counted(name, getattr(module, name)))
                for module in (service_module, table_module)
                for name in ("legal_moves", "apply_move")
                if hasattr(module, name)
            ]
            service.store._db.set_trace_callback(trace)
            for patch in patches:
                patch.start()
            try:
                for text in line:
                    counts.clear()
                    state = service.move(game, state["version"], text)
                    per_move.append(dict(counts))
            finally:
                for patch in patches:
                    patch.stop()
                service.store._db.set_trace_callback(None)
        finally:
            service.close()
    assert state["status"] == "won", state["status"]
    keys = ("legal_moves", "apply_move", "sql_reads", "sql_writes", "sql_transactions")
    return {
        "moves": len(per_move),
        "mean": {k: round(sum(m.get(k, 0) for m in per_move) / len(per_move), 2) for k in keys},
        "most": {k: max(m.get(k, 0) for m in per_move) for k in keys},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of deal 5's line for one client")
    parser.add_argument("--clients", type=int, default=20, help="clients at once")
    parser.add_argument("--hints", type=int, default=10, help="fair hints timed for one client")
    parser.add_argument("--samples", type=int, default=30, help="K, the layouts of a fair hint")
    parser.add_argument(
        "--ply",
        type=int,
        default=8,
        help="moves of deal 5's line before the hints (mid-game: 6 legal moves, 14 unseen cards)",
    )
    parser.add_argument("--max-seconds", type=float, default=300.0, help="bound on each part")
    parser.add_argument("--quick", action="store_true", help="do not write a report file")
    parser.add_argument("--out", default=str(HERE / "results"))
    parser.add_argument(
        "--work-only", action="store_true", help="print one move's work (engine calls, SQL statements) and stop"
    )
    parser.add_argument(
        "--parts",
        default=",".join(PARTS),
        help="what to measure, comma-separated: latency (deal 5's moves and hints, one client and many), "
        "games (every game's moves), page (the renderer's CPU a move in Chromium), double-hint (Double "
        "Scorpion's fair hint, and other moves meanwhile)",
    )
    parser.add_argument("--game-rounds", type=int, default=1, help="rounds of each game's line in the games part")
    parser.add_argument("--page-moves", type=int, default=40, help="moves the page part times in each game")
    parser.add_argument("--label", default="", help="appended to the report's name (before, after)")
    args = parser.parse_args()

    clear = get_rules("clear")
    line = solve(deal(5, clear), clear).solution.split()
    work = one_move_work(line)
    if args.work_only:
        print(json.dumps(work, indent=1))
        return
    parts = [part.strip() for part in args.parts.split(",")]
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"--parts takes {', '.join(PARTS)}; not {', '.join(sorted(unknown))}")
    lines = {
        mode: winning_line(mode)
        for mode in PLAYABLE
        if "games" in parts or "page" in parts or ("double-hint" in parts and get_rules(mode).decks == 2)
    }
    settings = {k: v for k, v in vars(args).items() if k != "out"}  # no machine path in a committed report
    report: dict = {"settings": settings}
    with tempfile.TemporaryDirectory() as folder:
        server, url = start_server(Path(folder) / "games.sqlite3")
        try:
            if "latency" in parts:
                report |= run(args, url, line, server.pid)
            if "games" in parts:
                report["moves_by_game"] = moves_by_game(url, lines, args.game_rounds)
            if "page" in parts:
                report["page"] = page_cost(url, lines, args.page_moves)
            if "double-hint" in parts:
                report["double_hint"] = double_hint(url, lines, line)
        finally:
            server.terminate()
            server.communicate(timeout=30)
    report["one_move_work"] = work
    report["machine"] = machine_record()
    markdown = to_markdown(report)
    if args.quick:
        print(markdown)
    else:
        write_report(args.out, "serve", report, markdown, args.label)


def winning_line(mode: str) -> list[str]:
    rules = get_rules(mode)
    result = solve(deal(GAME_DEALS[mode], rules), rules)
    if result.status != "won":
        raise SystemExit(f"validation failed: {mode} deal {GAME_DEALS[mode]} is {result.status}, not won")
    return result.solution.split()


def moves_by_game(url: str, lines: dict[str, list[str]], rounds: int) -> dict:
    """Each game's line played ``rounds`` times by one client: each move's round trip and app time."""
    out = {}
    with httpx.Client(timeout=120) as client:
        for mode, line in lines.items():
            timings: list[float] = []
            errors: list[str] = []
            app: list[float] = []
            for _ in range(rounds):
                game = client.post(url + "api/games", json={"deal": GAME_DEALS[mode], "mode": mode}).json()["game"]
                for text in line:
                    start = time.perf_counter()
                    r = client.post(
                        url + f"api/games/{game['id']}/move", json={"move": text, "version": game["version"]}
                    )
                    timings.append(time.perf_counter() - start)
                    app.append(app_seconds(r))
                    if r.status_code != 200:
                        errors.append(f"{r.status_code} {r.text[:80]}")
                        break
                    game = r.json()["game"]
                if not errors and game["status"] != "won":
                    errors.append(f"the line ended {game['status']}")
            out[mode] = summary(timings, errors, app) | {"deal": GAME_DEALS[mode], "line_moves": len(line)}
    return out


CORNER = {"x": 10, "y": 6}  # where a person clicks a card: its corner, in sight under the card above it


def click_move(page, move: str, ply: int, expect) -> None:
    """One move as a person plays it: the tail button, or the card's corner then the column's number."""
    if move == "tail":
        page.locator("#tail").click()
    else:
        leader, columns = move.split(":")
        source, target = columns.split(">")
        face, upper = leader[:2], leader.endswith("+")  # 6C+: the second face-up 6C of its column
        cards = page.locator(f'#board .column[data-column="{source}"] .card[data-card="{face}"]')
        (cards.nth(1) if upper else cards.first).click(position=CORNER)
        page.locator(f'#board .column[data-column="{target}"] .number').click()
    expect(page.locator("body")).to_have_attribute("data-ply", str(ply), timeout=60_000)


def page_cost(url: str, lines: dict[str, list[str]], moves: int) -> dict:
    """What a move costs the page in Chromium: ``own``, every game at both sizes played by
    :data:`PAGE_DRIVER`; ``by_clicks``, Clear runs and Double Scorpion played by Playwright's clicks."""
    return {"own": page_own_cost(url, lines, moves), "by_clicks": page_click_cost(url, lines, moves)}


@contextlib.contextmanager
def chromium_browser():
    """Headless Chromium under Playwright (Debian's ``chromium``, as the browser tests find it), and
    Playwright's ``expect``."""
    sys.path.insert(0, str(HERE.parent / "tests"))
    from chromium import find_chromium
    from playwright.sync_api import expect, sync_playwright

    program = find_chromium()
    if program is None:
        raise SystemExit("the page part needs Chromium: apt-get install chromium (or set SCORPION_CHROMIUM)")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=program)
        try:
            yield browser, expect
        finally:
            browser.close()


def open_game(browser, expect, url: str, mode: str, size: tuple[int, int]):
    """A new page at ``size`` with the game's deal open at ply 0: (context, page, the page's errors)."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, base_url=url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/?deal={GAME_DEALS[mode]}&mode={mode}")
    expect(page.locator("body")).to_have_attribute("data-ply", "0")
    return context, page, errors


def renderer_per_move(before: dict, after: dict, moves: int) -> dict:
    """The renderer's counters between two readings, in ms a move."""
    return {name: round((after[name] - before[name]) * 1000 / moves, 2) for name in RENDERER_METRICS}


def page_own_cost(url: str, lines: dict[str, list[str]], moves: int) -> dict:
    """The renderer's CPU (thread time) per move of each game's line played inside the page, over ``moves``
    moves after two not counted (the first drawing, the fonts), at each of :data:`PAGE_SIZES`, and the
    wall time of a move (the first click to the move drawn)."""
    out: dict = {}
    with chromium_browser() as (browser, expect):
        for width, height in PAGE_SIZES:
            size = f"{width}x{height}"
            for mode in PLAYABLE:
                line = lines[mode]
                context, page, errors = open_game(browser, expect, url, mode, (width, height))
                page.evaluate(PAGE_DRIVER, line[:2])
                session = context.new_cdp_session(page)
                session.send("Performance.enable", {"timeDomain": "threadTicks"})
                counted = line[2 : 2 + moves]
                before = renderer_metrics(session)
                walls = page.evaluate(PAGE_DRIVER, counted)
                after = renderer_metrics(session)
                ply = page.locator("body").get_attribute("data-ply")
                context.close()
                if errors or ply != str(2 + len(counted)):
                    raise SystemExit(f"the page failed in {mode} at {size}: {errors[:3] or 'at ply ' + str(ply)}")
                out.setdefault(size, {})[mode] = {
                    "deal": GAME_DEALS[mode],
                    "moves": len(counted),
                    "renderer_ms_per_move": renderer_per_move(before, after, len(counted)),
                    "wall_p50_ms": round(percentile(walls, 0.5), 1),
                    "wall_p95_ms": round(percentile(walls, 0.95), 1),
                }
    return out


def page_click_cost(url: str, lines: dict[str, list[str]], moves: int) -> dict:
    """What a move costs the renderer played by Playwright's clicks (its own checks and DevTools commands
    included): the renderer's CPU (thread time) per move over ``moves`` moves of each game's line, after two
    moves not counted (the first drawing, the fonts), and the wall time of a move from its first click until
    the page shows it."""
    out = {}
    with chromium_browser() as (browser, expect):
        for mode in PAGE_GAMES:
            line = lines[mode]
            context, page, errors = open_game(browser, expect, url, mode, PAGE_SIZE)
            warm = 2
            for ply, move in enumerate(line[:warm], start=1):
                click_move(page, move, ply, expect)
            session = context.new_cdp_session(page)
            session.send("Performance.enable", {"timeDomain": "threadTicks"})
            before = renderer_metrics(session)
            walls = []
            counted = line[warm : warm + moves]
            for ply, move in enumerate(counted, start=warm + 1):
                start = time.perf_counter()
                click_move(page, move, ply, expect)
                walls.append(time.perf_counter() - start)
            after = renderer_metrics(session)
            cards = page.locator("#board .card").count()
            context.close()
            if errors:
                raise SystemExit(f"the page failed in {mode}: {errors[:3]}")
            out[mode] = {
                "deal": GAME_DEALS[mode],
                "moves": len(counted),
                "cards_on_board_at_end": cards,
                "renderer_ms_per_move": renderer_per_move(before, after, len(counted)),
                "wall_p50_ms": round(percentile(walls, 0.5) * 1000, 1),
                "wall_p95_ms": round(percentile(walls, 0.95) * 1000, 1),
            }
    return out


def double_hint(url: str, lines: dict[str, list[str]], clear_line: list[str]) -> dict:
    """Each two-deck game's fair hint, as the page asks it, at DOUBLE_HINT_PLIES of its line, while another
    client plays moves: the hints' wall times and answers, and the moves' round trips meanwhile."""
    hints = []
    moves: list[float] = []
    errors: list[str] = []
    with httpx.Client(timeout=300) as client:
        for mode in (m for m in PLAYABLE if get_rules(m).decks == 2):
            for plies in DOUBLE_HINT_PLIES:
                game = client.post(url + "api/games", json={"deal": GAME_DEALS[mode], "mode": mode}).json()["game"]
                for text in lines[mode][:plies]:
                    game = client.post(
                        url + f"api/games/{game['id']}/move", json={"move": text, "version": game["version"]}
                    ).json()["game"]
                done = threading.Event()
                mover = threading.Thread(target=keep_moving, args=(url, clear_line, done, moves, errors))
                mover.start()
                start = time.perf_counter()
                r = client.post(url + f"api/games/{game['id']}/hint", json={"kind": "fair", "version": game["version"]})
                seconds = time.perf_counter() - start
                done.set()
                mover.join()
                answer = r.json()
                hint = answer.get("hint") or {}
                hints.append(
                    {
                        "mode": mode,
                        "deal": GAME_DEALS[mode],
                        "plies": plies,
                        "status": r.status_code,
                        "seconds": round(seconds, 2),
                        "samples": hint.get("samples"),
                        "legal_moves": len(hint.get("moves", [])),
                        "solves": hint.get("solves"),
                        "nodes": hint.get("nodes"),
                        "unknown_judgements": sum(m["unknown"] for m in hint.get("moves", [])),
                        "best": hint.get("best"),
                        "error": answer.get("error"),
                    }
                )
    answered = [h["seconds"] for h in hints if h["status"] == 200]
    return {
        "hints": hints,
        "answered": len(answered),
        "p50_s": round(percentile(answered, 0.5), 2),
        "p95_s": round(percentile(answered, 0.95), 2),
        "moves_meanwhile": summary(moves, errors),
    }


def keep_moving(url: str, line: list[str], done: threading.Event, timings: list[float], errors: list[str]) -> None:
    """Deal 5's line in Clear runs, game after game, until ``done``: each move's round trip."""
    with httpx.Client(timeout=120) as client:
        while not done.is_set():
            game = client.post(url + "api/games", json={"deal": 5, "mode": "clear"}).json()["game"]
            for text in line:
                if done.is_set():
                    return
                start = time.perf_counter()
                r = client.post(url + f"api/games/{game['id']}/move", json={"move": text, "version": game["version"]})
                timings.append(time.perf_counter() - start)
                if r.status_code != 200:
                    errors.append(f"{r.status_code} {r.text[:80]}")
                    return
                game = r.json()["game"]


def renderer_metrics(session) -> dict[str, float]:
    metrics = {m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"]}
    return {name: metrics.get(name, 0.0) for name in RENDERER_METRICS}


def run(args, url: str, line: list[str], pid: int) -> dict:
    report: dict = {"line_moves": len(line)}
    with httpx.Client(timeout=120) as client:
        # validation: the server plays the solver's line to the announced win
        timings: list[float] = []
        errors: list[str] = []
        game = play_line(client, url, line, timings, errors)
        if errors or game["status"] != "won":
            raise SystemExit(f"validation failed: {errors or game['status']}")
        # warm-up: the first solve loads the compiled solver
        mid = client.post(url + "api/games", json={"deal": 5, "mode": "clear"}).json()["game"]
        for text in line[: args.ply]:
            mid = client.post(
                url + f"api/games/{mid['id']}/move", json={"move": text, "version": mid["version"]}
            ).json()["game"]
        client.post(url + f"api/games/{mid['id']}/hint", json={"kind": "fair", "samples": 1, "version": mid["version"]})

        timings, errors, app = [], [], []
        began = time.perf_counter()
        for _ in range(args.rounds):
            play_line(client, url, line, timings, errors, app)
            if time.perf_counter() - began > args.max_seconds:
                report["moves_one_client_cut_short"] = True
                break
        report["moves_one_client"] = summary(timings, errors, app)

        hint_times, hint_errors, shares = [], [], []
        for seed in range(args.hints):
            start = time.perf_counter()
            r = client.post(
                url + f"api/games/{mid['id']}/hint",
                json={"kind": "fair", "samples": args.samples, "seed": seed, "version": mid["version"]},
            )
            hint_times.append(time.perf_counter() - start)
            if r.status_code != 200:
                hint_errors.append(f"{r.status_code} {r.text[:80]}")
            else:
                hint = r.json()["hint"]
                shares.append(hint["winnable_share"])
                report.setdefault("hint_shape", {"legal_moves": len(hint["moves"]), "unseen": hint["unseen"]})
        report["fair_hint_one_client"] = summary(hint_times, hint_errors) | {"winnable_share_mean": mean(shares)}

    # N clients at once, each its own game
    timings, errors, app = [], [], []
    lock = threading.Lock()

    def one_client():
        mine: list[float] = []
        wrong: list[str] = []
        spent: list[float] = []
        with httpx.Client(timeout=120) as c:
            play_line(c, url, line, mine, wrong, spent)
        with lock:
            timings.extend(mine)
            errors.extend(wrong)
            app.extend(spent)

    began = time.perf_counter()
    threads = [threading.Thread(target=one_client) for _ in range(args.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(args.max_seconds)
    report["moves_concurrent"] = summary(timings, errors, app) | {
        "clients": args.clients,
        "wall_seconds": round(time.perf_counter() - began, 3),
        "unfinished_clients": sum(t.is_alive() for t in threads),
    }

    answers: list[tuple[int, float]] = []

    def one_hint():
        with httpx.Client(timeout=300) as c:
            start = time.perf_counter()
            r = c.post(
                url + f"api/games/{mid['id']}/hint",
                json={"kind": "fair", "samples": args.samples, "version": mid["version"]},
            )
            with lock:
                answers.append((r.status_code, time.perf_counter() - start))

    threads = [threading.Thread(target=one_hint) for _ in range(args.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(args.max_seconds)
    answered = [s for code, s in answers if code == 200]
    report["fair_hints_concurrent"] = {
        "clients": args.clients,
        "answered": len(answered),
        "refused_503": sum(code == 503 for code, _ in answers),
        "other": sorted({code for code, _ in answers} - {200, 503}),
        "p50_s": round(percentile(answered, 0.5), 3),
        "p95_s": round(percentile(answered, 0.95), 3),
    }
    report["server_peak_rss_mb"] = round(peak_rss_mb(pid), 1)
    return report


def mean(values):
    return sum(values) / len(values) if values else None


def summary(timings: list[float], errors: list[str], app: list[float] | None = None) -> dict:
    inside = {}
    if app:
        inside = {
            "app_p50_ms": round(percentile(app, 0.5) * 1000, 2),
            "app_p95_ms": round(percentile(app, 0.95) * 1000, 2),
        }
    return inside | {
        "requests": len(timings),
        "errors": len(errors),
        "first_errors": errors[:3],
        "p50_ms": round(percentile(timings, 0.5) * 1000, 2),
        "p95_ms": round(percentile(timings, 0.95) * 1000, 2),
        "max_ms": round(max(timings) * 1000, 2) if timings else None,
    }


def to_markdown(report: dict) -> str:
    m, s = report["machine"], report["settings"]
    lines = [
        f"# scorpion serve: latency over loopback ({time.strftime('%Y-%m-%d %H:%M')})",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, load average {m['load_average']}; Python {m['python']}.",
        f"Command: `python benchmarks/bench_serve.py --parts {s['parts']} --rounds {s['rounds']} "
        f"--clients {s['clients']} --hints {s['hints']} --samples {s['samples']} --ply {s['ply']} "
        f"--game-rounds {s['game_rounds']} --page-moves {s['page_moves']}`",
        "",
    ]
    if "moves_one_client" in report:
        lines += latency_markdown(report)
    if "moves_by_game" in report:
        lines += [
            "Moves in every game, one client, the solver's line of a won deal (round trip over loopback; the "
            "app's own time from Server-Timing); target p95 <= 50 ms:",
            "",
            "| game | deal | moves | errors | p50 | p95 | max | app p50 | app p95 |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for mode, g in report["moves_by_game"].items():
            lines.append(
                f"| {mode} | {g['deal']} | {g['requests']} | {g['errors']} | {g['p50_ms']} ms | {g['p95_ms']} ms | "
                f"{g['max_ms']} ms | {g['app_p50_ms']} ms | {g['app_p95_ms']} ms |"
            )
        lines.append("")
    if "page" in report:
        lines += [
            "The page's cost of a move in headless Chromium, every game at both sizes, the moves played by a "
            "script in the page (a click on the card, a frame, a click on the column's number, the move drawn): "
            "the renderer's thread CPU time per move (DevTools Performance.getMetrics deltas) and the wall time "
            "of a move; target: the renderer's tasks <= 30 ms a move:",
            "",
            "| size | game | deal | moves timed | tasks | of them script | layout | style | wall p50 | wall p95 |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for size, games in report["page"]["own"].items():
            for mode, g in games.items():
                r = g["renderer_ms_per_move"]
                lines.append(
                    f"| {size} | {mode} | {g['deal']} | {g['moves']} | **{r['TaskDuration']} ms** | "
                    f"{r['ScriptDuration']} ms | {r['LayoutDuration']} ms | {r['RecalcStyleDuration']} ms | "
                    f"{g['wall_p50_ms']} ms | {g['wall_p95_ms']} ms |"
                )
        lines += [
            "",
            f"The same moves played by Playwright's clicks at {PAGE_SIZE[0]}x{PAGE_SIZE[1]} (the card's corner, "
            "then the column's number, waiting until the page shows the move): the renderer's time includes "
            "Playwright's own checks and DevTools commands; the wall time runs from the first click until the "
            "page shows the move:",
            "",
            "| game | deal | moves timed | tasks | of them DevTools commands | script | layout | style | wall p50 | wall p95 |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for mode, g in report["page"]["by_clicks"].items():
            r = g["renderer_ms_per_move"]
            lines.append(
                f"| {mode} | {g['deal']} | {g['moves']} | {r['TaskDuration']} ms | {r['DevToolsCommandDuration']} ms | "
                f"{r['ScriptDuration']} ms | {r['LayoutDuration']} ms | {r['RecalcStyleDuration']} ms | "
                f"{g['wall_p50_ms']} ms | {g['wall_p95_ms']} ms |"
            )
        lines.append("")
    if "double_hint" in report:
        d = report["double_hint"]
        m = d["moves_meanwhile"]
        lines += [
            "Double Scorpion's fair hint as the page asks it (the game's samples, 100,000 nodes a solve), on the "
            "solver's line after 0, 15 and 40 moves, while another client plays Clear runs' moves:",
            "",
            "| game | deal | moves in | status | seconds | samples | legal moves | solves | nodes | unknown judgements |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for h in d["hints"]:
            lines.append(
                f"| {h['mode']} | {h['deal']} | {h['plies']} | {h['status']} | {h['seconds']} | {h['samples']} | "
                f"{h['legal_moves']} | {h['solves']} | {h['nodes']} | {h['unknown_judgements']} |"
            )
        lines += [
            "",
            f"Answered {d['answered']} of {len(d['hints'])}: p50 {d['p50_s']} s, p95 {d['p95_s']} s. Moves of the "
            f"other client meanwhile: {m['requests']} moves, {m['errors']} errors, p50 {m['p50_ms']} ms, p95 "
            f"{m['p95_ms']} ms, max {m['max_ms']} ms.",
            "",
        ]
    work = report["one_move_work"]
    lines += [
        f"One move's work over deal 5's line ({work['moves']} moves, in process), mean (most): "
        + ", ".join(f"{k} {work['mean'][k]} ({work['most'][k]})" for k in work["mean"])
        + ".",
        "",
    ]
    return "\n".join(lines)


def latency_markdown(report: dict) -> list[str]:
    one, many = report["moves_one_client"], report["moves_concurrent"]
    hint, hints = report["fair_hint_one_client"], report["fair_hints_concurrent"]
    s = report["settings"]
    return [
        "| part | requests | errors | p50 | p95 | max | target |",
        "|---|---|---|---|---|---|---|",
        f"| move, 1 client (deal 5's line x{s['rounds']}) | {one['requests']} | {one['errors']} | "
        f"{one['p50_ms']} ms | {one['p95_ms']} ms | {one['max_ms']} ms | p95 <= 50 ms |",
        f"| move, {many['clients']} clients at once | {many['requests']} | {many['errors']} | "
        f"{many['p50_ms']} ms | {many['p95_ms']} ms | {many['max_ms']} ms | 0 errors |",
        f"| (time in the app, 1 client / {many['clients']} clients: Server-Timing) | | | "
        f"{one['app_p50_ms']} / {many['app_p50_ms']} ms | {one['app_p95_ms']} / {many['app_p95_ms']} ms | | |",
        f"| fair hint K={s['samples']}, 1 client, after {s['ply']} moves | {hint['requests']} | "
        f"{hint['errors']} | {hint['p50_ms'] / 1000:.3f} s | {hint['p95_ms'] / 1000:.3f} s | "
        f"{hint['max_ms'] / 1000:.3f} s | p95 <= 2 s |",
        "",
        f"Mid-game view: {report.get('hint_shape')} (legal moves, unseen cards); mean winnable share "
        f"{hint['winnable_share_mean']}.",
        f"Fair hints from {hints['clients']} clients at once: {hints['answered']} answered "
        f"(p50 {hints['p50_s']} s, p95 {hints['p95_s']} s), {hints['refused_503']} refused with 503 by the "
        f"bounded pool (2 workers, queue 8: by design), other statuses {hints['other']}.",
        f"{many['clients']} clients' move run took {many['wall_seconds']} s of wall time "
        f"({many['unfinished_clients']} clients unfinished).",
        f"Server peak RSS: {report['server_peak_rss_mb']} MB (VmHWM).",
        "",
    ]


if __name__ == "__main__":
    main()
