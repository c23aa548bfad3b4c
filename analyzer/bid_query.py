""""What should I bid?" — the Boerenbridge bid query.

Given my hand, the turned card, my position and (optionally) the earlier bids, sample the
unseen cards consistently with everything known, play every sampled deal once per
candidate bid (me playing to make that bid, the others playing the chosen policy) and
report, for each bid, P(exact), the expected score with 95% intervals and my trick
distribution. numpy only: an interactive query does not import pandas.
"""
import numpy as np


from fastsim import boerenbridge_nb as nb
from fastsim.boerenbridge_schema import PIMC_WORLDS, POLICIES, SCORING, RulesError, build_rules
from fastsim.cards import CardError, card_str, mask_of, parse_card, parse_cards, suit_str
from . import limits
from .stats_core import check_query, check_worlds, mean_ci, wilson

DEFAULT_SAMPLES = 20_000
MAX_DRAW_FACTOR = 50
CHUNK = 256


def parse_bids(text):
    if text is None or (isinstance(text, str) and text.strip() == ""):
        return None
    if isinstance(text, str):
        try:
            return [int(x) for x in text.replace(" ", "").split(",")]
        except ValueError:
            raise RulesError(f"--bids-before must be integers separated by commas, got {text!r}") from None
    return [int(x) for x in text]


def bid_query(players, hand, trump_card, position, bids_before=None, samples=DEFAULT_SAMPLES,
              policy="heuristic", variants=(), seed=0, notation="en", threads=None,
              worlds=PIMC_WORLDS):
    """Answer the bid query; returns a dict (the ``--json`` shape plus a few extras)."""
    codes = parse_cards(hand, notation) if isinstance(hand, str) else list(hand)
    h = len(codes)
    if h == 0:
        raise CardError("--hand is empty")
    rules = build_rules(players=players, hand_size=h, variants=variants)
    n = rules.players
    turned = parse_card(trump_card, notation) if isinstance(trump_card, str) else int(trump_card)
    if turned in codes:
        raise CardError(f"the turned card {card_str(turned, notation)} cannot also be in the hand")
    if isinstance(position, bool) or not isinstance(position, (int, np.integer)) \
            or not 0 <= position < n:
        raise RulesError(f"position must be 0..{n - 1} (0 = left of the dealer, {n - 1} = dealer), got {position}")
    given = parse_bids(bids_before)
    if given is None:
        if position == n - 1 and rules.dealer_rule:
            raise RulesError("the dealer's bid depends on the earlier bids: give --bids-before")
    else:
        if len(given) != position:
            raise RulesError(f"position {position} bids after {position} players; "
                             f"got {len(given)} earlier bids")
        for b in given:
            if not 0 <= b <= h:
                raise RulesError(f"impossible earlier bid {b}: bids are 0..{h} with {h} cards")
    seed_u = check_query(policy, POLICIES, samples, seed, threads)
    limits.check_samples(samples, 24 * (h + 1), 4 * (h + 1) + 1, "bid")

    notrump = bool(rules.notrump[0])
    trump = -1 if notrump else turned // 16
    known = set(codes) | {turned}
    unseen = np.array([c for c in range(64) if c % 16 < 13 and c not in known], dtype=np.int64)
    given_arr = np.full(n, -1, dtype=np.int64)
    if given is not None:
        given_arr[:position] = given
    # Earlier heuristic bids reveal information about those hands: sample and reject
    # until `samples` consistent deals are found (or the draw budget is spent). A random
    # bidder's bid says nothing about the hand, so nothing is rejected then.
    pol = POLICIES[policy]
    condition = given is not None and position > 0 and pol != POLICIES["random"]
    tricks_parts, scores_parts = [], []
    kept = drawn = accepted = 0
    budget = samples * MAX_DRAW_FACTOR if condition else samples
    while kept < samples and drawn < budget:
        need = samples - kept
        if condition and drawn:
            rate = max(accepted / drawn, 0.002)
            need = int(need / rate * 1.1) + 256
        batch = need
        batch = limits.batch(min(batch, budget - drawn))
        ok = np.zeros(batch, dtype=np.bool_)
        tr = np.zeros((batch, h + 1), dtype=np.int8)
        sc = np.zeros((batch, h + 1), dtype=np.int16)
        nb.bid_query_nb(seed_u, n, h, position, np.int64(mask_of(codes)), turned, trump,
                        unseen, given_arr, condition, pol, SCORING[rules.scoring],
                        rules.bauer_bonus, rules.dealer_rule, rules.blind_one_card,
                        np.int64(check_worlds(worlds)), np.int64(drawn), np.int64(batch), np.int64(CHUNK), ok, tr, sc)
        accepted += int(ok.sum())
        idx = np.flatnonzero(ok)[: samples - kept]
        tricks_parts.append(tr[idx])
        scores_parts.append(sc[idx])
        kept += len(idx)
        drawn += batch
    if kept == 0:
        raise RulesError(f"no deal out of {drawn:,} sampled is consistent with the earlier bids "
                         f"{','.join(map(str, given))} under the {policy} policy; "
                         "try --policy random")
    tricks = np.concatenate(tricks_parts).astype(np.int64)
    scores = np.concatenate(scores_parts).astype(np.float64)
    m = len(tricks)

    forbidden = None
    if position == n - 1 and rules.dealer_rule:
        f = h - sum(given)
        forbidden = f if 0 <= f <= h else None
    out_bids = []
    for b in range(h + 1):
        hits = int((tricks[:, b] == b).sum())
        lo, hi = wilson(hits, m)
        mean = float(scores[:, b].mean())
        sd = float(scores[:, b].std(ddof=1)) if m > 1 else 0.0
        slo, shi, se = mean_ci(mean, sd, m)
        dist = np.bincount(tricks[:, b], minlength=h + 1)[: h + 1] / m
        out_bids.append({
            "bid": b,
            "p_exact": hits / m,
            "p_exact_ci": [float(lo), float(hi)],
            "expected_score": mean,
            "expected_score_ci": [float(slo), float(shi)],
            "forbidden": forbidden == b,
            "trick_distribution": [float(x) for x in dist],
        })
    legal = [x for x in out_bids if not x["forbidden"]]
    best = max(legal, key=lambda x: (x["expected_score"], x["p_exact"], -x["bid"]))
    return {
        "game": "boerenbridge",
        "players": n,
        "hand": [card_str(c, notation) for c in codes],
        "trump_card": card_str(turned, notation),
        "trump": None if notrump else suit_str(trump, notation),
        "position": position,
        "bids_before": given,
        "policy": policy,
        "scoring": rules.scoring,
        "variants": dict(rules.variants),
        "seed": seed,
        "recommended_bid": best["bid"],
        "bids": out_bids,
        "trick_distribution": best["trick_distribution"],
        "samples": m,
        "effective_samples": m,
        "drawn": drawn,
        "acceptance_rate": accepted / drawn,
    }


