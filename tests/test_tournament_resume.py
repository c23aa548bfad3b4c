"""Tournaments lose no finished work: with --out DIR every block of every seating is saved
as it ends, and --resume plays only what is missing, to exactly the result of one run
straight through (troef's own engine and the OpenSpiel bridge)."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analyzer import games as registry
from analyzer.tournament import tournament
from analyzer.tournament_store import TournamentStoreError
from conftest import invoke_cli

ROOT = Path(__file__).resolve().parent.parent


def _pieces(d):
    return sorted(p.name for p in Path(d).iterdir() if p.name.startswith("piece-"))


def _interrupt_after(monkeypatch, module, name, calls):
    """Make ``module.name`` raise KeyboardInterrupt on its call number ``calls``;
    returns the list of calls made (one entry per call; a ``simulate`` of no units, which
    plays nothing, is not counted)."""
    real, made = getattr(module, name), []

    def wrapped(*a, **k):
        if name == "simulate" and a[1] == 0:
            return real(*a, **k)
        made.append(1)
        if len(made) == calls:
            raise KeyboardInterrupt
        return real(*a, **k)
    monkeypatch.setattr(module, name, wrapped)
    return made


@pytest.mark.parametrize("game,policies,n,whole", [
    ("boerenbridge", "heuristic,pimc,random", 300, False),
    ("klaverjassen", "heuristic,random,pimc", 120, False),     # a team game: pairs
    ("bonken", "heuristic,random", 6, True),
    ("boonaken", "heuristic,random", 200, False),
])
def test_an_interrupted_tournament_resumes_to_the_same_result(monkeypatch, tmp_path, game,
                                                              policies, n, whole):
    kw = dict(whole_games=whole, seed=4, worlds=2, threads=1)
    straight = tournament(game, policies, n, **kw)
    d = tmp_path / "t"
    entry = registry.get(game)
    with monkeypatch.context() as m:
        _interrupt_after(m, entry, "simulate", 7)
        with pytest.raises(KeyboardInterrupt) as e:
            tournament(game, policies, n, out=str(d), **kw)
    assert e.value.troef_tournament == f"6 pieces saved in {d}"
    assert len(_pieces(d)) == 6 and not (d / "result.json").exists()
    made = _interrupt_after(monkeypatch, entry, "simulate", 10**9)
    resumed = tournament(game, policies, n, out=str(d), resume=True, **kw)
    assert resumed == straight
    total = len(_pieces(d))
    assert len(made) == total - 6          # only the missing pieces were played
    assert json.loads((d / "result.json").read_text()) == json.loads(json.dumps(straight))
    again = tournament(game, policies, n, out=str(d), resume=True, **kw)
    assert again == straight and len(made) == total - 6     # nothing left to play


def test_a_folder_is_only_resumed_by_the_same_tournament(tmp_path):
    d = str(tmp_path / "t")
    tournament("boerenbridge", "heuristic,random", 40, seed=1, out=d)
    with pytest.raises(TournamentStoreError, match="not empty; give --resume"):
        tournament("boerenbridge", "heuristic,random", 40, seed=1, out=d)
    for change, needle in [({"seed": 2}, "seed = 1, not 2"),
                           ({"policies": "heuristic,pimc"}, "policies"),
                           ({"n": 41}, "units = 40, not 41"),
                           ({"variants": ("scoring=dutch",)}, "rules.scoring = 'standard', "
                                                               "not 'dutch'"),
                           ({"players": 5}, "rules.players = 4, not 5"),
                           ({"hand_size": 7}, r"rules.schedule = \[8\], not \[7\]"),
                           ({"worlds": 3}, "worlds = 16, not 3")]:
        kw = {"policies": "heuristic,random", "n": 40, "seed": 1, **change}
        with pytest.raises(TournamentStoreError, match=needle):
            tournament("boerenbridge", out=d, resume=True, **kw)
    # the same tournament spelled out (the defaults given, another thread count) resumes
    assert tournament("boerenbridge", "heuristic,random", 40, seed=1, out=d, resume=True,
                      players=4, hand_size=8, threads=1) == \
        tournament("boerenbridge", "heuristic,random", 40, seed=1)
    with pytest.raises(TournamentStoreError, match="whole_games = False, not True"):
        tournament("boerenbridge", "heuristic,random", 40, seed=1, out=d, resume=True,
                   whole_games=True)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(TournamentStoreError, match="holds no tournament"):
        tournament("boerenbridge", "heuristic,random", 40, out=str(other), resume=True)
    # --resume on a new folder starts the tournament (as simulate's --resume does)
    new = tournament("boerenbridge", "heuristic,random", 40, out=str(tmp_path / "new"),
                     resume=True)
    assert new == tournament("boerenbridge", "heuristic,random", 40)


def test_a_changed_policy_file_is_not_mixed_with_its_old_results(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text("def choose(state):\n    return state.legal_actions()[0]\n")
    d = str(tmp_path / "t")
    spec = f"heuristic,{bot}:choose"
    tournament("boerenbridge", spec, 20, out=d)
    bot.write_text("def choose(state):\n    return state.legal_actions()[-1]\n")
    with pytest.raises(TournamentStoreError, match="policy_files"):
        tournament("boerenbridge", spec, 20, out=d, resume=True)


def test_code_changes_are_not_mixed_with_old_results(monkeypatch, tmp_path):
    from analyzer import stream
    d = str(tmp_path / "t")
    tournament("boerenbridge", "heuristic,random", 20, out=d)
    monkeypatch.setattr(stream, "source_fingerprint", lambda: "0123456789abcdef")
    with pytest.raises(TournamentStoreError, match="source = .*played by other code"):
        tournament("boerenbridge", "heuristic,random", 20, out=d, resume=True)


@pytest.mark.parametrize("manifest", ['{"format": "troef-tournament"}',
                                      '{"format": "troef-tournament", "identity": []}',
                                      '[1, 2]', '{"format": "troef-tourn', ''])
def test_a_damaged_manifest_is_one_line(tmp_path, manifest):
    d = tmp_path / "t"
    d.mkdir()
    (d / "tournament.json").write_text(manifest)
    code, out, err = invoke_cli("tournament", "boerenbridge", "--policies", "heuristic,random",
                                "--deals", 10, "--out", str(d), "--resume")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "tournament.json" in err


def test_a_killed_runs_temp_files_are_removed(tmp_path):
    d = tmp_path / "t"
    d.mkdir()
    (d / ".tournament.json.tmp4242").write_text("{")      # killed while it was created
    tournament("boerenbridge", "heuristic,random", 20, out=str(d))
    (d / ".piece-0123.npz.tmp4242").write_bytes(b"x")      # killed during a piece
    tournament("boerenbridge", "heuristic,random", 20, out=str(d), resume=True)
    assert not [p.name for p in d.iterdir() if p.name.startswith(".") and p.name != ".lock"]


def test_a_full_disk_is_one_line_with_the_resume_hint(monkeypatch, tmp_path):
    import builtins
    import errno
    from analyzer import tournament_store
    writes = []

    def full_open(path, mode="r", *a, **k):
        if "w" in mode:
            writes.append(path)
            if len(writes) == 4:            # the manifest, two pieces, then the disk is full
                raise OSError(errno.ENOSPC, "No space left on device")
        return builtins.open(path, mode, *a, **k)
    monkeypatch.setattr(tournament_store, "open", full_open, raising=False)
    d = tmp_path / "t"
    code, out, err = invoke_cli("tournament", "boerenbridge", "--policies", "heuristic,random",
                                "--deals", 40, "--out", str(d))
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "no space left on the device" in err
    assert f"2 pieces saved in {d}: run the same command with --resume to continue" in err
    assert not [p.name for p in d.iterdir() if p.name.startswith(".") and p.name != ".lock"]
    monkeypatch.undo()
    assert tournament("boerenbridge", "heuristic,random", 40, out=str(d), resume=True) == \
        tournament("boerenbridge", "heuristic,random", 40)


def test_a_ctrl_c_during_a_piece_write_counts_that_piece(monkeypatch, tmp_path):
    import os
    from analyzer.tournament_store import TournamentStore
    real, pieces = TournamentStore._write, []

    def write(self, name, data):
        if name.startswith("piece-"):
            pieces.append(name)
            if len(pieces) == 3:
                os.kill(os.getpid(), signal.SIGINT)      # arrives inside the write
        return real(self, name, data)
    monkeypatch.setattr(TournamentStore, "_write", write)
    d = tmp_path / "t"
    with pytest.raises(KeyboardInterrupt) as e:
        tournament("boerenbridge", "heuristic,random", 40, seed=1, out=str(d))
    assert e.value.troef_tournament == f"3 pieces saved in {d}" and len(_pieces(d)) == 3


def test_a_damaged_piece_is_one_line(tmp_path):
    d = tmp_path / "t"
    tournament("boerenbridge", "heuristic,random", 40, seed=1, out=str(d))
    victim = d / _pieces(d)[0]
    victim.write_bytes(victim.read_bytes()[:50])
    code, out, err = invoke_cli("tournament", "boerenbridge", "--policies", "heuristic,random",
                                "--deals", 40, "--seed", 1, "--out", str(d), "--resume")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "is damaged" in err and "delete it and --resume again" in err


@pytest.mark.parametrize("args,needle", [
    (["--resume"], "--resume needs --out DIR"),
    (["--out", "{file}"], "is a file"),
])
def test_bad_out_and_resume_are_one_line(tmp_path, args, needle):
    f = tmp_path / "f.txt"
    f.write_text("x")
    args = [a.replace("{file}", str(f)) for a in args]
    code, out, err = invoke_cli("tournament", "boerenbridge", "--policies", "heuristic,random",
                                "--deals", 10, *args)
    assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err, err


def test_a_real_ctrl_c_keeps_the_finished_pieces(tmp_path):
    d = tmp_path / "t"
    args = ["tournament", "boerenbridge", "--policies", "pimc,heuristic", "--deals", 20_000,
            "--hand-size", 5, "--seed", 3, "--threads", 1, "--out", d]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=ROOT)
    t = time.monotonic()
    while len(_pieces(d) if d.exists() else []) < 2:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() - t < 600
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    lines = [l for l in err.splitlines() if not l.startswith("troef: compiling")]
    assert len(lines) == 1 and lines[0].startswith("troef: interrupted: ")
    assert lines[0].endswith(f"pieces saved in {d}; run the same command with --resume to "
                             "continue")
    saved = int(lines[0].split("interrupted: ")[1].split(" pieces")[0])
    assert saved == len(_pieces(d)) >= 2
    assert not [p for p in d.iterdir() if p.name.startswith(".") and p.name != ".lock"]    # no temp file left


# ------------------------------------------------------------- through the OpenSpiel bridge

def test_an_interrupted_openspiel_match_resumes_to_the_same_result(monkeypatch, tmp_path):
    pytest.importorskip("pyspiel")
    from analyzer import openspiel_bridge as ob
    kw = dict(players=4, hand_size=3, seed=5, variants=("scoring=dutch",), worlds=2)
    pol = "heuristic,openspiel:random"
    rec_straight = []
    straight = tournament("boerenbridge", pol, 25, **kw)
    straight_rec = ob.tournament("boerenbridge", pol.split(","), 25, record=rec_straight.append,
                                 **kw)
    d = tmp_path / "m"
    with monkeypatch.context() as m:
        _interrupt_after(m, ob, "_play_block", 4)      # 3 blocks of 10 deals saved
        with pytest.raises(KeyboardInterrupt) as e:
            tournament("boerenbridge", pol, 25, out=str(d), **kw)
    assert e.value.troef_tournament == f"3 pieces saved in {d}"
    made = _interrupt_after(monkeypatch, ob, "_play_block", 10**9)
    rec = []
    resumed = ob.tournament("boerenbridge", pol.split(","), 25, out=str(d), resume=True,
                            record=rec.append, **kw)
    assert len(made) == 3                  # 2 seatings x 3 blocks, 3 of them saved
    drop = ("policies",)                   # its ms per decision are clocks, not results
    assert {k: v for k, v in resumed.items() if k not in drop} == \
        {k: v for k, v in straight.items() if k not in drop}
    for a, b in zip(resumed["policies"], straight["policies"]):
        assert {k: v for k, v in a.items() if k != "ms_per_decision"} == \
            {k: v for k, v in b.items() if k != "ms_per_decision"}
    assert rec == rec_straight             # the records of saved deals come back too
    assert straight_rec["pairs"] == straight["pairs"]
    # another OpenSpiel version plays other IS-MCTS games: not mixed with these pieces
    from importlib import metadata
    real = metadata.version
    monkeypatch.setattr(metadata, "version",
                        lambda name: "0.0.1" if name == "open_spiel" else real(name))
    with pytest.raises(TournamentStoreError, match="open_spiel = .*not '0.0.1'"):
        tournament("boerenbridge", pol, 25, out=str(d), resume=True, **kw)


def test_one_troef_at_a_time_and_a_foreign_folder_is_left_untouched(tmp_path):
    from analyzer.tournament_store import TournamentStore
    d = tmp_path / "t"
    first = TournamentStore(str(d), {"x": 1})
    with pytest.raises(TournamentStoreError, match="another troef is writing"):
        TournamentStore(str(d), {"x": 1}, resume=True)
    first.close()
    TournamentStore(str(d), {"x": 1}, resume=True).close()      # free again
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("x")
    for resume in (False, True):
        with pytest.raises(TournamentStoreError):
            TournamentStore(str(mine), {"x": 1}, resume=resume)
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]    # no lock file left there
