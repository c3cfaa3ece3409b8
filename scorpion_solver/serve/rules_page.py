"""The rules page of ``scorpion serve`` (``/rules``): the player's part first, then the whole rule book.

Two texts of the repository, rendered, never a third: docs/playing.md (how to
play, in a player's words: what the pages' refusals link to) and then
docs/rules.md (the complete rule book, with what the tool needs besides). Each
is read from the source checkout's docs/ when the package runs from one (so the
page always says what the docs say); an installed package has no docs/ folder
and reads its copy in ``pages/``, shipped as package data, which
``tests/test_rules_page.py`` requires to equal the docs byte for byte.
Markdown is rendered by markdown-it-py (CommonMark with tables); headings get
the ids GitHub gives them, so the rule book's own links (``#2-spaces``) work,
and links to other files of the repository, which the server does not serve,
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
DOCS = HERE.parents[1] / "docs"  # a source checkout's docs
SHIPPED_PAGES = HERE / "pages"  # the installed package's copies (package data)
SHIPPED = SHIPPED_PAGES / "rules.md"  # the rule book's copy
PARTS = ("playing.md", "rules.md")  # the player's part, then the complete rule book
BETWEEN = (
    '<hr>\n<p class="rule-book-note" id="the-complete-rule-book">The complete rule book follows: '
    "the same rules said exactly, the decisions taken where published rules are silent, and what the tool "
    "needs besides.</p>\n"
)


def rules_source(name: str = "rules.md") -> Path:
    """Where a part's text is read: the checkout's docs/, else the shipped copy."""
    source = DOCS / name
    return source if source.is_file() else SHIPPED_PAGES / name


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
def _page(parts: tuple[tuple[Path, float], ...]) -> str:
    body = string.Template(page_file("rules.html"))
    content = BETWEEN.join(render_rules(path.read_text(encoding="utf-8")) for path, _mtime in parts)
    return page("Scorpion: the rules", body.substitute(content=content), styles=("rules.css",))


async def rules_page(request: Request) -> HTMLResponse:
    paths = [rules_source(name) for name in PARTS]
    return HTMLResponse(_page(tuple((p, p.stat().st_mtime) for p in paths)))  # read again when a file changes
