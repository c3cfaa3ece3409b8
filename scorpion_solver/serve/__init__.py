"""``scorpion serve``: Scorpion played in a browser, the server holding the true position.

* ``store``: the SQLite database (games, moves with their undo history, results, help events, settings);
* ``table``: the server-side game (the true position, the player's view, legal moves, the column mapping);
* ``helpers``: the solver's help in a bounded pool off the event loop (fair hint, peeks, analysis);
* ``app``: the Starlette routes (the API of ``API.md`` and docs/serve.md);
* ``lessons``, ``lesson_store``, ``lessons.toml``: Learn to play, four lessons served as games;
  ``rules_page``: docs/playing.md and docs/rules.md as a page;
* ``static/``: the pages and their script (no CDN, no build step).

The layer sits above ``batch | page`` and below ``cli`` (pyproject's import-linter contract).
"""

from .app import Config
from .app import create_app as _create_app
from .lessons import learning_routes


def create_app(config: Config):
    """The app of ``scorpion serve``: the games (``app``), with the lessons and the rules page (``lessons``)."""
    return _create_app(config, extensions=(learning_routes,))


__all__ = ["Config", "create_app"]
