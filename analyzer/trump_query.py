""""Which trump should I name?" — Klaverjassen trump advice.

I am at position P (0 = left of the dealer, names first); everyone before me passed (or, in
the forced round, everyone passed). The 24 unseen cards are dealt at random to the others,
keeping only deals in which the earlier players would have passed under the heuristic call
(rejection sampling; a random caller's pass says nothing). Each sampled deal is evaluated
for every option — naming each suit, or passing (the others then call by the policy) —
by playing it out with the chosen policy (``heuristic``/``random``; I play the heuristic),
or with ``dd`` by solving it double-dummy: the perfect-information bound. The heuristic's
defenders play for nat (docs/klaverjassen.md, "nat defence"); the answer's ``others_model``
(text: "play model") says which model the other players follow. numpy only.
"""
import numpy as np


from fastsim import klaverjassen_dd_nb as dd
from fastsim import klaverjassen_nb as knb
from fastsim.cards import CardError, card_str, mask_of, parse_cards, suit_str
from fastsim.common import RulesError
from fastsim.klaverjassen_schema import PIMC_WORLDS, POLICIES, build_rules
from .evidence import (check_bid_model, describe_model, draw_consistent, gate_ci, pass_scale,
                       sample_line, warnings, weight_stats)
from .infostate import weighted_summary
from .klaverjassen_play import others_model
from .stats_core import check_query, check_worlds
from . import limits
from .progress import sliced

MAX_DRAW_FACTOR = 200


def option_name(o, notation="en"):
    """Option 0..3 (a suit) or 4 (pass) as printed: the suit in ``notation``."""
    return "pass" if o == 4 else suit_str(o, notation)


