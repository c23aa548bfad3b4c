"""troef — command-line front end. Thin: parses options, asks the game registry
(:mod:`analyzer.games`) and the analyzer, prints. No game logic lives here.

The project's own input errors end in one line on stderr (``troef: error: …``) and exit
code 2; anything else is a bug and shows as one.
"""
import json
import os
import sys

import click

if sys.platform.startswith("linux") and os.uname().machine == "x86_64":  # see docs/architecture.md A-8
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "jemalloc")

EXIT_USAGE = 2
GAMES = ("boerenbridge", "klaverjassen", "bonken", "boonaken")   # = analyzer.games.NAMES


class FilePath(click.Path):
    """click.Path that refuses an empty path in words (it used to be ignored, as
    --record-play '' was, or reach the user as a raw ``[Errno 2]``)."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("an empty path", param, ctx)
        return super().convert(value, param, ctx)


class InputError(click.ClickException):
    exit_code = EXIT_USAGE


def _input_errors():
    """The errors that mean bad input: the project's one-line ValueErrors, OS and Dask errors."""
    from analyzer.cluster import ClusterError
    return (ValueError, OSError, ClusterError)


class TroefGroup(click.Group):
    """A click group whose errors are one line and exit 2, never a traceback."""

    def main(self, args=None, prog_name=None, **kwargs):
        args = sys.argv[1:] if args is None else list(args)
        try:
            rv = super().main(args=args, prog_name=prog_name or "troef",
                              standalone_mode=False, **kwargs)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
        except (click.Abort, KeyboardInterrupt):
            click.echo("troef: interrupted", err=True)
            sys.exit(130)
        except click.exceptions.NoArgsIsHelpError as e:
            click.echo(e.ctx.get_help())
            sys.exit(0)
        except click.ClickException as e:
            msg = " ".join(e.format_message().split())
            click.echo(f"troef: error: {msg}", err=True)
            sys.exit(EXIT_USAGE)
        except BrokenPipeError:
            sys.exit(0)
        except MemoryError as e:
            click.echo(f"troef: error: out of memory: {(str(e) or 'cannot allocate the arrays').splitlines()[0]}", err=True)
            sys.exit(EXIT_USAGE)
        sys.exit(rv if isinstance(rv, int) else 0)


