"""Writes tests/data/serve-schema4.sqlite3 with the code of main before issue 52 (run it from that checkout:
``PYTHONPATH=/path/to/main python tests/data/make_serve_schema4.py OUT``): the games of a player of Scorpion's two
modes, for tests/test_serve_service.py's check that an older database reads and keeps counting.

The games: deal 5 in Clear runs won by the solver's line (chosen, by number); a secret random deal in classic
(deal 6's cards) played three moves, then left in play; a secret random deal in Clear runs (deal 1's cards) played
to a loss by the first legal move each time, with one fair hint asked on the way.
"""

import asyncio
import sys
import threading

from scorpion_solver.game.deal import deal, dealt_order
from scorpion_solver.game.rules import get_rules
from scorpion_solver.serve.config import Config
from scorpion_solver.serve.helpers import Budget
from scorpion_solver.serve.service import GameService
from scorpion_solver.solver.search import solve

tokens = iter(f"maingame{k:03d}" for k in range(1, 100))
shuffles = iter([dealt_order(deal(6, get_rules("classic"))), dealt_order(deal(1, get_rules("clear")))])
config = Config(
    db=sys.argv[1],
    budget=Budget(fair_nodes=1_000, peek_nodes=20_000, seconds=None),
    tokens=lambda: next(tokens),
    shuffle=lambda: next(shuffles),
)
service = GameService.open(config)
won = service.create("clear", deal=5)
for move in solve(deal(5, get_rules("clear")), get_rules("clear")).solution.split():
    service.move(won, service.state(won)["version"], move)
assert service.state(won)["status"] == "won"
playing = service.create("classic", random="any")
for _ in range(3):
    state = service.state(playing)
    service.move(playing, state["version"], state["legal"][0]["move"])
lost = service.create("clear", random="any")
asyncio.run(service.hint(lost, "fair", 0, 5, 1, threading.Event()))
while (state := service.state(lost))["status"] == "playing":
    service.move(lost, state["version"], state["legal"][0]["move"])
assert state["status"] == "lost"
print(service.stats())
service.close()
