"""Every long query plays its samples in slices behind a progress bar: the answer is the
same as in one call, and the bar counts every sample (analyzer/progress.py: sliced)."""
import pytest

import analyzer.progress as progress


def _bid():
    from analyzer.bid_query import bid_query
    return bid_query(4, "AS KS 7H 2C QD 9D 3S 4H", "9H", 2, "1,2", samples=230, policy="pimc",
                     worlds=2, seed=3)


def _play_bb():
    from analyzer.boerenbridge_play import play_query
    return play_query(4, "KS 7H 2C QD 9D 3S 4H", "9H", 1, "2,1,2,2", "AS 5S 8S JS | 6C",
                      samples=230, policy="pimc", worlds=2, seed=3)


def _play_kj():
    from analyzer.klaverjassen_play import play_query
    return play_query("AS KS 7H 8D JC 9C AC TH", "C", 1, 2, "7S 8S", samples=230,
                      policy="pimc", worlds=2, seed=3)


def _play_bonken(policy):
    def ask():
        from analyzer.bonken_play import play_query
        return play_query("no-hearts", "AS KS 2H 5D 8C 6C QH 3S 4S 7D TD JC", 2, "2C 5C KC 9C |",
                          samples=230, policy=policy, worlds=2, seed=3)
    return ask


def _play_domino():
    from analyzer.bonken_play import play_query
    return play_query("domino", "AS KS 7H 2C QD 9D 3S 4H 5H 6H 8C 9C TC", 0, "", samples=230,
                      policy="heuristic", seed=3)


def _play_boonaken():
    from analyzer.boonaken_play import play_query
    return play_query(players=4, preset="seed", declarer=2, contract=60, trump="C",
                      open_cards="7C AC", taken="AC", position=3, hand="TS QS JH TD QD AD",
                      drawn="JH", history="JC 7H KC QC | AS", roem=0, samples=230,
                      policy="pimc", worlds=2, seed=3)


def _contract():
    from analyzer.contract_query import contract_query
    return contract_query("AS KS 7H 2C QD 9D 3S 4H 5H 6H 8C 9C TC", "ducking,no-queens",
                          samples=230, policy="pimc", worlds=2, seed=3)


def _trump():
    from analyzer.trump_query import trump_query
    return trump_query("JH 9H AH TS 7C 8C KD QD", 1, None, 230, "pimc", worlds=2, seed=3)


def _trump_dd():
    from analyzer.trump_query import trump_query
    return trump_query("JH 9H AH TS 7C 8C KD QD", 0, None, 12, "dd")


def _boonaken_bid():
    from analyzer.boonaken_query import bid_advice
    return bid_advice(4, "JH 9H AH KH 7S AD", "TH 8C", samples=230, policy="pimc", worlds=2,
                      seed=3)


QUERIES = {"bid boerenbridge": _bid, "play boerenbridge": _play_bb,
           "play klaverjassen": _play_kj, "play bonken": _play_bonken("pimc"),
           "play bonken strong": _play_bonken("strong"), "play bonken domino": _play_domino,
           "play boonaken": _play_boonaken, "contract bonken": _contract,
           "trump klaverjassen": _trump,
           "trump klaverjassen dd": _trump_dd, "bid boonaken": _boonaken_bid}


@pytest.mark.parametrize("name", list(QUERIES))
def test_query_in_slices_for_the_progress_bar(monkeypatch, name):
    ask = QUERIES[name]
    plain = ask()
    seen = {"done": 0, "calls": 0, "bars": 0}

    class Bar:
        def update(self, k):
            seen["done"] += k
            seen["calls"] += 1

        def close(self):
            seen["closed"] = True

    def fake_bar(total, unit, progress=None, desc=None):
        seen["bars"] += 1
        seen["total"] = total
        return Bar()
    monkeypatch.setattr(progress, "bar", fake_bar)
    stepped = ask()
    assert stepped == plain
    assert seen["bars"] == 1 and seen["closed"]
    assert seen["done"] == seen["total"] > 0 and seen["calls"] == 20
