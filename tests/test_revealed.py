"""What a legal play reveals about the player's hand (Klaverjassen, Boonaken): the play
queries derive it from the engine's legality kernel (``revealed_nb``: card ``x`` is ruled
out when the play would have been illegal in the hand {card, x}), so a variant that changes
the legal cards changes the inference with it. Checked three ways:

* against the slow reference engines' own legality (``tests/naive_*.py``) on random tricks;
* sound on real hands: a hand in which the play is legal never holds a revealed card;
* exhaustively equal to the rules the queries used to restate by hand (kept below as
  ``_hand_written_*``), so the change of method changed no answer.
"""
import itertools
import random

import numpy as np
import pytest

import naive_boonaken as nbo
import naive_klaverjassen as nkj
from naive_common import DECK32_CODES, card_str
from fastsim import boonaken_play_nb as bpq
from fastsim import klaverjassen_play_nb as kpq
from fastsim.boonaken_schema import PLAIN_STRENGTH, PRESET_LEIMUIDEN, PRESETS, TRUMP_STRENGTH
from fastsim.cards import FULL32
from fastsim.klaverjassen_schema import TRUMP_ABOVE, build_rules

SUIT = [int(FULL32) & (0x1FFF << (16 * s)) for s in range(4)]
KJ_VARIANTS = [(), ("amsterdam",), ("undertrump=forced",), ("amsterdam", "undertrump=forced")]
SUITS = "SHDC"


def _mask(cards):
    return sum(1 << c for c in cards)


def _tc(trick):
    a = np.zeros(4, dtype=np.int64)
    a[:len(trick)] = trick
    return a


def _hand_written_kj(card, led, trump, hi, partner_winning, amsterdam, undertrump_forced):
    """Klaverjassen: what the play query revealed before it asked the kernel."""
    if led < 0:
        return 0
    s = card >> 4
    tmask = SUIT[trump]
    above = tmask if hi < 0 else int(TRUMP_ABOVE[hi & 15]) << (16 * trump)
    if led == trump:
        if s != trump:
            return tmask
        return 0 if above >> card & 1 else above
    if s == led:
        return 0
    out = SUIT[led]
    side = int(FULL32) & ~tmask & ~SUIT[led]
    if s == trump:
        if above >> card & 1:
            return out
        if amsterdam and partner_winning:
            return out | side
        out |= above
        if not undertrump_forced:
            out |= side
        return out
    if amsterdam and partner_winning:
        return out
    return out | (tmask if undertrump_forced else above)


def _stronger(c, d, trump):
    def st(x):
        return int(TRUMP_STRENGTH[x & 15]) + 8 if x >> 4 == trump else int(PLAIN_STRENGTH[x & 15])
    return st(c) > st(d)


def _hand_written_bo(card, led, trump, hi, preset):
    """Boonaken: what the play query revealed before it asked the kernel."""
    if led < 0:
        return 0
    s = card >> 4
    tm = SUIT[trump] if trump >= 0 else 0
    if preset != PRESET_LEIMUIDEN:
        if s == led:
            return 0
        return SUIT[led] | (tm if s != trump else 0)
    if trump >= 0 and led == trump:
        jack = 1 << (16 * trump + 9)
        return 0 if s == trump else tm & ~jack
    if s == led:
        return 0
    if trump >= 0 and s == trump:
        if hi >= 0 and _stronger(hi, card, trump):
            low = [x for x in DECK32_CODES if x >> 4 == trump and _stronger(hi, x, trump)]
            return int(FULL32) & ~_mask(low)
        return 0
    return SUIT[led]


