"""Fingerprints of every game's results, for the behaviour-unchanged check.

``fingerprints()`` runs a fixed set of small simulations of all four games (single deals
and whole games/matches, each policy, several variants) and hashes their compact arrays,
their tidy frames, their run metadata and their play records. ``tests/fingerprints.json``
holds the values the engines gave when it was written; ``test_fingerprint.py`` compares.
Regenerate (only after a deliberate change of results) with
``python tests/fingerprint.py --write``.
"""
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
STORE = HERE / "fingerprints.json"


def _h(obj):
    return hashlib.sha256(obj).hexdigest()[:16]


def hash_arrays(d):
    if d is None:
        return None
    out = hashlib.sha256()
    for k in sorted(d):
        a = np.ascontiguousarray(d[k])
        out.update(k.encode() + str(a.dtype).encode() + str(a.shape).encode() + a.tobytes())
    return out.hexdigest()[:16]


def hash_frame(df):
    out = hashlib.sha256()
    for c in df.columns:
        s = df[c]
        out.update(str(c).encode() + str(s.dtype).encode())
        if str(s.dtype) == "category":
            out.update(json.dumps([str(x) for x in s.cat.categories]).encode())
            out.update(np.ascontiguousarray(s.cat.codes.to_numpy()).tobytes())
        elif isinstance(s.dtype, np.dtype) and s.dtype != object:
            out.update(np.ascontiguousarray(s.to_numpy()).tobytes())
        else:   # nullable / object columns: hash the values, not the object pointers
            import pandas as pd
            out.update(pd.util.hash_pandas_object(s, index=False).to_numpy().tobytes())
    return out.hexdigest()[:16]


def _results():
    """(name, result) pairs of the fixed cases."""
    from fastsim import boerenbridge as bb, bonken as bk, boonaken as bo, klaverjassen as kj
    cases = []
    for pol in ("heuristic", "random", "pimc"):
        r = bb.build_rules(players=4, hand_size=8)
        cases.append((f"bb-deals-{pol}", bb.simulate(r, 300 if pol != "pimc" else 40, seed=7,
                                                     policies=bb.parse_seat_policies(4, pol),
                                                     record=True, worlds=4)))
    r = bb.build_rules(players=4, hand_size=6, variants=("scoring=dutch",))
    cases.append(("bb-deals-strong", bb.simulate(r, 4, seed=7, record=True,
                                                 policies=bb.parse_seat_policies(4, "strong", ("1=pimc",)))))
    r = bb.build_rules(players=5, schedule="short", variants=("scoring=dutch", "bauer_bonus"))
    cases.append(("bb-games-5-dutch", bb.simulate(r, 30, seed=3, record=True)))
    r = bb.build_rules(players=3, hand_size=1, variants=("blind_one_card",), first_dealer=1)
    cases.append(("bb-blind", bb.simulate(r, 200, seed=11, game_start=5)))
    r = bb.build_rules(players=4, schedule="standard")
    cases.append(("bb-games-mixed", bb.simulate(r, 8, seed=2, policies=bb.parse_seat_policies(
        4, "heuristic", ("1=random", "2=pimc")), worlds=3)))
    for pol in ("heuristic", "random", "pimc"):
        rules = bk.build_rules()
        cases.append((f"bk-games-{pol}", bk.simulate(rules, 6 if pol != "pimc" else 2, seed=5,
                                                     policies=bk.parse_seat_policies(pol),
                                                     record=True, worlds=3)))
    rules = bk.build_rules(("hearts_lead=after_broken", "fixed_order"), first_dealer=2)
    cases.append(("bk-contract-domino", bk.simulate(rules, 50, seed=1, contract="domino",
                                                     record=True)))
    cases.append(("bk-contract-nohearts", bk.simulate(rules, 50, seed=1, contract="no-hearts",
                                                       game_start=9)))
    for pol in ("heuristic", "random", "pimc"):
        rules = kj.build_rules()
        cases.append((f"kj-deals-{pol}", kj.simulate(rules, 200 if pol != "pimc" else 30, seed=4,
                                                     policies=kj.parse_seat_policies(pol),
                                                     record=True, worlds=3)))
    rules = kj.build_rules(("amsterdam", "undertrump=forced", "four_of_a_kind=all_100"),
                           first_dealer=3)
    cases.append(("kj-boompje", kj.simulate(rules, 3, seed=9, boompje=True, record=True)))
    cases.append(("kj-fixed-trump", kj.simulate(rules, 100, seed=9, trump=2, playing_team=1,
                                                game_start=17)))
    for preset in ("seed", "pagat", "leimuiden"):
        for players in (2, 4, 5):
            rules = bo.build_rules(players, preset)
            cases.append((f"bo-{preset}-{players}", bo.simulate(rules, 150, seed=6, record=True)))
    # long enough to hold misère deals (the defenders' play against them)
    cases.append(("bo-seed-5-long", bo.simulate(bo.build_rules(5, "seed"), 3000, seed=12)))
    rules = bo.build_rules(4, "seed", first_dealer=1)
    cases.append(("bo-pimc", bo.simulate(rules, 20, seed=6, policies=bo.parse_seat_policies(
        4, "pimc"), worlds=3, start=40)))
    for preset in ("seed", "leimuiden"):
        rules = bo.build_rules(3, preset)
        cases.append((f"bo-matches-{preset}", bo.simulate_matches(rules, 12, seed=8)))
    return cases


def fingerprints():
    from analyzer import frames, records, storage
    out = {}
    for name, res in _results():
        f = {"deals": hash_arrays(getattr(res, "deals", None)),
             "games": hash_arrays(getattr(res, "games", None) or getattr(res, "matches", None)),
             "play": hash_arrays(getattr(res, "play", None))}
        if hasattr(res, "deals"):
            f["tidy"] = hash_frame(frames.tidy(res))
            f["meta"] = _h(json.dumps(storage.run_metadata(res), sort_keys=True).encode())
            if getattr(res, "play", None) is not None:
                fn = {"bb": records.deal_records, "bk": records.bonken_records,
                      "kj": records.klaverjassen_records, "bo": records.boonaken_records}[name[:2]]
                f["records"] = _h(json.dumps(list(fn(res)), sort_keys=True).encode())
        out[name] = f
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    fp = fingerprints()
    if "--write" in sys.argv:
        STORE.write_text(json.dumps(fp, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(fp)} fingerprints to {STORE}")
    else:
        print(json.dumps(fp, indent=1, sort_keys=True))
