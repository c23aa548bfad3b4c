""""Which trump should I name?" — Klaverjassen trump advice.

I am at position P (0 = left of the dealer, names first); everyone before me passed (or, in
the forced round, everyone passed). The 24 unseen cards are dealt at random to the others,
keeping only deals in which the earlier players would have passed under the heuristic call
(rejection sampling; a random caller's pass says nothing). Each sampled deal is evaluated
for every option — naming each suit, or passing (the others then call by the policy) —
by playing it out with the chosen policy (``heuristic``/``random``; I play the heuristic),
or with ``dd`` by solving it double-dummy: the perfect-information bound. numpy only.
"""
import numpy as np


from fastsim import klaverjassen_dd_nb as dd
from fastsim import klaverjassen_nb as knb
from fastsim.cards import CardError, card_str, mask_of, parse_cards, suit_str
from fastsim.common import RulesError
from fastsim.klaverjassen_schema import PIMC_WORLDS, POLICIES, build_rules
from . import limits
from .stats_core import check_query, check_worlds, mean_ci, wilson

MAX_DRAW_FACTOR = 200


def option_name(o, notation="en"):
    """Option 0..3 (a suit) or 4 (pass) as printed: the suit in ``notation``."""
    return "pass" if o == 4 else suit_str(o, notation)


