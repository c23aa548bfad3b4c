"""Strategy reports (``troef report``): every game's report from a small run — valid, non-blank
PNGs, every file the HTML references on disk, the CSVs equal to the analyzer's statistics on
the same data (re-simulated here from the documented run sizes, or read back from a results
file), reproducible, and the command line's errors."""
import io
import os
import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from conftest import run_cli

SEED = 7
SMALL = {
    "boerenbridge": {"deals": 3000, "players": 4},
    "klaverjassen": {"deals": 4000},
    "bonken": {"deals": 2200},
    "boonaken": {"deals": 4000, "players": 3, "preset": "pagat"},
}


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    from reports import build_report
    out = {}
    for game, opts in SMALL.items():
        d = tmp_path_factory.mktemp(game)
        out[game] = (d, build_report(game, str(d), seed=SEED, **opts))
    return out


class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("src", "href") and v:
                self.refs.append(v)


def html_refs(path):
    p = _Refs()
    p.feed(path.read_text())
    return p.refs


def check_png(path):
    with Image.open(path) as im:
        im.verify()                       # a valid PNG
    with Image.open(path) as im:
        assert im.format == "PNG"
        a = np.asarray(im.convert("RGB")).astype(np.int64)
    assert a.shape[0] >= 300 and a.shape[1] >= 500, a.shape
    assert a.var() > 0
    colours = np.unique(a.reshape(-1, 3), axis=0)
    assert len(colours) > 1
    non_white = (a.sum(axis=2) < 3 * 250).mean()
    assert non_white > 0.02, f"{path.name}: {non_white:.1%} of the pixels are not white"


def assert_csv(path, expected):
    """The report's CSV is exactly the statistic's DataFrame (same text)."""
    got = path.read_text()
    want = expected.to_csv(index=False)
    if got != want:
        pd.testing.assert_frame_equal(pd.read_csv(path), pd.read_csv(io.StringIO(want)))
        assert got == want


@pytest.mark.parametrize("game", list(SMALL))
def test_report_files(reports, game):
    d, rep = reports[game]
    index, md = d / "index.html", d / "report.md"
    assert index.exists() and md.exists() and (d / "setup.json").exists()
    pngs = sorted(d.glob("*.png"))
    assert len(pngs) == len(rep.figures) >= 4
    for p in pngs:
        check_png(p)
    refs = html_refs(index)
    assert not [r for r in refs if re.match(r"[a-z]+://", r)], "the HTML must open offline"
    for r in refs:
        assert (d / r).is_file(), f"index.html references missing {r}"
    referenced = set(refs)
    for f in rep.figures:                       # every figure and its tables are in the page
        assert f.png in referenced and all(fn in referenced for fn, _ in f.csvs)
    for r in re.findall(r"\]\(([^)]+)\)", md.read_text()):
        assert (d / r).is_file(), f"report.md references missing {r}"
    text = index.read_text()
    assert text.count("n = ") >= len(rep.figures)
    assert f"--seed {SEED}" in text and "heuristic" in text
    for f in rep.figures:
        for fn, df in f.csvs:
            assert_csv(d / fn, df)


def test_boerenbridge_tables(reports):
    from analyzer import stats
    from analyzer.frames import tidy_boerenbridge
    from fastsim import boerenbridge as bb
    d, rep = reports["boerenbridge"]
    rules = bb.build_rules(players=4)
    games = SMALL["boerenbridge"]["deals"] // len(rules.schedule)
    df = tidy_boerenbridge(bb.simulate(rules, games, seed=SEED))
    assert_csv(d / "boerenbridge_exact_rate_heatmap.csv", stats.exact_rate(df, ("hand_size", "bid")))
    assert_csv(d / "boerenbridge_calibration.csv", stats.calibration(df, ("hand_size",)))
    assert_csv(d / "boerenbridge_dealer_cost_rule_on.csv", stats.dealer_cost(df, ("hand_size",)))
    off = tidy_boerenbridge(bb.simulate(bb.build_rules(players=4, variants=["dealer_rule=off"]),
                                        games, seed=SEED))
    assert_csv(d / "boerenbridge_dealer_cost_rule_off.csv", stats.dealer_cost(off, ("hand_size",)))
    pc = pd.read_csv(d / "boerenbridge_policy_comparison.csv")
    assert set(pc["policy"]) == {"heuristic", "random"}
    assert (pc["mean_score_lo"] <= pc["mean_score"]).all()


