"""Pictures of the game: deals, lines of moves and hints as one self-contained HTML page.

* ``data``: the page data (JSON): every position of a line computed by the
  reference engine, what each move did (the group, flips, sweeps), and the
  choices at one position (hint verdicts, or shares of winnable layouts);
* ``build``: the pages the ``scorpion show`` command makes (a deal or a
  position, with a solution, a hint or a given line of moves);
* ``html``: the HTML file (inline CSS and JS, no network);
* ``cards/``: the card drawing (``cards.css``, ``cards.js``) these pages
  inline and the game of ``scorpion serve`` serves.

Layer: a sibling of ``batch``; it uses ``analysis``, ``solver`` and ``game``.
"""

from .data import Choice, choices_from_hint, choices_view, page_data, page_problems, position_view
from .html import render_html, write_page

__all__ = [
    "Choice",
    "choices_from_hint",
    "choices_view",
    "page_data",
    "page_problems",
    "position_view",
    "render_html",
    "write_page",
]
