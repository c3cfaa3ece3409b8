"""Golden deals: deal N is PySolFC's Scorpion game N (docs/rules.md, "Deal numbers").

The layouts below were produced once by the package and cross-checked against
the independent package pysol-cards (shuffle(createCards(1), n,
RandomBase.DEALS_PYSOLFC), and for n = 32000 its Mersenne Twister generator
MTRandom directly, because pysol-cards switches generators at n > 32000 while
PySolFC and docs/rules.md switch at n >= 32000). pysol-cards is not a test
dependency: the goldens are pasted as text.
"""

from __future__ import annotations

import pytest

from scorpion_solver import CLASSIC, CLEAR, deal, format_position
from scorpion_solver.game.cards import card_text
from scorpion_solver.game.deal import dealt_order, layout
from scorpion_solver.game.rules import PRESETS, SCORPION2, get_rules

GOLDEN = {
    1: """\
col1: JD* 5H* KH* AS 4H TH 8D
col2: 2D* KD* 3H* AH AC 8H QS
col3: 9H* KC* 2S* 3C 4D 2C 6C
col4: JC* 9S* KS* 4C 7S JH 3D
col5: 5D 5S 9D 5C 3S 7D 8C
col6: 7H AD QD TS TD 6D TC
col7: 7C QC JS QH 4S 8S 6S
tail: 9C 2H 6H""",
    617: """\
col1: 7D* AH* AS* 8D 8S 9H 2H
col2: AD* TD* KH* 3D 7H 7C 5D
col3: 5C* 7S* TH* TC 4D 6H JC
col4: 3S* QD* QC* KD JS 2C 6C
col5: 5S AC 3H 5H 4C 2S JH
col6: 8C 6D 9D 9S QS 4S QH
col7: 2D 8H 6S 3C 9C TS JD
tail: KS KC 4H""",
    31999: """\
col1: JD* JC* 8D* 6C 2S TD 9S
col2: JH* AC* 6H* QC 8S TS 2C
col3: AD* TH* AH* JS 3C 3H KD
col4: QH* AS* 7H* 9C 7D 4S 9H
col5: KH 8H 7C 3D 5H KC KS
col6: 6S 9D 5D 5C 8C TC 5S
col7: 6D 2H 7S 4C 4H 4D QS
tail: 2D QD 3S""",
    32000: """\
col1: 7S* TH* 9C* 9H AD JH 2D
col2: 4D* JC* 2S* KD QH TD 5D
col3: JS* 3C* 4H* QD TC 3S KS
col4: 8D* 2C* 6S* 6H 4C 7H QC
col5: 6D 5S 8S 7D AH 8C KH
col6: 3H 9D 9S 5H JD 6C 5C
col7: 3D AC TS QS 4S 2H 7C
tail: 8H KC AS""",
    32001: """\
col1: 4C* KH* 3D* AS TH 5C AD
col2: AC* JC* JS* 3C 8D QH 6H
col3: JD* 4S* 7S* 4H 2S 5D 3H
col4: 8H* 7H* 2H* QD AH 5H KS
col5: 5S TC TD TS 9D QS 4D
col6: 6S JH 8S QC KD 6C KC
col7: 6D 2D 9C 2C 9S 7D 3S
tail: 8C 9H 7C""",
    100000: """\
col1: 5C* 4H* QD* 5D 6H 7S 7D
col2: 2D* 5S* TS* 4C 2S KH KS
col3: 9H* 2H* JD* 8C AD JC AS
col4: 6D* 6S* 8H* 7H KC TC 6C
col5: TH 4D 5H 8S QC 8D QH
col6: 4S JS QS 7C AH 3S KD
col7: TD 9S 2C JH 9C 9D 3H
tail: 3C 3D AC""",
    1000000: """\
col1: TD* KD* QD* 7S 8C 5S KC
col2: AD* TC* 6D* 6S 6C AH 5C
col3: 8D* 4C* 5H* 9H 4H JH QH
col4: 7C* 4S* 2S* 3C KH 8S 2C
col5: 7H 4D JD JS QS 3D TH
col6: 3S QC 9C 6H TS 8H JC
col7: KS 3H 5D 2H 7D 9S 9D
tail: AS 2D AC""",
    2**32 + 1: """\
col1: KC* 6C* QS* QH 3D QD 6D
col2: AH* 5D* 9H* AC 6S 8H AS
col3: 8S* JC* KH* 2H 6H 7C TC
col4: 5C* 5S* 4D* 2S 4S TD 3C
col5: 4H 7D TS 9C KS 3H 7S
col6: 7H 5H 2C KD 8C 9S QC
col7: 8D 9D 4C AD 3S 2D TH
tail: JD JS JH""",
}


