"""Scale-out: streamed datasets, interrupt and resume, Dask runs, dataset statistics.

Every check is one of equality: a dataset equals the single-file output of the same run, an
interrupted-and-resumed dataset is byte-identical to an uninterrupted one, a run on a Dask
LocalCluster (loopback only) is byte-identical to a local run, and the statistics streamed
from a dataset equal those of analyzer.stats on the whole frame.
"""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from analyzer import run as runner
from analyzer import stream
from analyzer.dataset_stats import dataset_stats
from analyzer.frames import tidy
from analyzer.stats import STATS, all_stats
from analyzer.storage import read_parquet
from conftest import invoke_cli as invoke
from fastsim import boerenbridge as bb

ROOT = Path(__file__).resolve().parent.parent


def ok(*args):
    code, out, err = invoke(*args)
    assert code == 0, (args, err)
    return out, err


def one_line_error(args, needle):
    code, _, err = invoke(*args)
    assert code == 2, (args, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith("troef: error:"), err
    assert needle in err, err


def files_of(d):
    """{name: bytes} of a dataset folder's parts and manifest; every part's content hash
    file beside it is checked to match."""
    import hashlib
    out = {}
    for p in sorted(Path(d).iterdir()):
        if p.name.startswith(".") or p.name.endswith(".sha256"):
            continue
        out[p.name] = p.read_bytes()
        if p.name.startswith("part-"):
            side = (p.parent / ("_" + p.name + ".sha256")).read_text().split()
            assert side[0] == hashlib.sha256(out[p.name]).hexdigest(), p
    return out


def assert_same_seats(xs, ys):
    """Per-seat summaries agree (win shares are float sums, added up chunk by chunk)."""
    assert len(xs) == len(ys)
    for x, y in zip(xs, ys):
        assert x.keys() == y.keys()
        for k in x:
            assert x[k] == y[k] or x[k] == pytest.approx(y[k], rel=1e-12), k


GAMES = ["--players", 5, "--schedule", "short", "--games", 60, "--seed", 11,
         "--seat-policy", "2=random", "--variant", "scoring=dutch"]
DEALS = ["--players", 4, "--hand-size", 5, "--deals", 3000, "--seed", 4]


# ---------------------------------------------------------------- datasets

@pytest.mark.parametrize("setup,chunk", [(GAMES, 200), (DEALS, 700)])
def test_dataset_equals_single_file_and_summary(tmp_path, setup, chunk):
    f, d = tmp_path / "one.parquet", tmp_path / "ds"
    a, _ = ok("simulate", "boerenbridge", *setup, "--out", f, "--json")
    b, _ = ok("simulate", "boerenbridge", *setup, "--out", d, "--chunk-deals", chunk, "--json")
    c, _ = ok("simulate", "boerenbridge", *setup, "--json")
    ja, jb, jc = json.loads(a), json.loads(b), json.loads(c)
    assert ja["positions"] == jb["positions"] == jc["positions"]    # exact integer sums
    assert_same_seats(ja.get("seats", []), jb.get("seats", []))
    whole, meta = read_parquet(f)
    parts, dmeta = stream.read_dataset(d)
    pd.testing.assert_frame_equal(parts, whole)                      # values and dtypes
    assert {k: dmeta[k] for k in meta} == meta
    m = json.loads((d / "_manifest.json").read_text())
    assert m["complete"] and m["rows"] == len(whole)
    assert m["setup"]["chunks"] == len(list(d.glob("part-*.parquet"))) > 1
    # each part is a readable results file on its own, with the run's metadata
    first, fmeta = read_parquet(d / "part-00000.parquet")
    assert fmeta == meta and first["game_index"].iloc[0] == 0


def test_read_dataset_pushes_columns_and_filters_down(tmp_path):
    import pyarrow.dataset as ds
    d = tmp_path / "ds"
    ok("simulate", "boerenbridge", *GAMES, "--out", d, "--chunk-deals", 150)
    full, _ = stream.read_dataset(d)
    sub, _ = stream.read_dataset(d, columns=["deal", "bid", "tricks"],
                                 filter=ds.field("hand_size") == 8)
    exp = full.loc[full["hand_size"] == 8, ["deal", "bid", "tricks"]].reset_index(drop=True)
    pd.testing.assert_frame_equal(sub, exp)


def _spec(rules, n, seed, pols, chunk):
    from analyzer.games.boerenbridge import Setup
    return runner.RunSpec("boerenbridge", Setup(rules, "game" if len(rules.schedule) > 1
                                                 else "deal"), n, seed, pols, chunk)


def test_summary_sums_equal_whole_run_summary():
    from analyzer import games, summary
    rules = bb.build_rules(players=4)
    pols = bb.parse_seat_policies(4, "heuristic", ["3=random"])
    res = bb.simulate(rules, 77, seed=9, policies=pols)
    spec = _spec(rules, 77, 9, pols, 10)
    s = games.Summary("boerenbridge", spec.setup)
    order = []
    runner.execute(spec, range(spec.n_chunks), "summary", progress=False,
                   on_chunk=lambda o: (order.append(o.index), s.add(o.partials)))
    p = s.payload()
    assert order == list(range(8)) and s.deals == res.n_deals and p["games"] == 77
    assert p["positions"] == summary.by_position(res.deals, 4)
    assert_same_seats(p["seats"], summary.by_seat(res))


# ---------------------------------------------------------------- interrupt and resume

class _Stop(Exception):
    pass


def test_interrupt_and_resume_equal_uninterrupted(tmp_path, monkeypatch):
    ref, d = tmp_path / "ref", tmp_path / "ds"
    args = ["simulate", "boerenbridge", *GAMES, "--chunk-deals", 45, "--json"]  # 3 games
    full, _ = ok(*args, "--out", ref)
    n_chunks = json.loads((ref / "_manifest.json").read_text())["setup"]["chunks"]
    assert n_chunks == 20

    # Ctrl-C after the 3rd chunk
    real_write = stream.Dataset.write
    calls = []

    def write_then_interrupt(self, out):
        real_write(self, out)
        calls.append(out.index)
        if len(calls) == 3:
            raise KeyboardInterrupt
    monkeypatch.setattr(stream.Dataset, "write", write_then_interrupt)
    code, out, err = invoke(*args, "--out", d)
    assert code == 130 and out == ""
    assert err.count("\n") == 1 and err.startswith("troef: interrupted: saved 3 of 20 chunks "
                                                   "(9 of 60 games)")
    assert "--resume" in err
    saved = files_of(d)
    assert sorted(saved) == ["_manifest.json"] + [f"part-0000{i}.parquet" for i in range(3)]
    assert not json.loads(saved["_manifest.json"])["complete"]
    for name in saved:
        if name.startswith("part-"):
            assert saved[name] == (ref / name).read_bytes()        # complete chunks only

    # SIGTERM arriving while a part is being synced and renamed into place (written by
    # an encoding thread under its temp name before): deferred until it is saved
    real_place = stream._place_part

    def place_with_sigterm(tmp, path):
        if os.path.basename(path) == "part-00005.parquet":
            os.kill(os.getpid(), signal.SIGTERM)
        real_place(tmp, path)
    monkeypatch.setattr(stream.Dataset, "write", real_write)
    monkeypatch.setattr(stream, "_place_part", place_with_sigterm)
    code, out, err = invoke(*args, "--out", d, "--resume")
    assert code == 143
    assert "saved 6 of 20 chunks (18 of 60 games)" in err and err.count("\n") == 1
    assert sorted(n for n in files_of(d) if n.startswith("part-")) == \
        [f"part-{i:05d}.parquet" for i in range(6)]
    monkeypatch.setattr(stream, "_place_part", real_place)

    # a temp file left by a killed run is cleaned up; resume finishes the run
    (d / ".part-00006.parquet.tmp999").write_bytes(b"half a chunk")
    out, _ = ok(*args, "--out", d, "--resume")
    assert json.loads(out) == json.loads(full)          # summary rebuilt from saved parts
    assert files_of(d) == files_of(ref)                 # byte-identical dataset
    assert not [p for p in d.iterdir() if ".tmp" in p.name]
    # resuming a complete dataset does nothing and reports the same summary
    out, _ = ok(*args, "--out", d, "--resume")
    assert json.loads(out) == json.loads(full)


def test_resume_refuses_other_setups(tmp_path):
    d = tmp_path / "ds"
    base = ["simulate", "boerenbridge", *DEALS, "--chunk-deals", 1000, "--out", d]
    ok(*base)
    one_line_error(base, "already holds a troef dataset; add --resume")
    for change, needle in [(["--seed", 5], "seed 4, not 5"),
                           (["--variant", "bauer_bonus"], "bauer_bonus"),
                           (["--chunk-deals", 999], "chunk size"),
                           (["--deals", 3001], "number of deals/games"),
                           (["--seat-policy", "0=random"], "policies")]:
        args = ["simulate", "boerenbridge", *DEALS, "--chunk-deals", 1000, "--out", d,
                "--resume", *change]
        if change[0] in ("--seed", "--deals"):   # replace, not repeat, the option
            i = args.index(change[0])
            args[i + 1] = change[1]
            args = args[:-2]
        one_line_error(args, needle)
    # a dataset folder whose run saved nothing (e.g. the cluster was unreachable) is
    # simply started again, with or without --resume
    empty = tmp_path / "nothing-saved"
    spec = _spec(bb.build_rules(players=4, hand_size=5), 3000, 99,
                 bb.parse_seat_policies(4), 1000)
    stream.Dataset(empty, spec).close()
    assert (empty / "_manifest.json").exists()
    ok("simulate", "boerenbridge", *DEALS, "--chunk-deals", 1000, "--out", empty)
    assert files_of(empty) == files_of(d)
    (d / "part-00001.parquet").write_bytes(b"garbage")
    one_line_error(base + ["--resume"], "damaged")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "x.txt").write_text("x")
    one_line_error(["simulate", "boerenbridge", *DEALS, "--out", tmp_path / "busy"],
                   "not empty")
    one_line_error(["simulate", "boerenbridge", *DEALS, "--out", tmp_path / "f.parquet",
                    "--resume"], "--resume continues a dataset folder")
    one_line_error(["simulate", "boerenbridge", *DEALS, "--out", tmp_path / "d2",
                    "--record-play", tmp_path / "p.jsonl"], "--record-play")
    one_line_error(["simulate", "boerenbridge", "--hand-size", 8, "--deals", 10**12, "--out",
                    tmp_path / "huge.parquet"], "stream them to a dataset folder")
    one_line_error(["simulate", "boerenbridge", "--hand-size", 8, "--deals", 2**63],
                   "at most")


