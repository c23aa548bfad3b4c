"""Exact probabilities of 1-card deals (docs/rules.md §1) against the engine."""
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from fastsim import boerenbridge as bb


def exact_leader_win(n):
    """P(the leader wins a 1-card deal with n players), by exact enumeration.

    By suit symmetry fix the trump suit; enumerate the turned card's rank and the
    leader's card. The followers' n−1 cards are a uniform (n−1)-subset of the other 50,
    and the leader wins exactly when none of them beats the led card: a higher trump,
    or (non-trump lead) a higher card of the led suit or any trump.
    """
    total = Fraction(0)
    for turned in range(13):                          # rank of the turned trump card
        for lead_suit in range(4):                    # suit 0 is trump
            for lead_rank in range(13):
                if lead_suit == 0 and lead_rank == turned:
                    continue
                higher = 12 - lead_rank
                if lead_suit == 0:
                    beaters = higher - (1 if turned > lead_rank else 0)
                else:
                    beaters = higher + 12             # higher of the suit + the 12 live trumps
                total += Fraction(comb(50 - beaters, n - 1), comb(50, n - 1))
    return total / (13 * 51)


def test_enumerator_reproduces_the_rules_fact():
    assert exact_leader_win(4) == Fraction(7699, 20825)


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_engine_matches_exact_win_rates(n):
    deals = 300_000
    rules = bb.build_rules(players=n, hand_size=1, first_dealer=n - 1)   # seat p = position p
    res = bb.simulate(rules, deals, seed=1000 + n, policies=bb.parse_seat_policies(n, "random"))
    wins = res.deals["tricks"].astype(np.float64).mean(axis=0)
    p_lead = float(exact_leader_win(n))
    p_other = (1 - p_lead) / (n - 1)                  # followers are exchangeable
    for pos in range(n):
        p = p_lead if pos == 0 else p_other
        se = (p * (1 - p) / deals) ** 0.5
        assert abs(wins[pos] - p) < 4.5 * se, (pos, wins[pos], p)


def test_one_card_outcome_depends_only_on_the_cards():
    rules = bb.build_rules(players=5, hand_size=1)
    a = bb.simulate(rules, 50_000, seed=4, policies=bb.parse_seat_policies(5, "random"))
    b = bb.simulate(rules, 50_000, seed=4, policies=bb.parse_seat_policies(5, "heuristic"))
    assert (a.deals["hands"] == b.deals["hands"]).all()
    assert (a.deals["tricks"] == b.deals["tricks"]).all()
    assert (a.deals["bids"] != b.deals["bids"]).any()
