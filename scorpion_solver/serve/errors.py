"""What the game service refuses, as domain errors: no HTTP here (``app`` gives each its status).

Each carries a one-line message a person can act on, and ``extra``: more of the
answer (a stale or finished game's current ``game`` STATE, ``retry`` for a busy
solver). A refused move is ``table.GameError`` (a rule of the game, with the
``rule`` it breaks).
"""

from __future__ import annotations


class ServiceError(Exception):
    def __init__(self, message: str, **extra) -> None:
        super().__init__(message)
        self.message, self.extra = message, extra


class BadRequest(ServiceError):
    """A value missing or out of range, nothing to undo or redo: the request cannot be played."""


class NeedsPeek(ServiceError):
    """The answer would read hidden cards and peeking is off for the game."""


class NotFound(ServiceError):
    """No game, lesson or page by that name."""


class Conflict(ServiceError):
    """The game is not where the request thinks (a stale version, a finished game): ``game`` is where it is."""


class Busy(ServiceError):
    """The solver's pool is full, or a hint ran past its deadline: try again (``retry``)."""
