"""numba, as troef's kernel modules import it.

Every kernel module of this package takes numba's names from here (``from ._jit import
njit, prange``), never from numba directly (``tests/test_aot.py`` checks), so that before
its first kernel is defined the code-keyed kernel cache is installed
(:mod:`fastsim._cache`) and numba's BLAS probe is skipped (:mod:`fastsim._startup`).

Importing :mod:`fastsim` itself does not import numba: a command whose kernels come
ahead-of-time compiled (:mod:`fastsim.aot`) starts without it. Code that wants to know
when numba comes into play (the front end's "compiling" note) registers a callback with
:func:`fastsim.on_jit`; it runs once this module is imported.
"""
from ._cache import install as _install_cache
from ._startup import skip_blas_probe as _skip_blas_probe

_install_cache()
_skip_blas_probe()

import numba  # noqa: E402
from numba import njit, prange, types  # noqa: E402,F401
from numba.extending import intrinsic  # noqa: E402,F401

from . import _hooks  # noqa: E402

_hooks.run()
