"""Kernels compiled ahead of time, for the queries where start-up is the wait.

A warm ``troef play`` spends most of its time starting numba (importing it, about 0.35 s
here, and loading the cached kernels, about 0.2 s), not computing (20-130 ms); so do a
small ``troef simulate boerenbridge`` and ``troef bid boerenbridge``. So the kernels each
play query calls on its default path, and Boerenbridge's heuristic run, bid query and
summary sums (table :data:`MODULES`), are also built ahead of time, with numba's
``pycc``, into one small extension module per kernel module that needs numpy but not
numba: ``make setup`` (through ``python -m analyzer.warm``) builds them, or
``python -m fastsim.aot``.

:func:`kernels` gives a game's kernel namespace: each name is the ahead-of-time function
when the module is built for exactly this code, else the numba kernel of the JIT module
(imported on first use). The functions are the same Python source compiled without
``parallel``: they run on one thread, and give bit-identical results (``tests/test_aot.py``
compares them on random positions), because every world is keyed by its own index.

Freshness: the module is looked up in a folder named by :func:`aot_key` -- the fingerprint
of every ``fastsim/*.py`` file (:func:`fastsim.source_fingerprint`) with the numpy and
Python versions -- so a module built from other code is never loaded. The folder is the
first of ``$NUMBA_CACHE_DIR/troef``, ``$XDG_CACHE_HOME/troef`` (``~/.cache/troef``) and
``fastsim/__pycache__`` that holds it (building: that is writable), as for the kernel cache
(:mod:`fastsim._cache`), and last the package's own ``fastsim/_aot`` (a plain ``pip install``
builds the modules into the wheel there: ``setup.py``; never written at run time). ``TROEF_AOT=0`` turns the modules off (the tests run the JIT
kernels, and compare the two in ``tests/test_aot.py``).

Building needs a C compiler; without one the queries run the JIT kernels as before.
"""
import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import sys

from . import boerenbridge_schema, bonken_schema, klaverjassen_schema
from ._cache import _MARKER, _prune, parent_folders, source_fingerprint, usable_folder

ENV = "TROEF_AOT"
PREFIX = "_troef_aot_"

_I = "i8"
_A = "i8[::1]"
_B1 = "i1[::1]"
_B2 = "i1[:, ::1]"
_H2 = "i2[:, ::1]"


def _rv(schema):
    """The type of a game's variant tuple ``rv`` (its schema's ``Rules.flags``)."""
    return f"UniTuple(i8, {len(schema.FLAGS)})"


_RV_BB, _RV_KJ, _RV_BO = (_rv(s) for s in (boerenbridge_schema, klaverjassen_schema,
                                          bonken_schema))