@pytest.mark.parametrize("number", sorted(GOLDEN))
def test_golden_layout(number):
    assert str(deal(number)) == GOLDEN[number]


@pytest.mark.parametrize("number", sorted(GOLDEN))
def test_format_position_of_golden(number):
    assert format_position(deal(number)) == GOLDEN[number] + "\n"
    assert format_position(deal(number, CLASSIC), CLASSIC) == "mode: classic\n" + GOLDEN[number] + "\n"


def test_deal_32000_matches_the_text_of_rules_md():
    text = str(deal(32000))
    assert text.splitlines()[0] == "col1: 7S* TH* 9C* 9H AD JH 2D"
    assert text.splitlines()[-1] == "tail: 8H KC AS"


@pytest.mark.parametrize("number", sorted(GOLDEN))
def test_deal_shape(number):
    pos = deal(number)
    assert [len(c) for c in pos.columns] == [7] * 7
    assert pos.hidden == (3, 3, 3, 3, 0, 0, 0)
    assert len(pos.tail) == 3
    assert sorted(pos.cards_in_play()) == list(range(52))
    assert pos.frozen == frozenset()


def _dealing_order(pos):
    """The cards in the order they were dealt: row by row over the columns, then the tail."""
    return [card_text(pos.columns[k % 7][k // 7]) for k in range(49)] + [card_text(c) for c in pos.tail]


# Microsoft FreeCell deals as published (eight columns, row by row).
FREECELL_1 = """
JD 2D 9H JC 5D 7H 7C 5H
KD KC 9S 5S AD QC KH 3H
2S KS 9D QD JS AS AH 3C
4C 5C TS QH 4H AC 4D 7S
3S TD 4S TH 8H 2C JH 7D
6D 8S 8D QS 6C 3D 8C TC
6S 9C 2H 6H
"""
FREECELL_617 = """
7D AD 5C 3S 5S 8C 2D AH
TD 7S QD AC 6D 8H AS KH
TH QC 3H 9D 6S 8D 3D TC
KD 5H 9S 3C 8S 7H 4D JS
4C QS 9C 9H 7C 6H 2C 2S
4S TS 2H 5D JC 6C JH QH
JD KS KC 4H
"""


@pytest.mark.parametrize("number, freecell", [(1, FREECELL_1), (617, FREECELL_617)])
def test_ms_deals_are_freecell_deals_read_seven_to_a_row(number, freecell):
    assert _dealing_order(deal(number)) == freecell.split()


def test_deal_1_read_seven_to_a_row():
    rows = [" ".join(_dealing_order(deal(1))[i : i + 7]) for i in range(0, 52, 7)]
    assert rows == [
        "JD 2D 9H JC 5D 7H 7C",
        "5H KD KC 9S 5S AD QC",
        "KH 3H 2S KS 9D QD JS",
        "AS AH 3C 4C 5C TS QH",
        "4H AC 4D 7S 3S TD 4S",
        "TH 8H 2C JH 7D 6D 8S",
        "8D QS 6C 3D 8C TC 6S",
        "9C 2H 6H",
    ]


def _spec_deal(n, force_ms=False):
    """docs/rules.md 'Deal numbers', written out again independently of the package: str() of the deal."""
    import random

    suits, ranks = "CSHD", "A23456789TJQK"
    if n < 32000 or force_ms:
        deck = [13 * s + r for r in range(13) for s in (0, 3, 2, 1)]  # AC AD AH AS 2C ...
        state = n

        def randint(a, b):
            nonlocal state
            state = (state * 214013 + 2531011) % 2**32
            return a + ((state >> 16) & 0x7FFF) % (b + 1 - a)
    else:
        deck = list(range(52))
        rng = random.Random(n)

        def randint(a, b):
            return a + int(rng.random() * (b + 1 - a))

    for i in range(51, 0, -1):
        j = randint(0, i)
        deck[i], deck[j] = deck[j], deck[i]
    dealt = [deck[51 - k] for k in range(52)]

    def text(c):
        return ranks[c % 13] + suits[c // 13]

    lines = []
    for col in range(7):
        cards = [text(dealt[k]) + ("*" if k // 7 < 3 and col < 4 else "") for k in range(col, 49, 7)]
        lines.append(f"col{col + 1}: " + " ".join(cards))
    lines.append("tail: " + " ".join(text(c) for c in dealt[49:]))
    return "\n".join(lines)


@pytest.mark.parametrize(
    "number", [1, 2, 3, 617, 11982, 31998, 31999, 32000, 32001, 32767, 32768, 99999, 2**31, 2**32 + 1]
)
def test_deal_follows_rules_md_step_by_step(number):
    assert str(deal(number)) == _spec_deal(number)


def test_spec_reimplementation_reproduces_the_goldens():
    for number, golden in GOLDEN.items():
        assert _spec_deal(number) == golden


def test_32000_uses_the_mersenne_twister():
    # pysol-cards would use the Microsoft generator for 32000; PySolFC and docs/rules.md do not.
    ms_32000 = _spec_deal(32000, force_ms=True)
    assert ms_32000 != GOLDEN[32000]
    assert str(deal(32000)) == GOLDEN[32000]


@pytest.mark.parametrize("bad", [0, -1, -32000])
def test_deal_numbers_below_one_are_refused(bad):
    with pytest.raises(ValueError, match=f"got {bad}"):
        deal(bad)


@pytest.mark.parametrize("bad", [True, 1.0, "1", None])
def test_deal_numbers_must_be_integers(bad):
    with pytest.raises(ValueError, match="integer"):
        deal(bad)


def test_deal_is_the_same_for_clear_and_classic():
    assert deal(5, CLASSIC) == deal(5, CLEAR) == deal(5)


SCORPION2_1 = """\
col1: JD* 5H* KH* AS 4H TH 8D
col2: 2D* KD* 3H* AH AC 8H QS
col3: 9H* KC* 2S* 3C 4D 2C 6C
col4: JC 9S KS 4C 7S JH 3D
col5: 5D 5S 9D 5C 3S 7D 8C
col6: 7H AD QD TS TD 6D TC
col7: 7C QC JS QH 4S 8S 6S
tail: 9C 2H 6H"""


def test_scorpion2_face_down_pattern():
    pos = deal(1, SCORPION2)
    assert pos.hidden == (3, 3, 3, 0, 0, 0, 0)
    assert str(pos) == SCORPION2_1


@pytest.mark.parametrize("number", sorted(GOLDEN))
def test_scorpion2_deals_the_same_cards(number):
    easy, plain = deal(number, SCORPION2), deal(number)
    assert easy.columns == plain.columns
    assert easy.tail == plain.tail
    assert easy.hidden == (3, 3, 3, 0, 0, 0, 0)
    assert str(easy) == GOLDEN[number].replace(
        str(plain).splitlines()[3], "col4: " + " ".join(card_text(c) for c in plain.columns[3])
    )


@pytest.mark.parametrize("mode", list(PRESETS))
def test_dealt_order_is_the_inverse_of_layout_in_every_preset(mode):
    """``dealt_order`` gives back the cards ``layout`` dealt (the server's tests deal a deal's cards as a
    secret shuffle with it), in every shape: rows, cards dealt at the start, the tail, the reserves."""
    rules = get_rules(mode)
    for number in (1, 5, 617):
        position = deal(number, rules)
        order = dealt_order(position, rules)
        assert sorted(order) == list(range(rules.num_cards)) and layout(order, rules) == position
