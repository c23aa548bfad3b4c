"""Reproducible random sweeps for the differential tests (tests/test_*_diff.py).

A sweep draws, from one seeded random.Random, the settings of a small run (policies, a
run seed, a first game index, and whatever else the game varies), runs the compiled
engine and the reference on it, and repeats until enough deals are checked.
"""
import random


def batches(rng_seed, total, size):
    """The sweep's random.Random, once for each run of `size` deals until `total` deals
    are checked (the last run may go past `total`)."""
    rnd = random.Random(rng_seed)
    for _ in range(0, total, size):
        yield rnd


def random_names(rnd, n):
    """A policy name per seat: "random" or "heuristic"."""
    return [rnd.choice(["random", "heuristic"]) for _ in range(n)]


def random_run(rnd):
    """(run seed, index of the run's first game or deal)."""
    return rnd.getrandbits(64), rnd.randrange(10**9)
