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
    if isinstance(msg, BrokenPipeError):      # the reader went away (e.g. | head): not an error
        sys.exit(0)
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
        except MemoryError as e:  # e.g. --samples 10**12: numpy cannot allocate the arrays
            detail = str(e).splitlines()[0] if str(e) else "cannot allocate the arrays"
            click.echo(f"troef: error: out of memory: {detail}", err=True)
            sys.exit(EXIT_USAGE)
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
@click.option("--out", "out", type=click.Path(), default=None, help="Write results (one row per deal and seat): FILE.parquet (one file) or a folder DIR (a dataset streamed in chunks).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--record-play", type=click.Path(dir_okay=False), default=None, help="Write every deal's play to FILE.jsonl.")
@click.option("--progress/--no-progress", default=None, help="Progress bar with rate and ETA (default: on for long runs on a terminal).")
@click.option("--chunk-deals", type=int, default=None, help="Deals per chunk of a streamed or cluster run (whole games; default 250000).")
@click.option("--resume", is_flag=True, help="Continue the interrupted dataset --out DIR (same options).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", help="Run the chunks on this Dask scheduler's workers.")
@click.option("--dask-workers", type=int, default=None, help="Run the chunks on a local Dask cluster of N worker processes.")
def simulate_boerenbridge(players, hand_size, schedule, deals, games, policy, seat_policy,
                          variant, dealer, seed, threads, out, as_json, record_play, progress,
                          chunk_deals, resume, scheduler, dask_workers):
    """Simulate Boerenbridge (RULES §1) and print a per-position summary."""
    from analyzer.cluster import ClusterError
    try:
        _simulate_boerenbridge(players, hand_size, schedule, deals, games, policy, seat_policy,
                               variant, dealer, seed, threads, out, as_json, record_play,
                               progress, chunk_deals, resume, scheduler, dask_workers)
    except BrokenPipeError:   # `troef simulate ... | head`: not an input error
        raise
    except _user_errors() + (ClusterError,) as e:
        _fail(e)
    except MemoryError:
        _fail("out of memory; write the results to a dataset folder (--out DIR) instead")


