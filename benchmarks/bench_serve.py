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
* **server memory**: the server's peak resident set (VmHWM from /proc).

Each answer carries the time the app itself spent (its ``Server-Timing``
header), reported beside the round trip: the difference is the network, uvicorn
and the wait for the event loop (with many clients, and the clients themselves
running on the same cores).

Targets on a 2-core machine (issue 22): a move within 50 ms at p95, a fair hint
within 2 s at p95, zero errors in the concurrent move run. Everything is bounded
(``--max-seconds`` stops a part early and says so).

    python benchmarks/bench_serve.py                      # 3 rounds, 20 clients, 10 hints at K=30 after 8 moves
    python benchmarks/bench_serve.py --rounds 1 --clients 4 --hints 3 --quick
"""

from __future__ import annotations

import argparse
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
from scorpion_solver.solver.search import solve  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    """The q-quantile by the nearest-rank method (no interpolation): a latency some request really had."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-q * len(ordered) // 1))))
    return ordered[rank - 1]


def start_server(db: Path) -> tuple[subprocess.Popen, str]:
    command = [sys.executable, "-m", "scorpion_solver", "serve", "--port", "0", "--db", str(db)]
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
    args = parser.parse_args()

    clear = get_rules("clear")
    line = solve(deal(5, clear), clear).solution.split()
    work = one_move_work(line)
    if args.work_only:
        print(json.dumps(work, indent=1))
        return
    with tempfile.TemporaryDirectory() as folder:
        server, url = start_server(Path(folder) / "games.sqlite3")
        try:
            report = run(args, url, line, server.pid)
        finally:
            server.terminate()
            server.communicate(timeout=30)
    report["one_move_work"] = work
    report["machine"] = machine_record()
    markdown = to_markdown(report)
    if args.quick:
        print(markdown)
    else:
        write_report(args.out, "serve", report, markdown)


def run(args, url: str, line: list[str], pid: int) -> dict:
    settings = {k: v for k, v in vars(args).items() if k != "out"}  # no machine path in a committed report
    report: dict = {"settings": settings, "line_moves": len(line)}
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
    one, many = report["moves_one_client"], report["moves_concurrent"]
    hint, hints = report["fair_hint_one_client"], report["fair_hints_concurrent"]
    m = report["machine"]
    s = report["settings"]
    return "\n".join(
        [
            f"# scorpion serve: latency over loopback ({time.strftime('%Y-%m-%d %H:%M')})",
            "",
            f"Machine: {m['cpu']}, {m['cores']} cores, load average {m['load_average']}; Python {m['python']}.",
            f"Command: `python benchmarks/bench_serve.py --rounds {s['rounds']} --clients {s['clients']} "
            f"--hints {s['hints']} --samples {s['samples']} --ply {s['ply']}`",
            "",
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
            f"One move's work over deal 5's line ({report['one_move_work']['moves']} moves, in process), mean "
            f"(most): "
            + ", ".join(
                f"{k} {report['one_move_work']['mean'][k]} ({report['one_move_work']['most'][k]})"
                for k in report["one_move_work"]["mean"]
            )
            + ".",
            "",
        ]
    )


if __name__ == "__main__":
    main()
