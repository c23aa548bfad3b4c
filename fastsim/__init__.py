"""troef's compiled simulation engine (numba kernels; numpy in, numpy out).

Importing the package does not import numba. The kernel modules import it through
:mod:`fastsim._jit`, which first installs the code-keyed kernel cache
(:mod:`fastsim._cache`) and skips numba's BLAS probe (:mod:`fastsim._startup`, about 0.2 s
of every command's start when scipy is installed). Kernels built ahead of time
(:mod:`fastsim.aot`) load without numba at all.
"""
from ._cache import cache_key, source_fingerprint
from ._hooks import on_jit


def cache_info():
    """Where this process caches the kernels (:func:`fastsim._cache.cache_info`); imports
    numba and installs the cache if no kernel module has done so yet."""
    from . import _jit  # noqa: F401
    from ._cache import cache_info as info
    return info()


__all__ = ["cache_info", "cache_key", "on_jit", "source_fingerprint"]