# name -> (JIT module, {function: signature}): the functions each play query calls from
# Python on its default path, with the types the Python layer passes
# (analyzer/<game>_play.py); the query's other kernels (other policies, Domino) stay numba's.
# Also Boerenbridge's simulation and bid query with the heuristic everywhere
# (fastsim/boerenbridge.py; ``none``: no search policy) and the summary's sums.
MODULES = {
    "boerenbridge": ("fastsim.boerenbridge_nb", {
        "games_chunk_nb": f"void(u8, i8, i8, {_A}, b1[::1], i8, {_B1}, {_RV_BB}, i8, i8, i8, i8, "
                          f"{_A}, {_A}, i2[::1], {_B1}, {_B1}, {_B1}, {_B1}, {_B1}, i8[:, ::1], {_B2}, "
                          f"{_B2}, {_H2}, i4[:, ::1], {_H2}, {_H2}, b1[:, ::1], b1, i1[:, :, ::1], "
                          f"{_B2}, {_B2}, none)",
        "bid_weights_nb": f"void(u8, i8, i8, i8, i8, i8, {_A}, {_A}, i8, {_RV_BB}, f8, i8, f8[::1], "
                          "f8[::1])",
        "bid_query_nb": f"void(u8, i8, i8, i8, i8, i8, i8, i8, {_A}, {_A}, i8, {_RV_BB}, i8, {_A}, "
                        f"i8, {_B2}, {_H2}, none)",
    }),
    "features": ("fastsim.features_nb", {
        "position_sums_nb": f"i8[:, ::1]({_B1}, {_B2}, {_B2}, {_H2})",
        "seat_sums_nb": f"Tuple((i8[::1], i8[::1], i8[:, ::1]))(i4[:, ::1], {_H2}, b1[:, ::1])",
    }),
    "boerenbridge_play": ("fastsim.boerenbridge_play_nb", {
        "sample_worlds_nb": f"void(u8, {', '.join([_I] * 8)}, {_A}, {_A}, i8, {_A}, b1, f8, "
                            f"{_RV_BB}, b1, i8, i8, i8[:, ::1], f8[::1], f8[::1])",
        "play_query_nb": f"void(u8, i8, i8, i8, i8, {_A}, i8, i8, i8, {_A}, {_A}, i8, i8, {_A}, "
                         f"i8, {_A}, {_A}, b1, f8, i8, {_RV_BB}, b1, i8, {_A}, i8, f8[::1], "
                         "i1[:, ::1], i2[:, ::1])",
        "decide_heuristic_nb": f"i8(i8, i8, i8, i8, i8, {_A}, {_A}, i8, {_A}, i8)",
        "follow_nb": "i8(i8, i8, i8)",
        "forbidden_bid_nb": f"i8(i8, i8, {_RV_BB})",
        "is_blind_nb": f"b1(i8, {_RV_BB})",
    }),
    "klaverjassen_play": ("fastsim.klaverjassen_play_nb", {
        "play_query_nb": f"void(u8, i8, i8, {_A}, i8, {_A}, i8, i8, i8, {_A}, i8, i8, {_A}, {_A}, "
                         f"{_A}, {_A}, {_A}, i8, {_RV_KJ}, i8, i8, i8, i8, f8[::1], i2[:, ::1], "
                         f"i2[:, ::1], b1[:, ::1], {_A}, {_A}, i8, f8)",
        "decide_heuristic_nb": f"i8(i8, i8, i8, {_A}, i8, i8, {_A}, i8, i8, {_A}, {_A}, {_RV_KJ})",
        "legal_here_nb": f"i8(i8, {_A}, i8, i8, i8, {_A}, i8, {_RV_KJ})",
        "revealed_nb": f"i8(i8, i8, i8, i8, b1, {_RV_KJ})",
        "trick_state_nb": f"UniTuple(i8, 6)({_A}, i8, i8, i8)",
        "roem_nb": f"i8(i8, i8, {_RV_KJ})",
    }),
    "bonken_play": ("fastsim.bonken_play_nb", {
        "play_query_nb": f"void(u8, i8, i8, i8, {_A}, {_RV_BO}, i8, i8, {_A}, i8, i8, b1, i8, {_A}, "
                         f"{_A}, "
                         f"{_A}, i8, i8, i8, i8, i8, f8[::1], i2[:, ::1], i8, i8)",
        "decide_heuristic_nb": f"i8(i8, i8, i8, i8, {_A}, i8, i8)",
        "legal_bonken_nb": f"i8(i8, i8, i8, b1, {_RV_BO}, b1)",
    }),
    "boonaken_play": ("fastsim.boonaken_play_nb", {
        "play_query_nb": f"void(u8, i8, i8, i8, i8, {_A}, i8, b1, i8, i8, {_A}, i8, i8, {_A}, i8, "
                         f"i8, {_A}, {_A}, i8, i8, i8, i8, {_A}, {_A}, {_A}, {_A}, {_A}, i8, i8, i8, "
                         f"i8, i8, i8, b1[::1], {_A}, {_A}, {_A}, i8, i8, i8, i8, i8, i8, i8, f8[::1], "
                         "b1[:, ::1], i2[:, ::1], i1[:, ::1], i8, i8, i8[:, ::1], i8, f8, f8)",
        "decide_heuristic_nb": f"i8(i8, i8, i8, i8, {_A}, i8, i8, i8, b1[::1], i8, i8)",
        "legal_here_nb": f"i8(i8, {_A}, i8, i8, i8)",
        "revealed_nb": "i8(i8, i8, i8, i8, i8)",
        "trick_result_nb": f"UniTuple(i8, 2)({_A}, i8, i8)",
        "trick_state_nb": f"UniTuple(i8, 5)({_A}, i8, i8)",
    }),
}

_key = None
_loaded = {}


def aot_key():
    """16 hex digits: the fastsim sources, the numpy and the Python versions."""
    global _key
    if _key is None:
        import numpy
        parts = [source_fingerprint(), numpy.__version__, sys.version]
        _key = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]
    return _key


def enabled():
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "no", "off", "false")


# where an installed package carries the modules it was built with (``pip install .``
# builds them into the wheel: setup.py); only looked up, never written at run time
PACKAGED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_aot")


def _folders():
    """The keyed folders the modules are looked up in, in order: the cache folders
    (:func:`fastsim._cache.parent_folders`), then the package's own :data:`PACKAGED`."""
    return [os.path.join(parent, f"aot-{aot_key()}")
            for parent in [*parent_folders(os.environ.get("NUMBA_CACHE_DIR", "")), PACKAGED]]