def render(r, position):
    """The bid query's answer as text lines."""
    lines = []
    n = r["players"]
    where = ("left of the dealer, bidding first" if position == 0 else
             "the dealer, bidding last" if position == n - 1 else f"position {position}")
    lines.append(f"Boerenbridge, {n} players, {len(r['hand'])} cards: {' '.join(r['hand'])}; "
               f"turned {r['trump_card']} ({'no trump' if r['trump'] is None else 'trump ' + r['trump']})")
    before = "" if r["bids_before"] is None else f"; earlier bids {','.join(map(str, r['bids_before']))}"
    lines.append(f"you are {where}{before}; others play {r['policy']}; scoring {r['scoring']}")
    lines.append(f"{r['samples']:,} sampled deals (effective {r['effective_samples']:,}"
               + (f", {r['acceptance_rate']:.1%} of {r['drawn']:,} drawn fit the earlier bids"
                  if r["drawn"] != r["samples"] else "") + f"), seed {r['seed']}")
    lines.append("")
    lines.append("bid   P(exact)  95% interval      expected score  95% interval")
    for b in r["bids"]:
        mark = "  forbidden (dealer rule)" if b["forbidden"] else (
            "  <- recommended" if b["bid"] == r["recommended_bid"] else "")
        lo, hi = b["p_exact_ci"]
        slo, shi = b["expected_score_ci"]
        lines.append(f"{b['bid']:>3}   {b['p_exact']:>7.1%}  [{lo:5.1%}, {hi:5.1%}]  "
                   f"{b['expected_score']:>14.2f}  [{slo:6.2f}, {shi:6.2f}]{mark}")
    lines.append("")
    dist = "  ".join(f"{k}:{p:.1%}" for k, p in enumerate(r["trick_distribution"]) if p > 0)
    lines.append(f"my tricks when bidding {r['recommended_bid']}: {dist}")
    lines.append(f"recommended bid: {r['recommended_bid']}")
    return lines


def json_payload(r):
    """The bid query's answer as the documented JSON object."""
    keys = ("recommended_bid", "trick_distribution", "samples", "effective_samples",
            "drawn", "acceptance_rate", "players", "hand", "trump_card", "trump",
            "position", "bids_before", "policy", "scoring", "variants", "seed")
    payload = {k: r[k] for k in keys}
    payload["bids"] = [{k: b[k] for k in ("bid", "p_exact", "p_exact_ci", "expected_score",
                                          "expected_score_ci", "forbidden",
                                          "trick_distribution")} for b in r["bids"]]
    return payload
