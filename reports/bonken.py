"""The Bonken strategy report (docs/rules.md §3).

Runs (from ``--deals N`` rounds, default 220,000; same seed):

* main — N / 11 whole games (every round's contract chosen by the player across from the
  dealer) under ``--policy`` and ``--variant``;
* advice — :func:`analyzer.contract_query.contract_query` for a few fixed typical hands
  (N / 100 sampled deals each, between 200 and 2,000), every contract available.

Every statistic comes from :mod:`analyzer.bonken_stats` and the contract query. ``--from
FILE`` reports on a saved results file; the contract advice (a run of its own) is left out.
"""
import pandas as pd

from . import common as C

GAME = "bonken"
DEFAULT_DEALS = 220_000
ROUNDS_PER_GAME = 11
# typical hands for the contract advice: (label, 13 cards)
TYPICAL_HANDS = [
    ("long spades, aces", "AS KS QS JS TS 8S AH KH 4H AD 7D AC 3C"),
    ("low cards everywhere", "2S 3S 4S 5S 2H 3H 4H 2D 3D 4D 2C 3C 5C"),
    ("balanced, middling", "QS 9S 6S 3S JH 8H 5H TD 7D 4D KC 8C 2C"),
    ("long hearts with the king", "KH QH TH 9H 7H 5H 3H 8S 4S 6D 2D 9C 6C"),
    ("queens and kings", "KS QS 5S KH QH 6H KD QD 4D 7C 3C 9C 8D"),
]


