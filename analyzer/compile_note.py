"""One line on stderr while the simulation kernels compile, and how long that took.

The numba kernels of :mod:`fastsim` compile on the first run of each code version (and on
every run when no cache folder is writable; see :mod:`fastsim._cache`), which takes tens of
seconds. The front end calls :func:`install` once at start; from then on the first real
compilation in the process prints one line on ``stderr``, e.g.::

    troef: compiling the simulation kernels once (seconds, up to a minute for the search policies; later runs start at once) ...

and :func:`seconds_compiling` tells how long the process has spent getting kernels ready
(compiling or loading them from the cache), so that a throughput figure can leave it out::

    c0, t0 = compile_note.seconds_compiling(), time.perf_counter()
    run()
    seconds = time.perf_counter() - t0 - (compile_note.seconds_compiling() - c0)

Nothing is printed when every kernel comes from the cache.
"""
import sys
import threading
import time

ESTIMATE = "seconds, up to a minute for the search policies"

_lock = threading.Lock()
_local = threading.local()
_state = {"installed": False, "noted": False, "seconds": 0.0, "open": {}, "stream": None}


def _message():
    try:
        import fastsim
        mode = fastsim.cache_info()["mode"]
    except Exception:
        mode = "disk"
    if mode == "memory":
        return ("troef: no writable cache folder (set NUMBA_CACHE_DIR to one to keep them); "
                f"compiling the simulation kernels for this run only ({ESTIMATE}) ...")
    return f"troef: compiling the simulation kernels once ({ESTIMATE}; later runs start at once) ..."


def _note():
    with _lock:
        if _state["noted"]:
            return
        _state["noted"] = True
    stream = _state["stream"] or sys.stderr
    try:
        print(_message(), file=stream, flush=True)
    except (OSError, ValueError):    # stderr closed: the note is not worth failing for
        pass


def _listeners():
    from numba.core import event

    class Compile(event.Listener):
        """``numba:compile`` fires only when a kernel is really compiled (a cache miss)."""

        def on_start(self, ev):
            _note()

        def on_end(self, ev):
            pass

    class Ready(event.Listener):
        """``numba:compiler_lock`` spans compiling and loading from the cache; only the
        outermost span of each thread counts."""

        def on_start(self, ev):
            depth = getattr(_local, "depth", 0)
            if depth == 0:
                _local.t0 = time.perf_counter()
                with _lock:
                    _state["open"][threading.get_ident()] = _local.t0
            _local.depth = depth + 1

        def on_end(self, ev):
            depth = getattr(_local, "depth", 0) - 1
            _local.depth = max(depth, 0)
            if depth == 0:
                dt = time.perf_counter() - _local.t0
                with _lock:
                    _state["seconds"] += dt
                    _state["open"].pop(threading.get_ident(), None)

    return event, Compile(), Ready()


def install(stream=None):
    """Start watching numba compilations (idempotent; from the moment numba is imported
    for the kernels, see :func:`fastsim.on_jit`). ``stream``: where the note goes
    (default ``sys.stderr`` at the time of printing)."""
    with _lock:
        if _state["installed"]:
            return
        _state["installed"] = True
        _state["stream"] = stream
    from fastsim import on_jit      # no numba until a kernel module imports it (fastsim/aot.py)
    on_jit(_register)


def _register():
    event, compile_listener, ready_listener = _listeners()
    event.register("numba:compile", compile_listener)
    event.register("numba:compiler_lock", ready_listener)


def seconds_compiling():
    """Seconds this process has spent compiling kernels or loading them from the cache
    since :func:`install` (a compilation under way counts up to now)."""
    now = time.perf_counter()
    with _lock:
        return _state["seconds"] + sum(now - t0 for t0 in _state["open"].values())


def noted():
    """True once the compile note has been printed."""
    return _state["noted"]