def _simulate_boerenbridge(players, hand_size, schedule, deals, games, policy, seat_policy,
                           variant, dealer, seed, threads, out, as_json, record_play, progress,
                           chunk_deals=None, resume=False, scheduler=None, dask_workers=None):
    from fastsim.boerenbridge_schema import (GAME, POLICY_NAMES, RulesError, build_rules,
                                             parse_seat_policies)
    from fastsim.rng import check_seed

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
    from analyzer import run as runner
    from analyzer.cluster import DaskBackend, check_address, check_workers
    from analyzer.stream import is_dataset_path
    total = count * len(rules.schedule)
    if total > runner.MAX_DEALS:
        raise RulesError(f"at most {runner.MAX_DEALS:,} deals in one run, got {total:,}")
    if chunk_deals is not None and chunk_deals < 1:
        raise RulesError(f"--chunk-deals must be at least 1, got {chunk_deals}")
    dataset = bool(out) and is_dataset_path(out)
    if resume and not dataset:
        raise RulesError("--resume continues a dataset folder: give it as --out DIR")
    if dataset and record_play:
        raise RulesError("--record-play keeps every deal in memory; it cannot go with a "
                         "dataset folder --out DIR")
    if scheduler is not None and dask_workers is not None:
        raise RulesError("give --scheduler or --dask-workers, not both")
    if scheduler is not None:
        check_address(scheduler)
    if dask_workers is not None:
        check_workers(dask_workers)
    for path in (out, record_play):
        if path:
            _check_writable(path)
    in_memory = bool(out and not dataset) or record_play is not None
    if in_memory:
        _check_memory(total, rules, record_play is not None, out if out and not dataset
                      else record_play)
    dask = scheduler is not None or dask_workers is not None
    if progress is None:
        progress = runner.progress_default(total)
    if chunk_deals is not None:
        chunk_games = runner.chunk_games_for(rules, chunk_deals)
    elif in_memory and not dask:   # one call, or blocks of a million for the progress bar
        chunk_games = runner.chunk_games_for(rules, runner.BLOCK_DEALS) if progress else count
    else:
        chunk_games = runner.chunk_games_for(rules, runner.CHUNK_DEALS)
    spec = runner.RunSpec(rules, count, seed, pols, chunk_games, threads, record_play is not None)
    backend = (DaskBackend(scheduler=scheduler, workers=dask_workers) if dask
               else runner.LocalBackend())
    summ = runner.Summary(rules.players)
    results = []
    resumed = 0
    ds = None

    def on_chunk(o):
        if ds is not None:
            ds.write(o)
        summ.add(o.partials)
        if in_memory:
            results.append(o.result)

    t0 = time.perf_counter()
    if dataset:
        from analyzer import stream
        with stream.Dataset(out, spec, resume) as ds:
            resumed = len(ds.saved)
            for p in ds.summaries():
                summ.add(p)
            played = 0
            try:
                with stream.interruptible():
                    if ds.missing:
                        with backend:
                            t0 = time.perf_counter()
                            played = runner.execute(spec, ds.missing, "parquet", backend,
                                                    progress, on_chunk,
                                                    done_deals=ds.saved_deals)
            except KeyboardInterrupt as e:
                code = 143 if isinstance(e, stream.Terminated) else 130
                click.echo(f"troef: interrupted: {ds.describe()}; run the same command with "
                           "--resume to continue", err=True)
                raise click.exceptions.Exit(code) from None
            ds.finish()
            n_chunks, rows = spec.n_chunks, sum(r["rows"] for r in ds.saved.values())
    else:
        with backend:
            t0 = time.perf_counter()
            played = runner.execute(spec, range(spec.n_chunks),
                                    "result" if in_memory else "summary", backend, progress,
                                    on_chunk)
    elapsed = time.perf_counter() - t0
    n_deals = summ.deals

    if in_memory:
        result = runner._concat(results, rules, results[0].policies, seed)
        if record_play:
            from analyzer.records import deal_records, write_jsonl
            write_jsonl(deal_records(result), record_play)
        if out:
            from analyzer.storage import write_parquet
            write_parquet(result, out)
        del result, results

    positions = summ.by_position()
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
        seats = summ.by_seat()
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
    rate = played / elapsed if elapsed > 0 else 0.0
    what = (f"{count:,} games of {len(rules.schedule)} deals (schedule {'-'.join(map(str, rules.schedule))})"
            if whole_games else f"{n_deals:,} deals of {hand_size} cards")
    click.echo(f"Boerenbridge, {rules.players} players: {what}, seed {seed}")
    click.echo(f"policies by seat: {', '.join(payload['policies'])}; scoring {rules.scoring}"
               + (f"; variants {', '.join(f'{k}={v}' if v else k for k, v in rules.variants.items())}"
                  if rules.variants else ""))
    where = (f" on Dask ({scheduler or f'{dask_workers} local workers'})" if dask else "")
    click.echo(f"played in {elapsed:.2f} s ({rate:,.0f} deals/s){where}"
               + (f"; resumed with {resumed} of {spec.n_chunks} chunks already saved"
                  if resumed else ""))
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
            click.echo(f"{label} written to {path}" + (
                f" (dataset: {n_chunks} chunks, {rows:,} rows)" if dataset and path == out
                else ""))


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
@click.argument("results", nargs=-1, required=True, type=click.Path())
@click.option("--by", default="bid,hand_size,position", show_default=True,
              help="Grouping of the exact-bid table (columns of the results).")
@click.option("--stat", "which", multiple=True,
              help="Statistics to show (repeatable; default all of the file's game). Boerenbridge: "
                   "exact, calibration, tricks, score, dealer, compare; Bonken: contract_score, "
                   "chooser, domino; Klaverjassen: trump_value, nat_pit, roem, position, matches; "
                   "Boonaken: make_rate, special, hand_points.")
@click.option("--feature", default="trump_count", show_default=True,
              help="Hand feature for the trick distribution.")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV (one block per statistic).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object {statistic: rows}.")
