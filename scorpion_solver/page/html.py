"""One self-contained HTML file for a game page: the page data as JSON, with inline CSS and JS.

Nothing is loaded from anywhere: no network, no external script, style sheet
or font. Suit symbols are Unicode text. ``cards/cards.css`` and ``cards/cards.js`` (the
card drawing the game of ``scorpion serve`` shares), then ``page.css`` and
``page.js`` (beside this module) are read and inlined; the data (see :mod:`page.data`) is
embedded as a ``<script type="application/json">`` block, escaped so that no
card text or command can close the block early.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path

from .data import UNKNOWN_CARD, page_problems

TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{generator}">
<title>{title}</title>
<style>
{css}
</style>
</head>
<body>
<header>
  <h1><span id="title">{title}</span> <span class="rules-name" id="rules-name"></span></h1>
  <p id="verdict"></p>
  <p class="summary" id="summary"></p>
</header>
<nav id="controls" aria-label="step through the moves">
  <button type="button" id="first" title="first (Home)">&#x21E4;<span class="word"> First</span></button>
  <button type="button" id="prev" title="previous (&#x2190;)">&#x25C0;<span class="word"> Prev</span></button>
  <span id="counter" aria-live="polite"></span>
  <button type="button" id="next" title="next (&#x2192;)"><span class="word">Next </span>&#x25B6;</button>
  <button type="button" id="last" title="last (End)"><span class="word">Last </span>&#x21E5;</button>
{peek_box}
</nav>
<p id="caption" aria-live="polite"></p>
<main id="table">
  <div id="topbar">
    <div class="area tail" id="tail"></div>
    <div class="area foundations" id="foundations"></div>
  </div>
  <div id="board"></div>
  <div id="state-banner"></div>
</main>
<section id="choices">
  <h2></h2>
  <p class="head"></p>
  <ul></ul>
  <p><button type="button" class="back" hidden>back to the position before the choice</button></p>
</section>
<section id="moves">
  <h2></h2>
  <ol></ol>
</section>
<footer>
  <p>Made by <code id="command"></code> (<span id="generator"></span>). Keys: &#x2190; &#x2192; step,
  Home / End first / last. The positions are the reference engine's; this page only draws them.</p>
</footer>
<noscript><p>This page needs JavaScript to draw the cards.</p></noscript>
<script type="application/json" id="page-data">{data}</script>
<script>
{js}
</script>
</body>
</html>
"""


PEEK_BOX = '  <label><input type="checkbox" id="peek"> show face-down cards</label>'


def holds_hidden_cards(data: dict) -> bool:
    """Whether some position of the page knows a face-down or tail card (else a box to show them shows nothing)."""
    steps = (data.get("line") or {}).get("steps") or []
    positions = [s.get("position") or {} for s in steps]
    positions += [o.get("position") or {} for o in (data.get("choices") or {}).get("options", [])]
    for position in positions:
        hidden = [c for col, down in zip(position.get("columns", []), position.get("down", [])) for c in col[:down]]
        if any(card != UNKNOWN_CARD for card in hidden + list(position.get("tail", []))):
            return True
    return False


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def embed_json(data: dict) -> str:
    """JSON safe inside a <script> block: no '</', no '<!--', and no U+2028/2029 line breaks."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_html(data: dict) -> str:
    """The page for ``data`` (ValueError listing the problems if the data breaks the schema)."""
    problems = page_problems(data)
    if problems:
        raise ValueError("page data: " + "; ".join(problems[:5]) + (" ..." if len(problems) > 5 else ""))
    return TEMPLATE.format(
        title=html.escape(data["title"]),
        generator=html.escape(data.get("generator", "")),
        peek_box=PEEK_BOX if holds_hidden_cards(data) else "",
        css=_asset("cards/cards.css") + _asset("page.css"),
        js=_asset("cards/cards.js") + _asset("page.js"),
        data=embed_json(data),
    )


def write_page(data: dict, path: str | Path) -> Path:
    """Write the page for ``data`` to ``path`` (folders made as needed: ``scorpion show`` refuses a
    missing one itself, where a typo in a command line should not make folders); returns the path."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_html(data), encoding="utf-8")
    return out
