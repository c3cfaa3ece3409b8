"""bench_batch.py's markdown report: the headline against the C twin, then each side's split and totals."""

from __future__ import annotations


def side_markdown(side: dict) -> list[str]:
    lines = [
        f"## {side['label']}",
        "",
        f"Code: `{side['code']}`; timer bias {side['timer_bias_ns']:.0f} ns per measured call (subtracted).",
        f"Timed functions: {', '.join(side['timed'])}.",
        "",
        "CPU microseconds per deal (deal generation, search = the search kernel's calls, line = the"
        " kernels that cut a won line's detours and polish it, verification of wins, other = the rest of"
        " `solve_pairs` and the Parquet chunk):",
        "",
        "| run | deals | count | deal | search | line | verify | other | total | total / search"
        " | total / (search + line) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in side["runs"]:
        for name in ("all", "root", "rest"):
            c = s[name]
            u = c["us_per_deal"]
            ratio = f"{u['total_over_search']:.2f}" if u["total_over_search"] else "-"
            ratio_line = f"{u['total_over_search_and_line']:.2f}" if u["total_over_search_and_line"] else "-"
            lines.append(
                f"| {s['run']} | {name} | {c['deals']} | {u['deal']:.1f} | {u['search']:.1f} | {u['line']:.1f}"
                f" | {u['verify']:.1f} | {u['other']:.1f} | {u['total']:.1f} | {ratio} | {ratio_line} |"
            )
    lines += [
        "",
        "Totals (CPU seconds) and verification of wins:",
        "",
        "| run | total s | search s | line s | deal s | verify s | wins | mean length | verify us/win"
        " | us per 52 moves |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def fmt(x, spec=".1f"):
        return "-" if x is None else format(x, spec)

    for s in side["runs"]:
        t, v = s["seconds"], s["verify"]
        lines.append(
            f"| {s['run']} | {t['total']:.2f} | {t['search']:.2f} | {t['line']:.2f} | {t['deal']:.2f}"
            f" | {t['verify']:.2f}"
            f" | {v['won_deals']} | {fmt(v['mean_solution_length'])} | {fmt(v['us_per_won_deal'])}"
            f" | {fmt(v['us_per_52_moves'])} |"
        )
    if side.get("root_split"):
        lines += ["", "One solve of a deal decided at the root, piece by piece (fastest mean, microseconds):", ""]
        for split in side["root_split"]:
            lines.append(f"* deal {split['deal']} ({split['mode']}):")
            lines += [f"  * {k}: {v:.2f}" for k, v in split.items() if k not in ("deal", "mode")]
    return lines + [""]


def _fmt(x, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def headline(report: dict) -> list[str]:
    """Per run and side: the batch against its C twin, the check's share and cost, the verdicts."""
    sides = report["sides"]
    lines = [
        "The batch's CPU (the plain pass) against its C twin's: the same search as native C, its native calls"
        " alone (*C search*), and with the line kernels its wins call (*+ line*: `shorten_line` and"
        " `shortest_search`, the batch's own numba kernels, which no C port has; numba runs the search at"
        " C's speed, `compare_c.py`). The check of the wins (`verify_solution`, timed in the plain pass) as"
        " a share of the batch's CPU:",
        "",
        "| run | code | deals | wins | batch CPU s | C search s | + line s | batch / C search"
        " | batch / (C search + line) | check s | check share | check us/win | verdicts |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for i, run in enumerate(report["runs"]):
        for side in sides:
            s = side["runs"][i]
            twin, t, v = s["c_twin"], s["seconds"], s["check"]
            same = "C twin: " + ("same" if not twin["differ"] else f"{len(twin['differ'])} DIFFER")
            if report["paired"]:
                same += ", sides: " + ("same" if not report["rows_differ"][run] else "DIFFER")
            lines.append(
                f"| {run} | {side['label']} | {s['all']['deals']} | {s['verify']['won_deals']} | {t['total']:.2f}"
                f" | {_fmt(twin['seconds'], '.2f')} | {_fmt(twin['line_seconds'], '.2f')}"
                f" | {_fmt(twin['total_over_c_twin'], '.2f')} | {_fmt(twin['total_over_native'], '.2f')}"
                f" | {v['seconds']:.2f} | {_fmt(s['check_share'] and 100 * s['check_share'], '.1f')}%"
                f" | {_fmt(v['us_per_won_deal'], '.1f')} | {same} |"
            )
    differ = [d for side in sides for s in side["runs"] for d in s["c_twin"]["differ"]]
    differ += [d for run in report["runs"] for d in report.get("rows_differ", {}).get(run, [])]
    if differ:
        lines += ["", "Differences (first 20):", ""] + [f"* {d}" for d in differ[:20]]
    return lines + [""]


def markdown(report: dict) -> str:
    lines = [
        f"# Batch throughput: {', '.join(report['runs'])}",
        "",
        f"Chunks of {report['chunk']} deals; node budget {report['nodes']:,}."
        + (
            " Sides run in separate processes, chunk by chunk in alternating order (paired)."
            if report["paired"]
            else ""
        ),
        "",
        *headline(report),
    ]
    if report["paired"]:
        this, base = report["sides"]
        lines += ["| run | baseline total s | this total s | baseline / this | this total / this search |"]
        lines += ["|---|---:|---:|---:|---:|"]
        for a, b in zip(this["runs"], base["runs"]):
            ta, tb = a["seconds"]["total"], b["seconds"]["total"]
            lines.append(
                f"| {a['run']} | {tb:.2f} | {ta:.2f} | {tb / ta:.2f} | {ta / max(a['seconds']['search'], 1e-12):.2f} |"
            )
        lines.append("")
    for side in report["sides"]:
        lines += side_markdown(side)
    m = report["machine"]
    lines += [f"Machine: {m['cpu']}, {m['cores']} cores, load {m['load_average']}, python {m['python']},"]
    lines += [f"numpy {m['numpy']}, numba {m['numba']}; wall {report['wall_seconds']:.0f} s."]
    return "\n".join(lines) + "\n"
