"""The variant tuple the kernels take (``Rules.flags``, docs/architecture.md "Adding a
variant"): one int per setting in the schema's ``FLAGS`` order, read by the kernels as
``rv[F_NAME]``."""
import pytest

from fastsim import boerenbridge_schema as bbs, bonken_schema as bos, klaverjassen_schema as kjs

INDEX = {
    bbs: {"scoring_id": "F_SCORING", "bauer_bonus": "F_BAUER", "dealer_rule": "F_DEALER_RULE",
          "blind_one_card": "F_BLIND"},
    kjs: {"amsterdam": "F_AMSTERDAM", "undertrump_forced": "F_UNDERTRUMP_FORCED",
          "all_100": "F_ALL_100"},
    bos: {"hearts_after_broken": "F_HEARTS_AFTER_BROKEN"},
}


@pytest.mark.parametrize("schema", list(INDEX), ids=lambda s: s.GAME)
def test_indices_follow_the_flags_order(schema):
    assert set(schema.FLAGS) == set(INDEX[schema])
    for i, name in enumerate(schema.FLAGS):
        assert getattr(schema, INDEX[schema][name]) == i


BB = lambda v: bbs.build_rules(players=4, hand_size=8, variants=v).flags    # noqa: E731


@pytest.mark.parametrize("flags, expected", [
    (BB([]), (0, 0, 1, 0)),
    (BB(["scoring=hard"]), (1, 0, 1, 0)),
    (BB(["scoring=dutch", "bauer_bonus"]), (2, 1, 1, 0)),
    (BB(["dealer_rule=off"]), (0, 0, 0, 0)),
    (BB(["blind_one_card"]), (0, 0, 1, 1)),
    (kjs.build_rules([]).flags, (0, 0, 0)),
    (kjs.build_rules(["amsterdam"]).flags, (1, 0, 0)),
    (kjs.build_rules(["undertrump=forced"]).flags, (0, 1, 0)),
    (kjs.build_rules(["four_of_a_kind=all_100"]).flags, (0, 0, 1)),
    (bos.build_rules([]).flags, (0,)),
    (bos.build_rules(["hearts_lead=after_broken"]).flags, (1,)),
    (bos.build_rules(["fixed_order"]).flags, (0,)),
])
def test_flags_reflect_each_variant(flags, expected):
    assert flags == expected
    assert all(type(x) is int for x in flags)     # numba types the tuple UniTuple(int64, n)