def _filename(name):
    return PREFIX + name + importlib.machinery.EXTENSION_SUFFIXES[0]


def module_path(name):
    """Where the built module of ``name`` is, or None."""
    for folder in _folders():
        path = os.path.join(folder, _filename(name))
        if os.path.isfile(path):
            try:
                os.utime(os.path.join(folder, _MARKER))   # in use: not pruned
            except OSError:
                pass
            return path
    return None


def load(name):
    """The ahead-of-time module of ``name`` built for this code, or None (not built,
    or turned off with ``TROEF_AOT=0``)."""
    if not enabled():
        return None
    if name not in _loaded:
        mod = None
        path = module_path(name)
        if path is not None:
            spec = importlib.util.spec_from_file_location(PREFIX + name, path)
            try:
                mod = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(mod)
            except ImportError:            # e.g. built against another numpy ABI
                mod = None
        _loaded[name] = mod
    return _loaded[name]


class Kernels:
    """A kernel namespace: ``k.f`` is the ahead-of-time ``f`` when one is loaded, else
    the JIT module's ``f`` (looked up on every access, so a test may patch the JIT module)."""

    def __init__(self, name):
        self._name = name
        self._jit_name = MODULES[name][0]

    @property
    def jit(self):
        """The JIT module itself (numba's parallel kernels)."""
        return importlib.import_module(self._jit_name)

    @property
    def ahead_of_time(self):
        return load(self._name) is not None

    def pick(self, threads=None, small=True):
        """The namespace a call should run: this one (its ahead-of-time functions, on one
        thread) for ``small`` work when they are built and ``threads`` is None or 1; else
        numba's module, on ``threads`` threads (None: all cores)."""
        from .common import check_threads, set_threads
        if threads is not None:
            check_threads(threads)
        if small and threads in (None, 1) and self.ahead_of_time:
            return self
        if threads is not None:
            set_threads(threads)
        return self.jit

    def __getattr__(self, attr):
        if attr.startswith("_"):
            raise AttributeError(attr)
        mod = load(self._name)
        if mod is not None and attr in MODULES[self._name][1]:
            return getattr(mod, attr)
        return getattr(self.jit, attr)


def kernels(name):
    return Kernels(name)


def build(names=None, quiet=False, into=None):
    """Build the modules ``names`` (default all) into the first writable cache folder, or
    into ``into``'s keyed sub-folder (``aot-<key>``: the wheel's :data:`PACKAGED`); returns
    {name: path}. Raises OSError / RuntimeError (no compiler, nothing writable)."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # pycc is marked for deprecation in numba
        from numba.pycc import CC
    if into is not None:
        folder = os.path.join(into, f"aot-{aot_key()}")
        if not usable_folder(folder):
            raise OSError(f"cannot write the ahead-of-time kernels into {into}")
    else:
        folder = next((f for f in _folders() if usable_folder(f)), None)
    if folder is None:
        raise OSError("no writable folder for the ahead-of-time kernels")
    with open(os.path.join(folder, _MARKER), "w") as f:
        f.write(f"troef ahead-of-time kernels; key {aot_key()}\n")
    _prune(os.path.dirname(folder), folder, prefix="aot-")   # those of other code versions
    out = {}
    for name in names or MODULES:
        jit_name, functions = MODULES[name]
        jit = importlib.import_module(jit_name)
        cc = CC(PREFIX + name)
        cc.output_dir = folder
        cc.verbose = not quiet
        for fn, sig in functions.items():
            cc.export(fn, sig)(getattr(jit, fn).py_func)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cc.compile()
        out[name] = os.path.join(folder, _filename(name))
        _loaded.pop(name, None)
    return out


def main(argv=None):
    """``python -m fastsim.aot [--into FOLDER]``: build every module (into the cache, or
    into FOLDER/aot-<key>, as setup.py does for a wheel); 1 when they could not be built."""
    import argparse
    ap = argparse.ArgumentParser(prog="python -m fastsim.aot")
    ap.add_argument("--into", help="build into FOLDER/aot-<key> instead of the kernel cache")
    args = ap.parse_args(argv)
    try:
        paths = build(quiet=True, into=args.into)
    except Exception as e:       # a missing compiler shows in many forms; not fatal
        print(f"troef: the ahead-of-time kernels were not built ({type(e).__name__}: "
              f"{str(e).splitlines()[0] if str(e) else ''}); the queries use the JIT kernels",
              file=sys.stderr)
        return 1
    for name, path in paths.items():
        print(f"troef: ahead-of-time kernels {name}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
