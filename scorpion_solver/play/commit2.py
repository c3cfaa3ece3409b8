"""``commit2``: commitments judged two levels deep, a player that looks past the next reveal.

``commit`` (``play.commit``) is blind until the next reveal and clairvoyant
after it: a commitment's score is the share of sampled layouts in which the
position after its reveal is winnable *by a player who then sees every
card*. That over-values a commitment whose reveal leaves the next choice to
luck, and most of all the tail deal in Clear runs (three cards seen at once,
every face-down card still hidden): the losses study charged commit 0.025 of
a win a game there, hop 0.011.

``commit2`` takes the first information relaxation one level deeper. After
the first commitment c1 the player sees the card(s) it turned up, and no
more: what they do next is a second commitment c2, chosen from that view
alone, so one c2 for every layout that shows the same cards. The score of
c1 is the chance that the best such c2 keeps the game winnable (clairvoyant
only after the *second* reveal):

    score2(c1) = E over the cards o that c1 reveals of  max over c2 of  P(winnable after c1, c2 | o).

It is estimated on layouts shared across every branch (common random
numbers). The outcomes o are those of the first ``outer`` layouts of
commit's own sample. For each outcome the same ``inner`` base layouts are
conditioned on it by transposition: the card o puts in a revealed slot is
swapped with the card the base layout has there. If a base layout is a
uniform arrangement of the unseen cards, the swapped one is a uniform
arrangement with o in its slots (each arrangement with o in place has the
same number of preimages), so the inner layouts are an exact sample of
the hidden cards given the view after c1, and the same for every c1 and o.
The candidates c2 are the first commitments of the solver's winning lines
in those layouts (each one won where it was found without a further solve;
judged on the others by a solve), best first; a candidate stops as soon as
it cannot beat the best one, and the search as soon as one wins every
layout that can be won at all (nothing can do better). Restricting c2 to
the solver's own first commitments makes score2 a little lower than the
relaxation's value, never higher.

Only the ``top`` first commitments of commit's ranking are judged again
(commit's sample of K layouts has ranked them all); where the tail deal is
among them, the best commitment that does not deal it is added ("deal the
tail now" against "play on and deal later", over the same layouts). The
choice is the highest score2, ties to commit's order. Where commit would
not judge commitments (a huge closure, a single commitment, the exact
endgame, perfect information) it plays as commit.

Only the view is read: every layout is drawn from it (``sample_positions``),
and the seed with the number of moves played fixes them, so the same view
gives the same move whatever the hidden cards are (``tests/test_play.py``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..game.position import Position
from ..game.view import Observation, sample_positions
from ..solver.result import WON
from .commit import CommitOptions, CommitPolicy, Judged
from .commitment import Commitment, RevealingPair, first_commitment, play_commitment, slot_cards
from .policies import option

DEEP_TOP = 3  # first commitments of commit's ranking judged two levels deep
DEEP_OUTER = 20  # layouts of commit's sample whose revealed cards make the outcomes
DEEP_INNER = 8  # layouts conditioned on each outcome (the same base layouts for every one)


@dataclass(frozen=True)
class TwoLevelOptions(CommitOptions):
    """commit2's options: commit's, and the second level's (each at least one).

    * ``top``: the first commitments of commit's ranking judged two levels deep;
    * ``outer``: the layouts of commit's sample whose revealed cards make the outcomes;
    * ``inner``: the layouts conditioned on each outcome.
    """

    top: int = option(DEEP_TOP)
    outer: int = option(DEEP_OUTER)
    inner: int = option(DEEP_INNER)

    def __post_init__(self) -> None:
        super().__post_init__()
        if min(self.top, self.outer, self.inner) < 1:
            raise ValueError("commit2 needs at least one commitment, outcome and inner layout")


class TwoLevelCommitPolicy(CommitPolicy):
    name = "commit2"
    Options = TwoLevelOptions
    options: TwoLevelOptions
    # decisions where the second level judged more than one commitment (a class default: the first
    # count makes it the policy's own)
    deep_decisions = 0

    def _pick(
        self, view: Observation, pairs: list[RevealingPair], layouts: list, judged: Judged, order: list[int], history
    ) -> int:
        wins = judged.won.sum(axis=0)
        chosen = _contenders(order, pairs, self.options.top)
        if len(chosen) == 1 or wins[order[0]] == 0:
            return order[0]
        self.deep_decisions += 1
        rng = self.rng(history)
        rng.integers(2**63)  # the first draw seeded commit's layouts
        base = sample_positions(view, self.options.inner, int(rng.integers(2**63)))
        score = {i: self._second_level(view, pairs[i].commitment, layouts[: self.options.outer], base) for i in chosen}
        return max(chosen, key=lambda i: (score[i], -order.index(i)))

    def _second_level(self, view: Observation, first: Commitment, outer: list[Position], base: list[Position]) -> float:
        """score2 of the commitment ``first``: over the outcomes of ``outer``, the best second commitment's share."""
        slots = view.hidden_slots()
        values: dict[tuple, float] = {}
        total = 0.0
        for layout in outer:
            after = play_commitment(layout, first, self.rules)
            seen = Observation.of(after)
            key = seen.key()
            if key not in values:
                cards = slot_cards(layout, slots)
                revealed = {s: c for s, c in zip(slots, cards, strict=True) if _turned_up(s, after)}
                conditioned = [play_commitment(_condition(view, slots, b, revealed), first, self.rules) for b in base]
                same = [q for q in conditioned if Observation.of(q).key() == key]
                values[key] = self._best_second(seen, same or [after])
            total += values[key]
        return total / len(outer)

    def _best_second(self, seen: Observation, positions: list[Position]) -> float:
        """The largest share of ``positions`` (all showing ``seen``) that one second commitment keeps winnable."""
        roots = [self._run(q) for q in positions]
        won = [k for k, r in enumerate(roots) if r.status == WON]
        if not won or seen.fully_known:
            return len(won) / len(positions)
        firsts = {k: first_commitment(seen, roots[k].line, self.rules) for k in won}
        best = 0
        for candidate, _ in Counter(firsts.values()).most_common():
            if best == len(won):
                break  # one commitment keeps every winnable layout: none can do better
            count = 0
            for n, k in enumerate(won):
                if count + len(won) - n <= best:
                    break  # cannot beat the best even by winning every layout left
                if firsts[k] == candidate:
                    count += 1
                elif candidate is not None:
                    count += self._run(play_commitment(positions[k], candidate, self.rules)).status == WON
            best = max(best, count)
        return best / len(positions)


def _contenders(order: list[int], pairs: list[RevealingPair], top: int) -> list[int]:
    """The ``top`` best commitments, and the best one that holds the tail if the tail deal is among them."""
    chosen = order[:top]
    if any(pairs[i].move.is_tail for i in chosen):
        later = next((i for i in order if not pairs[i].move.is_tail), None)
        if later is not None and later not in chosen:
            chosen.append(later)
    return chosen


def _turned_up(slot: tuple[int, int], after: Position) -> bool:
    """Whether a hidden slot of the view is face up in ``after`` (face-down cards and the tail keep their slots)."""
    i, j = slot
    return not after.tail if i < 0 else j >= after.hidden[i]


def _condition(view: Observation, slots: list, layout: Position, revealed: dict) -> Position:
    """``layout`` with the ``revealed`` cards swapped into their slots: uniform given them, if ``layout`` is."""
    cards = slot_cards(layout, slots)
    for slot, card in revealed.items():
        a, b = slots.index(slot), cards.index(card)
        cards[a], cards[b] = cards[b], cards[a]
    return view.filled(cards)