def advice_samples(deals):
    return int(min(2000, max(200, deals // 100)))


def _rules_text(meta):
    bits = ["hearts may be led once broken" if meta.get("hearts_after_broken")
            else "hearts lead restricted",
            "contracts in a fixed order" if meta.get("fixed_order")
            else "contracts chosen by the player across from the dealer"]
    return ", ".join(bits)


def _simulate(deals, policy, variants, seed, threads):
    from analyzer.games import bonken as entry
    setup = entry.make_setup("game", variant=variants)
    pols = entry.parse_policies(setup, policy.lower())
    games = max(1, deals // ROUNDS_PER_GAME)
    res, df, meta = C.simulate(GAME, setup, games, seed, pols, threads)
    runs = [C.main_run(f"{games:,} whole games × 11 rounds = {res.n_deals:,} rounds "
                       f"({len(df):,} player-rounds)", meta)]
    return df, meta, runs, setup.rules


def contract_advice(policy, variants, seed, samples, threads):
    """The contract query for every typical hand → one long table."""
    from analyzer.contract_query import contract_query
    rows = []
    for label, hand in TYPICAL_HANDS:
        q = contract_query(hand, samples=samples, policy=policy, variants=variants, seed=seed,
                           threads=threads)
        for r in q["contracts"]:
            rows.append({"hand": label, "cards": hand, "contract": r["contract"],
                         "kind": r["kind"], "samples": q["samples"],
                         "expected_score": r["expected_score"],
                         "expected_score_lo": r["expected_score_ci"][0],
                         "expected_score_hi": r["expected_score_ci"][1],
                         "vs_average": r["vs_average"],
                         "recommended": r["contract"] == q["recommended"]})
    return pd.DataFrame(rows)


def _read(df, meta, from_path):
    runs = [C.run_entry("main", f"{df['deal'].nunique():,} rounds ({len(df):,} "
                        f"player-rounds) read from {from_path}", meta)]
    return runs, ["the contract advice for typical hands is a run of its own; simulate with "
                  "--deals to include it."], None


def _simulate_with_advice(deals, policy, variants, seed, threads):
    """The main run, then the contract advice (none with fixed_order)."""
    df, meta, runs, rules = _simulate(deals, policy, variants, seed, threads)
    if rules.fixed_order:
        return df, meta, runs, ["the contract advice: with fixed_order nobody chooses a "
                                "contract."], None
    samples = advice_samples(deals)
    advice = contract_advice(policy.lower(), list(variants), seed, samples, threads)
    runs.append(C.run_entry("advice", f"contract query, {samples:,} sampled deals for each of "
                            f"{len(TYPICAL_HANDS)} typical hands, every contract played on the "
                            "same deals", {}))
    return df, meta, runs, [], advice


def build(out, deals=None, from_path=None, policy=None, variants=(), seed=None, players=None,
          preset=None, threads=None):
    from analyzer import bonken_stats as bs
    from fastsim.bonken_schema import CONTRACTS
    data = C.gather(GAME, out, from_path, deals, policy, variants, seed, DEFAULT_DEALS, _read,
                    lambda d, p, s: _simulate_with_advice(d, p, variants, s, threads))
    df, meta, advice, omitted = data.df, data.meta, data.extra, data.omitted
    rep = data.report("Bonken strategy report", _rules_text(meta), "whole games")
    N = len(df)
    n_text = C.fmt_n(N, "player-rounds")
    present = {str(c) for c in df["contract"].unique()}
    order = [c for c in CONTRACTS if c in present]
    c_index = {c: i for i, c in enumerate(order)}

    def contract_heat(table, feature, label):
        def draw(fig, ax):
            t = table.assign(cid=table["contract"].astype(str).map(c_index))
            C.heatmap(fig, ax, t, "cid", feature, "mean_score", fmt="{:.0f}", cmap="RdBu",
                      center=0.0, cbar_label="mean score (points per round)",
                      row_labels=lambda rows: [order[int(r)] for r in rows],
                      col_labels=lambda cols: [str(int(c)) for c in cols])
            ax.invert_yaxis()
            ax.set_xlabel(label)
            ax.set_ylabel("contract")
        return draw

    # -- contracts by hand features
    rep.section("Expected score per contract by hand features",
                "Every player's score in every round, by a feature of the hand as dealt. "
                "Negative contracts cost points (lower is worse), trump contracts earn them.")
    cs = bs.contract_score(df, "strength_band")
    rep.figure("contract_by_strength", "Expected score per contract by hand strength", n_text,
               cs, contract_heat(cs, "strength_band", "hand strength at no trump (tricks, "
                                 "rounded)"),
               figsize=(C.FIG_W, C.FIG_H * 1.15),
               caption="Hand strength: the heuristic's no-trump trick estimate. Blank cells: "
               f"fewer than {C.MIN_CELL_N} player-rounds.")
    ch = bs.contract_score(df, "hearts")
    rep.figure("contract_by_hearts", "Expected score per contract by hearts held", n_text, ch,
               contract_heat(ch, "hearts", "hearts held (cards)"),
               figsize=(C.FIG_W, C.FIG_H * 1.15),
               caption=f"Blank cells: fewer than {C.MIN_CELL_N} player-rounds.")

    # -- choosing
    rep.section("The value of choosing",
                "The chooser picks the round's contract knowing only their own hand.")
    cv = bs.chooser_value(df) if not meta.get("fixed_order") else pd.DataFrame()

    def draw_cv(fig, ax):
        if len(cv):
            C.bars(ax, cv["contract"].astype(str), cv["chooser_gain"], cv["chooser_gain_lo"],
                   cv["chooser_gain_hi"], horizontal=True, fmt=lambda v: f"{v:+.1f}")
            ax.axvline(0, color="#888", lw=0.8)
        else:
            C.no_data(ax)
        ax.set_xlabel("chooser's mean score − the others' (points per round)")
        ax.set_ylabel("contract")
    n_ch = int(cv["n_chooser"].sum()) if len(cv) else 0
    if meta.get("fixed_order"):
        rep.note("Left out: with fixed_order the contracts come in a fixed order and nobody "
                 "chooses.")
    else:
        rep.figure("chooser_value", "Value of choosing: the chooser against the other players",
                   C.fmt_n(n_ch, "rounds"), cv, draw_cv,
                   caption="Positive: choosing this contract for one's own hand pays. All "
                   "seven negative contracts are played every game, so for them choosing means "
                   "choosing when.")

    if advice is not None:
        stars = {(r.hand, r.contract) for r in advice.itertuples() if r.recommended}
        hands = [h for h, _ in TYPICAL_HANDS]
        queried = set(advice["contract"])
        conts = [c for c in CONTRACTS if c in queried]

        def draw_adv(fig, ax):
            t = advice.assign(hid=advice["hand"].map({h: i for i, h in enumerate(hands)}),
                              cid=advice["contract"].map({c: i for i, c in enumerate(conts)}),
                              n=advice["samples"])
            C.heatmap(fig, ax, t, "hid", "cid", "vs_average", fmt="{:+.0f}", cmap="RdBu",
                      center=0.0, cbar_label="expected score − average chooser's (points)",
                      row_labels=lambda rows: [hands[int(r)] for r in rows],
                      col_labels=lambda cols: [conts[int(c)] for c in cols],
                      star={(hands.index(h), conts.index(c)) for h, c in stars}, min_n=0)
            ax.invert_yaxis()
            ax.tick_params(axis="x", labelrotation=40)
            for lab in ax.get_xticklabels():
                lab.set_ha("right")
            ax.set_xlabel("contract")
            ax.set_ylabel("typical hand")
        s = int(advice["samples"].iloc[0])
        rep.figure("best_contract", "The best contract for typical hands",
                   C.fmt_n(s, f"sampled deals per hand and contract ({len(hands)} hands)"),
                   advice, draw_adv, figsize=(C.FIG_W * 1.25, C.FIG_H * 1.1),
                   caption="The chooser's expected score minus the contract's average share "
                   "(its total / 4); * marks the recommended contract. The hands: " +
                   "; ".join(f"{h}: {c}" for h, c in TYPICAL_HANDS) + ".")
    else:
        rep.note("Left out: " + omitted[-1])

    # -- domino
    rep.section("Domino")
    dl = bs.domino_loser_rate(df)

    def draw_dl(fig, ax):
        if len(dl):
            labels = [f"{p}" + ("\n(leads)" if p == 0 else "\n(chooses)" if p == 1 else
                                "\n(dealer)" if p == 3 else "") for p in dl["position"]]
            C.bars(ax, labels, dl["loser_rate"], dl["loser_rate_lo"], dl["loser_rate_hi"],
                   pct=True, color=C.COLORS[1])
            ax.axhline(0.25, color="#888", lw=0.8, ls="--")
        else:
            C.no_data(ax)
        ax.set_xlabel("position")
        ax.set_ylabel("left holding cards (loser, %)")
    n_dom = int(dl["n"].iloc[0]) if len(dl) else 0
    rep.figure("domino_loser", "Domino: how often each position is the loser",
               C.fmt_n(n_dom, "Domino rounds"), dl, draw_dl,
               caption="The loser is the last player still holding cards (−50). Dashed: 25%, "
               "no position effect.")
    return data.finish(rep)

