"""The rules page of ``scorpion serve`` (``/rules``): docs/rules.md rendered to HTML, never a second text.

The text is docs/rules.md of the source checkout when the package runs from
one (so the page always says what the rule book says); an installed package
has no docs/ folder and reads ``pages/rules.md``, a copy shipped as package
data that ``tests/test_lessons.py`` requires to equal docs/rules.md. Markdown
is rendered by markdown-it-py (CommonMark with tables); headings get the
ids GitHub gives them, so the rule book's own links (``#2-spaces``) work, and
links to other files of the repository, which the server does not serve,
become plain text. The page prints cleanly (``rules.css``: no buttons, black
on white).
"""

from __future__ import annotations

import functools
import re
import string
from pathlib import Path

from markdown_it import MarkdownIt
from starlette.requests import Request
from starlette.responses import HTMLResponse

from .shell import page, page_file

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parents[1] / "docs" / "rules.md"  # a source checkout's rule book
SHIPPED = HERE / "pages" / "rules.md"  # the installed package's copy (package data)


def rules_source() -> Path:
    return SOURCE if SOURCE.is_file() else SHIPPED


def slug(text: str) -> str:
    """A heading's id as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def render_rules(text: str) -> str:
    """The rule book's Markdown as HTML: heading ids, and links into the repository as plain text."""
    md = MarkdownIt("commonmark").enable("table")
    tokens = md.parse(text)
    for k, token in enumerate(tokens):
        if token.type == "heading_open":
            token.attrSet("id", slug(tokens[k + 1].content))
        plain = False  # inside a link to a file of the repository: its text stays, the link goes
        for child in token.children or ():
            if child.type == "link_open":
                plain = not str(child.attrGet("href")).startswith(("#", "http"))
            if plain and child.type in ("link_open", "link_close"):
                child.type, child.tag, child.attrs = child.type.replace("link", "span"), "span", {}
                plain = child.type == "span_open"
    return md.renderer.render(tokens, md.options, {})


@functools.cache
def _page(path: Path, mtime: float) -> str:
    body = string.Template(page_file("rules.html"))
    content = render_rules(path.read_text(encoding="utf-8"))
    return page("Scorpion: the rules", body.substitute(content=content), styles=("rules.css",))


async def rules_page(request: Request) -> HTMLResponse:
    path = rules_source()
    return HTMLResponse(_page(path, path.stat().st_mtime))  # read again when the file changes