def trump_query(hand, position, passes=None, samples=None, policy="heuristic", variants=(),
                seed=0, notation="en", threads=None, worlds=PIMC_WORLDS, bid_model=None):
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
    model = check_bid_model(bid_model)
    condition = policy != "random" and (position > 0 or forced)
    tau = pass_scale(model)
    unseen = np.array([16 * s + r for s in range(4) for r in range(5, 13) if 16 * s + r not in set(codes)],
                      dtype=np.int64)
    play = policy != "dd"

    def weigh(start, count):
        lw = np.zeros(count, dtype=np.float64)
        u = np.zeros(count, dtype=np.float64)
        if condition:
            knb.trump_weights_nb(seed_u, position, unseen, forced, np.float64(tau),
                                 np.int64(start), np.int64(count), lw, u)
        return lw, u

    budget = samples * MAX_DRAW_FACTOR if condition else samples
    deals, w, drawn, accepted = draw_consistent(
        weigh, samples, budget, "no deal out of {drawn:,} sampled lets every earlier player "
        "pass under the exact heuristic call; try --bid-model soft or --policy random")
    m = len(deals)
    r = {"hands": np.zeros((m, 4), dtype=np.int64),
         "trump": np.full((m, 5), -1, dtype=np.int64),
         "team": np.full((m, 5), -1, dtype=np.int64),
         "margin": np.zeros((m, 5), dtype=np.int64),
         "nat": np.zeros((m, 5), dtype=np.bool_),
         "pit": np.zeros((m, 5), dtype=np.bool_)}
    deals = deals.astype(np.int64)
    worlds = np.int64(check_worlds(worlds))
    # in slices, for the progress bar (every deal is played from its own key); the
    # double-dummy variant only deals here and solves below
    def deal_and_play(z):
        knb.trump_query_nb(
            seed_u, np.int64(mask_of(codes)), position, unseen, forced, pol, rules.flags,
            worlds, play, deals[z], np.int64(64),
            r["hands"][z], r["trump"][z], r["team"][z], r["margin"][z], r["nat"][z],
            r["pit"][z])
    if play:
        sliced(m, "deal", deal_and_play, desc="deals played")
    else:
        deal_and_play(slice(0, m))
    st = weight_stats(w)
    n_eff = st["effective_samples"]
    me = position & 1
    options = [o for o in range(5) if not (o == 4 and forced)]
    if not play:
        # double dummy: solve every (sample, option) deal; the margin is my team's side
        hands = np.repeat(r["hands"], len(options), axis=0)
        trumps = r["trump"][:, options].ravel()
        teams = r["team"][:, options].ravel()
        margins = np.zeros(len(trumps), dtype=np.int64)
        pits = np.zeros(len(trumps), dtype=np.bool_)
        # in slices, for the progress bar (each deal is solved exactly on its own, so the
        # slicing changes nothing)
        leaders = np.zeros(len(trumps), dtype=np.int64)
        sliced(len(trumps), "deal", lambda z: dd.solve_batch_nb(
            hands[z], trumps[z], teams[z], leaders[z], rules.flags, 4, margins[z], pits[z]),
            desc="double dummy")
        margins = np.where(teams == me, margins, -margins).reshape(m, len(options))
        pits = (pits & (teams == me)).reshape(m, len(options))
        for k, o in enumerate(options):
            r["margin"][:, o] = margins[:, k]
            r["nat"][:, o] = (r["team"][:, o] == me) & (margins[:, k] <= 0)
            r["pit"][:, o] = pits[:, k]
    rows = []
    for o in options:
        x = r["margin"][:, o].astype(np.float64)
        summ = weighted_summary(x, w, r["nat"][:, o])
        pit = weighted_summary(x, w, r["pit"][:, o])
        rows.append({"option": option_name(o, notation), "expected_margin": summ["mean"],
                     "expected_margin_ci": gate_ci(summ["mean_ci"], n_eff),
                     "p_nat": summ["p"], "p_nat_ci": gate_ci(summ["p_ci"], n_eff),
                     "p_pit": pit["p"], "p_pit_ci": gate_ci(pit["p_ci"], n_eff),
                     "p_we_play": float((w * (r["team"][:, o] == me)).sum() / w.sum()),
                     "_x": x})
    order = sorted(rows, key=lambda x: x["expected_margin"], reverse=True)
    best, runner = order[0], (order[1] if len(order) > 1 else None)
    warn = warnings(n_eff, samples, (best["option"], best["expected_margin_ci"]),
                    None if runner is None else (runner["option"], runner["expected_margin_ci"]),
                    what="option",
                    equal=runner is not None and np.array_equal(best["_x"], runner["_x"]))
    for x in rows:
        del x["_x"]
    return {"game": "klaverjassen", "hand": [card_str(c, notation) for c in sorted(codes)],
            "position": position, "passes": passes, "forced": forced, "policy": policy,
            "label": ("perfect-information bound (double dummy)" if policy == "dd"
                      else f"{policy} play"),
            "variants": dict(rules.variants), "seed": seed, "samples": m,
            "effective_samples": n_eff, "top1_weight_share": st["top1_weight_share"],
            "drawn": drawn, "acceptance_rate": accepted / drawn,
            "bid_model": model if condition else None,
            "bid_model_text": describe_model(model, policy, "passes", position > 0 or forced),
            "others_model": others_model(policy),
            "warnings": warn,
            "recommended": best["option"], "options": rows}


def render(r, position, seed):
    """The trump query's answer as text lines."""
    from .evidence import interval, mark, with_rules
    lines = []
    lines.append(f"Klaverjassen, position {position}{' (forced call)' if r['forced'] else ''}: "
               f"{' '.join(r['hand'])}")
    lines.append(sample_line(r, "deals", "the passes", seed) + f", {r['label']}")
    if position > 0 or r["forced"]:
        lines.append(f"pass model: {r['bid_model_text']}")
    lines.append(f"play model: {r['others_model']}")
    lines.append("")
    lines.append("option  margin (us - them)  95% interval         P(nat)   P(pit)   we play")
    for o in r["options"]:
        iv = interval(o["expected_margin_ci"], "7.1f")
        lines.append(f"{o['option']:<7} {o['expected_margin']:>18.1f}  {iv}  "
                     f"{o['p_nat']:>7.1%}  {o['p_pit']:>7.1%}  {o['p_we_play']:>7.0%}"
                     f"{mark(o['option'], r['recommended'])}")
    lines.append("")
    lines.append(f"recommended: {r['recommended']}")
    lines += [f"warning: {x}" for x in r["warnings"]]
    return with_rules(lines, r)