def trump_query(hand, position, passes=None, samples=None, policy="heuristic", variants=(),
                seed=0, notation="en", threads=None, worlds=PIMC_WORLDS):
    codes = parse_cards(hand, notation, deck=32) if isinstance(hand, str) else list(hand)
    if len(codes) != 8:
        raise CardError(f"a Klaverjassen hand has 8 cards, got {len(codes)}")
    rules = build_rules(variants)
    if isinstance(position, bool) or not isinstance(position, (int, np.integer)) \
            or not 0 <= position <= 3:
        raise RulesError(f"position must be 0..3 (0 = left of the dealer, names first), got {position}")
    passes = position if passes is None else passes
    forced = position == 0 and passes == 4
    if passes != position and not forced:
        raise RulesError(f"at position {position} you name after {position} passes "
                         "(or, at position 0, after 4 passes: the forced call)")
    if samples is None:
        samples = 100 if policy == "dd" else 10_000
    seed_u = check_query(policy, ("heuristic", "random", "pimc", "dd"), samples, seed, threads)
    limits.check_samples(samples, 400 if policy == "dd" else 200, 170, "trump")
    play_pol = POLICIES[policy if policy in ("random", "pimc") else "heuristic"]
    pol = np.full(4, play_pol, dtype=np.int64)
    pol[position] = POLICIES["heuristic"]
    condition = policy != "random" and (position > 0 or forced)
    unseen = np.array([16 * s + r for s in range(4) for r in range(5, 13) if 16 * s + r not in set(codes)],
                      dtype=np.int64)
    play = policy != "dd"
    parts = {k: [] for k in ("hands", "trump", "team", "margin", "nat", "pit")}
    kept = drawn = accepted = 0
    budget = samples * MAX_DRAW_FACTOR if condition else samples
    while kept < samples and drawn < budget:
        need = samples - kept
        if condition and drawn:
            need = int(need / max(accepted / drawn, 0.002) * 1.1) + 256
        batch = limits.batch(min(need, budget - drawn))
        ok = np.zeros(batch, dtype=np.bool_)
        a = {"hands": np.zeros((batch, 4), dtype=np.int64),
             "trump": np.full((batch, 5), -1, dtype=np.int64),
             "team": np.full((batch, 5), -1, dtype=np.int64),
             "margin": np.zeros((batch, 5), dtype=np.int64),
             "nat": np.zeros((batch, 5), dtype=np.bool_),
             "pit": np.zeros((batch, 5), dtype=np.bool_)}
        knb.trump_query_nb(seed_u, np.int64(mask_of(codes)), position, unseen, forced, condition,
                           pol, rules.amsterdam, rules.undertrump_forced, rules.all_100,
                           np.int64(check_worlds(worlds)), play,
                           np.int64(drawn), np.int64(batch), np.int64(64), ok, a["hands"],
                           a["trump"], a["team"], a["margin"], a["nat"], a["pit"])
        accepted += int(ok.sum())
        idx = np.flatnonzero(ok)[:samples - kept]
        for k in parts:
            parts[k].append(a[k][idx])
        kept += len(idx)
        drawn += batch
    if kept == 0:
        raise RulesError(f"no deal out of {drawn:,} sampled lets every earlier player pass "
                         "under the heuristic call; try --policy random")
    r = {k: np.concatenate(v) for k, v in parts.items()}
    m = kept
    me = position & 1
    options = [o for o in range(5) if not (o == 4 and forced)]
    if not play:
        # double dummy: solve every (sample, option) deal; the margin is my team's side
        hands = np.repeat(r["hands"], len(options), axis=0)
        trumps = r["trump"][:, options].ravel()
        teams = r["team"][:, options].ravel()
        margins = np.zeros(len(trumps), dtype=np.int64)
        pits = np.zeros(len(trumps), dtype=np.bool_)
        dd.solve_batch_nb(hands, trumps, teams, np.zeros(len(trumps), dtype=np.int64),
                          rules.amsterdam, rules.undertrump_forced, rules.all_100, 4, margins, pits)
        margins = np.where(teams == me, margins, -margins).reshape(m, len(options))
        pits = (pits & (teams == me)).reshape(m, len(options))
        for k, o in enumerate(options):
            r["margin"][:, o] = margins[:, k]
            r["nat"][:, o] = (r["team"][:, o] == me) & (margins[:, k] <= 0)
            r["pit"][:, o] = pits[:, k]
    rows = []
    for o in options:
        x = r["margin"][:, o].astype(np.float64)
        mean = float(x.mean())
        sd = float(x.std(ddof=1)) if m > 1 else 0.0
        lo, hi, _ = mean_ci(mean, sd, m)
        nat = int(r["nat"][:, o].sum())
        pit = int(r["pit"][:, o].sum())
        nlo, nhi = wilson(nat, m)
        plo, phi = wilson(pit, m)
        rows.append({"option": option_name(o, notation), "expected_margin": mean,
                     "expected_margin_ci": [float(lo), float(hi)],
                     "p_nat": nat / m, "p_nat_ci": [float(nlo), float(nhi)],
                     "p_pit": pit / m, "p_pit_ci": [float(plo), float(phi)],
                     "p_we_play": float((r["team"][:, o] == me).mean())})
    best = max(rows, key=lambda x: x["expected_margin"])
    return {"game": "klaverjassen", "hand": [card_str(c, notation) for c in sorted(codes)],
            "position": position, "passes": passes, "forced": forced, "policy": policy,
            "label": ("perfect-information bound (double dummy)" if policy == "dd"
                      else f"{policy} play"),
            "variants": dict(rules.variants), "seed": seed, "samples": m,
            "drawn": drawn, "acceptance_rate": accepted / drawn,
            "recommended": best["option"], "options": rows}


def render(r, position, seed):
    """The trump query's answer as text lines."""
    lines = []
    lines.append(f"Klaverjassen, position {position}{' (forced call)' if r['forced'] else ''}: "
               f"{' '.join(r['hand'])}")
    lines.append(f"{r['samples']:,} sampled deals ({r['acceptance_rate']:.1%} of {r['drawn']:,} drawn fit "
               f"the passes), {r['label']}, seed {seed}")
    lines.append("")
    lines.append("option  margin (us - them)  95% interval         P(nat)   P(pit)   we play")
    for o in r["options"]:
        lo, hi = o["expected_margin_ci"]
        mark = "  <- recommended" if o["option"] == r["recommended"] else ""
        lines.append(f"{o['option']:<7} {o['expected_margin']:>18.1f}  [{lo:7.1f}, {hi:7.1f}]  "
                   f"{o['p_nat']:>7.1%}  {o['p_pit']:>7.1%}  {o['p_we_play']:>7.0%}{mark}")
    lines.append("")
    lines.append(f"recommended: {r['recommended']}")
    return lines
