"""The jitted deal generator: deal number to the kernel's compact state, in a few microseconds.

The jitted twin of ``game.deal`` (PySolFC's Scorpion deals, docs/rules.md "Deal
numbers"): the Microsoft FreeCell generator below 32000, CPython's Mersenne
Twister seeded with the deal number from 32000 on (``random.Random(n)``:
``init_by_array`` over the number's 32-bit words, then ``random()`` from two
outputs, and PySolFC's ``randint(a, b) = a + int(random() * (b + 1 - a))``),
the same Fisher-Yates shuffle. ``DealWriter`` hands the shuffled deck to
``kernel.write_deal``, which deals it (from the end of the deck, seven rows of
seven, then the tail) straight into a compact state vector, so a batch skips
the ``Position`` and ``to_compact`` of a deal it only needs to search.

All integer arithmetic is in int64 (the Mersenne Twister's 32-bit words and
products stay below 2^63), so no uint64 mixing turns into float64.

No jitted function here calls ``kernel`` (numba's cache does not notice edits
across files): the shuffle knows nothing of the state layout, which only
``kernel`` holds, and the two meet in plain Python (``DealWriter``). The
generator switch is a constant of its own, which the tests compare with
``game.deal``'s, and the tests compare every state written with
``to_compact(game.deal.deal(n))``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..game.deal import check_deal_number
from . import kernel

MS_LIMIT = 32000  # game.deal's switch to the Mersenne Twister (a constant here too: jitted code freezes globals)
MT_N = 624
MT_M = 397
MASK32 = 0xFFFFFFFF
MAX_WORDS = 2  # deal numbers below 2^64 go through the kernel; larger ones through game.deal

JIT = dict(cache=True, nogil=True)


@nb.njit(**JIT)
def _mt_seed(mt, key, nkey):
    """CPython's init_by_array (after init_genrand(19650218))."""
    mt[0] = 19650218
    for i in range(1, MT_N):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & MASK32
    i, j = 1, 0
    for _ in range(max(MT_N, nkey)):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & MASK32
        i += 1
        j += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        if j >= nkey:
            j = 0
    for _ in range(MT_N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & MASK32
        i += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
    mt[0] = 0x80000000


@nb.njit(**JIT)
def _mt_twist(mt, count):
    """Regenerate the first ``count`` words of the state (all that one deal draws: 102 of 624).

    Word k of a twist reads the old words k + 1 and k + 397 (mod 624), so the
    first ``count <= 227`` new words need none of the others new.
    """
    for k in range(count):
        y = (mt[k] & 0x80000000) | (mt[k + 1] & 0x7FFFFFFF)
        mt[k] = mt[k + MT_M] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)


@nb.njit(**JIT)
def _mt_output(mt, k):
    y = mt[k]
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@nb.njit(**JIT)
def _shuffle(number, key, nkey, deck, mt):
    """PySolFC's shuffle of game ``number`` into ``deck`` (the 52 cards, dealt from the end)."""
    if number < MS_LIMIT:
        k = 0
        for rank in range(13):
            for suit in (0, 3, 2, 1):  # the FreeCell order: AC AD AH AS 2C ...
                deck[k] = suit * 13 + rank
                k += 1
        state = number
        for i in range(51, 0, -1):
            state = (state * 214013 + 2531011) & MASK32
            j = ((state >> 16) & 0x7FFF) % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return
    for k in range(52):
        deck[k] = k
    _mt_seed(mt, key, nkey)
    _mt_twist(mt, 102)
    w = 0
    for i in range(51, 0, -1):
        a = _mt_output(mt, w) >> 5
        b = _mt_output(mt, w + 1) >> 6
        w += 2
        r = (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)
        j = int(r * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]


@nb.njit(**JIT)
def shuffle_many(numbers, words, nwords, decks, mt):
    """``_shuffle`` for every deal of a chunk: deal ``numbers[i]`` (its words ``words[i, :nwords[i]]``) into ``decks[i]``."""
    for i in range(numbers.shape[0]):
        _shuffle(min(numbers[i], MS_LIMIT), words[i], nwords[i], decks[i], mt)


class DealWriter:
    """Deals into compact states with its own scratch (one per thread)."""

    def __init__(self) -> None:
        self.key = np.zeros(MAX_WORDS, dtype=np.int64)
        self.deck = np.zeros(52, dtype=np.int64)
        self.mt = np.zeros(MT_N, dtype=np.int64)
        self._face_down: dict[tuple[int, ...], np.ndarray] = {}

    def face_down(self, counts: tuple[int, ...]) -> np.ndarray:
        array = self._face_down.get(counts)
        if array is None:
            array = self._face_down[counts] = np.array(counts, dtype=np.int8)
        return array

    def deal_into(self, number: int, face_down: tuple[int, ...], state: np.ndarray) -> bool:
        """Write deal ``number`` into ``state``; False (state untouched) for numbers from 2^64 on."""
        check_deal_number(number)
        if number >> 32 == 0:
            self.key[0] = number
            nkey = 1
        elif number >> 64 == 0:
            self.key[0] = number & MASK32
            self.key[1] = number >> 32
            nkey = 2
        else:
            return False
        _shuffle(min(number, MS_LIMIT), self.key, nkey, self.deck, self.mt)
        kernel.write_deal(self.deck, self.face_down(face_down), state)
        return True

    def deal_many(self, numbers: np.ndarray, face_down: tuple[int, ...], states: np.ndarray) -> None:
        """Write deals ``numbers`` (int64, 1 to 2^63 - 1, checked) into the rows of ``states`` in one call."""
        if numbers.size and (numbers.min() < 1):
            check_deal_number(int(numbers.min()))
        words = np.empty((numbers.size, MAX_WORDS), dtype=np.int64)
        words[:, 0] = numbers & MASK32
        words[:, 1] = numbers >> 32
        nwords = np.where(words[:, 1] == 0, 1, 2).astype(np.int64)
        decks = np.empty((numbers.size, 52), dtype=np.int64)
        shuffle_many(numbers, words, nwords, decks, self.mt)
        kernel.write_deals(decks, self.face_down(face_down), states)
