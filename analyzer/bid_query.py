""""What should I bid?" — the Boerenbridge bid query.

Given my hand, the turned card, my position and (optionally) the earlier bids, sample the
unseen cards consistently with everything known, play every sampled deal once per
candidate bid (me playing to make that bid, the others playing the chosen policy) and
report, for each bid, P(exact), the expected score with 95% intervals and my trick
distribution. numpy only: an interactive query does not import pandas.
"""
import numpy as np


from fastsim import boerenbridge as engine
from fastsim.boerenbridge_schema import (PIMC_WORLDS, POLICIES, QUERY_SEARCHING, RulesError,
                                         build_rules)
from fastsim.cards import CardError, card_str, mask_of, parse_card, parse_cards, suit_str
from .evidence import (NA, check_bid_model, bid_slope, describe_model, draw_consistent, gate_ci,
                       sample_line, warnings, weight_stats)
from .infostate import weighted_summary
from .progress import sliced
from .stats_core import check_query, check_worlds, default_samples
from . import limits

DEFAULT_SAMPLES = 20_000
MAX_DRAW_FACTOR = 50
CHUNK = 256


def parse_bids(text):
    if text is None or (isinstance(text, str) and text.strip() == ""):
        return None
    if isinstance(text, str):
        try:
            return [int(x) for x in text.split(",")]   # int() strips; "1 2" is no 12
        except ValueError:
            raise RulesError(f"--bids-before must be integers separated by commas, got {text!r}") from None
    return [int(x) for x in text]


def bid_query(players, hand, trump_card, position, bids_before=None, samples=None,
              policy="heuristic", variants=(), seed=0, notation="en", threads=None,
              worlds=PIMC_WORLDS, bid_model=None):
    """Answer the bid query; returns a dict (the ``--json`` shape plus a few extras).
    ``samples``: default 20,000 (300 when the others play a searching policy: ``pimc``,
    ``strong``, ...: fastsim.boerenbridge_schema.QUERY_SEARCHING)."""
    samples = default_samples(samples, policy, DEFAULT_SAMPLES, QUERY_SEARCHING)
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
    # Earlier bids reveal something about those hands: weigh every sampled deal by their
    # likelihood under the bidder model (analyzer/evidence.py; soft by default, so any
    # bidding sequence is conditioned on, none rejected). A random bidder's bid says
    # nothing about the hand, so nothing is weighted then.
    pol = POLICIES[policy]
    model = check_bid_model(bid_model)
    condition = given is not None and position > 0 and pol != POLICIES["random"]
    lam = bid_slope(model, policy) if condition else 0.0

    def weigh(start, count):
        if condition:
            return engine.bid_weights(seed_u, n, h, position, unseen, given_arr, trump,
                                      rules.flags, np.float64(lam), np.int64(start), int(count), threads)
        return np.zeros(count, dtype=np.float64), np.zeros(count, dtype=np.float64)

    budget = samples * MAX_DRAW_FACTOR if condition else samples
    deals, w, drawn, accepted = draw_consistent(
        weigh, samples, budget, "no deal out of {drawn:,} sampled is consistent with the earlier "
        f"bids {','.join(map(str, given or ()))} under the exact heuristic bidder; "
        "try --bid-model soft or --policy random")
    m = len(deals)
    tr = np.zeros((m, h + 1), dtype=np.int8)
    sc = np.zeros((m, h + 1), dtype=np.int16)
    deals = deals.astype(np.int64)
    # in slices, for the progress bar (every deal is played from its own key, so the
    # slicing changes nothing)
    sliced(m, "deal", lambda z: engine.bid_query(
        seed_u, n, h, position, np.int64(mask_of(codes)), turned, trump, unseen, given_arr,
        pol, rules.flags, np.int64(check_worlds(worlds)), deals[z], np.int64(CHUNK),
        tr[z], sc[z], threads), desc="deals played")
    tricks = tr.astype(np.int64)
    scores = sc.astype(np.float64)
    st = weight_stats(w)
    n_eff = st["effective_samples"]

    forbidden = None
    if position == n - 1 and given is not None:
        from .boerenbridge_play import forbidden_bid
        f = forbidden_bid(rules, h, given)
        forbidden = f if f >= 0 else None
    out_bids = []
    for b in range(h + 1):
        summ = weighted_summary(scores[:, b], w, tricks[:, b] == b)
        dist = np.bincount(tricks[:, b], weights=w, minlength=h + 1)[: h + 1] / w.sum()
        out_bids.append({
            "bid": b,
            "p_exact": summ["p"],
            "p_exact_ci": gate_ci(summ["p_ci"], n_eff),
            "expected_score": summ["mean"],
            "expected_score_ci": gate_ci(summ["mean_ci"], n_eff),
            "forbidden": forbidden == b,
            "trick_distribution": [float(x) for x in dist],
        })
    legal = [x for x in out_bids if not x["forbidden"]]
    order = sorted(legal, key=lambda x: (x["expected_score"], x["p_exact"], -x["bid"]),
                   reverse=True)
    best = order[0]
    runner = order[1] if len(order) > 1 else None
    warn = warnings(n_eff, samples, (best["bid"], best["expected_score_ci"]),
                    None if runner is None else (runner["bid"], runner["expected_score_ci"]),
                    what="bid")
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
        "effective_samples": n_eff,
        "top1_weight_share": st["top1_weight_share"],
        "drawn": drawn,
        "acceptance_rate": accepted / drawn,
        "bid_model": model if condition else None,
        "bid_model_text": describe_model(model, policy, "bids", condition or given is not None and position > 0),
        "warnings": warn,
    }


