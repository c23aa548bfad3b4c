""""Which contract should I choose?" — Bonken contract advice.

I am the chooser (across from the dealer). The 39 unseen cards are dealt at random to the
other three players; every sampled deal is played once per available contract (the same
deals for every contract), everyone playing ``--policy``. For each contract: my expected
score with a 95% interval, the others' expected scores, and my gain against the average
chooser (the contract's total / 4): all seven negative contracts must be played in a game,
so what matters is how much better than average this hand does in it. numpy only.
"""
import numpy as np


from fastsim import bonken_nb as nb
from fastsim.bonken_schema import (CONTRACTS, CONTRACT_TOTAL, N_NEGATIVE, PIMC_WORLDS, POLICIES,
                                   RulesError,
                                   build_rules, parse_contracts, parse_seat_policies)
from fastsim.cards import CardError, card_str, mask_of, parse_cards
from .bonken_play import others_model
from .evidence import NA, gate_ci, warnings, weight_stats
from . import limits
from .progress import sliced
from .stats_core import check_query, check_worlds, default_samples, mean_ci

DEFAULT_SAMPLES = 10_000
CHUNK = 128


def contract_query(hand, available=None, samples=None, policy="heuristic",
                   variants=(), seed=0, notation="en", threads=None, worlds=PIMC_WORLDS):
    samples = default_samples(samples, policy, DEFAULT_SAMPLES)
    codes = parse_cards(hand, notation) if isinstance(hand, str) else list(hand)
    if len(codes) != 13:
        raise CardError(f"a Bonken hand has 13 cards, got {len(codes)}")
    rules = build_rules(variants)
    if rules.fixed_order:
        raise RulesError("fixed_order leaves nothing to choose")
    ids = list(range(12)) if available is None else parse_contracts(available)
    seed_u = check_query(policy, POLICIES, samples, seed, threads)
    limits.check_samples(samples, 60 * len(ids), command="contract")
    pol = parse_seat_policies(policy).astype(np.int64)
    unseen = np.array([c for c in range(64) if c % 16 < 13 and c not in set(codes)], dtype=np.int64)
    out = np.zeros((samples, len(ids), 4), dtype=np.int16)
    worlds = np.int64(check_worlds(worlds))
    ids_a = np.asarray(ids, dtype=np.int64)
    # in slices, for the progress bar (every sample is dealt from its own key)
    sliced(samples, "deal", lambda z: nb.contract_query_nb(
        seed_u, np.int64(mask_of(codes)), unseen, ids_a, pol, rules.flags, worlds,
        np.int64(z.start), np.int64(z.stop - z.start), np.int64(CHUNK), out[z]),
        desc="deals played")
    scores = out.astype(np.float64)
    rows = []
    for k, c in enumerate(ids):
        mine = scores[:, k, 1]
        mean = float(mine.mean())
        sd = float(mine.std(ddof=1)) if samples > 1 else 0.0
        lo, hi, _ = mean_ci(mean, sd, samples)
        rows.append({
            "contract": CONTRACTS[c],
            "kind": "negative" if c < N_NEGATIVE else "trump",
            "expected_score": mean,
            "expected_score_ci": [float(lo), float(hi)],
            "vs_average": mean - CONTRACT_TOTAL[c] / 4,
            "others": [float(scores[:, k, p].mean()) for p in (0, 2, 3)],
        })
    order = sorted(range(len(rows)), key=lambda k: rows[k]["vs_average"], reverse=True)
    best = rows[order[0]]
    n_eff = float(samples)

    def ci_vs(k):   # the interval of vs_average: the score's, shifted by the average
        lo, hi = rows[k]["expected_score_ci"]
        return [lo - CONTRACT_TOTAL[ids[k]] / 4, hi - CONTRACT_TOTAL[ids[k]] / 4]
    runner = None
    if len(order) > 1:
        runner = (rows[order[1]]["contract"], ci_vs(order[1]))
    warn = warnings(n_eff, samples, (best["contract"], ci_vs(order[0])), runner, what="contract",
                    models="--policy")
    for row in rows:
        row["expected_score_ci"] = gate_ci(row["expected_score_ci"], n_eff)
    res = {
        "game": "bonken",
        "hand": [card_str(c, notation) for c in sorted(codes)],
        "policy": policy,
        "others_model": others_model(policy),
        "variants": dict(rules.variants),
        "seed": seed,
        "samples": samples,
        "effective_samples": n_eff,
        "top1_weight_share": weight_stats(np.ones(samples))["top1_weight_share"],
        "warnings": warn,
        "recommended": best["contract"],
        "contracts": rows,
    }
    for kind in ("negative", "trump"):
        part = [r for r in rows if r["kind"] == kind]
        if part:
            res[f"recommended_{kind}"] = max(part, key=lambda r: r["vs_average"])["contract"]
    return res


def render(r):
    """The contract query's answer as text lines."""
    from .evidence import interval, mark, with_rules
    lines = [f"Bonken, you choose with: {' '.join(r['hand'])}",
             f"{r['samples']:,} sampled deals, everyone plays {r['policy']}, seed {r['seed']}",
             f"model: {r['others_model']}", "",
             "contract             your score  95% interval        vs average   others (left, right, dealer)"]
    for c in r["contracts"]:
        iv = interval(c["expected_score_ci"], "7.2f", f"{NA:<18}")
        oth = " ".join(f"{x:7.2f}" for x in c["others"])
        lines.append(f"{c['contract']:<20} {c['expected_score']:>10.2f}  {iv}  "
                     f"{c['vs_average']:>+10.2f}   {oth}{mark(c['contract'], r['recommended'])}")
    lines.append("")
    for kind in ("negative", "trump"):
        if f"recommended_{kind}" in r:
            lines.append(f"best {kind} contract: {r[f'recommended_{kind}']}")
    lines += [f"warning: {x}" for x in r["warnings"]]
    return with_rules(lines, r)
