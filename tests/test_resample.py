"""The systematic resampler every strong policy uses to turn weighted candidate worlds into
equally weighted ones (fastsim.pimc_nb.resample_nb)."""
import numpy as np

from fastsim.pimc_nb import resample_nb


def _counts(logw, k, key=7):
    out = np.empty(k, dtype=np.int64)
    ess = resample_nb(np.uint64(key), np.asarray(logw, dtype=np.float64), len(logw), k, out)
    return np.bincount(out, minlength=len(logw)), ess, out


def test_counts_follow_the_weights_within_one():
    rng = np.random.default_rng(3)
    for trial in range(50):
        m = int(rng.integers(1, 40))
        w = rng.random(m) * (rng.random(m) < 0.7)
        if w.sum() == 0:
            w[0] = 1.0
        k = int(rng.integers(1, 200))
        with np.errstate(divide="ignore"):
            counts, ess, out = _counts(np.log(w), k, key=trial)
        expected = k * w / w.sum()
        assert np.all(np.abs(counts - expected) < 1.0 + 1e-9)
        assert np.all(counts[w == 0] == 0)
        assert np.all(np.diff(out) >= 0)
        assert abs(ess - w.sum() ** 2 / (w ** 2).sum()) < 1e-9 * max(1.0, ess)


def test_shift_of_log_weights_changes_nothing():
    lw = np.array([-1000.0, -1001.0, -999.5, -np.inf])
    a, ess_a, _ = _counts(lw, 64)
    b, ess_b, _ = _counts(lw + 1000.0, 64)
    assert np.array_equal(a, b) and abs(ess_a - ess_b) < 1e-12
    assert a[3] == 0 and a.sum() == 64


def test_all_impossible_spreads_evenly_and_reports_zero():
    counts, ess, out = _counts(np.full(5, -np.inf), 10)
    assert ess == 0.0
    assert np.array_equal(counts, np.full(5, 2))


def test_key_decides_the_offset_only():
    lw = np.log(np.array([0.5, 0.25, 0.25]))
    c1, _, _ = _counts(lw, 3, key=1)
    c2, _, _ = _counts(lw, 3, key=2)
    # 3 draws of weights 1.5/0.75/0.75: the first is drawn once or twice, never 0 or 3
    for c in (c1, c2):
        assert 1 <= c[0] <= 2 and c.sum() == 3