def test_klaverjassen_tables(reports):
    from analyzer import klaverjassen_stats as ks
    from analyzer.frames import tidy_klaverjassen
    from fastsim import klaverjassen as kj
    d, rep = reports["klaverjassen"]
    n = SMALL["klaverjassen"]["deals"]
    df = tidy_klaverjassen(kj.simulate(kj.build_rules(), n, seed=SEED))
    assert_csv(d / "klaverjassen_trump_value_trump_jack.csv", ks.trump_value(df, "trump_jack"))
    assert_csv(d / "klaverjassen_nat_pit.csv", ks.nat_pit_rates(df))
    assert_csv(d / "klaverjassen_roem.csv", ks.roem_frequency(df))
    b = tidy_klaverjassen(kj.simulate(kj.build_rules(), n // 100, seed=SEED, boompje=True))
    assert_csv(d / "klaverjassen_matches.csv", ks.match_outcomes(b))


def test_bonken_tables(reports):
    from analyzer import bonken_stats as bs
    from analyzer.contract_query import contract_query
    from analyzer.frames import tidy_bonken
    from fastsim import bonken as bk
    from reports.bonken import TYPICAL_HANDS, advice_samples
    d, rep = reports["bonken"]
    n = SMALL["bonken"]["deals"]
    df = tidy_bonken(bk.simulate(bk.build_rules(), n // 11, seed=SEED))
    assert_csv(d / "bonken_chooser_value.csv", bs.chooser_value(df))
    assert_csv(d / "bonken_domino_loser.csv", bs.domino_loser_rate(df))
    assert_csv(d / "bonken_contract_by_strength.csv", bs.contract_score(df, "strength_band"))
    adv = pd.read_csv(d / "bonken_best_contract.csv")
    label, hand = TYPICAL_HANDS[0]
    q = contract_query(hand, samples=advice_samples(n), seed=SEED)
    mine = adv[adv["hand"] == label].set_index("contract")
    for r in q["contracts"]:
        assert mine.loc[r["contract"], "expected_score"] == pytest.approx(r["expected_score"])
        assert mine.loc[r["contract"], "expected_score_lo"] == pytest.approx(r["expected_score_ci"][0])
    assert mine.loc[q["recommended"], "recommended"]


def test_boonaken_tables(reports):
    from analyzer import boonaken_stats as bs
    from analyzer.frames import tidy_boonaken
    from fastsim import boonaken as bo
    d, rep = reports["boonaken"]
    o = SMALL["boonaken"]
    rules = bo.build_rules(o["players"], o["preset"])
    df = tidy_boonaken(bo.simulate(rules, o["deals"], seed=SEED))
    assert_csv(d / "boonaken_make_rate_by_bid.csv", bs.make_rate(df, band=10))
    assert_csv(d / "boonaken_make_rate_by_hand.csv", bs.by_hand_points(df, band=10))
    assert_csv(d / "boonaken_special.csv", bs.special_success(df))
    m = bo.simulate_matches(rules, o["deals"] // 100, seed=SEED)
    assert_csv(d / "boonaken_matches.csv", bs.match_outcomes(m))


def test_from_results_file(tmp_path):
    """--from: the tables come from the file; runs it cannot hold are left out, and said so."""
    from analyzer import stats
    from analyzer.storage import read_parquet, write_parquet
    from fastsim import boerenbridge as bb
    from reports import build_report
    rules = bb.build_rules(players=5, hand_size=6)
    pols = bb.parse_seat_policies(5, "heuristic", ["1=random"])
    f = tmp_path / "h6.parquet"
    write_parquet(bb.simulate(rules, 1500, seed=3, policies=pols), f)
    out = tmp_path / "rep"
    build_report("boerenbridge", str(out), from_path=str(f))
    df, meta = read_parquet(f)
    assert_csv(out / "boerenbridge_exact_rate_heatmap.csv", stats.exact_rate(df, ("hand_size", "bid")))
    assert_csv(out / "boerenbridge_policy_comparison.csv", stats.compare(df, "policy"))
    assert not (out / "boerenbridge_variant_comparison.png").exists()
    text = (out / "index.html").read_text()
    assert "Left out" in text and "seed</th><td>3" in text and "5 players" in text
    assert f"--from {f}" in text
    for p in out.glob("*.png"):
        check_png(p)


def test_reproducible(tmp_path):
    """The same options give the same tables and the same figures, byte for byte."""
    import numba
    from reports import build_report
    build_report("boonaken", str(tmp_path / "b"), deals=1500, seed=1)
    try:
        a = build_report("boonaken", str(tmp_path / "a"), deals=1500, seed=1, threads=1)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    names = sorted(a.tables) + [f.png for f in a.figures]
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_cli_report(tmp_path):
    out = tmp_path / "kj"
    p = run_cli("report", "klaverjassen", "--deals", "2000", "--seed", "2",
                "--variant", "amsterdam", "--out", out, check=0)
    assert "report written to" in p.stdout
    assert (out / "index.html").is_file() and (out / "report.md").is_file()
    text = (out / "report.md").read_text()
    assert "troef report klaverjassen --deals 2000 --policy heuristic --variant amsterdam " \
           "--seed 2" in text
    assert "Amsterdam" in text


@pytest.mark.parametrize("args, msg", [
    (["bonken", "--players", "5"], "does not apply"),
    (["boonaken", "--variant", "amsterdam"], "does not apply"),
    (["boerenbridge", "--variant", "nonsense"], "unknown variant"),
    (["boerenbridge", "--players", "9"], "3 to 7 players"),
    (["klaverjassen", "--policy", "genius"], "unknown policy"),
    (["boonaken", "--preset", "nowhere"], "unknown preset"),
    (["bonken", "--deals", "0"], "positive"),
    (["bonken", "--from", "nope.parquet"], "no such results file"),
    (["bonken", "--from", "x.parquet", "--deals", "5"], "not both"),
    (["bonken", "--from", "x.parquet", "--seed", "5"], "cannot go with --from"),
    (["whist"], "invalid value"),
])
def test_cli_bad_input(tmp_path, args, msg):
    p = run_cli("report", *args, "--out", tmp_path / "r")
    assert p.returncode == 2, (p.stdout, p.stderr)
    err = p.stderr.strip()
    assert err.startswith("troef: error:") and "\n" not in err, err
    assert msg in err.lower(), err
    assert "Traceback" not in p.stderr


def test_cli_wrong_game_file(tmp_path):
    from analyzer.storage import write_parquet
    from fastsim import boonaken as bo
    f = tmp_path / "bo.parquet"
    write_parquet(bo.simulate(bo.build_rules(), 50, seed=0), f)
    p = run_cli("report", "bonken", "--from", f, "--out", tmp_path / "r")
    assert p.returncode == 2 and "holds boonaken results, not bonken" in p.stderr


def test_matplotlib_only_in_reports():
    """The other commands never import matplotlib."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for pkg in ("fastsim", "analyzer"):
        for name in os.listdir(os.path.join(root, pkg)):
            if name.endswith(".py"):
                with open(os.path.join(root, pkg, name)) as fh:
                    assert not re.search(r"^\s*(import|from) matplotlib", fh.read(), re.M), \
                        f"{pkg}/{name}"
    with open(os.path.join(root, "cli.py")) as fh:
        assert not re.search(r"^\s*(import|from) matplotlib", fh.read(), re.M)
