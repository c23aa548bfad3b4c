"""Klaverjassen's variant tuple: the kernels take ``Rules.flags`` as ``rv`` and read
``rv[F_NAME]``; the indices must follow ``FLAGS`` and the tuple each variant option."""
import numpy as np
import pytest

import naive_klaverjassen as ref
from fastsim import klaverjassen_nb as knb
from fastsim import klaverjassen_schema as ks
from fastsim.cards import card_str, mask_of, parse_card


def test_indices_follow_flags():
    names = {k for k in vars(ks) if k.startswith("F_")}
    assert names == {"F_" + f.upper() for f in ks.FLAGS}
    for i, name in enumerate(ks.FLAGS):
        assert getattr(ks, "F_" + name.upper()) == i
        assert name in ks.Rules.__dataclass_fields__


@pytest.mark.parametrize("variants,on", [
    ((), ()),
    (("amsterdam",), ("amsterdam",)),
    (("undertrump=forced",), ("undertrump_forced",)),
    (("undertrump=never",), ()),
    (("four_of_a_kind=all_100",), ("all_100",)),
    (("four_of_a_kind=standard",), ()),
    (("amsterdam", "undertrump=forced", "four_of_a_kind=all_100"),
     ("amsterdam", "undertrump_forced", "all_100")),
])
def test_flags_reflect_each_variant(variants, on):
    rules = ks.build_rules(variants)
    rv = rules.flags
    assert isinstance(rv, tuple) and len(rv) == len(ks.FLAGS)
    assert all(type(x) is int for x in rv)          # one numba type: UniTuple(int64, n)
    assert rv == tuple(int(name in on) for name in ks.FLAGS)
    assert rv[ks.F_AMSTERDAM] == rules.amsterdam
    assert rv[ks.F_UNDERTRUMP_FORCED] == rules.undertrump_forced
    assert rv[ks.F_ALL_100] == rules.all_100


@pytest.mark.parametrize("variant", ["amsterdam", "undertrump=forced"])
def test_the_kernel_reads_its_variant_at_its_index(variant):
    """Void in spades, diamonds trump, the partner winning with a low heart trumped by
    me? — positions where exactly this variant changes the legal cards, each checked
    against the reference with only that flag set."""
    rules = ks.build_rules((variant,))
    kw = dict(amsterdam=rules.amsterdam, undertrump_forced=rules.undertrump_forced)
    changed = 0
    for hand, trick, trump, pw in [(["7S", "AD"], ["8H", "JS"], "S", True),
                                   (["7S", "AD"], ["8H", "JS"], "S", False),
                                   (["7H", "8H", "KD", "AD"], ["KS", "AS", "8S"], "H", True)]:
        t = "SHDC".index(trump)
        codes = [parse_card(c) for c in trick]
        led, winner, hi = codes[0] >> 4, -1, -1
        for j, c in enumerate(codes):
            if j == 0 or knb.beats_nb(c, winner, led, t):
                winner = c
            if c >> 4 == t and (hi < 0 or knb.strength_nb(c, t) > knb.strength_nb(hi, t)):
                hi = c
        got = int(knb.legal_nb(np.int64(mask_of(parse_card(c) for c in hand)), led, t, hi, pw,
                               rules.flags))
        exp = mask_of(parse_card(c) for c in ref.legal_cards(hand, trick, trump, pw, **kw)[0])
        base = mask_of(parse_card(c) for c in ref.legal_cards(hand, trick, trump, pw)[0])
        assert got == exp, [card_str(c) for c in range(64) if got >> c & 1]
        changed += exp != base
    assert changed        # the variant matters in at least one of them


def test_explain_names_a_variant_its_wording_does_not_know(monkeypatch):
    """``troef explain`` takes the legal cards from the kernel; where a variant its wording
    does not describe changes them, the rule line names the variant instead of a description
    written for other rules (here: the wording made to forget Amsterdam)."""
    from analyzer import explain
    args = dict(trump="S", trick="KH 8H", hand="7S AD")        # partner winning, void in hearts
    known = explain.explain_klaverjassen(**args, variants=("amsterdam",))
    assert known["legal"] == ["7S", "AD"] and "amsterdam" in known["rule"]
    monkeypatch.setattr(explain, "DESCRIBED", ("undertrump_forced", "all_100"))
    out = explain.explain_klaverjassen(**args, variants=("amsterdam",))
    assert out["legal"] == ["7S", "AD"]
    assert out["rule"].startswith("the cards the rules in force allow (variant amsterdam")
    # where the variant changes nothing, the usual wording stays
    same = explain.explain_klaverjassen(trump="S", trick="KH", hand="7H AH JS",
                                        variants=("amsterdam",))
    assert same["rule"] == "must follow the led suit (any card of it)"
    assert explain.explain_klaverjassen(**args)["rule"] == "void in the led suit: must trump"
