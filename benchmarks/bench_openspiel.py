"""troef pimc against OpenSpiel's IS-MCTS in OpenSpiel's oh_hell (needs the openspiel extra).

    python benchmarks/bench_openspiel.py [--deals 200] [--sims 100,1000] [--resampler fair]
                                         [--policy pimc|strong|heuristic]
                                         [--bid-policy P] [--card-policy P] [--json-out F]
                                         [--record F] [--out DIR [--resume]]

Oh Hell with 4 players and 8 cards, dutch scoring (``oh_hell`` with off_bid_penalty and 2
points a trick), the duplicate match of :func:`analyzer.openspiel_bridge.tournament`: the
same troef deals for both seatings (PIMC in seats 0 and 2, IS-MCTS in 1 and 3, and the
swap). For every IS-MCTS size it prints the equivalent ``troef tournament`` command, the
paired difference troef − IS-MCTS per deal with its 95% interval, each side's exact-bid rate
and milliseconds per decision (bids and cards with more than one legal choice), and the
machine's load. ``--resampler fair`` (default) runs OpenSpiel's Python IS-MCTS with the
bridge's fair resampler; ``openspiel-default`` runs the C++ ``pyspiel.ISMCTSBot`` with
OpenSpiel's own resampler, which knows the never-dealt cards.

``--bid-policy`` and ``--card-policy`` (each a troef policy or ``ismcts``, the IS-MCTS of
the run; both default to ``--policy``) split troef's side: its bids by one, its cards by
the other (the bridge's split entrant ``BID+CARD``, e.g. ``strong+openspiel:ismcts:1000``),
to see whether a policy gains or loses in the bidding or in the play. Every side's row also
gives its mean bid and mean tricks, the share of bids missed by over- and by under-tricks,
and the points per deal those misses gave up against making the bid (10 + 2·bid +
2·|tricks − bid| each). ``--json-out F`` writes every run's result (with the per-deal
scores) as JSON lines to F. ``--record F`` appends every deal played (each seating) as a
JSON line to F: the dealt hands, turned card, dealer, the policy of each seat and the whole
OpenSpiel action history (:func:`analyzer.openspiel_bridge.deal_record`), e.g. to fit a
model of IS-MCTS's decisions (tools/cardmodel.py ismcts). ``--out DIR`` keeps every
finished block of 10 deals of each match in ``DIR/sims-N`` (the tournament's ``--out``), so
that a run stopped by Ctrl-C, a kill or a crash continues with ``--resume`` (the same
options) where it stopped, to the same result: a match finished before is read back and
printed, and not written again to ``--json-out`` or ``--record``; in the match that was
interrupted, ``--record`` gets the deals saved earlier again, and ``wall_s`` (and the wall
time printed) counts this session only, while ms per decision counts both.
"""
import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--sims", default="100", help="comma-separated IS-MCTS simulations")
    ap.add_argument("--resampler", default="fair", choices=("fair", "openspiel-default"))
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hand-size", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=None, help="pimc worlds (default 16)")
    ap.add_argument("--policy", default="pimc", help="troef's policy (default pimc)")
    ap.add_argument("--bid-policy", default=None,
                    help="troef side's bids: a troef policy or ismcts (default --policy)")
    ap.add_argument("--card-policy", default=None,
                    help="troef side's cards: a troef policy or ismcts (default --policy)")
    ap.add_argument("--json-out", default=None, help="append each result as a JSON line")
    ap.add_argument("--record", default=None,
                    help="append every deal played (hands, seats, history) as a JSON line")
    ap.add_argument("--out", default=None,
                    help="keep every finished block in DIR/sims-N, for --resume")
    ap.add_argument("--resume", action="store_true",
                    help="continue the interrupted run kept in --out DIR (same options)")
    a = ap.parse_args(argv)
    if a.resume and not a.out:
        ap.error("--resume needs --out DIR")
    from analyzer.openspiel_bridge import tournament
    from fastsim.boerenbridge_schema import PIMC_BID_FACTOR, PIMC_CARD_FACTOR, RulesError
    print(f"$ python benchmarks/bench_openspiel.py {' '.join(argv or sys.argv[1:])}".rstrip())
    print(f"cores {os.cpu_count()}, load average at start "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for sims in [int(x) for x in a.sims.split(",")]:
        os_name = f"openspiel:ismcts:{sims}" + ("" if a.resampler == "fair"
                                                 else ":openspiel-default")
        bid_p, card_p = (x or a.policy for x in (a.bid_policy, a.card_policy))
        bid_p, card_p = (os_name if x == "ismcts" else x for x in (bid_p, card_p))
        mine_name = bid_p if bid_p == card_p else f"{bid_p}+{card_p}"
        cmd = (f"troef tournament boerenbridge --players {a.players} --hand-size {a.hand_size} "
               f"--variant scoring=dutch --policies {mine_name},{os_name} --deals {a.deals} "
               f"--seed {a.seed}" + (f" --worlds {a.worlds}" if a.worlds else ""))
        folder = os.path.join(a.out, f"sims-{sims}") if a.out else None
        done_before = folder is not None and os.path.exists(os.path.join(folder, "result.json"))
        t = time.perf_counter()
        rec_f = open(a.record, "a") if a.record and not done_before else None

        def record(rec):
            rec_f.write(json.dumps({"sims": sims, **rec}) + "\n")
            rec_f.flush()
        try:
            r = tournament("boerenbridge", [mine_name, os_name], n=a.deals, seed=a.seed,
                           variants=["scoring=dutch"], players=a.players,
                           hand_size=a.hand_size, worlds=a.worlds, threads=1,
                           record=record if rec_f else None,
                           out=folder, resume=a.resume)
        except KeyboardInterrupt:
            sys.exit(f"bench_openspiel: interrupted" + (
                f"; the finished blocks are kept in {a.out}: run the same command with "
                "--resume to continue" if a.out else ""))
        except (RulesError, ValueError) as e:
            sys.exit(f"bench_openspiel: {e}")
        finally:
            if rec_f:
                rec_f.close()
        wall = time.perf_counter() - t
        if a.json_out and not done_before:      # a match finished before is not written again
            with open(a.json_out, "a") as f:
                f.write(json.dumps({"argv": list(argv or sys.argv[1:]), "sims": sims,
                                    "wall_s": wall, **r}) + "\n")
        d = r["pairs"][0]
        mine, ism = r["policies"]
        pimc_note = (f": pimc samples {PIMC_CARD_FACTOR * r['worlds']} per card, "
                     f"{PIMC_BID_FACTOR * r['worlds']} per bid"
                     if "pimc" in (bid_p, card_p) and r["worlds"] else "")
        print(f"\n$ {cmd}")
        print(f"{r['openspiel_game']}: {r['units']} deals x {r['distinct_seatings']} seatings, "
              f"troef {a.policy}" + (f" (--worlds {r['worlds']}{pimc_note})" if r['worlds'] else "")
              + ("" if mine_name == a.policy else f" (bids {bid_p}, cards {card_p})")
              + f", IS-MCTS {sims} simulations (uct_c {r['uct_c']:g}, "
              f"resampler {ism['resampler']}); wall {wall:.0f} s, load average now "
              f"{os.getloadavg()[0]:.2f}")
        print(f"troef {mine_name} - IS-MCTS per deal: {d['difference']:+.2f} "
              f"[{d['ci'][0]:+.2f}, {d['ci'][1]:+.2f}]"
              + ("" if d["significant"] else "  (not significant)"))
        for p in (mine, ism):
            print(f"  {p['policy']:<28} mean {p['mean_score']:6.2f} "
                  f"[{p['ci'][0]:.2f}, {p['ci'][1]:.2f}]   exact bids {p['exact_rate']:.3f}   "
                  f"{p['ms_per_decision']:.2f} ms/decision ({p['decisions']:,} decisions)")
            print(f"  {'':<28} mean bid {p['mean_bid']:.3f}, mean tricks "
                  f"{p['mean_tricks']:.3f}; missed over {p['over_rate']:.3f} "
                  f"(gave up {p['over_loss']:.2f}/deal), under {p['under_rate']:.3f} "
                  f"(gave up {p['under_loss']:.2f}/deal)")


if __name__ == "__main__":
    main()
