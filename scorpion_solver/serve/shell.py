"""The one page shell of ``scorpion serve``: ``pages/page.html`` (the head every page shares) around a body.

Every page (the start page, the board, the statistics, a lesson, the rules, an error) is made here:
the title, the body, and the page's own style sheets after the shared ones.
"""

from __future__ import annotations

import functools
import html
import string
from pathlib import Path

PAGES = Path(__file__).resolve().parent / "pages"  # each page's body; page.html is the head they share


@functools.cache
def page_file(name: str) -> str:
    return (PAGES / name).read_text(encoding="utf-8")


def page(title: str, body: str, styles: tuple[str, ...] = ()) -> str:
    """A whole page: the shared head with ``title`` and the extra ``styles`` (paths under /static/), then ``body``."""
    text = string.Template(page_file("page.html")).substitute(title=html.escape(title, quote=False), body=body)
    links = "".join(f'<link rel="stylesheet" href="/static/{name}">\n' for name in styles)
    return text.replace("</head>", links + "</head>", 1) if links else text


def error_page(status: int, message: str) -> str:
    """A short message and the way back to the start page."""
    body = (
        '<body class="error-page"><main><h1>' + html.escape(f"{status}: {message}") + "</h1>"
        '<p><a href="/">Back to the start page</a> to open a deal or a game in progress.</p></main></body>\n'
    )
    return page(f"Scorpion: {status}", body)
