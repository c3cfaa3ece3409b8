"""``scorpion serve``: Scorpion played in a browser, the server holding the true position.

* ``store``: the SQLite database (games, moves with their undo history, results, help events, settings);
* ``table``: the server-side game (the true position, the player's view, legal moves, the column mapping);
* ``helpers``: the solver's help in a bounded pool off the event loop (fair hint, peeks, analysis);
* ``app``: the Starlette routes (the API of ``API.md`` and docs/serve.md);
* ``static/``: the pages and their script (no CDN, no build step).

The layer sits above ``batch | page`` and below ``cli`` (pyproject's import-linter contract).
"""

from .app import Config, create_app

__all__ = ["Config", "create_app"]
