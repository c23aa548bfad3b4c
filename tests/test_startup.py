"""numba's BLAS probe is skipped at start-up (fastsim._startup), without breaking BLAS."""
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(code):
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_a_kernel_call_does_not_import_scipy_linalg():
    pytest.importorskip("scipy.linalg")
    out = _run("""
        import sys
        import fastsim
        from fastsim.rng import run_key_nb
        run_key_nb(1)                      # a cached troef kernel
        from numba import njit

        @njit
        def f(x):
            return x + 1
        assert f(1) == 2
        print("scipy.linalg" in sys.modules, "scipy.linalg.cython_blas" in sys.modules)
    """)
    assert out == "False False"


def test_blas_still_works_in_a_later_kernel():
    pytest.importorskip("scipy.linalg")
    out = _run("""
        import numpy as np
        import fastsim  # noqa: F401
        from numba import njit

        @njit
        def d(a, b):
            return np.dot(a, b)
        a = np.arange(6.0).reshape(2, 3)
        print(float(d(a, a.T).sum()))
    """)
    assert float(out) == float((np.arange(6.0).reshape(2, 3) @ np.arange(6.0).reshape(2, 3).T).sum())