def _wait_for(path, proc, timeout=120):
    t = time.monotonic()
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() - t < timeout
        time.sleep(0.005)


@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_real_signal_leaves_complete_chunks(tmp_path, sig, code):
    d = tmp_path / "ds"
    args = ["simulate", "boerenbridge", "--players", 4, "--hand-size", 3, "--deals", 120_000,
            "--seed", 8, "--chunk-deals", 400, "--out", d]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=ROOT)
    _wait_for(d / "part-00002.parquet", proc)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    assert err.count("\n") == 1 and err.startswith("troef: interrupted: saved ")
    saved = int(err.split("saved ")[1].split(" of ")[0])
    names = sorted(p.name for p in d.iterdir())
    assert names == sorted([".lock", "_manifest.json"] + [f"{pre}part-{i:05d}.parquet{x}"
                                                          for i in range(saved)
                                                          for pre, x in (("", ""), ("_", ".sha256"))])
    assert 3 <= saved < 300
    if sig == signal.SIGINT:          # resume, and compare with one uninterrupted call
        p = subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args), "--resume"],
                           capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
        assert p.returncode == 0, p.stderr
        assert f"resumed with {saved} of 300 chunks already saved" in p.stdout
        got, _ = stream.read_dataset(d)
        rules = bb.build_rules(players=4, hand_size=3)
        exp = tidy(bb.simulate(rules, 120_000, seed=8))
        assert list(got.dtypes) == list(exp.dtypes) and got.equals(exp)  # (fast, exact)


