"""troef's compiled simulation engine (numba kernels; numpy in, numpy out).

Importing the package first installs the code-keyed kernel cache (:mod:`fastsim._cache`),
before any kernel module is compiled or loaded.
"""
from ._cache import cache_info, cache_key, install as _install_cache, source_fingerprint

_install_cache()

__all__ = ["cache_info", "cache_key", "source_fingerprint"]