def stats_cmd(results, by, which, feature, as_csv, as_json):
    """Statistics with 95% intervals from results files or dataset folders (troef
    simulate --out); folders are read a row group at a time, never whole.

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
    keys = [k.strip() for k in by.split(",") if k.strip()]
    if any(os.path.isdir(p) for p in results):   # a dataset: stream it, aggregate sums
        from analyzer.dataset_stats import dataset_stats
        from analyzer.stream import sources
        for path in results:
            if os.path.isdir(path):
                files, meta = sources(path)
                if not meta["complete"]:
                    click.echo(f"troef: note: {path} is incomplete ({len(files)} of "
                               f"{meta['chunks']} chunks saved)", err=True)
        tables, n_rows = dataset_stats(results, keys, which or STATS, feature)
    else:
        frames = []
        games = set()
        for path in results:
            df, meta = read_parquet(path)
            games.add(meta.get("game"))
            df["source"] = os.path.splitext(os.path.basename(path))[0]
            frames.append(df)
        if len(games) != 1 or None in games:
            raise ValueError("the results files must hold troef results of one game")
        game = games.pop()
        df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
        n_rows = len(df)
        if game != "boerenbridge":
            import importlib
            mod = importlib.import_module(f"analyzer.{game}_stats")
            unknown = [w for w in which if w not in mod.STATS]
            if unknown:
                raise ValueError(f"unknown {game} statistic {unknown[0]!r}; known: {', '.join(mod.STATS)}")
            kwargs = {}
            if game in ("bonken", "klaverjassen"):
                f = feature if feature != "trump_count" or game == "klaverjassen" else "strength_band"
                if f != "strength_band" and f not in df.columns:
                    raise ValueError(f"unknown feature {f!r}")
                kwargs["feature"] = f
            tables = mod.all_stats(df, which or mod.STATS, **kwargs)
        else:
            unknown = [w for w in which if w not in STATS]
            if unknown:
                raise ValueError(f"unknown boerenbridge statistic {unknown[0]!r}; known: {', '.join(STATS)}")
            if feature not in df.columns:
                raise ValueError(f"unknown feature {feature!r}")
            tables = all_stats(df, keys, which or STATS, feature)
    if as_json:
        click.echo(json.dumps({k: json.loads(v.to_json(orient="records")) for k, v in tables.items()}))
        return
    for name, t in tables.items():
        if as_csv:
            click.echo(f"# {name}")
            click.echo(t.to_csv(index=False), nl=False)
        else:
            click.echo(f"== {name} ({n_rows:,} player-deals) ==")
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


@simulate.command("klaverjassen")
@click.option("--deals", type=int, default=None, help="Independent deals (default 100000).")
@click.option("--games", type=int, default=None, help="Whole 16-deal boompjes.")
@click.option("--trump", default=None, help="Fix trump (S H D C) instead of calling it (single deals).")
@click.option("--playing-team", type=int, default=0, show_default=True, help="With --trump: 0 (seats 0+2) or 1.")
@click.option("--policy", default="heuristic", show_default=True, help="random or heuristic.")
@click.option("--seat-policy", multiple=True, metavar="SEAT=NAME")
@click.option("--variant", multiple=True, metavar="NAME[=VALUE]", help="amsterdam, undertrump=forced, four_of_a_kind=all_100.")
@click.option("--dealer", type=int, default=0, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--threads", type=int, default=None)
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Results FILE.parquet.")
@click.option("--json", "as_json", is_flag=True)
@click.option("--record-play", type=click.Path(dir_okay=False), default=None)
def simulate_klaverjassen(deals, games, trump, playing_team, policy, seat_policy, variant, dealer,
                          seed, threads, out, as_json, record_play):
    """Simulate Klaverjassen (RULES §2, Rotterdam): single deals or 16-deal boompjes."""
    try:
        _simulate_klaverjassen(deals, games, trump, playing_team, policy, seat_policy, variant,
                               dealer, seed, threads, out, as_json, record_play)
    except _user_errors() as e:
        _fail(e)


def _simulate_klaverjassen(deals, games, trump, playing_team, policy, seat_policy, variant, dealer,
                           seed, threads, out, as_json, record_play):
    from fastsim import klaverjassen as kj
    from fastsim.cards import parse_suit
    from fastsim.klaverjassen_schema import POLICY_NAMES, RulesError
    from fastsim.rng import check_seed
    from analyzer import summary
    rules = kj.build_rules(variant, first_dealer=dealer)
    check_seed(seed)
    if deals is not None and games is not None:
        raise RulesError("give --deals or --games, not both")
    boompje = games is not None
    count = games if boompje else (100_000 if deals is None else deals)
    if count < 1:
        raise RulesError(f"need at least one deal or game, got {count}")
    if threads is not None and threads < 1:
        raise RulesError(f"--threads must be at least 1, got {threads}")
    t = None if trump is None else parse_suit(trump)
    if boompje and t is not None:
        raise RulesError("a boompje calls trump every deal; --trump is for single deals")
    pols = kj.parse_seat_policies(policy.lower(), seat_policy)
    for path in (out, record_play):
        if path:
            _check_writable(path)
    t0 = time.perf_counter()
    result = kj.simulate(rules, count, seed=seed, policies=pols, boompje=boompje, trump=t,
                         playing_team=playing_team, threads=threads, record=record_play is not None)
    elapsed = time.perf_counter() - t0
    if record_play:
        from analyzer.records import klaverjassen_records, write_jsonl
        write_jsonl(klaverjassen_records(result), record_play)
    if out:
        from analyzer.storage import write_parquet
        write_parquet(result, out)
    payload = summary.klaverjassen_summary(result)
    payload.update({"seed": seed, "policies": [POLICY_NAMES[int(p)] for p in pols],
                    "variants": dict(rules.variants)})
    if as_json:
        click.echo(json.dumps(payload))
        return
    what = f"{count:,} boompjes ({result.n_deals:,} deals)" if boompje else f"{count:,} deals"
    click.echo(f"Klaverjassen (Rotterdam{''.join(', ' + k for k in rules.variants)}): {what}, seed {seed}")
    click.echo(f"policies by seat: {', '.join(payload['policies'])}"
               + (f"; trump fixed {trump.upper()}, team {playing_team} plays" if t is not None else ""))
    click.echo(f"played in {elapsed:.2f} s ({result.n_deals / max(elapsed, 1e-9):,.0f} deals/s)")
    click.echo("")
    click.echo("team  seats  plays   mean score  nat rate  pit rate  mean roem")
    for e in payload["teams"]:
        click.echo(f"{e['team']:<5} {e['seats']:<6} {e['play_rate']:>5.1%}  {e['mean_score']:>11.2f}  "
                   f"{e['nat_rate']:>8.1%}  {e['pit_rate']:>8.1%}  {e['mean_roem']:>9.2f}")
    click.echo("")
    click.echo("position (0 names first and leads)   plays   mean score when playing")
    for e in payload["positions"]:
        click.echo(f"{e['position']:<36} {e['play_rate']:>6.1%}   {e['mean_score_playing']:>10.2f}")
    if boompje:
        g = payload["boompjes"]
        click.echo("")
        click.echo(f"boompjes won: team 0 {g['win_rate'][0]:.1%}, team 1 {g['win_rate'][1]:.1%} "
                   f"(shared {g['shared']:.2%}); mean deals {g['mean_deals']:.2f}")
    for label, path in (("results", out), ("play record", record_play)):
        if path:
            click.echo(f"{label} written to {path}")


@simulate.command("boonaken")
@click.option("--players", type=int, default=4, show_default=True, help="2-5.")
@click.option("--preset", default="seed", show_default=True, help="seed, pagat or leimuiden.")
@click.option("--deals", type=int, default=None, help="Independent deals (default 100000).")
@click.option("--matches", type=int, default=None, help="Whole matches.")
@click.option("--policy", default="heuristic", show_default=True, help="random or heuristic.")
@click.option("--seat-policy", multiple=True, metavar="SEAT=NAME")
@click.option("--dealer", type=int, default=0, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--threads", type=int, default=None)
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Results FILE.parquet (deals).")
@click.option("--json", "as_json", is_flag=True)
@click.option("--record-play", type=click.Path(dir_okay=False), default=None)
def simulate_boonaken(players, preset, deals, matches, policy, seat_policy, dealer, seed, threads,
                      out, as_json, record_play):
    """Simulate Boonaken (RULES §4): single deals or whole matches."""
    try:
        _simulate_boonaken(players, preset, deals, matches, policy, seat_policy, dealer, seed,
                           threads, out, as_json, record_play)
    except _user_errors() as e:
        _fail(e)


def _simulate_boonaken(players, preset, deals, matches, policy, seat_policy, dealer, seed, threads,
                       out, as_json, record_play):
    from fastsim import boonaken as bo
    from fastsim.boonaken_schema import POLICY_NAMES, RulesError
    from fastsim.rng import check_seed
    from analyzer import summary
    rules = bo.build_rules(players, preset, first_dealer=dealer)
    check_seed(seed)
    if deals is not None and matches is not None:
        raise RulesError("give --deals or --matches, not both")
    if threads is not None and threads < 1:
        raise RulesError(f"--threads must be at least 1, got {threads}")
    pols = bo.parse_seat_policies(rules.players, policy.lower(), seat_policy)
    names = [POLICY_NAMES[int(p)] for p in pols]
    if matches is not None:
        if matches < 1:
            raise RulesError(f"need at least one match, got {matches}")
        if out or record_play:
            raise RulesError("--out and --record-play record single deals; use --deals")
        t0 = time.perf_counter()
        r = bo.simulate_matches(rules, matches, seed=seed, policies=pols, threads=threads)
        elapsed = time.perf_counter() - t0
        payload = summary.boonaken_match_summary(r)
        payload.update({"seed": seed, "policies": names})
        if as_json:
            click.echo(json.dumps(payload))
            return
        click.echo(f"Boonaken ({rules.preset}), {rules.players} players: {matches:,} matches, seed {seed}")
        click.echo(f"policies by seat: {', '.join(names)}; played in {elapsed:.2f} s; "
                   f"mean deals per match {payload['mean_deals']:.2f}")
        click.echo("")
        if rules.preset == "leimuiden":
            click.echo("position of the first dealer's left   safe     pays   undecided")
            for e in payload["positions"]:
                click.echo(f"{e['position']:<37} {e['safe_rate']:>6.1%}  {e['pays_rate']:>6.1%}  {e['undecided_rate']:>9.1%}")
        else:
            click.echo("position (0 = left of the first dealer)   match wins")
            for e in payload["positions"]:
                click.echo(f"{e['position']:<41} {e['win_rate']:>9.1%}")
        return
    count = 100_000 if deals is None else deals
    if count < 1:
        raise RulesError(f"need at least one deal, got {count}")
    for path in (out, record_play):
        if path:
            _check_writable(path)
    t0 = time.perf_counter()
    r = bo.simulate(rules, count, seed=seed, policies=pols, threads=threads,
                    record=record_play is not None)
    elapsed = time.perf_counter() - t0
    if record_play:
        from analyzer.records import boonaken_records, write_jsonl
        write_jsonl(boonaken_records(r), record_play)
    if out:
        from analyzer.storage import write_parquet
        write_parquet(r, out)
    payload = summary.boonaken_summary(r)
    payload.update({"seed": seed, "policies": names})
    if as_json:
        click.echo(json.dumps(payload))
        return
    click.echo(f"Boonaken ({rules.preset}), {rules.players} players: {count:,} deals, seed {seed}")
    click.echo(f"policies by seat: {', '.join(names)}; played in {elapsed:.2f} s "
               f"({count / max(elapsed, 1e-9):,.0f} deals/s); all passed in {payload['void_rate']:.1%}")
    click.echo("")
    click.echo("contract   deals      made")
    for e in payload["contracts"]:
        made = "-" if e["made_rate"] is None else f"{e['made_rate']:.1%}"
        click.echo(f"{e['contract']:<10} {e['deals']:>7,}  {made:>8}")
    click.echo("")
    click.echo("position   declares   makes it")
    for e in payload["positions"]:
        made = "-" if e["made_rate"] is None else f"{e['made_rate']:.1%}"
        click.echo(f"{e['position']:<10} {e['declare_rate']:>8.1%}  {made:>9}")
    for label, path in (("results", out), ("play record", record_play)):
        if path:
            click.echo(f"{label} written to {path}")


@bid.command("boonaken")
@click.option("--players", type=int, default=4, show_default=True)
@click.option("--hand", required=True, help="My 6 cards.")
@click.option("--open", "open_cards", required=True, help="The open table cards.")
@click.option("--preset", default="seed", show_default=True)
@click.option("--samples", type=int, default=5000, show_default=True)
@click.option("--policy", default="heuristic", show_default=True, help="How the others play.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--threads", type=int, default=None)
@click.option("--notation", type=click.Choice(["en", "nl"]), default="en", show_default=True)
@click.option("--json", "as_json", is_flag=True)
def bid_boonaken(players, hand, open_cards, preset, samples, policy, seed, threads, notation, as_json):
    """Chance of making every bid as declarer, and the highest bid worth making (Boonaken)."""
    try:
        from analyzer.boonaken_query import bid_advice
        r = bid_advice(players, hand, open_cards, preset, samples, policy.lower(), seed, notation,
                       threads)
    except _user_errors() as e:
        _fail(e)
    if as_json:
        click.echo(json.dumps(r))
        return
    click.echo(f"Boonaken ({r['preset']}), {r['players']} players: {' '.join(r['hand'])}; "
               f"open {' '.join(r['open'])}")
    click.echo(f"{r['samples']:,} sampled deals, others play {r['policy']}, seed {seed}")
    ep = "  ".join(f"{t} {v['mean']:.1f}" for t, v in r["expected_points"].items())
    click.echo(f"expected points (cards + roem) by trump: {ep}; best {r['best_trump']}")
    click.echo("")
    click.echo("bid        P(make)   95% interval     trump")
    for b in r["bids"]:
        if isinstance(b["bid"], int) and (b["p_make"] in (0.0, 1.0)) and b["bid"] % 25:
            continue   # keep the table short: certain levels only every 25 points
        lo, hi = b["p_make_ci"]
        click.echo(f"{str(b['bid']):<10} {b['p_make']:>7.1%}  [{lo:5.1%}, {hi:5.1%}]  {b['trump'] or '-'}")
    click.echo("")
    click.echo(f"highest bid worth making (P >= 50%): {r['highest_bid']}")


@main.group(cls=TroefGroup)
def trump():
    """Which trump should I name?"""


@trump.command("klaverjassen")
@click.option("--hand", required=True, help="My 8 cards.")
@click.option("--position", type=int, required=True, help="0 = left of the dealer (names first) .. 3 = dealer.")
@click.option("--passes", type=int, default=None, help="Passes before me (= position; 4 at position 0 = forced call).")
@click.option("--samples", type=int, default=None, help="Sampled deals (default 10000; 100 with --policy dd).")
@click.option("--policy", default="heuristic", show_default=True, help="heuristic, random or dd (double dummy).")
@click.option("--variant", multiple=True, metavar="NAME[=VALUE]")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--threads", type=int, default=None)
@click.option("--notation", type=click.Choice(["en", "nl"]), default="en", show_default=True)
@click.option("--json", "as_json", is_flag=True)
def trump_klaverjassen(hand, position, passes, samples, policy, variant, seed, threads, notation,
                       as_json):
    """Expected margin, P(nat) and P(pit) of naming each suit or passing (Klaverjassen)."""
    try:
        from analyzer.trump_query import trump_query
        r = trump_query(hand, position, passes, samples, policy.lower(), variant, seed, notation,
                        threads)
    except _user_errors() as e:
        _fail(e)
    if as_json:
        click.echo(json.dumps(r))
        return
    click.echo(f"Klaverjassen, position {position}{' (forced call)' if r['forced'] else ''}: "
               f"{' '.join(r['hand'])}")
    click.echo(f"{r['samples']:,} sampled deals ({r['acceptance_rate']:.1%} of {r['drawn']:,} drawn fit "
               f"the passes), {r['label']}, seed {seed}")
    click.echo("")
    click.echo("option  margin (us - them)  95% interval         P(nat)   P(pit)   we play")
    for o in r["options"]:
        lo, hi = o["expected_margin_ci"]
        mark = "  <- recommended" if o["option"] == r["recommended"] else ""
        click.echo(f"{o['option']:<7} {o['expected_margin']:>18.1f}  [{lo:7.1f}, {hi:7.1f}]  "
                   f"{o['p_nat']:>7.1%}  {o['p_pit']:>7.1%}  {o['p_we_play']:>7.0%}{mark}")
    click.echo("")
    click.echo(f"recommended: {r['recommended']}")


@main.group(cls=TroefGroup)
def solve():
    """Double-dummy analysis (all hands known)."""


@solve.command("klaverjassen")
@click.option("--hands", required=True, help='"<seat 0> / <seat 1> / <seat 2> / <seat 3>"')
@click.option("--trump", required=True, help="Trump suit.")
@click.option("--leader", type=int, default=0, show_default=True, help="Seat that leads (the current trick).")
@click.option("--playing-team", type=int, default=0, show_default=True, help="0 (seats 0+2) or 1 (seats 1+3).")
@click.option("--trick", default="", help="Cards already played to the current trick, from the leader on.")
@click.option("--cards", "show_cards", is_flag=True, help="Value of every legal card of the player to move.")
@click.option("--variant", multiple=True, metavar="NAME[=VALUE]")
@click.option("--notation", type=click.Choice(["en", "nl"]), default="en", show_default=True)
@click.option("--json", "as_json", is_flag=True)
def solve_klaverjassen(hands, trump, leader, playing_team, trick, show_cards, variant, notation, as_json):
    """Exact margin under perfect play, make-or-not, pit, and card values."""
    try:
        from fastsim import klaverjassen_dd as kdd
        from fastsim.cards import parse_cards, parse_suit
        from fastsim.klaverjassen_schema import build_rules
        from fastsim.common import RulesError
        parts = hands.split("/")
        if len(parts) != 4:
            raise RulesError(f'give four hands separated by "/", got {len(parts)}')
        hs = [parse_cards(p, notation, deck=32) for p in parts]
        tr = parse_cards(trick, notation, deck=32)
        rules = build_rules(variant)
        r = kdd.solve(hs, parse_suit(trump, notation), rules, leader=leader,
                      playing_team=playing_team, trick=tr, cards=show_cards)
    except _user_errors() as e:
        _fail(e)
    if as_json:
        click.echo(json.dumps(r))
        return
    click.echo(f"margin for team {playing_team} (card points + roem, perfect play): {r['margin']:+d}")
    click.echo(f"team {playing_team} {'makes it' if r['makes'] else 'goes nat'}")
    click.echo("pit: " + (f"team {r['pit_team']} can force all remaining tricks" if r["pit_possible"]
                          else "neither team can force it"))
    if show_cards:
        click.echo("cards: " + "  ".join(f"{c['card']} {c['margin']:+d}" for c in r["cards"]))
    click.echo(f"search: {r['nodes']:,} nodes in {r['seconds'] * 1000:.1f} ms")


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


def _check_memory(deals, rules, record, path):
    """Refuse in-memory outputs that cannot fit: one Parquet file or a play record holds
    every deal in memory (about 50 + 160·players bytes a deal, more when recording)."""
    import os
    n = rules.players
    need = deals * (50 + 160 * n + (3 * rules.max_hand * n + 64 if record else 0))
    try:
        phys = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return
    if need > phys:
        raise ValueError(f"{path} would hold all {deals:,} deals in memory (about "
                         f"{need / 2**30:,.0f} GiB, more than this machine's "
                         f"{phys / 2**30:,.0f} GiB); stream them to a dataset folder: --out DIR")


@explain.command("klaverjassen")
@click.option("--trump", required=True, help="Trump suit.")
@click.option("--trick", default="", help="Cards of the trick in play order.")
@click.option("--hand", default=None, help="My hand: which cards may I play to --trick?")
@click.option("--variant", multiple=True, metavar="NAME[=VALUE]")
@click.option("--notation", type=click.Choice(["en", "nl"]), default="en", show_default=True)
@click.option("--json", "as_json", is_flag=True)
def explain_klaverjassen(trump, trick, hand, variant, notation, as_json):
    """Trick winner, card points and roem; or the legal cards and the obligation."""
    try:
        from analyzer.explain import explain_klaverjassen as ek
        payload = ek(trump, trick, hand, variant, notation)
    except _user_errors() as e:
        _fail(e)
    if as_json:
        click.echo(json.dumps(payload))
    elif "legal" in payload:
        click.echo(f"legal: {' '.join(payload['legal'])} ({payload['rule']})")
    else:
        items = ", ".join(f"{i['name']} {i['points']}" for i in payload["roem_items"]) or "none"
        click.echo(f"winner: {payload['winner_card']} (card {payload['winner'] + 1}); "
                   f"card points {payload['card_points']}; roem {payload['roem']} ({items})")


@main.command("report")
@click.argument("game", type=click.Choice(["boerenbridge", "klaverjassen", "bonken", "boonaken"]))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Folder for index.html, report.md, the PNGs and CSVs.")
@click.option("--deals", type=int, default=None, help="Deals to simulate (default per game, see README).")
@click.option("--from", "from_path", type=click.Path(), default=None, help="Build the report from a results FILE.parquet instead.")
@click.option("--policy", default=None, help="Policy of every seat: heuristic (default) or random.")
@click.option("--variant", multiple=True, metavar="NAME[=VALUE]", help="Rule variant (repeatable; Boerenbridge, Klaverjassen, Bonken).")
@click.option("--players", type=int, default=None, help="Boerenbridge 3-7, Boonaken 2-5 (default 4).")
@click.option("--preset", default=None, help="Boonaken: seed (default), pagat or leimuiden.")
@click.option("--seed", type=int, default=None, help="Seed (default 0).")
@click.option("--threads", type=int, default=None, help="Worker threads (default: all cores).")
def report_cmd(game, out_dir, deals, from_path, policy, variant, players, preset, seed, threads):
    """Strategy report: figures (PNG), tables (CSV), index.html and report.md."""
    import os
    try:
        from reports import build_report
        if os.path.exists(out_dir) and not os.path.isdir(out_dir):
            raise ValueError(f"--out {out_dir} is a file; give a folder")
        t0 = time.perf_counter()
        rep = build_report(game, out_dir, deals=deals, from_path=from_path, policy=policy,
                           variants=variant, seed=seed, players=players, preset=preset,
                           threads=threads)
    except _user_errors() as e:
        _fail(e)
    click.echo(f"{rep.title}: {len(rep.figures)} figures, {len(rep.tables)} tables in "
               f"{time.perf_counter() - t0:.1f} s")
    click.echo(f"report written to {os.path.join(out_dir, 'index.html')} and "
               f"{os.path.join(out_dir, 'report.md')}")


@main.command("tournament")
@click.argument("game", type=click.Choice(["boerenbridge", "bonken", "klaverjassen", "boonaken"]))
@click.option("--policies", required=True, help="Comma-separated, e.g. heuristic,pimc,random.")
@click.option("--deals", type=int, default=None, help="Deals (default 2000).")
@click.option("--games", type=int, default=None, help="Whole games instead (Boerenbridge, Bonken, Klaverjassen).")
@click.option("--players", type=int, default=None, help="Boerenbridge / Boonaken player count.")
@click.option("--hand-size", type=int, default=None, help="Boerenbridge deals: cards each (default 8).")
@click.option("--preset", default="seed", show_default=True, help="Boonaken preset.")
@click.option("--variant", multiple=True, metavar="NAME[=VALUE]")
@click.option("--worlds", type=int, default=None, help="pimc: sampled deals per decision (default 16).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--threads", type=int, default=None)
@click.option("--json", "as_json", is_flag=True)
def tournament_cmd(game, policies, deals, games, players, hand_size, preset, variant, worlds, seed,
                   threads, as_json):
    """Duplicate tournament: every deal with every seating of the policies."""
    try:
        from analyzer.tournament import tournament
        from fastsim.common import RulesError
        from fastsim.rng import check_seed
        check_seed(seed)
        if deals is not None and games is not None:
            raise RulesError("give --deals or --games, not both")
        whole = games is not None
        if whole and game == "boonaken":
            raise RulesError("boonaken tournaments are played over deals (--deals)")
        if game == "bonken" and not whole:
            whole, games = True, deals
        n = games if whole else deals
        if n is None:
            n = 200 if whole else 2000
        if threads is not None and threads < 1:
            raise RulesError(f"--threads must be at least 1, got {threads}")
        r = tournament(game, policies, n, whole_games=whole, seed=seed, variants=variant,
                       players=players, hand_size=hand_size, preset=preset, worlds=worlds,
                       threads=threads)
    except _user_errors() as e:
        _fail(e)
    if as_json:
        click.echo(json.dumps(r))
        return
    click.echo(f"{game} duplicate tournament: {r['units']:,} {r['unit']}s x {r['seatings']} seatings, "
               f"seed {seed}" + (f", pimc worlds {r['worlds']}" if r["worlds"] else ""))
    click.echo("")
    click.echo(f"policy       mean score per {r['unit']}   95% interval")
    for p in r["policies"]:
        click.echo(f"{p['policy']:<12} {p['mean_score']:>20.2f}   [{p['ci'][0]:.2f}, {p['ci'][1]:.2f}]")
    click.echo("")
    for d in r["pairs"]:
        click.echo(f"{d['a']} - {d['b']}: {d['difference']:+.2f} [{d['ci'][0]:+.2f}, {d['ci'][1]:+.2f}]"
                   + ("" if d["significant"] else "  (not significant)"))


def _check_writable(path):
    import os
    d = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(d):
        raise ValueError(f"cannot write {path}: folder {d} does not exist")
    if not os.access(d, os.W_OK):
        raise ValueError(f"cannot write {path}: folder {d} is not writable")


if __name__ == "__main__":
    main()
