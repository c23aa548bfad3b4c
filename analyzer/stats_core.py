"""Interval helpers shared by the statistics and the queries (numpy only)."""
import numpy as np

Z95 = 1.959963984540054


def wilson(successes, n, z=Z95):
    """95% Wilson score interval for a proportion; arrays or scalars. n = 0 → (nan, nan)."""
    successes = np.asarray(successes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = successes / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def mean_ci(mean, sd, n, z=Z95):
    """Normal-approximation 95% interval of a mean from its sample sd and size."""
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.asarray(sd, dtype=np.float64) / np.sqrt(n)
    return mean - z * se, mean + z * se, se


def check_query(policy, known, samples, seed, threads):
    """The options every query shares: the others' policy, the number of samples, the
    seed and the threads; returns the seed as the engines take it."""
    import numpy as np
    from fastsim.common import RulesError
    from fastsim.common import check_seed
    if policy not in known:
        raise RulesError(f"unknown policy {policy!r}; known: {', '.join(known)}")
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 1:
        raise RulesError(f"--samples must be a positive integer, got {samples!r}")
    seed_u = check_seed(seed)
    if threads is not None:
        from fastsim.common import set_threads
        set_threads(threads)
    return seed_u


# a query whose other players follow the strong policy plays every sample with a search at
# every decision (2–3 ms of one core each in Boerenbridge, README): its default sample count
# is this, not the usual one. A game may name more such policies (``searching``: Boerenbridge's
# QUERY_SEARCHING, whose pimc samples 512 worlds a decision, about 1 ms)
STRONG_QUERY_SAMPLES = 300


def default_samples(samples, policy, usual, searching=("strong",)):
    """``--samples`` when given, else the query's usual default, or
    :data:`STRONG_QUERY_SAMPLES` when the others play one of ``searching``."""
    if samples is not None:
        return samples
    return STRONG_QUERY_SAMPLES if policy in searching else usual


def check_worlds(worlds):
    """pimc's sampled deals per decision: 1..4096 (None: the default 16)."""
    from fastsim.common import PIMC_WORLDS, RulesError
    if worlds is None:
        return PIMC_WORLDS
    if isinstance(worlds, bool) or not isinstance(worlds, (int, np.integer)) or not 1 <= worlds <= 4096:
        raise RulesError(f"--worlds must be 1..4096, got {worlds!r}")
    return int(worlds)