# ---------------------------------------------------------------- Dask (loopback only)

@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    import logging
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                  silence_logs=logging.ERROR) as c:
        yield c


def test_dask_runs_equal_local_runs(tmp_path, cluster):
    assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
    for setup, chunk in [(GAMES, 150), (DEALS, 400)]:
        loc, dsk = tmp_path / f"loc{chunk}", tmp_path / f"dsk{chunk}"
        a, _ = ok("simulate", "boerenbridge", *setup, "--chunk-deals", chunk, "--out", loc,
                  "--json")
        b, _ = ok("simulate", "boerenbridge", *setup, "--chunk-deals", chunk, "--out", dsk,
                  "--json", "--scheduler", cluster.scheduler_address)
        assert json.loads(a) == json.loads(b)
        assert files_of(loc) == files_of(dsk)            # byte-identical parts and manifest
    # summary only, and one in-memory file, through the cluster too
    a, _ = ok("simulate", "boerenbridge", *GAMES, "--json")
    b, err = ok("simulate", "boerenbridge", *GAMES, "--json", "--progress", "--chunk-deals", 90,
                "--scheduler", cluster.scheduler_address)
    assert json.loads(a)["positions"] == json.loads(b)["positions"]
    assert "deal/s" in err and "<" in err                # tqdm: rate and ETA
    f1, f2 = tmp_path / "l.parquet", tmp_path / "d.parquet"
    ok("simulate", "boerenbridge", *DEALS, "--out", f1)
    ok("simulate", "boerenbridge", *DEALS, "--out", f2, "--chunk-deals", 500,
       "--scheduler", cluster.scheduler_address)
    assert f1.read_bytes() == f2.read_bytes()