class GameGroup(TroefGroup):
    """One subcommand per game, built from its registry entry only when it is used."""

    def __init__(self, *args, factory=None, needs=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.factory, self.needs = factory, needs

    def list_commands(self, ctx):
        return [g for g in GAMES if self.needs is None or self._has(g)]

    def _has(self, game):
        from analyzer import games as registry
        return hasattr(registry.get(game), self.needs)

    def get_command(self, ctx, name):
        if name not in GAMES or (self.needs is not None and not self._has(name)):
            return None
        return self.factory(name)


def guarded(fn):
    """Run a command body; the project's input errors become one line and exit 2."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except BrokenPipeError:
            raise
        except _input_errors() as e:
            raise InputError(str(e).splitlines()[0] if str(e) else type(e).__name__) from None
    return wrapper


def _query_json(r, game, recommended="recommended"):
    """A query's answer as JSON, with the keys every query shares (docs/architecture.md)."""
    out = {"game": game, **r}
    out.setdefault("recommended", r.get(recommended))
    out.setdefault("effective_samples", r.get("samples"))
    out.setdefault("variants", {})
    click.echo(json.dumps(out))


def _emit(lines):
    for line in lines: click.echo(line)  # noqa: E701


# ---------------------------------------------------------------- shared options

def _opts(*decorators):
    def apply(fn):
        for d in reversed(decorators):
            fn = d(fn)
        return fn
    return apply


def policy_opt(default="heuristic", text="Policy of every seat / the other players: random, heuristic, pimc or strong."):
    return click.option("--policy", default=default, show_default=True, help=text)


seed_opt = click.option("--seed", type=int, default=0, show_default=True, help="Random seed (same seed, same results).")
threads_opt = click.option("--threads", type=int, default=None, help="Worker threads (default: all cores).")
json_opt = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
notation_opt = click.option("--notation", type=click.Choice(["en", "nl"]), default="en", show_default=True, help="Cards and suits: en (2-9 T J Q K A; S H D C) or nl (2-9 10 B V H A; S H R K).")
worlds_opt = click.option("--worlds", type=int, default=None, help="pimc: sampled deals per decision (default 16; Boerenbridge's pimc 32 times it); strong uses multiples of it (docs/policies.md).")
variant_opt = click.option("--variant", multiple=True, metavar="NAME[=VALUE]", help="Rule variant (repeatable), see docs/rules.md.")
force_opt = click.option("--force", is_flag=True, help="Overwrite existing output files.")
common = _opts(seed_opt, threads_opt, json_opt)


def query_opts(text, variant=True):
    """The options every query command shares, in one order; its errors guarded."""
    return _opts(policy_opt(text=text), *([variant_opt] if variant else []), notation_opt, common,
                 worlds_opt, guarded)


@click.group(cls=TroefGroup, invoke_without_command=True, no_args_is_help=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="troef", prog_name="troef", message="%(prog)s %(version)s")
def main():
    """Monte Carlo strategy analyzer for Boerenbridge, Klaverjassen, Bonken and Boonaken.

    The rules of every game and variant: docs/rules.md."""
    from analyzer import compile_note, limits
    try:
        limits.check_environment()
    except ValueError as e:
        raise InputError(str(e)) from None
    compile_note.install()      # one stderr line while kernels compile on a cold cache


@main.group(cls=GameGroup, factory=lambda game: _simulate_command(game))
def simulate():
    """Play many deals or whole games and summarise them."""


# ---------------------------------------------------------------- simulate GAME

def _simulate_command(game):
    from analyzer import games as registry
    entry = registry.get(game)
    own = [click.option(*decl, **attrs) for decl, attrs in entry.CLI_OPTIONS]
    units = entry.UNITS["games"]

    @click.command(game, help=f"Simulate {entry.TITLE} (docs/rules.md#{game}): single deals or whole {units}s, in memory, to a file or a dataset folder.")
    @_opts(*own)
    @click.option("--deals", type=int, default=None, help=f"Independent deals (default {entry.DEFAULT_COUNT['deal']:,}).")
    @click.option(*entry.GAMES_OPTION, "games", type=int, default=None, help=f"Whole {units}es." if units.endswith("h") else f"Whole {units}s.")
    @policy_opt(text="Policy of every seat: random, heuristic, pimc, strong or your own PATH.py:FUNCTION (docs/policies.md).")
    @click.option("--seat-policy", multiple=True, metavar="SEAT=NAME", help="Policy of one seat (repeatable).")
    @click.option("--dealer", type=int, default=0, show_default=True, help="(First) dealer's seat.")
    @worlds_opt
    @common
    @click.option("--out", type=FilePath(), default=None, help="Results: FILE.parquet (one file) or a folder DIR (a dataset streamed in chunks).")
    @click.option("--record-play", type=FilePath(dir_okay=False), default=None, help="Write every deal's play to FILE.jsonl.")
    @click.option("--progress/--no-progress", default=None, help="Progress bar with rate and ETA (default: on for long runs on a terminal).")
    @click.option("--chunk-deals", type=int, default=None, help="Deals per chunk of a streamed or cluster run (default 250000).")
    @click.option("--resume", is_flag=True, help="Continue the interrupted dataset --out DIR (same options).")
    @click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", help="Run the chunks on this Dask scheduler's workers.")
    @click.option("--dask-workers", type=int, default=None, help="Run the chunks on a local Dask cluster of N worker processes.")
    @force_opt
    @guarded
    def command(**kw):
        _simulate(entry, kw)
    return command


def _simulate(entry, kw):
    from analyzer.run import RunSpec, check_run, run
    options = {k: kw.pop(k) for k in [d[0][0][2:].replace("-", "_") for d in entry.CLI_OPTIONS]}
    options["dealer"] = kw.pop("dealer")
    spec = RunSpec.make(entry.NAME, kw["deals"], kw["games"], kw["seed"],
                        kw["policy"] if ":" in kw["policy"] else kw["policy"].lower(),  # PATH.py:FUNCTION kept
                        kw["seat_policy"], threads=kw["threads"], worlds=kw["worlds"], **options)
    spec, backend = check_run(spec, kw["out"], kw["record_play"], kw["chunk_deals"],
                              kw["progress"], kw["scheduler"], kw["dask_workers"], kw["force"])
    try:
        o = run(spec, out=kw["out"], resume=kw["resume"], backend=backend,
                progress=kw["progress"], record_path=kw["record_play"], force=kw["force"])
    except KeyboardInterrupt as e:     # click would turn it into Abort and drop the note
        where = getattr(e, "troef_dataset", None)
        click.echo("troef: interrupted" + (f": {where}; run the same command with --resume to continue" if where else ""), err=True)
        raise click.exceptions.Exit(143 if type(e).__name__ == "Terminated" else 130) from None
    p = o.payload(spec)
    if kw["as_json"]:
        return click.echo(json.dumps(p))
    where = f" on Dask ({kw['scheduler'] or str(kw['dask_workers']) + ' local workers'})" \
        if backend.name == "dask" else ""
    _emit(o.header(spec, p, where))
    click.echo("")
    _emit(entry.render(p))
    for label, path in (("results", kw["out"]), ("play record", kw["record_play"])):
        if path:
            click.echo(f"{label} written to {path}" + (
                f" (dataset: {o.chunks} chunks, {o.rows:,} rows)" if o.chunks else ""))


# ---------------------------------------------------------------- queries

@main.group(cls=TroefGroup)
def bid():
    """What should I bid with this hand?"""


@bid.command("boerenbridge")
@click.option("--players", type=int, default=4, show_default=True)
@click.option("--hand", required=True, help='My cards, e.g. "AS KS 7H 2C".')
@click.option("--trump-card", required=True, help="The turned card (its suit is trump).")
@click.option("--position", type=int, required=True, help="0 = left of the dealer (bids first) ... players-1 = dealer.")
@click.option("--bids-before", default=None, help="The bids of positions 0..P-1, e.g. 1,0.")
@click.option("--samples", type=int, default=None, help="Sampled deals (default 20000; 300 with --policy pimc or strong).")
@click.option("--bid-model", default="soft", show_default=True, help="How earlier bids are read (docs/inference.md): soft or exact.")
@query_opts("How the other players bid and play: random, heuristic, pimc or strong.")
def bid_boerenbridge(players, hand, trump_card, position, bids_before, samples, bid_model, policy, variant, notation, seed, threads, worlds, as_json):  # noqa: E501
    """Expected score and P(exact) of every bid, by simulation (Boerenbridge)."""
    from analyzer.bid_query import bid_query, json_payload, render
    r = bid_query(players, hand, trump_card, position, bids_before, samples, policy.lower(),
                  variant, seed, notation, threads, worlds, bid_model)
    _query_json(json_payload(r), "boerenbridge", "recommended_bid") if as_json else _emit(render(r, position))


@bid.command("boonaken")
@click.option("--players", type=int, default=4, show_default=True)
@click.option("--hand", required=True, help="My 6 cards.")
@click.option("--open", "open_cards", required=True, help="The open table cards.")
@click.option("--preset", default="seed", show_default=True, help="seed, pagat or leimuiden.")
@click.option("--samples", type=int, default=None, help="Sampled deals (default 5000; 300 with --policy strong).")
@query_opts("How the others play: random, heuristic, pimc or strong.", variant=False)
def bid_boonaken(players, hand, open_cards, preset, samples, policy, notation, seed, threads,
                 worlds, as_json):
    """Chance of making every bid as declarer, and the highest bid worth making (Boonaken)."""
    from analyzer.boonaken_query import bid_advice, render
    r = bid_advice(players, hand, open_cards, preset, samples, policy.lower(), seed, notation,
                   threads, worlds)
    _query_json(r, "boonaken", "highest_bid") if as_json else _emit(render(r, seed))


@main.group(cls=TroefGroup)
def contract():
    """Which contract should I choose?"""


@contract.command("bonken")
@click.option("--hand", required=True, help="My 13 cards.")
@click.option("--available", default=None, help="Contracts still open, e.g. ducking,no-hearts (default: all).")
@click.option("--samples", type=int, default=None, help="Sampled deals (default 10000; 300 with --policy strong).")
@query_opts("How everyone plays: random, heuristic, pimc or strong.")
def contract_bonken(hand, available, samples, policy, variant, notation, seed, threads, worlds, as_json):
    """Expected score of every available contract for the chooser (Bonken)."""
    from analyzer.contract_query import contract_query, render
    r = contract_query(hand, available, samples, policy.lower(), variant, seed, notation, threads, worlds)
    _query_json(r, "bonken") if as_json else _emit(render(r))


@main.group(cls=TroefGroup)
def trump():
    """Which trump should I name?"""


@trump.command("klaverjassen")
@click.option("--hand", required=True, help="My 8 cards.")
@click.option("--position", type=int, required=True, help="0 = left of the dealer (names first) .. 3 = dealer.")
@click.option("--passes", type=int, default=None, help="Passes before me (= position; 4 at position 0 = forced call).")
@click.option("--samples", type=int, default=None, help="Sampled deals (default 10000; 100 with --policy dd).")
@click.option("--bid-model", default="soft", show_default=True, help="How the passes before me are read (docs/inference.md): soft or exact.")
@query_opts("heuristic, random, pimc or dd (double dummy).")
def trump_klaverjassen(hand, position, passes, samples, bid_model, policy, variant, notation, seed, threads, worlds, as_json):  # noqa: E501
    """Expected margin, P(nat) and P(pit) of naming each suit or passing (Klaverjassen)."""
    from analyzer.trump_query import render, trump_query
    r = trump_query(hand, position, passes, samples, policy.lower(), variant, seed, notation,
                    threads, worlds, bid_model)
    _query_json(r, "klaverjassen") if as_json else _emit(render(r, position, seed))


@main.group(cls=GameGroup, factory=lambda game: _play_command(game), needs="PLAY_OPTIONS")
def play():
    """Which card should I play now? (docs/play_query.md)"""


play_opts = _opts(
    click.option("--hand", required=True, help="The cards I hold now."),
    click.option("--position", type=int, required=True, help="My position, 0 = left of the dealer (the player to move)."),
    click.option("--history", default="", help='The tricks so far from their leaders, "|" between tricks, the trick in progress last.'),
    click.option("--samples", type=int, default=None, help="Sampled worlds of the hidden cards (default 2000; 300 with --policy strong, and with Boerenbridge's pimc)."),
    policy_opt(text="How everyone plays the rest: random, heuristic, pimc or strong."),
    worlds_opt, variant_opt, notation_opt, common)


def _play_out(r, as_json):
    from analyzer.infostate import render_play
    _query_json(r, r["game"]) if as_json else _emit(render_play(r))


def _play_command(game):
    from analyzer import games as registry
    entry = registry.get(game)

    @click.command(game, help=entry.PLAY_HELP)
    @_opts(*[click.option(*decl, **attrs) for decl, attrs in entry.PLAY_OPTIONS])
    @play_opts
    @guarded
    def command(**kw):
        as_json = kw.pop("as_json")
        kw["policy"] = kw["policy"].lower()
        _play_out(entry.play(**kw), as_json)
    return command


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
@variant_opt
@notation_opt
@json_opt
@guarded
def solve_klaverjassen(hands, trump, leader, playing_team, trick, show_cards, variant, notation,
                       as_json):
    """Exact margin under perfect play, make-or-not, pit, and card values."""
    from analyzer.explain import render_solve, solve_klaverjassen as solve_kj
    r = solve_kj(hands, trump, leader, playing_team, trick, show_cards, variant, notation)
    click.echo(json.dumps(r)) if as_json else _emit(render_solve(r, playing_team, show_cards))


@main.group(cls=TroefGroup)
def explain():
    """Explain the rules on a concrete trick or hand."""


@explain.command("boerenbridge")
@click.option("--trick", default="", help="Cards of the trick so far, in play order.")
@click.option("--trump", default=None, help="Trump suit (S H D C; nl S H R K; or none).")
@click.option("--trump-card", default=None, help="The turned card; its suit is trump.")
@click.option("--hand", default=None, help="My hand: show which cards I may play to --trick.")
@notation_opt
@json_opt
@guarded
def explain_boerenbridge(trick, trump, trump_card, hand, notation, as_json):
    """Who wins a trick, or which cards a hand may play to it (docs/rules.md#boerenbridge)."""
    _explain("boerenbridge", as_json, trick, trump, trump_card, hand, notation)


@explain.command("klaverjassen")
@click.option("--trump", required=True, help="Trump suit.")
@click.option("--trick", default="", help="Cards of the trick in play order.")
@click.option("--hand", default=None, help="My hand: which cards may I play to --trick?")
@variant_opt
@notation_opt
@json_opt
@guarded
def explain_klaverjassen(trump, trick, hand, variant, notation, as_json):
    """Trick winner, card points and roem; or the legal cards and the obligation."""
    _explain("klaverjassen", as_json, trump, trick, hand, variant, notation)


def _explain(game, as_json, *args):
    from analyzer import explain as ex
    payload = getattr(ex, f"explain_{game}")(*args)
    click.echo(json.dumps(payload)) if as_json else _emit(ex.render_explain(payload))


# ---------------------------------------------------------------- stats, report, tournament

@main.command("stats")
@click.argument("results", nargs=-1, required=True, type=FilePath())
@click.option("--by", default=None, help="Grouping of the Boerenbridge exact-bid table (default bid,hand_size,position).")
@click.option("--stat", "which", multiple=True, help="A statistic to show (repeatable; default all of the file's game, see README).")
@click.option("--feature", default=None, help="Hand feature for the trick distribution (default per game).")
@click.option("--csv", "as_csv", is_flag=True, help="Print one statistic (--stat NAME) as CSV.")
@click.option("--csv-dir", type=FilePath(file_okay=False), default=None, help="Write every statistic to DIR/NAME.csv.")
@json_opt
@force_opt
@guarded
def stats_cmd(results, by, which, feature, as_csv, csv_dir, as_json, force):
    """Statistics with 95% intervals from results files or dataset folders (troef
    simulate --out), read a row group at a time where the statistic allows.

    Several files are compared with each other, the first given as the baseline."""
    from analyzer.dataset_stats import results_stats, write_csv_dir
    if sum(map(bool, (as_csv, as_json, csv_dir))) > 1:
        raise click.UsageError("give one of --csv, --csv-dir and --json")
    if as_csv and len(which) != 1:
        raise click.UsageError("--csv prints one table: give one --stat NAME, or write them "
                               "all with --csv-dir DIR")
    tables, n_rows, notes = results_stats(results, by, which, feature)
    for note in notes:
        click.echo(f"troef: note: {note}", err=True)
    if as_json:
        return click.echo(json.dumps({k: json.loads(v.to_json(orient="records"))
                                      for k, v in tables.items()}))
    if csv_dir:
        for path in write_csv_dir(tables, csv_dir, force):
            click.echo(f"wrote {path}")
        return
    import pandas as pd
    for name, t in tables.items():
        if as_csv:
            click.echo(t.to_csv(index=False), nl=False)
            continue
        click.echo(f"== {name} ({n_rows:,} player-deals) ==")
        with pd.option_context("display.max_rows", 200, "display.width", 160,
                               "display.float_format", "{:.4f}".format):
            click.echo(t.to_string(index=False) if len(t) else "(no data)")
        click.echo("")


@main.command("report")
@click.argument("game", type=click.Choice(GAMES))
@click.option("--out", "out_dir", required=True, type=FilePath(file_okay=False), help="Folder for index.html, report.md, the PNGs and CSVs.")
@click.option("--deals", type=int, default=None, help="Deals to simulate (default per game, see README).")
@click.option("--from", "from_path", type=FilePath(), default=None, help="Build the report from a results file or dataset folder instead.")
@click.option("--policy", default=None, help="Policy of every seat (default heuristic): any policy simulate takes, e.g. random or pimc.")
@variant_opt
@click.option("--players", type=int, default=None, help="Boerenbridge 3-7, Boonaken 2-5 (default 4).")
@click.option("--preset", default=None, help="Boonaken: seed (default), pagat or leimuiden.")
@click.option("--seed", type=int, default=None, help="Seed (default 0).")
@threads_opt
@guarded
def report_cmd(game, out_dir, deals, from_path, policy, variant, players, preset, seed, threads):
    """Strategy report: figures (PNG), tables (CSV), index.html and report.md."""
    import os
    import time
    from reports import build_report
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise click.UsageError(f"--out {out_dir} is a file; give a folder")
    t0 = time.perf_counter()
    rep = build_report(game, out_dir, deals=deals, from_path=from_path, policy=policy,
                       variants=variant, seed=seed, players=players, preset=preset,
                       threads=threads)
    for note in rep.setup.get("notes", ()):
        click.echo(f"troef: note: {note}", err=True)
    click.echo(f"{rep.title}: {len(rep.figures)} figures, {len(rep.tables)} tables in "
               f"{time.perf_counter() - t0:.1f} s")
    click.echo(f"report written to {os.path.join(out_dir, 'index.html')} and "
               f"{os.path.join(out_dir, 'report.md')}")


@main.command("tournament")
@click.argument("game", type=click.Choice(GAMES))
@click.option("--policies", required=True, help="Comma-separated, e.g. heuristic,pimc,random or your own PATH.py:FUNCTION (docs/policies.md).")
@click.option("--deals", type=int, default=None, help="Deals (default 2000; Bonken is compared over whole games only: --games).")
@click.option("--games", type=int, default=None, help="Whole games instead (Boerenbridge, Bonken, Klaverjassen).")
@click.option("--players", type=int, default=None, help="Boerenbridge / Boonaken player count.")
@click.option("--hand-size", type=int, default=None, help="Boerenbridge deals: cards each (default 8).")
@click.option("--preset", default=None, help="Boonaken preset (default seed).")
@click.option("--out", type=FilePath(file_okay=False), default=None, help="Keep every finished block in folder DIR (and the result, at the end), so an interrupted tournament can --resume.")
@click.option("--resume", is_flag=True, help="Continue the interrupted tournament in --out DIR (same options).")
@variant_opt
@worlds_opt
@common
@guarded
def tournament_cmd(game, policies, deals, games, players, hand_size, preset, out, resume,
                   variant, worlds, seed, threads, as_json):
    """Duplicate tournament: every deal with every seating of the policies."""
    from analyzer.tournament import render, tournament
    from fastsim.common import check_seed
    check_seed(seed)
    if deals is not None and games is not None:
        raise click.UsageError("give --deals or --games, not both")
    if threads is not None and threads < 1:
        raise click.UsageError(f"--threads must be at least 1, got {threads}")
    try:
        r = tournament(game, policies, games if games is not None else deals,
                       whole_games=games is not None, seed=seed, variants=variant,
                       players=players, hand_size=hand_size, preset=preset, worlds=worlds,
                       threads=threads, out=out, resume=resume)
    except KeyboardInterrupt as e:     # click would turn it into Abort and drop the note
        where = getattr(e, "troef_tournament", None)
        click.echo("troef: interrupted" + (f": {where}; run the same command with --resume "
                                           "to continue" if where else ""), err=True)
        raise click.exceptions.Exit(143 if type(e).__name__ == "Terminated" else 130) from None
    click.echo(json.dumps(r)) if as_json else _emit(render(r))


if __name__ == "__main__":
    main()
