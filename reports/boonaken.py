"""The Boonaken strategy report (docs/rules.md §4; presets ``seed``, ``pagat``, ``leimuiden``).

Runs (from ``--deals N``, default 200,000; same seed):

* main — N independent deals of the chosen ``--preset`` and ``--players`` (``--policy``);
* matches — N / 100 whole matches (the first dealer rotating with the match).

Every statistic comes from :mod:`analyzer.boonaken_stats`. ``--from FILE`` reports on a saved
results file; the match outcomes (a run of its own) are left out.
"""
import pandas as pd

from . import common as C

GAME = "boonaken"
DEFAULT_DEALS = 200_000
DEALS_PER_MATCH_RUN = 100       # matches = deals // this
BID_BAND = 10
HAND_BAND = 10


def _simulate(deals, policy, seed, players, preset, threads):
    from analyzer.games import boonaken as entry
    setup = entry.make_setup("deal", players=players, preset=preset or "seed")
    pols = entry.parse_policies(setup, policy.lower())
    _, df, meta = C.simulate(GAME, setup, deals, seed, pols, threads)
    matches = max(1, deals // DEALS_PER_MATCH_RUN)
    mres, _, _ = C.simulate(GAME, entry.Setup(setup.rules, matches=True), matches, seed, pols,
                            threads)
    runs = [C.main_run(f"{deals:,} independent deals (dealer seat {setup.rules.first_dealer})",
                       meta),
            C.run_entry("matches", f"{matches:,} whole matches "
                        f"({int(mres.matches['deals'].sum()):,} deals)", meta)]
    return df, meta, runs, [], mres


def _read(df, meta, from_path):
    runs = [C.run_entry("main", f"{df['deal'].nunique():,} deals read from {from_path}", meta)]
    return runs, ["match outcomes by position need a run of whole matches; simulate with "
                  "--deals to include them."], None


def build(out, deals=None, from_path=None, policy=None, variants=(), seed=None, players=None,
          preset=None, threads=None):
    from analyzer import boonaken_stats as bs
    data = C.gather(GAME, out, from_path, deals, policy, variants, seed, DEFAULT_DEALS,
                    _read, lambda d, p, s: _simulate(d, p, s, players, preset, threads))
    df, meta, mres, omitted = data.df, data.meta, data.extra, data.omitted
    n_pl, pre = int(meta["players"]), meta.get("preset", "seed")
    rules_text = f"preset {pre}, {n_pl} players"
    rep = data.report(f"Boonaken strategy report: {pre} preset, {n_pl} players", rules_text,
                      rules_text, variants={})
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
            panels = [("win_rate", "matches won (%)", {"pct": True, "hline": 1 / n_pl})]
            cap = f"The first player to two + wins. Dashed: 1/{n_pl}, no position effect."
        else:
            panels = [("safe_rate", "safe (%)", {"pct": True, "color": C.COLORS[2]}),
                      ("pays_rate", "pays (%)", {"pct": True, "color": C.COLORS[1]})]
            cap = ("Leimuiden: a player who reaches +2 leaves safe, one who reaches −2 leaves "
                   "and pays; the rest is undecided when the session ends.")
        draw_mo = C.bar_panels(labels, mo, "position (0 = left of the first dealer)", panels)
        rep.figure("matches", "Match outcomes by position", C.fmt_n(m, "matches"), mo, draw_mo,
                   ncols=len(panels), caption=cap)
    else:
        rep.note("Left out: " + omitted[-1])
    return data.finish(rep)
