"""The Boonaken strategy report (docs/rules.md §4; presets ``seed``, ``pagat``, ``leimuiden``).

Runs (from ``--deals N``, default 200,000; same seed):

* main — N independent deals of the chosen ``--preset`` and ``--players`` (``--policy``);
* matches — N / 100 whole matches (the first dealer rotating with the match).

Every statistic comes from :mod:`analyzer.boonaken_stats`. ``--from FILE`` reports on a saved
results file; the match outcomes (a run of its own) are left out.
"""
import time

import pandas as pd

from . import common as C

GAME = "boonaken"
DEFAULT_DEALS = 200_000
DEALS_PER_MATCH_RUN = 100       # matches = deals // this
BID_BAND = 10
HAND_BAND = 10


def _simulate(deals, policy, seed, players, preset, threads):
    from analyzer.frames import tidy_boonaken
    from analyzer.storage import run_metadata
    from fastsim import boonaken as bo
    from fastsim.rng import check_seed
    rules = bo.build_rules(4 if players is None else players, preset or "seed")
    check_seed(seed)
    pols = bo.parse_seat_policies(rules.players, policy.lower())
    res = bo.simulate(rules, deals, seed=seed, policies=pols, threads=threads)
    df, meta = tidy_boonaken(res), run_metadata(res)
    matches = max(1, deals // DEALS_PER_MATCH_RUN)
    mres = bo.simulate_matches(rules, matches, seed=seed, policies=pols, threads=threads)
    runs = [C.run_entry("main", f"{deals:,} independent deals (dealer seat "
                        f"{rules.first_dealer}); {C.policy_text(meta['policies'])}", meta),
            C.run_entry("matches", f"{matches:,} whole matches "
                        f"({int(mres.matches['deals'].sum()):,} deals)", meta)]
    return df, meta, runs, mres


def build(out, deals=None, from_path=None, policy=None, variants=(), seed=None, players=None,
          preset=None, threads=None):
    from analyzer import boonaken_stats as bs
    t0 = time.perf_counter()
    omitted = []
    mres = None
    if from_path is not None:
        df, meta = C.load_results(from_path, GAME)
        runs = [C.run_entry("main", f"{df['deal'].nunique():,} deals read from {from_path}",
                            meta)]
        omitted.append("match outcomes by position need a run of whole matches; simulate with "
                       "--deals to include them.")
        command = C.command_line(GAME, [("from", from_path)], out)
        source = f"results file {from_path}"
    else:
        deals = deals or DEFAULT_DEALS
        policy = policy or "heuristic"
        seed = 0 if seed is None else seed
        df, meta, runs, mres = _simulate(deals, policy, seed, players, preset, threads)
        command = C.command_line(GAME, [("deals", deals), ("players", meta["players"]),
                                        ("preset", meta["preset"]), ("policy", policy),
                                        ("seed", seed)], out)
        source = "simulated for this report"
    n_pl, pre = int(meta["players"]), meta.get("preset", "seed")
    rules_text = f"preset {pre}, {n_pl} players"
    setup = C.make_setup(GAME, "Boonaken", meta.get("seed"), meta.get("policies", []),
                         rules_text, {}, source, runs, command, omitted, meta,
                         footer=rules_text)
    rep = C.Report(out, GAME, f"Boonaken strategy report: {pre} preset, {n_pl} players", setup)
    n_deals = int(df["deal"].nunique())
    decl = df[df["declarer"] & (df["contract"] == "points")]
    n_decl = C.fmt_n(len(decl), "point contracts")

    # -- point contracts
    rep.section("Point contracts: bid and make",
                "The declarer of a point contract must take at least the bid in card points "
                "and roem. Make rates of the declarer by the bid and by the card points of the "
                "hand as dealt (under the deal's trump).")
    mr = bs.make_rate(df, band=BID_BAND)

    def draw_mr(fig, ax):
        t = mr[mr["n"] >= C.MIN_CELL_N]
        if len(t):
            C.errorbar(ax, t["bid_band"] + BID_BAND / 2, t["make_rate"], t["make_rate_lo"],
                       t["make_rate_hi"])
        else:
            C.no_data(ax)
        ax.set_xlabel(f"bid (points, bands of {BID_BAND})")
        ax.set_ylabel("contracts made (%)")
        C.percent_axis(ax)
    rep.figure("make_rate_by_bid", "Make rate by bid level", n_decl, mr, draw_mr,
               caption=f"Bands with fewer than {C.MIN_CELL_N} contracts are left out of the "
               "figure (the CSV keeps them).")

    hp = bs.by_hand_points(df, band=HAND_BAND)

    def draw_hp(fig, axes):
        t = hp[hp["n"] >= C.MIN_CELL_N]
        if len(t):
            x = t["hand_band"] + HAND_BAND / 2
            C.errorbar(axes[0], x, t["make_rate"], t["make_rate_lo"], t["make_rate_hi"])
            axes[1].plot(x, t["mean_bid"], marker="o", ms=4, color=C.COLORS[2])
        else:
            C.no_data(axes[0])
            C.no_data(axes[1])
        axes[0].set_xlabel(f"declarer's dealt hand (card points, bands of {HAND_BAND})")
        axes[0].set_ylabel("contracts made (%)")
        C.percent_axis(axes[0])
        axes[1].set_xlabel(f"declarer's dealt hand (card points, bands of {HAND_BAND})")
        axes[1].set_ylabel("mean winning bid (points)")
    rep.figure("make_rate_by_hand", "Make rate and bid by the declarer's hand points", n_decl,
               hp, draw_hp, ncols=2,
               caption="Hand points count cards only; declarers with few card points mostly bid "
               "on roem (a four of a kind is worth 100 or 200), which counts toward the bid.")

    grid = []
    bands = sorted((df["hand_points"] // HAND_BAND * HAND_BAND).unique())
    for b in bands:
        t = bs.make_rate(df[df["hand_points"] // HAND_BAND * HAND_BAND == b], band=BID_BAND)
        t.insert(0, "hand_band", int(b))
        grid.append(t)
    grid = pd.concat(grid, ignore_index=True) if grid else mr.assign(hand_band=[])

    def draw_grid(fig, ax):
        if (grid["n"] >= C.MIN_CELL_N).any():
            C.heatmap(fig, ax, grid, "hand_band", "bid_band", "make_rate", fmt="{:.0%}",
                      cbar_label="contracts made (%)", vmin=0, vmax=1)
            C.percent_axis(ax.images[0].colorbar.ax, "y")
        else:
            C.no_data(ax)
        ax.set_xlabel(f"bid (points, lower end of a band of {BID_BAND})")
        ax.set_ylabel("dealt hand (card points, band start)")
    rep.figure("make_rate_grid", "Make rate by bid level and hand points", n_decl, grid,
               draw_grid, caption=f"Blank cells: fewer than {C.MIN_CELL_N} contracts.")

    # -- special contracts
    rep.section("Misère, zwabber and boonaak")
    sp = bs.special_success(df)

    def draw_sp(fig, ax):
        labels = [f"{c}\n(n = {int(k):,})" for c, k in zip(sp["contract"], sp["n"])]
        C.bars(ax, labels, sp["make_rate"], sp["make_rate_lo"], sp["make_rate_hi"], pct=True,
               color=C.COLORS[3], fmt=lambda v: f"{v:.0%}")
        for i, k in enumerate(sp["n"]):
            if k == 0:
                ax.annotate("none played", (i, 0), xytext=(0, 3), textcoords="offset points",
                            ha="center", va="bottom", fontsize=7, color="#666")
        ax.set_ylim(0, 1.08)
        ax.set_xlabel("contract")
        ax.set_ylabel("made (%)")
    rep.figure("special", "Misère, zwabber and boonaak success",
               C.fmt_n(int(sp["n"].sum()), f"special contracts in {n_deals:,} deals"), sp,
               draw_sp, caption="Misère counts every misère player (each makes it by taking no "
               "trick); zwabber and boonaak the declarer. Rare contracts have wide intervals.")

    # -- matches
    rep.section("Matches")
    if mres is not None:
        mo = bs.match_outcomes(mres)
        m = int(mo["matches"].iloc[0]) if len(mo) else 0
        labels = [str(int(p)) for p in mo["position"]]

        if "win_rate" in mo.columns:
            def draw_mo(fig, ax):
                C.bars(ax, labels, mo["win_rate"], mo["win_rate_lo"], mo["win_rate_hi"],
                       pct=True)
                ax.axhline(1 / n_pl, color="#888", lw=0.8, ls="--")
                ax.set_xlabel("position (0 = left of the first dealer)")
                ax.set_ylabel("matches won (%)")
            ncols, cap = 1, (f"The first player to two + wins. Dashed: 1/{n_pl}, no "
                             "position effect.")
        else:
            def draw_mo(fig, axes):
                C.bars(axes[0], labels, mo["safe_rate"], mo["safe_rate_lo"], mo["safe_rate_hi"],
                       pct=True, color=C.COLORS[2])
                axes[0].set_xlabel("position (0 = left of the first dealer)")
                axes[0].set_ylabel("safe (%)")
                C.bars(axes[1], labels, mo["pays_rate"], mo["pays_rate_lo"],
                       mo["pays_rate_hi"], pct=True, color=C.COLORS[1])
                axes[1].set_xlabel("position (0 = left of the first dealer)")
                axes[1].set_ylabel("pays (%)")
            ncols, cap = 2, ("Leimuiden: a player who reaches +2 leaves safe, one who "
                             "reaches −2 leaves and pays; the rest is undecided when the "
                             "session ends.")
        rep.figure("matches", "Match outcomes by position", C.fmt_n(m, "matches"), mo, draw_mo,
                   ncols=ncols, caption=cap)
    else:
        rep.note("Left out: " + omitted[-1])
    rep.write()
    rep.seconds = time.perf_counter() - t0
    return rep
