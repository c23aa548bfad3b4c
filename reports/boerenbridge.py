"""The Boerenbridge strategy report (docs/rules.md §1).

Runs (from ``--deals N``, default 300,000 deals, all with the same seed, so on the same cards):

* main — whole games of the schedule (``N / deals per game`` games) under ``--policy`` and
  ``--variant``;
* variant — the same games with the dealer rule switched (off when the main run has it);
* policy — the same games with heuristic players in the even seats and random ones in the odd.

Every statistic comes from :mod:`analyzer.stats`; this module only plots its DataFrames.
``--from FILE`` reports on a saved results file: the variant comparison is left out, the
policy comparison is kept when the file mixes policies.
"""
import numpy as np
import pandas as pd

from . import common as C

GAME = "boerenbridge"
DEFAULT_DEALS = 300_000


def _pos_label(p, n):
    return f"{p}\n(leads)" if p == 0 else f"{p}\n(dealer)" if p == n - 1 else str(p)


def _pick(values, k=4):
    """Up to k values spread over the sorted list (always the largest)."""
    v = sorted(values)
    if len(v) <= k:
        return v
    idx = np.unique(np.round(np.linspace(0, len(v) - 1, k)).astype(int))
    return [v[i] for i in idx]


def _rules_text(meta):
    sched = meta.get("schedule", [])
    s = "-".join(map(str, sched))
    what = (f"independent deals of {sched[0]} cards" if len(sched) == 1
            else f"schedule {s} ({len(sched)} deals a game)")
    nt = [i + 1 for i, f in enumerate(meta.get("notrump", [])) if f]
    bits = [f"{meta['players']} players", what, f"scoring {meta.get('scoring', 'standard')}",
            f"dealer rule {'on' if meta.get('dealer_rule', True) else 'off'}"]
    if meta.get("bauer_bonus"):
        bits.append("bauer bonus")
    if meta.get("blind_one_card"):
        bits.append("blind one-card deals")
    if meta.get("two_player"):
        bits.append("two-player deck")
    if nt:
        bits.append("no trump in deals " + ",".join(map(str, nt)))
    return ", ".join(bits)


def _footer(meta):
    sched = meta.get("schedule", [])
    what = f"{sched[0]}-card deals" if len(sched) == 1 else f"{len(sched)}-deal games"
    return f"{meta['players']} players, {what}"


