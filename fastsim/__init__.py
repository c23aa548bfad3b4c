"""troef's compiled simulation engine (numba kernels; numpy in, numpy out).

Importing the package first installs the code-keyed kernel cache (:mod:`fastsim._cache`),
before any kernel module is compiled or loaded, and skips numba's BLAS probe
(:mod:`fastsim._startup`, about 0.2 s of every command's start when scipy is installed).
"""
from ._cache import cache_info, cache_key, install as _install_cache, source_fingerprint
from ._startup import skip_blas_probe as _skip_blas_probe

_install_cache()
_skip_blas_probe()

__all__ = ["cache_info", "cache_key", "source_fingerprint"]
