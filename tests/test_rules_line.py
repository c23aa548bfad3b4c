"""Every query says, in its text output, which rules and variants it assumed."""
import pytest

from conftest import invoke_cli

BB = ["--hand", "AS KS 7H 2C QD 9D 3S 4H", "--trump-card", "9H", "--position", "0"]
CASES = [
    (["bid", "boerenbridge", "--players", "4", *BB, "--samples", "300", "--variant", "bauer_bonus"],
     "rules: bauer_bonus"),
    (["bid", "boerenbridge", "--players", "4", *BB, "--samples", "300"], "rules: standard, no variants"),
    (["trump", "klaverjassen", "--hand", "JH 9H AH TS 7C 8C KD QD", "--position", "0",
      "--samples", "300", "--variant", "amsterdam"], "rules: amsterdam"),
    (["contract", "bonken", "--hand", "AS KS 7H 2C QD 9D 3S 4H 5H 6H 8C 9C TC", "--samples", "100"],
     "rules: standard, no variants"),
    (["bid", "boonaken", "--players", "4", "--preset", "leimuiden", "--hand", "JH 9H AH KH 7S AD",
      "--open", "TH 8C", "--samples", "200"], "rules: preset leimuiden"),
    (["play", "boerenbridge", *BB, "--bids", "2,1,2,2", "--samples", "200", "--variant",
      "scoring=dutch"], "rules: scoring=dutch"),
    (["play", "klaverjassen", "--trump", "H", "--caller", "0", "--hand", "JH 9H AH TS 7C 8C KD QD",
      "--position", "0", "--samples", "200", "--variant", "amsterdam"], "rules: amsterdam"),
]


@pytest.mark.parametrize("args,line", CASES)
def test_query_prints_the_rules_it_assumed(args, line):
    code, out, err = invoke_cli(*args)
    assert code == 0, err
    assert out.splitlines()[1].startswith(line), out.splitlines()[:3]