def _simulate(deals, policy, variants, seed, players, threads):
    from analyzer.games import boerenbridge as entry
    from fastsim.boerenbridge_schema import POLICIES
    setup = entry.make_setup("game", players=players, variant=variants)
    rules = setup.rules
    pols = entry.parse_policies(setup, policy.lower())
    K = len(rules.schedule)
    games = max(1, deals // K)
    n = rules.players

    def run(s, p):
        _, frame, m = C.simulate(GAME, s, games, seed, p, threads)
        return frame, m

    df, meta = run(setup, pols)
    alt_vars = [(k, v) for k, v in rules.variants.items() if k != "dealer_rule"]
    alt_vars.append(("dealer_rule", "off" if rules.dealer_rule else "on"))
    alt = entry.make_setup("game", players=rules.players, variant=alt_vars)
    df_alt, meta_alt = run(alt, pols)
    mixed = np.array([POLICIES["heuristic"] if s % 2 == 0 else POLICIES["random"]
                      for s in range(n)], dtype=np.int8)
    df_mix, meta_mix = run(setup, mixed)
    what = (f"{games:,} games × {K} deals = {games * K:,} deals ({games * K * n:,} player-deals)"
            if K > 1 else f"{games:,} deals of {rules.schedule[0]} cards ({games * n:,} player-deals)")
    runs = [
        C.main_run(what, meta),
        C.run_entry("variant", f"the same deals with dealer rule "
                    f"{'on' if alt.rules.dealer_rule else 'off'}", meta_alt),
        C.run_entry("policy", "the same deals, heuristic in the even seats and random in the "
                    f"odd ({C.policy_text(meta_mix['policies'])})", meta_mix),
    ]
    return df, meta, runs, [], ((df_alt, meta_alt), df_mix)


def _read(df, meta, from_path):
    df_mix = df if df["policy"].nunique() > 1 else None
    runs = [C.run_entry("main", f"{df['deal'].nunique():,} deals ({len(df):,} player-deals) "
                        f"read from {from_path}", meta)]
    omitted = ["the variant comparison (dealer rule on against off) needs a second run; "
               "simulate with --deals to include it."]
    if df_mix is None:
        omitted.append("the policy comparison: every seat of the results file plays "
                       f"{df['policy'].iloc[0]}.")
    return runs, omitted, (None, df_mix)


def _score_and_exact(labels, table, xlabel):
    """Two panels: mean score and exact-bid rate per label."""
    return C.bar_panels(labels, table, xlabel, [
        ("mean_score", "mean score (points per deal)", {"fmt": lambda v: f"{v:.2f}"}),
        ("exact_rate", "exact-bid rate (%)", {"pct": True, "color": C.COLORS[2]})])


def build(out, deals=None, from_path=None, policy=None, variants=(), seed=None, players=None,
          preset=None, threads=None):
    from analyzer import stats
    data = C.gather(GAME, out, from_path, deals, policy, variants, seed, DEFAULT_DEALS, _read,
                    lambda d, p, s: _simulate(d, p, variants, s, players, threads))
    df, meta, runs, (alt, df_mix) = data.df, data.meta, data.runs, data.extra
    n = int(meta["players"])
    rep = data.report(f"Boerenbridge strategy report: {n} players", _rules_text(meta),
                      _footer(meta))
    N = len(df)
    n_text = C.fmt_n(N, "player-deals")

    # -- bidding accuracy
    rep.section("Bidding accuracy",
                "How often a bid is made exactly, by the bid and the number of cards in hand, "
                "and how many tricks each bid really takes.")
    ex = stats.exact_rate(df, by=("hand_size", "bid"))

    def draw_exact(fig, ax):
        C.heatmap(fig, ax, ex, "hand_size", "bid", "exact_rate", cbar_label="exact-bid rate (%)",
                  vmin=0, vmax=1)
        ax.set_xlabel("bid (tricks)")
        ax.set_ylabel("hand size (cards)")
        cb = ax.images[0].colorbar
        C.percent_axis(cb.ax, "y")
    rep.figure("exact_rate_heatmap", "Exact-bid rate by bid and hand size", n_text, ex,
               draw_exact, caption="Each cell: the share of bids of that size that took exactly "
               f"that many tricks; blank cells have fewer than {C.MIN_CELL_N} bids.")

    cal = stats.calibration(df, by=("hand_size",))
    sizes = _pick(cal["hand_size"].unique())

    def draw_cal(fig, ax):
        top = 0
        for i, h in enumerate(sizes):
            t = cal[(cal["hand_size"] == h) & (cal["n"] >= C.MIN_CELL_N)]
            C.errorbar(ax, t["bid"], t["mean_tricks"], t["mean_tricks_lo"], t["mean_tricks_hi"],
                       label=f"{h} card{'s' if h > 1 else ''}", color=C.COLORS[i])
            top = max(top, t["bid"].max() if len(t) else 0)
        ax.plot([0, top], [0, top], ls="--", color="#888", lw=1, label="tricks = bid")
        ax.set_xlabel("bid (tricks)")
        ax.set_ylabel("mean tricks taken (tricks)")
        C.int_axis(ax)
        ax.legend(title="hand size", loc="upper left")
    rep.figure("calibration", "Calibration: tricks taken against the bid", n_text, cal, draw_cal,
               caption="Points above the dashed line: the bid was too low on average. Lines for "
               "a few hand sizes; the CSV holds all.")

    # -- trick distribution
    trumped = df[df["trump"] != "NT"]
    hmax = int(trumped["hand_size"].max()) if len(trumped) else int(df["hand_size"].max())
    td_t = stats.trick_distribution(trumped, "trump_count", by=("hand_size",))
    td_h = stats.trick_distribution(trumped, "high_trumps", by=("hand_size",))
    n_h = int((trumped["hand_size"] == hmax).sum())

    def draw_td(fig, axes):
        for ax, t, feat, lab in ((axes[0], td_t, "trump_count", "trumps held (cards)"),
                                 (axes[1], td_h, "high_trumps", "trump J, Q, K, A held (cards)")):
            sub = t[t["hand_size"] == hmax]
            if len(sub):
                C.heatmap(fig, ax, sub, feat, "tricks", "p", cbar_label="P(tricks) (%)",
                          vmin=0, vmax=1, fmt="{:.0%}")
                C.percent_axis(ax.images[0].colorbar.ax, "y")
            else:
                C.no_data(ax)
            ax.set_xlabel("tricks taken (tricks)")
            ax.set_ylabel(lab)
    rep.figure("tricks_by_trumps", f"Tricks taken by trumps and high trumps held ({hmax} cards)",
               C.fmt_n(n_h, f"player-deals of {hmax} cards with trump"),
               {"trump_count": td_t, "high_trumps": td_h}, draw_td, ncols=2,
               figsize=(C.FIG_W * 1.35, C.FIG_H),
               caption="Each row: the distribution of tricks taken given the holding (rows sum "
               "to 100%); the largest hand size is shown, the CSVs hold every hand size.")

    # -- expected score
    rep.section("Expected score", "Mean score per deal by bid: what a bid is worth.")
    es = stats.expected_score(df, by=("hand_size",))

    def draw_es(fig, ax):
        for i, h in enumerate(sizes):
            t = es[(es["hand_size"] == h) & (es["n"] >= C.MIN_CELL_N)]
            C.errorbar(ax, t["bid"], t["mean_score"], t["mean_score_lo"], t["mean_score_hi"],
                       label=f"{h} card{'s' if h > 1 else ''}", color=C.COLORS[i])
        ax.set_xlabel("bid (tricks)")
        ax.set_ylabel("mean score (points per deal)")
        C.int_axis(ax)
        ax.legend(title="hand size")
    rep.figure("score_by_bid", "Expected score by bid", n_text, es, draw_es,
               caption=f"Scoring {meta.get('scoring', 'standard')}; lines for a few hand sizes, "
               "the CSV holds all.")

    # -- position and dealer
    rep.section("Position and the dealer",
                "Position 0 sits left of the dealer, bids first and leads the first trick; "
                f"position {n - 1} deals and bids last (under the dealer rule the total of the "
                "bids may not equal the number of tricks).")
    pos = stats.compare(df, by="position")

    draw_pos = _score_and_exact([_pos_label(p, n) for p in pos["position"]], pos, "position")
    rep.figure("position", "Mean score and exact-bid rate by position", n_text, pos, draw_pos,
               ncols=2, caption="Differences to position 0 with 95% Welch intervals are in the "
               "table (score_diff).")

    dc = stats.dealer_cost(df, by=("hand_size",))
    dc_tables = {"": dc}
    if alt is not None:
        dc_alt = stats.dealer_cost(alt[0], by=("hand_size",))
        rule = "on" if meta.get("dealer_rule", True) else "off"
        other = "off" if rule == "on" else "on"
        dc_tables = {f"rule_{rule}": dc, f"rule_{other}": dc_alt}

    def draw_dc(fig, axes):
        ax = axes[0]
        for i, (k, t) in enumerate(dc_tables.items()):
            label = (f"dealer rule {k.split('_')[1]}" + (" (as played)" if i == 0 else "")
                     if k else f"dealer rule {'on' if meta.get('dealer_rule', True) else 'off'}")
            if len(t):
                C.errorbar(ax, t["hand_size"], t["score_diff"], t["score_diff_lo"],
                           t["score_diff_hi"], label=label, color=C.COLORS[i])
        ax.axhline(0, color="#888", lw=0.8)
        ax.set_xlabel("hand size (cards)")
        ax.set_ylabel("dealer − others (points per deal)")
        C.int_axis(ax)
        ax.legend()
        ax2 = axes[1]
        if len(dc):
            C.errorbar(ax2, dc["hand_size"], dc["dealer_exact_rate"], dc["dealer_exact_lo"],
                       dc["dealer_exact_hi"], label="dealer", color=C.COLORS[1])
            C.errorbar(ax2, dc["hand_size"], dc["others_exact_rate"], dc["others_exact_lo"],
                       dc["others_exact_hi"], label="other positions", color=C.COLORS[0])
            ax2.legend()
        ax2.set_xlabel("hand size (cards)")
        ax2.set_ylabel("exact-bid rate (%)")
        C.int_axis(ax2)
        C.percent_axis(ax2)
    nd = int(dc["n_dealer"].sum()) if len(dc) else 0
    cost = ""
    if len(dc):
        w = np.average(dc["score_diff"], weights=dc["n_dealer"])
        cost = f" Averaged over the hand sizes the dealer scores {w:+.2f} points per deal against the others."
    rep.figure("dealer_cost", "The cost of dealing: dealer against the other positions",
               C.fmt_n(N, f"player-deals, {nd:,} as dealer"), dc_tables, draw_dc, ncols=2,
               show=next(iter(dc_tables)),
               show_columns=["hand_size", "n_dealer", "dealer_score", "others_score",
                             "score_diff", "score_diff_lo", "score_diff_hi", "dealer_exact_rate",
                             "dealer_exact_lo", "dealer_exact_hi", "others_exact_rate",
                             "others_exact_lo", "others_exact_hi"],
               caption="Left: the dealer's mean score minus the other positions' (95% Welch "
               "interval); below 0, dealing costs points." + cost + " Right: exact-bid rates "
               "under the rules as played.")

    # -- comparisons
    rep.section("Variant and policy comparisons")
    if alt is not None:
        rule = "on" if meta.get("dealer_rule", True) else "off"
        other = "off" if rule == "on" else "on"
        names = [f"dealer rule {rule}", f"dealer rule {other}"]
        both = pd.concat([df.assign(source=names[0]), alt[0].assign(source=names[1])],
                         ignore_index=True)
        both["source"] = pd.Categorical(both["source"], categories=names)
        vc = stats.compare(both, by="source")

        draw_vc = _score_and_exact(vc["source"].astype(str), vc, "rules")
        rep.figure("variant_comparison", "Variant comparison: the dealer rule on and off",
                   C.fmt_n(len(both), "player-deals (two runs on the same deals)"), vc, draw_vc,
                   ncols=2, caption="All positions together. Both runs deal the same cards "
                   "(same seed); the Welch intervals of score_diff ignore that pairing and are "
                   "conservative.")
    else:
        rep.note("Variant comparison left out: it needs a second simulated run (use --deals).")
    if df_mix is not None:
        pc = stats.compare(df_mix, by="policy")

        draw_pc = _score_and_exact(pc["policy"].astype(str), pc, "policy")
        rep.figure("policy_comparison", "Policy comparison at one table",
                   C.fmt_n(len(df_mix), "player-deals"), pc, draw_pc, ncols=2,
                   caption="Seats of both policies play the same games (" +
                   C.policy_text(runs[-1]["metadata"]["policies"] if len(runs) > 1
                                 else meta["policies"]) + ").")
    else:
        rep.note("Policy comparison left out: every seat plays the same policy.")
    return data.finish(rep)