def test_dask_resume_of_local_run(tmp_path, cluster, monkeypatch):
    """A run interrupted locally can be finished on the cluster (and vice versa)."""
    ref, d = tmp_path / "ref", tmp_path / "ds"
    args = ["simulate", "boerenbridge", *DEALS, "--chunk-deals", 300]
    ok(*args, "--out", ref)
    real_write = stream.Dataset.write

    def write_then_interrupt(self, out):
        real_write(self, out)
        if out.index == 1:
            raise KeyboardInterrupt
    monkeypatch.setattr(stream.Dataset, "write", write_then_interrupt)
    assert invoke(*args, "--out", d)[0] == 130
    monkeypatch.setattr(stream.Dataset, "write", real_write)
    ok(*args, "--out", d, "--resume", "--scheduler", cluster.scheduler_address)
    assert files_of(d) == files_of(ref)


def test_dask_local_cluster_option(tmp_path):
    """--dask-workers starts (and stops) its own LocalCluster on 127.0.0.1."""
    loc, dsk = tmp_path / "loc", tmp_path / "dsk"
    ok("simulate", "boerenbridge", *DEALS, "--chunk-deals", 500, "--out", loc)
    out, _ = ok("simulate", "boerenbridge", *DEALS, "--chunk-deals", 500, "--out", dsk,
                "--dask-workers", 2)
    assert "on Dask (2 local workers)" in out
    assert files_of(loc) == files_of(dsk)


def test_dask_bad_options():
    one_line_error(["simulate", "boerenbridge", *DEALS, "--scheduler", "localhost:8786"],
                   "tcp://HOST:PORT")
    one_line_error(["simulate", "boerenbridge", *DEALS, "--dask-workers", 0], "--dask-workers")
    one_line_error(["simulate", "boerenbridge", *DEALS, "--dask-workers", 2, "--scheduler",
                    "tcp://127.0.0.1:1"], "not both")


# ---------------------------------------------------------------- statistics on datasets

