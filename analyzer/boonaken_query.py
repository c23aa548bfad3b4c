"""Boonaken bid advice: how likely each bid is to be made as declarer.

The unseen cards (other hands, blind, stock or sleeping cards) are dealt at random; in every
sampled deal I declare and lead, exchange and play by the heuristic, the others play the
chosen policy. A point bid is evaluated with each suit as trump (the heuristic keeps the
best six for that trump): P(make b) for a level b is the best over the four suits of
P(my card points + roem ≥ b); boonaak likewise with "every trick"; misère (alone) and
zwabber once each. The highest bid worth making is the highest level whose chance is at
least one half. numpy only.
"""
import numpy as np


from fastsim import boonaken_nb as bnb
from fastsim.boonaken_schema import (BOONAAK, LADDER, LAYOUT_OPEN, MISERE, PIMC_WORLDS, POLICIES,
                                     ZWABBER, build_rules)
from fastsim.cards import CardError, card_str, mask_of, parse_cards, suit_str
from fastsim.common import RulesError
from .evidence import NA, gate_ci, warnings, weight_stats
from . import limits
from .progress import sliced
from .stats_core import check_query, check_worlds, default_samples, mean_ci, wilson

DEFAULT_SAMPLES = 5_000

WORTH = 0.5


def bid_advice(players, hand, open_cards, preset="seed", samples=None, policy="heuristic",
               seed=0, notation="en", threads=None, worlds=PIMC_WORLDS):
    samples = default_samples(samples, policy, DEFAULT_SAMPLES)
    rules = build_rules(players, preset)
    n = rules.players
    h = parse_cards(hand, notation, deck=32) if isinstance(hand, str) else list(hand)
    if len(h) != 6:
        raise CardError(f"a Boonaken hand has 6 cards, got {len(h)}")
    o = parse_cards(open_cards, notation, deck=32) if isinstance(open_cards, str) else list(open_cards)
    need = int(LAYOUT_OPEN[rules.preset_id, n])
    if len(o) != need:
        raise RulesError(f"{rules.preset} with {n} players has {need} open table cards, got {len(o)}")
    clash = set(h) & set(o)
    if clash:
        raise CardError(f"card {card_str(min(clash), notation)} is both in the hand and on the table")
    seed_u = check_query(policy, POLICIES, samples, seed, threads)
    limits.check_samples(samples, 48, command="bid")
    known = set(h) | set(o)
    unseen = np.array([16 * s + r for s in range(4) for r in range(5, 13) if 16 * s + r not in known],
                      dtype=np.int64)
    pts = np.zeros((samples, 4), dtype=np.int64)
    allwin = np.zeros((samples, 4), dtype=np.bool_)
    mis = np.zeros(samples, dtype=np.bool_)
    zw = np.zeros(samples, dtype=np.bool_)
    worlds = np.int64(check_worlds(worlds))
    o_a = np.asarray(o, dtype=np.int64)
    # in slices, for the progress bar (every sample is dealt from its own key)
    sliced(samples, "deal", lambda z: bnb.bid_query_nb(
        seed_u, n, rules.preset_id, np.int64(mask_of(h)), o_a, unseen, POLICIES[policy], worlds,
        np.int64(z.start), np.int64(z.stop - z.start), np.int64(64),
        pts[z], allwin[z], mis[z], zw[z]), desc="deals played")
    m = samples
    rows = []
    for level, name in enumerate(LADDER):
        if level == MISERE:
            hits, trump = int(mis.sum()), None
        elif level == ZWABBER:
            hits, trump = int(zw.sum()), None
        elif level == BOONAAK:
            per = allwin.sum(axis=0)
            t = int(np.argmax(per))
            hits, trump = int(per[t]), suit_str(t, notation)
        else:
            per = (pts >= name).sum(axis=0)
            t = int(np.argmax(per))
            hits, trump = int(per[t]), suit_str(t, notation)
        lo, hi = wilson(hits, m)
        rows.append({"bid": name, "p_make": hits / m, "p_make_ci": [float(lo), float(hi)],
                     "trump": trump})
    expected = {}
    for t in range(4):
        mean = float(pts[:, t].mean())
        sd = float(pts[:, t].std(ddof=1)) if m > 1 else 0.0
        lo, hi, _ = mean_ci(mean, sd, m)
        expected[suit_str(t, notation)] = {"mean": mean, "ci": [float(lo), float(hi)]}
    best_t = max(expected, key=lambda k: expected[k]["mean"])
    worth = [r for r in rows if r["p_make"] >= WORTH]
    # is the answer settled? the highest worth bid, and every bid above it, must have a
    # 95% interval clear of one half
    first = rows.index(worth[-1]) if worth else 0
    open_ = [r for r in rows[first:] if r["p_make_ci"][0] <= WORTH <= r["p_make_ci"][1]]
    extra = [f"whether bid {r['bid']} is worth making is not settled: P(make) {r['p_make']:.1%}, "
             f"95% interval [{r['p_make_ci'][0]:.1%}, {r['p_make_ci'][1]:.1%}] includes 50%; "
             "use more --samples to decide" for r in open_[:3]]
    n_eff = float(m)
    warn = warnings(n_eff, samples, extra=extra, models="--policy")
    for r in rows:
        r["p_make_ci"] = gate_ci(r["p_make_ci"], n_eff)
    for v in expected.values():
        v["ci"] = gate_ci(v["ci"], n_eff)
    return {"game": "boonaken", "players": n, "preset": rules.preset,
            "hand": [card_str(c, notation) for c in sorted(h)],
            "open": [card_str(c, notation) for c in o], "policy": policy, "seed": seed,
            "samples": m, "effective_samples": n_eff,
            "top1_weight_share": weight_stats(np.ones(m))["top1_weight_share"],
            "warnings": warn, "bids": rows, "expected_points": expected, "best_trump": best_t,
            "highest_bid": worth[-1]["bid"] if worth else None}


def render(r, seed):
    """The Boonaken bid advice as text lines."""
    from .evidence import interval, with_rules
    lines = []
    lines.append(f"Boonaken ({r['preset']}), {r['players']} players: {' '.join(r['hand'])}; "
               f"open {' '.join(r['open'])}")
    lines.append(f"{r['samples']:,} sampled deals, others play {r['policy']}, seed {seed}")
    ep = "  ".join(f"{t} {v['mean']:.1f}" for t, v in r["expected_points"].items())
    lines.append(f"expected points (cards + roem) by trump: {ep}; best {r['best_trump']}")
    lines.append("")
    lines.append("bid        P(make)   95% interval     trump")
    for b in r["bids"]:
        if isinstance(b["bid"], int) and (b["p_make"] in (0.0, 1.0)) and b["bid"] % 25:
            continue   # keep the table short: certain levels only every 25 points
        iv = interval(b["p_make_ci"], "5.1%", f"{NA:<15}")
        lines.append(f"{str(b['bid']):<10} {b['p_make']:>7.1%}  {iv}  {b['trump'] or '-'}")
    lines.append("")
    lines.append(f"highest bid worth making (P >= 50%): {r['highest_bid']}")
    lines += [f"warning: {x}" for x in r["warnings"]]
    return with_rules(lines, r)
