"""The Klaverjassen strategy report (docs/rules.md §2, Rotterdam unless a variant says otherwise).

Runs (from ``--deals N``, default 200,000; same seed):

* main — N independent deals with trump called by the players (``--policy``, ``--variant``);
* boompjes — N / 100 whole 16-deal games for the match outcomes.

Every statistic comes from :mod:`analyzer.klaverjassen_stats`. ``--from FILE`` reports on a
saved results file; the match outcomes come from it when it holds boompjes
(``troef simulate klaverjassen --games``) and are left out otherwise.
"""
import pandas as pd

from . import common as C

GAME = "klaverjassen"
DEFAULT_DEALS = 200_000
DEALS_PER_BOOMPJE_RUN = 100     # boompjes = deals // this
CALL_BAND = 10


def _rules_text(meta):
    bits = ["Amsterdam" if meta.get("amsterdam") else "Rotterdam",
            "undertrumping forced" if meta.get("undertrump_forced") else "no undertrumping",
            "four of a kind 100 each" if meta.get("all_100") else "four of a kind: standard roem"]
    return ", ".join(bits)


def _simulate(deals, policy, variants, seed, threads):
    from analyzer.games import klaverjassen as entry
    setup = entry.make_setup("deal", variant=variants)
    pols = entry.parse_policies(setup, policy.lower())
    _, df, meta = C.simulate(GAME, setup, deals, seed, pols, threads)
    games = max(1, deals // DEALS_PER_BOOMPJE_RUN)
    bres, bdf, bmeta = C.simulate(GAME, entry.Setup(setup.rules, boompje=True), games, seed,
                                  pols, threads)
    runs = [C.main_run(f"{deals:,} independent deals, trump called", meta),
            C.run_entry("boompjes", f"{games:,} whole games of 16 deals "
                        f"({bres.n_deals:,} deals)", bmeta)]
    return df, meta, runs, [], bdf


def _read(df, meta, from_path):
    if not df["caller"].any():
        raise ValueError(f"{from_path} was played with a fixed trump; the report needs "
                         "deals in which the players call trump")
    bdf = df if meta.get("boompje") else None
    runs = [C.run_entry("main", f"{df['deal'].nunique():,} deals read from {from_path}"
                        + (" (boompjes)" if bdf is not None else ""), meta)]
    omitted = [] if bdf is not None else [
        "16-deal match outcomes: the results file holds single deals (simulate with --deals, "
        "or report on a --games file)."]
    return runs, omitted, bdf


def build(out, deals=None, from_path=None, policy=None, variants=(), seed=None, players=None,
          preset=None, threads=None):
    from analyzer import klaverjassen_stats as ks
    from fastsim.klaverjassen_schema import CALL_THRESHOLD
    data = C.gather(GAME, out, from_path, deals, policy, variants, seed, DEFAULT_DEALS, _read,
                    lambda d, p, s: _simulate(d, p, variants, s, threads))
    df, meta, bdf = data.df, data.meta, data.extra
    rep = data.report("Klaverjassen strategy report", _rules_text(meta),
                      _rules_text(meta).split(",")[0] + " rules")
    n_deals = int(df["deal"].nunique())
    n_calls = int(df["caller"].sum())
    calls_text = C.fmt_n(n_calls, "deals (one caller each)")

    # -- trump value by holding
    rep.section("What a trump holding is worth",
                "The team that names trump: its mean margin (its score minus the other team's, "
                "card points and roem, after nat and pit) by what the caller holds in the named "
                "suit. P(nat) is in the tables.")
    feats = [("trump_jack", "trump jack held", {False: "no", True: "yes"}),
             ("trump_nine", "trump nine held", {False: "no", True: "yes"}),
             ("trump_count", "trumps held (cards)", None),
             ("aces", "aces held outside trump (cards)", None)]
    tv = {f: ks.trump_value(df, f) for f, _, _ in feats}

    def draw_tv(fig, axes):
        for i, (ax, (f, lab, names)) in enumerate(zip(axes, feats)):
            t = tv[f][tv[f]["n"] >= C.MIN_CELL_N]
            labels = [names[bool(v)] if names else str(int(v)) for v in t[f]]
            C.bars(ax, labels, t["mean_margin"], t["mean_margin_lo"], t["mean_margin_hi"],
                   color=C.COLORS[i], fmt=lambda v: f"{v:.0f}")
            ax.set_xlabel(lab)
            ax.set_ylabel("mean margin (points)")
            ax.axhline(0, color="#888", lw=0.8)
    rep.figure("trump_value", "Value of playing trump by holding", calls_text, tv, draw_tv,
               nrows=2, ncols=2, figsize=(C.FIG_W, C.FIG_H * 1.45),
               caption="Margin of the calling team per deal; bars with fewer than "
               f"{C.MIN_CELL_N} deals are left out (the CSVs keep them).")

    # -- pass or play
    rep.section("Pass or play: thresholds by position",
                "Position 0 (left of the dealer) names first; a player passes or names a suit. "
                "The heuristic names the suit with the highest call value when that value "
                "reaches its position's threshold (dotted lines); when all four pass, "
                "position 0 must name (a forced call).")
    df_band = df.assign(call_band=(df["call_value"] // CALL_BAND * CALL_BAND).astype("int16"))
    thr = []
    for p in range(4):
        t = ks.trump_value(df_band[df_band["position"] == p], "call_band")
        t.insert(0, "position", p)
        thr.append(t)
    thr = pd.concat(thr, ignore_index=True)

    def draw_thr(fig, ax):
        for p in range(4):
            t = thr[(thr["position"] == p) & (thr["n"] >= C.MIN_CELL_N)]
            if len(t):
                x = t["call_band"] + CALL_BAND / 2
                ax.plot(x, t["mean_margin"], marker="o", ms=3.5, color=C.COLORS[p],
                        label=f"position {p}" + (" (names first)" if p == 0 else
                                                 " (dealer)" if p == 3 else ""))
                ax.fill_between(x, t["mean_margin_lo"], t["mean_margin_hi"], color=C.COLORS[p],
                                alpha=0.15, lw=0)
            ax.axvline(CALL_THRESHOLD[p], color=C.COLORS[p], ls=":", lw=1.2)
        ax.axhline(0, color="#888", lw=0.8)
        ax.set_xlabel("call value of the named suit (heuristic points, bands of "
                      f"{CALL_BAND})")
        ax.set_ylabel("mean margin of the calling team (points)")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="upper left")
        else:           # a small run: no band holds enough deals to draw
            ax.text(0.5, 0.5, f"no call band with {C.MIN_CELL_N} or more deals",
                    transform=ax.transAxes, ha="center", va="center", color="#888")
    rep.figure("call_thresholds", "Pass or play: margin by call value and position", calls_text,
               thr, draw_thr, caption="Shaded: 95% intervals. Dotted: the heuristic's "
               f"thresholds ({', '.join(str(int(v)) for v in CALL_THRESHOLD)} for positions "
               "0–3). Where a curve stays above zero right down to its threshold, calling "
               "with less would still have paid; values below position 0's threshold are "
               "forced calls.")

    pe = ks.position_effects(df)

    draw_pe = C.bar_panels(
        [str(p) for p in pe["position"]], pe, "position (0 names first, 3 deals)",
        [("call_rate", "deals in which it names trump (%)", {"pct": True}),
         ("mean_margin", "mean margin when naming (points)",
          {"color": C.COLORS[2], "fmt": lambda v: f"{v:.1f}"})])
    rep.figure("position", "Who names trump, and how it pays, by position",
               C.fmt_n(n_deals, "deals"), pe, draw_pe, ncols=2)

    # -- nat, pit, roem
    rep.section("Nat, pit and roem")
    npr = ks.nat_pit_rates(df)

    draw_np = C.bar_panels(
        [str(p) for p in npr["position"]], npr, "position of the caller",
        [("nat_rate", "calling team goes nat (%)", {"pct": True, "color": C.COLORS[1]}),
         ("pit_rate", "calling team takes every trick (pit, %)",
          {"pct": True, "color": C.COLORS[2]})])
    rep.figure("nat_pit", "Nat and pit rates by the caller's position", calls_text, npr,
               draw_np, ncols=2, caption="Nat: the calling team's card points plus roem were not "
               "more than the other team's, so it banks nothing and the other team banks 162 "
               "plus all roem. Pit: the calling team took all eight tricks (+100).")

    rf = ks.roem_frequency(df)

    def draw_rf(fig, ax):
        C.bars(ax, [str(int(r)) for r in rf["roem"]], rf["share"], rf["share_lo"],
               rf["share_hi"], pct=True, color=C.COLORS[3],
               fmt=lambda v: f"{v:.1%}" if v >= 0.001 else "")
        ax.set_xlabel("roem in the deal, both teams together (points)")
        ax.set_ylabel("share of deals (%)")
    rep.figure("roem", "How much roem a deal carries", C.fmt_n(n_deals, "deals"), rf, draw_rf,
               figsize=(C.FIG_W * 1.2, C.FIG_H))

    # -- matches
    rep.section("16-deal games (boompjes)")
    if bdf is not None:
        mo = ks.match_outcomes(bdf)
        g = int(mo["games"].iloc[0]) if len(mo) else 0

        draw_mo = C.bar_panels(
            [f"team {t}\n(seats {t} + {t + 2})" for t in mo["team"]], mo, "team",
            [("win_share", "games won (%, shared wins half)", {"pct": True, "hline": 0.5}),
             ("mean_total", "mean game total (points)",
              {"color": C.COLORS[2], "fmt": lambda v: f"{v:.0f}"})])
        first = meta.get("first_dealer", 0)
        rep.figure("matches", "16-deal game outcomes by team", C.fmt_n(g, "games"), mo, draw_mo,
                   ncols=2, caption=f"Seat {first} deals first and the deal rotates, so every "
                   "seat deals four times; equal totals after 16 deals are decided by extra "
                   "deals (shared after 32).")
    else:
        rep.note("16-deal match outcomes left out: the results file holds single deals.")
    return data.finish(rep)

