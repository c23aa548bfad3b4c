"""Build hook (the project's metadata is in pyproject.toml).

A plain ``pip install .`` (or a wheel built from this tree) also builds the kernels that
troef runs ahead of time (``fastsim/aot.py``: Boerenbridge's heuristic run and bid query,
the play queries, the summary sums) into the package, under ``fastsim/_aot/aot-<key>``, so
that the first ``troef simulate`` or ``troef bid`` of a fresh install answers in a fraction
of a second instead of compiling for several seconds. The key names the code and the numpy
and Python versions it was built for; an installed package whose numpy differs from the one
it was built with does not load them and compiles as before.

Building them takes a C compiler and about a minute. Without a compiler, or with
``TROEF_AOT_BUILD=0``, the install goes on without them. An editable install
(``pip install -e .``, as ``make setup`` does) skips this step: ``make setup`` builds them
into the kernel cache instead (``python -m analyzer.warm``).
"""
import os
import subprocess
import sys
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution


class BuildWithKernels(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        if os.environ.get("TROEF_AOT_BUILD", "1").strip().lower() in ("0", "no", "off", "false"):
            return
        target = os.path.abspath(os.path.join(self.build_lib, "fastsim", "_aot"))
        with tempfile.TemporaryDirectory(prefix="troef-build-") as scratch:
            # the copied sources are built (same fingerprint as the installed ones); numba's
            # kernel cache goes to a scratch folder, not into the wheel or the user's home
            env = dict(os.environ, NUMBA_CACHE_DIR=scratch, XDG_CACHE_HOME=scratch,
                       PYTHONDONTWRITEBYTECODE="1",
                       PYTHONPATH=os.pathsep.join(p for p in (os.path.abspath(self.build_lib),
                                                              os.environ.get("PYTHONPATH"))
                                                  if p))
            proc = subprocess.run([sys.executable, "-m", "fastsim.aot", "--into", target],
                                  cwd=scratch, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
        print(proc.stdout, end="")
        if proc.returncode != 0:
            print("troef: installing without the ahead-of-time kernels; the first run of a "
                  "command compiles them (seconds)", file=sys.stderr)


class PlatformDistribution(Distribution):
    """The wheel holds compiled modules: tag it for this platform and Python."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithKernels}, distclass=PlatformDistribution)