@pytest.mark.parametrize("variants", KJ_VARIANTS)
def test_klaverjassen_same_as_the_hand_written_rule(variants):
    """Every (trump, led suit, highest trump, partner winning, card): the kernel's inference
    equals the hand-written one on every card but the one played."""
    rules = build_rules(variants)
    n = 0
    for trump, led, pw in itertools.product(range(4), range(-1, 4), (False, True)):
        his = [-1] + [c for c in DECK32_CODES if c >> 4 == trump]
        for hi, card in itertools.product(his, DECK32_CODES):
            if card == hi:
                continue
            got = int(kpq.revealed_nb(card, led, trump, hi, pw, rules.flags))
            want = _hand_written_kj(card, led, trump, hi, pw, rules.amsterdam,
                                    rules.undertrump_forced) & ~(1 << card)
            assert got == want, (card_str(card), led, trump, hi, pw)
            n += got != 0
    assert n > 1000


@pytest.mark.parametrize("preset", range(len(PRESETS)))
def test_boonaken_same_as_the_hand_written_rule(preset):
    n = 0
    for trump, led in itertools.product(range(-1, 4), range(-1, 4)):
        his = [-1] + [c for c in DECK32_CODES if c >> 4 == trump]
        for hi, card in itertools.product(his, DECK32_CODES):
            if card == hi:
                continue
            got = int(bpq.revealed_nb(card, led, trump, hi, preset))
            want = _hand_written_bo(card, led, trump, hi, preset) & ~(1 << card)
            assert got == want, (card_str(card), led, trump, hi, PRESETS[preset])
            n += got != 0
    assert n > 500


def _random_trick(rng):
    deck = list(DECK32_CODES)
    rng.shuffle(deck)
    k = rng.randrange(1, 4)
    return deck[:k], deck[k:]


@pytest.mark.parametrize("variants", KJ_VARIANTS)
def test_klaverjassen_against_the_reference_legality(variants):
    """x is revealed absent exactly when the reference engine would not let the card be
    played from {card, x}; and a real hand in which the play is legal holds no revealed
    card."""
    rules = build_rules(variants)
    kw = dict(amsterdam=rules.amsterdam, undertrump_forced=rules.undertrump_forced)
    rng = random.Random(hash(variants) & 0xFFFF)
    shown = 0
    for _ in range(400):
        trick, rest = _random_trick(rng)
        trump = rng.randrange(4)
        pw = len(trick) >= 2 and rng.random() < 0.5
        led, _, _, hi, _, _ = kpq.trick_state_nb(_tc(trick), len(trick), 0, trump)
        strs = [card_str(c) for c in trick]
        for card in rest[:6]:
            f = int(kpq.revealed_nb(card, led, trump, hi, pw, rules.flags))
            for x in rest:
                if x == card:
                    continue
                legal, _ = nkj.legal_cards([card_str(card), card_str(x)], strs, SUITS[trump],
                                           pw, **kw)
                assert (f >> x & 1) == (card_str(card) not in legal)
            hand = [card] + rng.sample([x for x in rest if x != card], 7)
            legal, _ = nkj.legal_cards([card_str(c) for c in hand], strs, SUITS[trump], pw, **kw)
            if card_str(card) in legal:
                assert f & _mask(hand) == 0
            shown += f != 0
    assert shown > 300


@pytest.mark.parametrize("preset", range(len(PRESETS)))
def test_boonaken_against_the_reference_legality(preset):
    name = PRESETS[preset]
    rng = random.Random(preset)
    shown = 0
    for _ in range(400):
        trick, rest = _random_trick(rng)
        trump = rng.randrange(-1, 4)
        led, _, _, hi, _ = bpq.trick_state_nb(_tc(trick), len(trick), trump)
        strs = [card_str(c) for c in trick]
        t = None if trump < 0 else SUITS[trump]
        for card in rest[:6]:
            f = int(bpq.revealed_nb(card, led, trump, hi, preset))
            for x in rest:
                if x == card:
                    continue
                legal = nbo.legal_cards([card_str(card), card_str(x)], strs, t, name)
                assert (f >> x & 1) == (card_str(card) not in legal)
            hand = [card] + rng.sample([x for x in rest if x != card], 7)
            if card_str(card) in nbo.legal_cards([card_str(c) for c in hand], strs, t, name):
                assert f & _mask(hand) == 0
            shown += f != 0
    assert shown > 200
