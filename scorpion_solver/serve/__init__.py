"""``scorpion serve``: Scorpion played in a browser, the server holding the true position.

* ``store``: the SQLite database (games, moves with their undo history, results, help events, seen
  deals, settings), with a public transaction other tables build on;
* ``table``: the server-side game (the true position, the player's view, legal moves, the column mapping);
* ``helpers``: the solver's help in a bounded pool off the event loop (fair hint, peeks, analysis);
* ``service``: the game service, no HTTP: games made (drafts until their first change), played,
  helped, exported and counted (``statistics``); domain errors in ``errors``; its layering is
  drawn in its docstring;
* ``app``: the Starlette app, thin adapters over the service (the API of ``API.md`` and
  docs/serve.md); ``routes``: the routes games and lessons share, and the refusals as statuses; ``body`` reads a request's JSON, ``shell`` is the one page shell, ``guard`` the
  checks before any route, ``config`` the settings;
* ``lessons``, ``lesson_store``, ``lessons.toml``: Learn to play, four lessons served by the same
  service and routes; ``rules_page``: docs/playing.md and docs/rules.md as a page;
* ``static/``, ``pages/``: the pages and their script (no CDN, no build step).

The layer sits above ``batch | page`` and below ``cli`` (pyproject's import-linter contract).
"""

from .app import create_app
from .config import Config

__all__ = ["Config", "create_app"]
