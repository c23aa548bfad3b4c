"""troef — command-line front end. Thin: parses options, calls fastsim/analyzer, prints.

Every bad input ends in one line on stderr (``troef: error: …``) and exit code 2.
"""
import json
import sys
import time

import click

EXIT_USAGE = 2


class InputError(click.ClickException):
    exit_code = EXIT_USAGE


def _fail(msg):
    raise InputError(str(msg).splitlines()[0] if str(msg) else "invalid input")


class TroefGroup(click.Group):
    """A click group whose errors are one line and exit 2, never a traceback."""

    def main(self, args=None, prog_name=None, **kwargs):
        try:
            rv = super().main(args=args, prog_name=prog_name or "troef",
                              standalone_mode=False, **kwargs)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo("troef: interrupted", err=True)
            sys.exit(130)
        except click.ClickException as e:
            msg = " ".join(e.format_message().split())
            click.echo(f"troef: error: {msg}", err=True)
            sys.exit(EXIT_USAGE)
        except KeyboardInterrupt:
            click.echo("troef: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            sys.exit(0)
        if isinstance(rv, int):
            sys.exit(rv)
        sys.exit(0)


@click.group(cls=TroefGroup, context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Monte Carlo strategy analyzer for Boerenbridge, Klaverjassen, Bonken and Boonaken."""


@main.group(cls=TroefGroup)
def simulate():
    """Play many deals or whole games and summarise them."""


def _user_errors():
    from fastsim.boerenbridge_schema import RulesError
    from fastsim.cards import CardError
    return (RulesError, CardError, ValueError, OSError)


@simulate.command("boerenbridge")
@click.option("--players", type=int, default=None, help="3-7 (2 with --variant two_player); default 4.")
@click.option("--hand-size", type=int, default=None, help="Independent deals of this many cards.")
@click.option("--schedule", default=None, help="Whole games: standard, short or a list like 1,2,3,2,1.")
@click.option("--deals", type=int, default=None, help="Number of independent deals (with --hand-size; default 100000).")
@click.option("--games", type=int, default=None, help="Number of whole games (default 1000).")
@click.option("--policy", default="heuristic", show_default=True, help="Policy of every seat: random or heuristic.")
@click.option("--seat-policy", multiple=True, metavar="SEAT=NAME", help="Policy of one seat (repeatable).")
@click.option("--variant", multiple=True, metavar="NAME[=VALUE]", help="Rule variant (repeatable), see README.")
@click.option("--dealer", type=int, default=0, show_default=True, help="First dealer's seat.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--threads", type=int, default=None, help="Worker threads (default: all cores).")
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None, help="Write results (one row per deal and seat) to FILE.parquet.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--record-play", type=click.Path(dir_okay=False), default=None, help="Write every deal's play to FILE.jsonl.")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: on for long runs on a terminal).")
def simulate_boerenbridge(players, hand_size, schedule, deals, games, policy, seat_policy,
                          variant, dealer, seed, threads, out, as_json, record_play, progress):
    """Simulate Boerenbridge (RULES §1) and print a per-position summary."""
    try:
        _simulate_boerenbridge(players, hand_size, schedule, deals, games, policy, seat_policy,
                               variant, dealer, seed, threads, out, as_json, record_play,
                               progress)
    except _user_errors() as e:
        _fail(e)


def _simulate_boerenbridge(players, hand_size, schedule, deals, games, policy, seat_policy,
                           variant, dealer, seed, threads, out, as_json, record_play, progress):
    from fastsim.boerenbridge_schema import (GAME, POLICY_NAMES, RulesError, build_rules,
                                             parse_seat_policies)
    from fastsim.rng import check_seed
    from analyzer import summary

    rules = build_rules(players=players, hand_size=hand_size, schedule=schedule,
                        variants=variant, first_dealer=dealer)
    check_seed(seed)
    if hand_size is not None:
        if games is not None:
            raise RulesError("--games plays whole games; with --hand-size use --deals")
        count = 100_000 if deals is None else deals
    else:
        if deals is not None:
            raise RulesError("--deals needs --hand-size; whole games use --games")
        count = 1000 if games is None else games
    if count < 1:
        raise RulesError(f"need at least one deal or game, got {count}")
    if threads is not None and threads < 1:
        raise RulesError(f"--threads must be at least 1, got {threads}")
    pols = parse_seat_policies(rules.players, policy.lower(), seat_policy)
    for path in (out, record_play):
        if path:
            _check_writable(path)

    from analyzer.run import run_chunked
    t0 = time.perf_counter()
    result = run_chunked(rules, count, seed=seed, policies=pols, threads=threads,
                         record=record_play is not None, progress=progress)
    elapsed = time.perf_counter() - t0
    n_deals = result.n_deals

    if record_play:
        from analyzer.records import deal_records, write_jsonl
        write_jsonl(deal_records(result), record_play)
    if out:
        from analyzer.storage import write_parquet
        write_parquet(result, out)

    positions = summary.by_position(result.deals, rules.players)
    payload = {
        "game": GAME,
        "players": rules.players,
        "deals": n_deals,
        "seed": seed,
        "positions": [{k: p[k] for k in ("position", "mean_tricks", "exact_rate", "mean_score")}
                      for p in positions],
    }
    whole_games = hand_size is None
    seats = []
    if whole_games:
        seats = summary.by_seat(result)
        for s in seats:
            s["policy"] = POLICY_NAMES[int(pols[s["seat"]])]
        payload["games"] = count
        payload["schedule"] = list(rules.schedule)
        payload["seats"] = seats
    else:
        payload["hand_size"] = hand_size
    payload["policies"] = [POLICY_NAMES[int(p)] for p in pols]
    payload["variants"] = dict(rules.variants)
    if as_json:
        click.echo(json.dumps(payload))
        return
    rate = n_deals / elapsed if elapsed > 0 else float("inf")
    what = (f"{count:,} games of {len(rules.schedule)} deals (schedule {'-'.join(map(str, rules.schedule))})"
            if whole_games else f"{n_deals:,} deals of {hand_size} cards")
    click.echo(f"Boerenbridge, {rules.players} players: {what}, seed {seed}")
    click.echo(f"policies by seat: {', '.join(payload['policies'])}; scoring {rules.scoring}"
               + (f"; variants {', '.join(f'{k}={v}' if v else k for k, v in rules.variants.items())}"
                  if rules.variants else ""))
    click.echo(f"played in {elapsed:.2f} s ({rate:,.0f} deals/s)")
    click.echo("")
    click.echo("position             mean bid  mean tricks  exact-bid rate  mean score")
    for p in positions:
        label = f"{p['position']}" + (" (leads first)" if p["position"] == 0 else
                                      " (dealer)" if p["position"] == rules.players - 1 else "")
        click.echo(f"{label:<20} {p['mean_bid']:>8.3f}  {p['mean_tricks']:>11.3f}  "
                   f"{p['exact_rate']:>14.1%}  {p['mean_score']:>10.2f}")
    if seats:
        click.echo("")
        click.echo("seat  policy     mean total  win share  mean exact bids")
        for s in seats:
            click.echo(f"{s['seat']:<5} {s['policy']:<10} {s['mean_total']:>10.1f}  "
                       f"{s['win_rate']:>9.1%}  {s['mean_exact']:>15.2f}")
    for label, path in (("results", out), ("play record", record_play)):
        if path:
            click.echo(f"{label} written to {path}")


@main.group(cls=TroefGroup)
def bid():
    """What should I bid with this hand?"""


@bid.command("boerenbridge")
@click.option("--players", type=int, default=4, show_default=True)
@click.option("--hand", required=True, help='My cards, e.g. "AS KS 7H 2C".')
@click.option("--trump-card", required=True, help="The turned card (its suit is trump).")
@click.option("--position", type=int, required=True, help="0 = left of the dealer (bids first) ... players-1 = dealer.")
@click.option("--bids-before", default=None, help="The bids of positions 0..P-1, e.g. 1,0.")
@click.option("--samples", type=int, default=20000, show_default=True)
@click.option("--policy", default="heuristic", show_default=True, help="How the other players bid and play.")
@click.option("--variant", multiple=True, metavar="NAME[=VALUE]")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--threads", type=int, default=None)
@click.option("--notation", type=click.Choice(["en", "nl"]), default="en", show_default=True)
@click.option("--json", "as_json", is_flag=True)
def bid_boerenbridge(players, hand, trump_card, position, bids_before, samples, policy, variant,
                     seed, threads, notation, as_json):
    """Expected score and P(exact) of every bid, by simulation (Boerenbridge)."""
    try:
        from analyzer.bid_query import bid_query
        r = bid_query(players, hand, trump_card, position, bids_before, samples,
                      policy.lower(), variant, seed, notation, threads)
    except _user_errors() as e:
        _fail(e)
    if as_json:
        keys = ("recommended_bid", "trick_distribution", "samples", "effective_samples",
                "drawn", "acceptance_rate", "players", "hand", "trump_card", "trump",
                "position", "bids_before", "policy", "scoring", "variants", "seed")
        payload = {k: r[k] for k in keys}
        payload["bids"] = [{k: b[k] for k in ("bid", "p_exact", "p_exact_ci", "expected_score",
                                              "expected_score_ci", "forbidden",
                                              "trick_distribution")} for b in r["bids"]]
        click.echo(json.dumps(payload))
        return
    n = r["players"]
    where = ("left of the dealer, bidding first" if position == 0 else
             "the dealer, bidding last" if position == n - 1 else f"position {position}")
    click.echo(f"Boerenbridge, {n} players, {len(r['hand'])} cards: {' '.join(r['hand'])}; "
               f"turned {r['trump_card']} ({'no trump' if r['trump'] is None else 'trump ' + r['trump']})")
    before = "" if r["bids_before"] is None else f"; earlier bids {','.join(map(str, r['bids_before']))}"
    click.echo(f"you are {where}{before}; others play {r['policy']}; scoring {r['scoring']}")
    click.echo(f"{r['samples']:,} sampled deals (effective {r['effective_samples']:,}"
               + (f", {r['acceptance_rate']:.1%} of {r['drawn']:,} drawn fit the earlier bids"
                  if r["drawn"] != r["samples"] else "") + f"), seed {r['seed']}")
    click.echo("")
    click.echo("bid   P(exact)  95% interval      expected score  95% interval")
    for b in r["bids"]:
        mark = "  forbidden (dealer rule)" if b["forbidden"] else (
            "  <- recommended" if b["bid"] == r["recommended_bid"] else "")
        lo, hi = b["p_exact_ci"]
        slo, shi = b["expected_score_ci"]
        click.echo(f"{b['bid']:>3}   {b['p_exact']:>7.1%}  [{lo:5.1%}, {hi:5.1%}]  "
                   f"{b['expected_score']:>14.2f}  [{slo:6.2f}, {shi:6.2f}]{mark}")
    click.echo("")
    dist = "  ".join(f"{k}:{p:.1%}" for k, p in enumerate(r["trick_distribution"]) if p > 0)
    click.echo(f"my tricks when bidding {r['recommended_bid']}: {dist}")
    click.echo(f"recommended bid: {r['recommended_bid']}")


@main.command("stats")
@click.argument("results", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--by", default="bid,hand_size,position", show_default=True,
              help="Grouping of the exact-bid table (columns of the results).")
@click.option("--stat", "which", multiple=True,
              type=click.Choice(["exact", "calibration", "tricks", "score", "dealer", "compare"]),
              help="Statistics to show (repeatable; default all).")
@click.option("--feature", default="trump_count", show_default=True,
              help="Hand feature for the trick distribution.")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV (one block per statistic).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object {statistic: rows}.")
def stats_cmd(results, by, which, feature, as_csv, as_json):
    """Statistics with 95% intervals from results files (troef simulate --out).

    Several files are compared with each other (e.g. runs of different variants)."""
    try:
        _stats(results, by, which, feature, as_csv, as_json)
    except (KeyError,) + _user_errors() as e:
        _fail(e)


def _stats(results, by, which, feature, as_csv, as_json):
    import os
    import pandas as pd
    from analyzer.stats import STATS, all_stats
    from analyzer.storage import read_parquet
    if as_csv and as_json:
        raise ValueError("give --csv or --json, not both")
    frames = []
    for path in results:
        df, meta = read_parquet(path)
        if meta.get("game") != "boerenbridge":
            raise ValueError(f"{path} holds no Boerenbridge results")
        df["source"] = os.path.splitext(os.path.basename(path))[0]
        frames.append(df)
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    if feature not in df.columns:
        raise ValueError(f"unknown feature {feature!r}")
    keys = [k.strip() for k in by.split(",") if k.strip()]
    tables = all_stats(df, keys, which or STATS, feature)
    if as_json:
        click.echo(json.dumps({k: json.loads(v.to_json(orient="records")) for k, v in tables.items()}))
        return
    for name, t in tables.items():
        if as_csv:
            click.echo(f"# {name}")
            click.echo(t.to_csv(index=False), nl=False)
        else:
            click.echo(f"== {name} ({len(df):,} player-deals) ==")
            with pd.option_context("display.max_rows", 200, "display.width", 160,
                                   "display.float_format", "{:.4f}".format):
                click.echo(t.to_string(index=False) if len(t) else "(no data)")
            click.echo("")


@simulate.command("bonken")
@click.option("--contract", default=None, help="Play single rounds of this contract (else whole games).")
@click.option("--deals", type=int, default=None, help="Rounds of --contract (default 100000).")
@click.option("--games", type=int, default=None, help="Whole 11-round games (default 1000).")
@click.option("--policy", default="heuristic", show_default=True, help="random or heuristic.")
@click.option("--seat-policy", multiple=True, metavar="SEAT=NAME")
@click.option("--variant", multiple=True, metavar="NAME[=VALUE]", help="hearts_lead=after_broken, fixed_order.")
@click.option("--dealer", type=int, default=0, show_default=True, help="(First) dealer's seat.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--threads", type=int, default=None)
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Results FILE.parquet.")
@click.option("--json", "as_json", is_flag=True)
@click.option("--record-play", type=click.Path(dir_okay=False), default=None, help="FILE.jsonl of every round.")
def simulate_bonken(contract, deals, games, policy, seat_policy, variant, dealer, seed, threads,
                    out, as_json, record_play):
    """Simulate Bonken (RULES §3): single contracts or whole games."""
    try:
        _simulate_bonken(contract, deals, games, policy, seat_policy, variant, dealer, seed,
                         threads, out, as_json, record_play)
    except _user_errors() as e:
        _fail(e)


def _simulate_bonken(contract, deals, games, policy, seat_policy, variant, dealer, seed, threads,
                     out, as_json, record_play):
    from fastsim import bonken as bk
    from fastsim.bonken_schema import CONTRACTS, POLICY_NAMES, RulesError, contract_id
    from fastsim.rng import check_seed
    from analyzer import summary
    rules = bk.build_rules(variant, first_dealer=dealer)
    check_seed(seed)
    if contract is not None:
        if games is not None:
            raise RulesError("--games plays whole games; with --contract use --deals")
        cid = contract_id(contract)
        count = 100_000 if deals is None else deals
    else:
        if deals is not None:
            raise RulesError("--deals needs --contract; whole games use --games")
        cid = None
        count = 1000 if games is None else games
    if count < 1:
        raise RulesError(f"need at least one deal or game, got {count}")
    if threads is not None and threads < 1:
        raise RulesError(f"--threads must be at least 1, got {threads}")
    pols = bk.parse_seat_policies(policy.lower(), seat_policy)
    for path in (out, record_play):
        if path:
            _check_writable(path)
    t0 = time.perf_counter()
    result = bk.simulate(rules, count, seed=seed, policies=pols, contract=cid, threads=threads,
                         record=record_play is not None)
    elapsed = time.perf_counter() - t0
    if record_play:
        from analyzer.records import bonken_records, write_jsonl
        write_jsonl(bonken_records(result), record_play)
    if out:
        from analyzer.storage import write_parquet
        write_parquet(result, out)
    by_contract = summary.bonken_by_contract(result)
    payload = {"game": "bonken", "players": 4, "deals": result.n_deals, "seed": seed,
               "policies": [POLICY_NAMES[int(p)] for p in pols],
               "variants": dict(rules.variants), "contracts": by_contract}
    if cid is None:
        payload["games"] = count
        tot = result.games["totals"]
        share = result.games["winners"] / result.games["winners"].sum(axis=1, keepdims=True)
        payload["seats"] = [{"seat": s, "policy": payload["policies"][s],
                             "mean_total": float(tot[:, s].mean()),
                             "win_rate": float(share[:, s].mean())} for s in range(4)]
    else:
        payload["contract"] = CONTRACTS[cid]
    if as_json:
        click.echo(json.dumps(payload))
        return
    what = f"{count:,} rounds of {CONTRACTS[cid]}" if cid is not None else f"{count:,} games of 11 rounds"
    click.echo(f"Bonken: {what}, seed {seed}")
    click.echo(f"policies by seat: {', '.join(payload['policies'])}"
               + (f"; variants {', '.join(f'{k}={v}' if v else k for k, v in rules.variants.items())}"
                  if rules.variants else ""))
    click.echo(f"played in {elapsed:.2f} s ({result.n_deals / max(elapsed, 1e-9):,.0f} rounds/s)")
    click.echo("")
    click.echo("mean score by position (0 leads, 1 chooses, 3 deals)")
    click.echo("contract              rounds       pos 0    pos 1    pos 2    pos 3")
    for e in by_contract:
        sc = "".join(f"{p['mean_score']:>9.2f}" for p in e["positions"])
        click.echo(f"{e['contract']:<20} {e['n']:>7,}  {sc}")
        if e["contract"] == "domino":
            lr = "".join(f"{p['loser_rate']:>9.1%}" for p in e["positions"])
            click.echo(f"{'  domino loser rate':<20} {'':>7}  {lr}")
    if cid is None:
        click.echo("")
        click.echo("seat  policy     mean total  win share")
        for s in payload["seats"]:
            click.echo(f"{s['seat']:<5} {s['policy']:<10} {s['mean_total']:>10.1f}  {s['win_rate']:>9.1%}")
    for label, path in (("results", out), ("play record", record_play)):
        if path:
            click.echo(f"{label} written to {path}")


@main.group(cls=TroefGroup)
def contract():
    """Which contract should I choose?"""


@contract.command("bonken")
@click.option("--hand", required=True, help="My 13 cards.")
@click.option("--available", default=None, help="Contracts still open, e.g. ducking,no-hearts (default: all).")
@click.option("--samples", type=int, default=10000, show_default=True)
@click.option("--policy", default="heuristic", show_default=True, help="How everyone plays.")
@click.option("--variant", multiple=True, metavar="NAME[=VALUE]")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--threads", type=int, default=None)
@click.option("--notation", type=click.Choice(["en", "nl"]), default="en", show_default=True)
@click.option("--json", "as_json", is_flag=True)
def contract_bonken(hand, available, samples, policy, variant, seed, threads, notation, as_json):
    """Expected score of every available contract for the chooser (Bonken)."""
    try:
        from analyzer.contract_query import contract_query
        r = contract_query(hand, available, samples, policy.lower(), variant, seed, notation, threads)
    except _user_errors() as e:
        _fail(e)
    if as_json:
        click.echo(json.dumps(r))
        return
    click.echo(f"Bonken, you choose with: {' '.join(r['hand'])}")
    click.echo(f"{r['samples']:,} sampled deals, everyone plays {r['policy']}, seed {r['seed']}")
    click.echo("")
    click.echo("contract             your score  95% interval        vs average   others (left, right, dealer)")
    for c in r["contracts"]:
        lo, hi = c["expected_score_ci"]
        oth = " ".join(f"{x:7.2f}" for x in c["others"])
        mark = "  <- recommended" if c["contract"] == r["recommended"] else ""
        click.echo(f"{c['contract']:<20} {c['expected_score']:>10.2f}  [{lo:7.2f}, {hi:7.2f}]  "
                   f"{c['vs_average']:>+10.2f}   {oth}{mark}")
    click.echo("")
    for kind in ("negative", "trump"):
        if f"recommended_{kind}" in r:
            click.echo(f"best {kind} contract: {r[f'recommended_{kind}']}")


@main.group(cls=TroefGroup)
def explain():
    """Explain the rules on a concrete trick or hand."""


@explain.command("boerenbridge")
@click.option("--trick", default="", help="Cards of the trick so far, in play order.")
@click.option("--trump", default=None, help="Trump suit (S H D C, or none).")
@click.option("--trump-card", default=None, help="The turned card; its suit is trump.")
@click.option("--hand", default=None, help="My hand: show which cards I may play to --trick.")
@click.option("--notation", type=click.Choice(["en", "nl"]), default="en", show_default=True)
@click.option("--json", "as_json", is_flag=True)
def explain_boerenbridge(trick, trump, trump_card, hand, notation, as_json):
    """Who wins a trick, or which cards a hand may play to it (RULES §1)."""
    try:
        payload = _explain_boerenbridge(trick, trump, trump_card, hand, notation)
    except _user_errors() as e:
        _fail(e)
    if as_json:
        click.echo(json.dumps(payload))
    elif "legal" in payload:
        click.echo(f"legal: {' '.join(payload['legal'])} ({payload['rule']})")
    else:
        click.echo(f"winner: {payload['winner_card']} (card {payload['winner'] + 1} of the trick)")


def _explain_boerenbridge(trick, trump, trump_card, hand, notation):
    import numpy as np
    from fastsim.cards import card_str, parse_card, parse_cards, parse_suit
    from fastsim.trick import resolve_tricks
    if trump is not None and trump_card is not None:
        raise ValueError("give --trump or --trump-card, not both")
    if trump_card is not None:
        tcard = parse_card(trump_card, notation)
        t = tcard // 16
    elif trump is None or trump.strip().lower() in ("none", "nt", "-"):
        tcard, t = None, -1
    else:
        tcard, t = None, parse_suit(trump, notation)
    tcards = parse_cards(trick, notation)
    if len(tcards) > 7:
        raise ValueError(f"a trick has at most 7 cards, got {len(tcards)}")
    if tcard is not None and tcard in tcards:
        raise ValueError(f"the turned card {card_str(tcard, notation)} is out of play")
    if hand is None:
        if not tcards:
            raise ValueError("--trick needs at least one card (or give --hand)")
        w = int(resolve_tricks(np.array([tcards]), t)[0])
        return {"winner": w, "winner_card": card_str(tcards[w], notation)}
    hcards = parse_cards(hand, notation)
    if not hcards:
        raise ValueError("--hand is empty")
    clash = set(hcards) & (set(tcards) | ({tcard} if tcard is not None else set()))
    if clash:
        raise ValueError(f"card {card_str(min(clash), notation)} is both in the hand and on the table")
    if not tcards:
        legal, rule = sorted(hcards), "leading: any card"
    else:
        led = tcards[0] // 16
        follow = [c for c in hcards if c // 16 == led]
        if follow:
            legal, rule = sorted(follow), "must follow the led suit"
        else:
            legal, rule = sorted(hcards), "void in the led suit: any card (no duty to trump)"
    return {"legal": [card_str(c, notation) for c in legal], "rule": rule}


def _check_writable(path):
    import os
    d = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(d):
        raise ValueError(f"cannot write {path}: folder {d} does not exist")
    if not os.access(d, os.W_OK):
        raise ValueError(f"cannot write {path}: folder {d} is not writable")


if __name__ == "__main__":
    main()
