"""Start-up cost of numba that troef does not need.

The first kernel call of a process makes numba load its implementations, and with them
``numba.np.arraymath``, which at import probes for BLAS by importing ``scipy.linalg``
(about 0.2 s, whenever scipy is installed -- the OpenSpiel extra brings it). No troef
kernel uses BLAS; the probe's only use is a faster inner product in ``np.cov``-style
functions. :func:`skip_blas_probe` imports ``numba.np.arraymath`` once with that one import
answered "not installed", then puts everything back, so the probe is skipped and later
code (scipy itself, a user's own kernel calling ``np.dot``, which checks for BLAS again
when compiled) sees the normal import system.
"""
import sys

_PROBE = "scipy.linalg.cython_blas"


def skip_blas_probe():
    if "numba.np.arraymath" in sys.modules or _PROBE in sys.modules:
        return
    sys.modules[_PROBE] = None          # ``import`` then raises ImportError at once
    try:
        import numba.np.arraymath      # noqa: F401
    finally:
        if sys.modules.get(_PROBE, 0) is None:
            del sys.modules[_PROBE]
