"""The one run API (analyzer.run) for every game: streamed datasets equal in-memory runs,
an interrupted run resumes to byte-identical parts, a Dask run equals a local one, and a
resume under other code is refused."""
import json

import pandas as pd
import pytest

from analyzer import run as runner
from analyzer import stream
from analyzer.games import NAMES, get
from analyzer.storage import read_parquet

# (game, deals, games, options): small runs of single deals and of whole games/matches
CASES = [
    ("boerenbridge", 60, None, {"hand_size": 5}),
    ("boerenbridge", None, 9, {"players": 3, "schedule": "1,2,3,2,1"}),
    ("bonken", 40, None, {"contract": "domino"}),
    ("bonken", None, 5, {}),
    ("klaverjassen", 60, None, {}),
    ("klaverjassen", None, 5, {"variant": ("amsterdam",)}),
    ("boonaken", 60, None, {"preset": "pagat", "players": 3}),
    ("boonaken", None, 8, {"preset": "leimuiden"}),
]
IDS = [f"{g}-{'deals' if d else 'games'}" for g, d, _, _ in CASES]


def spec_of(case, chunk_units=2):
    game, deals, games, options = case
    s = runner.RunSpec.make(game, deals=deals, games=games, seed=5, **options)
    from dataclasses import replace
    return replace(s, chunk=chunk_units)


def parts(path):
    return {p.name: p.read_bytes() for p in sorted(path.glob("part-*.parquet"))}


class StopAfter:
    """A local backend that is interrupted (like Ctrl-C) after ``k`` chunks."""
    name = "local"

    def __init__(self, k):
        self.k = k

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def run(self, spec, indices, mode):
        for j, i in enumerate(indices):
            if j == self.k:
                raise KeyboardInterrupt
            yield runner.compute_chunk(spec, i, mode)


def test_every_game_is_registered_with_the_whole_interface():
    needed = ("NAME", "TITLE", "POLICIES", "OPTIONS", "UNITS", "make_setup",
              "parse_policies", "policy_names", "simulate", "concat", "tidy", "metadata",
              "records", "partials", "empty_partials", "summarize", "describe", "render",
              "seat_scores", "tournament_setup", "STATS", "stats", "REPORT", "CLI_OPTIONS",
              "tiny_setup")
    for name in NAMES:
        entry = get(name)
        assert entry.NAME == name
        missing = [a for a in needed if not hasattr(entry, a)]
        assert not missing, (name, missing)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_dataset_equals_in_memory_run_and_summary(tmp_path, case):
    spec = spec_of(case)
    assert spec.n_chunks > 2
    whole = runner.run(spec, keep_result=True)
    entry = get(spec.game)
    ds = tmp_path / "ds"
    streamed = runner.run(spec, out=str(ds))
    assert streamed.summary == whole.summary
    m = json.loads((ds / "_manifest.json").read_text())
    assert m["complete"] and m["setup"]["game"] == spec.game and m["setup"]["source"]
    frames = [read_parquet(p)[0] for p in sorted(ds.glob("part-*.parquet"))]
    got = pd.concat(frames, ignore_index=True)
    exp = entry.tidy(whole.result)
    for c in exp.columns:    # categoricals of the parts may list the same categories
        if str(exp[c].dtype) == "category":
            got[c] = got[c].astype(exp[c].dtype)
    pd.testing.assert_frame_equal(got, exp)
    # one results file of the same run holds the same table
    f = tmp_path / "one.parquet"
    runner.run(spec, out=str(f))
    pd.testing.assert_frame_equal(read_parquet(f)[0], exp)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_interrupted_run_resumes_to_identical_parts(tmp_path, case):
    spec = spec_of(case)
    ref = tmp_path / "ref"
    runner.run(spec, out=str(ref))
    cut = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        runner.run(spec, out=str(cut), backend=StopAfter(2))
    assert len(parts(cut)) == 2
    with pytest.raises(stream.DatasetError, match="--resume"):
        runner.run(spec, out=str(cut))
    again = runner.run(spec, out=str(cut), resume=True)
    assert again.resumed == 2 and parts(cut) == parts(ref)
    assert again.summary == runner.run(spec).summary


def test_resume_under_other_code_is_refused(tmp_path, monkeypatch):
    spec = spec_of(CASES[0])
    d = tmp_path / "ds"
    with pytest.raises(KeyboardInterrupt):
        runner.run(spec, out=str(d), backend=StopAfter(1))
    monkeypatch.setattr(stream, "source_fingerprint", lambda: "0123456789abcdef")
    with pytest.raises(stream.DatasetError, match="other troef code"):
        runner.run(spec, out=str(d), resume=True)


def test_dask_runs_equal_local_runs_for_every_game(tmp_path):
    pytest.importorskip("distributed")
    from analyzer.cluster import DaskBackend
    for k, case in enumerate(CASES):
        if k % 2:          # one case per game keeps the cluster starts few
            continue
        spec = spec_of(case)
        local, remote = tmp_path / f"l{k}", tmp_path / f"r{k}"
        a = runner.run(spec, out=str(local))
        b = runner.run(spec, out=str(remote), backend=DaskBackend(workers=2, game=spec.game))
        assert parts(local) == parts(remote), case
        assert a.summary == b.summary


def test_summaries_do_not_depend_on_the_chunking():
    for case in CASES:
        a = runner.run(spec_of(case, 1)).summary
        b = runner.run(spec_of(case, 1000)).summary
        assert json.dumps(a) == json.dumps(b), case
