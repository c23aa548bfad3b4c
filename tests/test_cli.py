import json

import pytest

from conftest import run_cli


def test_simulate_json_summary():
    p = run_cli("simulate", "boerenbridge", "--players", 4, "--hand-size", 8, "--deals", 20000,
                "--seed", 3, "--json", check=0)
    out = json.loads(p.stdout)
    assert out["game"] == "boerenbridge" and out["players"] == 4
    assert out["deals"] == 20000 and out["seed"] == 3
    assert [x["position"] for x in out["positions"]] == [0, 1, 2, 3]
    assert abs(sum(x["mean_tricks"] for x in out["positions"]) - 8) < 1e-9
    for x in out["positions"]:
        assert set(x) == {"position", "mean_tricks", "exact_rate", "mean_score", "mean_bid", "n"}
        assert 0 <= x["exact_rate"] <= 1


def test_simulate_text_and_threads_agree():
    a = run_cli("simulate", "boerenbridge", "--hand-size", 5, "--deals", 5000, "--threads", 1,
                "--json", check=0)
    b = run_cli("simulate", "boerenbridge", "--hand-size", 5, "--deals", 5000, "--threads", 2,
                "--json", check=0)
    assert json.loads(a.stdout)["positions"] == json.loads(b.stdout)["positions"]
    t = run_cli("simulate", "boerenbridge", "--hand-size", 5, "--deals", 5000, check=0)
    assert "exact-bid rate" in t.stdout and "(dealer)" in t.stdout


def test_whole_games_with_seat_policies(tmp_path):
    p = run_cli("simulate", "boerenbridge", "--players", 5, "--schedule", "short", "--games", 300,
                "--seat-policy", "0=random", "--variant", "scoring=dutch", "--json", check=0)
    out = json.loads(p.stdout)
    assert out["deals"] == 300 * 15 and out["games"] == 300
    assert out["policies"] == ["random"] + ["heuristic"] * 4
    seats = out["seats"]
    assert abs(sum(s["win_rate"] for s in seats) - 1) < 1e-9
    # the heuristic beats uniform random play by a wide margin
    assert seats[0]["mean_total"] < min(s["mean_total"] for s in seats[1:])


def test_out_parquet_round_trip(tmp_path):
    from analyzer.storage import read_parquet
    f = tmp_path / "r.parquet"
    run_cli("simulate", "boerenbridge", "--players", 3, "--games", 20, "--seed", 8,
            "--variant", "bauer_bonus", "--out", f, check=0)
    df, meta = read_parquet(f)
    assert meta["players"] == 3 and meta["seed"] == 8 and meta["bauer_bonus"] is True
    assert len(df) == 20 * 15 * 3
    assert str(df["hand"].dtype) == "int64" and str(df["bid"].dtype) == "int8"
    sums = df.groupby("deal")["tricks"].sum()
    hs = df.groupby("deal")["hand_size"].first()
    assert (sums == hs).all()
    assert (df["exact"] == (df["bid"] == df["tricks"])).all()
    # positions: the dealer is position n-1
    assert (df.loc[df["seat"] == df["dealer"], "position"] == 2).all()


def test_record_play_matches_reference(tmp_path):
    import naive_boerenbridge as ref
    f = tmp_path / "play.jsonl"
    run_cli("simulate", "boerenbridge", "--players", 4, "--hand-size", 5, "--deals", 50,
            "--seed", 21, "--seat-policy", "2=random", "--dealer", 1, "--record-play", f, check=0)
    lines = f.read_text().splitlines()
    assert len(lines) == 50
    for i, line in enumerate(lines):
        got = json.loads(line)
        exp = ref.play_deal(21, i, 4, 5, 1, ["heuristic", "heuristic", "random", "heuristic"])
        assert got == exp


@pytest.mark.parametrize("args,needle", [
    (["simulate", "boerenbridge", "--variant", "nosuch"], "unknown variant"),
    (["simulate", "boerenbridge", "--variant", "scoring=silly"], "scoring"),
    (["simulate", "boerenbridge", "--players", 7, "--hand-size", 8], "cannot be dealt"),
    (["simulate", "boerenbridge", "--schedule", "1,2,40"], "cannot be dealt"),
    (["simulate", "boerenbridge", "--schedule", "1,x"], "schedule"),
    (["simulate", "boerenbridge", "--schedule", "0,1"], "at least 1"),
    (["simulate", "boerenbridge", "--players", 9], "3 to 7"),
    (["simulate", "boerenbridge", "--players", 3, "--variant", "two_player"], "2-player"),
    (["simulate", "boerenbridge", "--variant", "two_player", "--schedule", "13"], "cannot be dealt"),
    (["simulate", "boerenbridge", "--variant", "fixed_hands=7"], "fixed_hands"),
    (["simulate", "boerenbridge", "--variant", "no_trump_rounds=99"], "outside"),
    (["simulate", "boerenbridge", "--players", 4, "--variant", "schedule=short"], "5 players"),
    (["simulate", "boerenbridge", "--seat-policy", "7=random"], "seat"),
    (["simulate", "boerenbridge", "--seat-policy", "0=genius"], "unknown policy"),
    (["simulate", "boerenbridge", "--seat-policy", "random"], "SEAT=NAME"),
    (["simulate", "boerenbridge", "--policy", "genius"], "unknown policy"),
    (["simulate", "boerenbridge", "--hand-size", 3, "--games", 4], "--deals"),
    (["simulate", "boerenbridge", "--deals", 4], "--hand-size"),
    (["simulate", "boerenbridge", "--hand-size", 3, "--deals", 0], "at least one"),
    (["simulate", "boerenbridge", "--seed", -1], "seed"),
    (["simulate", "boerenbridge", "--threads", 0], "threads"),
    (["simulate", "boerenbridge", "--dealer", 4], "dealer"),
    (["simulate", "boerenbridge", "--out", "/nonexistent/dir/x.parquet"], "cannot write"),
    (["simulate", "boerenbridge", "--players", "four"], "not a valid integer"),
    (["simulate", "boerenbridge", "--nope"], "No such option"),
    (["simulate", "chess"], "No such command"),
    (["explain", "boerenbridge", "--trick", "AS 1H"], "unknown card"),
    (["explain", "boerenbridge", "--trick", "AS ZS"], "unknown card"),
    (["explain", "boerenbridge", "--trick", "AS as"], "duplicate"),
    (["explain", "boerenbridge", "--trick", "AS", "--hand", "AS KS"], "both in the hand"),
    (["explain", "boerenbridge", "--trick", "HH", "--notation", "nl", "--trump", "Q"], "unknown suit"),
])
def test_bad_input_one_line_exit_2(args, needle):
    p = run_cli(*args)
    assert p.returncode == 2, (p.stdout, p.stderr)
    err = p.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("troef: error:")
    assert needle in err
    assert "Traceback" not in p.stderr


def test_explain_trick_and_legal_cards():
    p = run_cli("explain", "boerenbridge", "--trick", "KH QH 2S 10H", "--trump", "S", "--json", check=0)
    assert json.loads(p.stdout) == {"winner": 2, "winner_card": "2S"}
    p = run_cli("explain", "boerenbridge", "--trick", "HH VH", "--trump-card", "2K",
                "--notation", "nl", "--hand", "AH 3S", "--json", check=0)
    assert json.loads(p.stdout)["legal"] == ["AH"]
    p = run_cli("explain", "boerenbridge", "--trick", "KD", "--trump", "C", "--hand", "2S 3C", "--json", check=0)
    out = json.loads(p.stdout)
    assert out["legal"] == ["2S", "3C"] and "void" in out["rule"]