def test_dataset_stats_equal_whole_frame_stats(tmp_path):
    a, b, f = tmp_path / "std", tmp_path / "dutch", tmp_path / "single.parquet"
    ok("simulate", "boerenbridge", "--players", 4, "--games", 40, "--seed", 1,
       "--seat-policy", "1=random", "--out", a, "--chunk-deals", 130)
    ok("simulate", "boerenbridge", "--players", 4, "--games", 30, "--seed", 2,
       "--variant", "scoring=dutch", "--out", b, "--chunk-deals", 200)
    ok("simulate", "boerenbridge", "--players", 3, "--hand-size", 6, "--deals", 500,
       "--out", f)

    def frame(paths):
        frames = []
        for p in paths:
            df, _ = stream.read_dataset(p)
            df["source"] = os.path.splitext(os.path.basename(p))[0]
            frames.append(df)
        return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]

    cases = [([a], ["bid", "hand_size", "position"], "trump_count"),
             ([a, b], ["source", "policy", "hand_size"], "high_trumps"),
             ([a, b, f], ["players", "trump"], "voids"),
             ([a], ["deal_no", "trump_count"], "strength")]
    for paths, by, feature in cases:
        df = frame(paths)
        exp = all_stats(df, by, STATS, feature)
        got, n = dataset_stats(paths, by, STATS, feature)
        assert n == len(df)
        for name in STATS:
            assert len(exp[name]) > 0
            pd.testing.assert_frame_equal(got[name], exp[name], check_exact=False, rtol=1e-9)
    # the command: a folder gives what the same run's single file gives
    g = tmp_path / "games.parquet"
    ok("simulate", "boerenbridge", "--players", 4, "--games", 40, "--seed", 1,
       "--seat-policy", "1=random", "--out", g)
    x, _ = ok("stats", a, "--json")
    y, _ = ok("stats", g, "--json")
    x, y = json.loads(x), json.loads(y)
    assert x.keys() == y.keys()
    for name in x:
        assert len(x[name]) == len(y[name])
        for r, s in zip(x[name], y[name]):
            assert r.keys() == s.keys()
            for k in r:
                assert r[k] == s[k] or r[k] == pytest.approx(s[k], rel=1e-9), (name, k)
    text, _ = ok("stats", a, b, "--stat", "compare")
    assert "== compare (" in text and "dutch" in text and "std" in text


def test_stats_reads_only_needed_columns(tmp_path, monkeypatch):
    import pyarrow.parquet as pq
    d = tmp_path / "ds"
    ok("simulate", "boerenbridge", *DEALS, "--out", d, "--chunk-deals", 1000)
    seen = []
    real = pq.ParquetFile.read_row_group

    def spy(self, i, columns=None, **kw):
        seen.append(tuple(columns))
        return real(self, i, columns=columns, **kw)
    monkeypatch.setattr(pq.ParquetFile, "read_row_group", spy)
    tables, n = dataset_stats([d], ["bid"], ["exact"])
    assert n == 3000 * 4 and len(seen) == 3          # one row group per 1000-deal part
    assert set(seen) == {("bid", "exact")}


def test_stats_on_incomplete_dataset_notes_it(tmp_path, monkeypatch):
    d = tmp_path / "ds"
    real_write = stream.Dataset.write

    def write_then_interrupt(self, out):
        real_write(self, out)
        raise KeyboardInterrupt
    monkeypatch.setattr(stream.Dataset, "write", write_then_interrupt)
    assert invoke("simulate", "boerenbridge", *DEALS, "--chunk-deals", 1000, "--out", d)[0] == 130
    code, out, err = invoke("stats", d, "--stat", "exact")
    assert code == 0 and "incomplete (1 of 3 chunks saved)" in err and "(4,000 player-deals)" in out


# ---------------------------------------------------------------- progress

def test_progress_shows_rate_and_eta_locally(tmp_path):
    _, err = ok("simulate", "boerenbridge", *DEALS, "--chunk-deals", 500, "--progress",
                "--out", tmp_path / "ds")
    assert "3.00k/3.00k" in err and "deal/s" in err and "<" in err
    _, err = ok("simulate", "boerenbridge", *DEALS, "--no-progress", "--out", tmp_path / "d2")
    assert err == ""