def render(r, position):
    """The bid query's answer as text lines."""
    from .evidence import with_rules
    lines = []
    n = r["players"]
    where = ("left of the dealer, bidding first" if position == 0 else
             "the dealer, bidding last" if position == n - 1 else f"position {position}")
    lines.append(f"Boerenbridge, {n} players, {len(r['hand'])} cards: {' '.join(r['hand'])}; "
               f"turned {r['trump_card']} ({'no trump' if r['trump'] is None else 'trump ' + r['trump']})")
    before = "" if r["bids_before"] is None else f"; earlier bids {','.join(map(str, r['bids_before']))}"
    lines.append(f"you are {where}{before}; others play {r['policy']}; scoring {r['scoring']}")
    lines.append(sample_line(r, "deals", "the earlier bids"))
    if r["bids_before"] is not None and position > 0:
        lines.append(f"bid model: {r['bid_model_text']}")
    lines.append("")
    lines.append("bid   P(exact)  95% interval      expected score  95% interval")
    for b in r["bids"]:
        mark = "  forbidden (dealer rule)" if b["forbidden"] else (
            "  <- recommended" if b["bid"] == r["recommended_bid"] else "")
        if b["p_exact_ci"] is None:
            lines.append(f"{b['bid']:>3}   {b['p_exact']:>7.1%}  {'':16}  "
                         f"{b['expected_score']:>14.2f}  {NA}{mark}")
            continue
        lo, hi = b["p_exact_ci"]
        slo, shi = b["expected_score_ci"]
        lines.append(f"{b['bid']:>3}   {b['p_exact']:>7.1%}  [{lo:5.1%}, {hi:5.1%}]  "
                   f"{b['expected_score']:>14.2f}  [{slo:6.2f}, {shi:6.2f}]{mark}")
    lines.append("")
    dist = "  ".join(f"{k}:{p:.1%}" for k, p in enumerate(r["trick_distribution"]) if p > 0)
    lines.append(f"my tricks when bidding {r['recommended_bid']}: {dist}")
    lines.append(f"recommended bid: {r['recommended_bid']}")
    lines += [f"warning: {x}" for x in r["warnings"]]
    return with_rules(lines, r)


def json_payload(r):
    """The bid query's answer as the documented JSON object."""
    keys = ("recommended_bid", "trick_distribution", "samples", "effective_samples",
            "top1_weight_share", "drawn", "acceptance_rate", "bid_model", "warnings",
            "players", "hand", "trump_card", "trump",
            "position", "bids_before", "policy", "scoring", "variants", "seed")
    payload = {k: r[k] for k in keys}
    payload["bids"] = [{k: b[k] for k in ("bid", "p_exact", "p_exact_ci", "expected_score",
                                          "expected_score_ci", "forbidden",
                                          "trick_distribution")} for b in r["bids"]]
    return payload
