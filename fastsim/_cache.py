"""Where the compiled kernels are cached, keyed by the code they were compiled from.

numba's own ``cache=True`` checks only the source file of each kernel, not the modules
whose constants and functions it inlines: after a change to, say, ``EXACT_BASE`` in
:mod:`fastsim.boerenbridge_schema`, the cached kernels of :mod:`fastsim.boerenbridge_nb`
would keep scoring with the old value. And when no cache folder is writable numba
refuses to import the module at all ("cannot cache function ...: no locator available").

:func:`install` (called by :mod:`fastsim._jit`, through which every kernel module imports numba)
registers a cache locator for the files of this package only. It caches into a folder
whose name carries :func:`cache_key` -- a fingerprint of every ``fastsim/*.py`` file plus
the troef, numba, numpy and Python versions -- so that any change to the code starts a new,
empty folder. The folder is the first writable of

1. ``$NUMBA_CACHE_DIR/troef/numba-<key>`` (when ``NUMBA_CACHE_DIR`` is set),
2. ``$XDG_CACHE_HOME/troef/numba-<key>`` (``~/.cache`` when ``XDG_CACHE_HOME`` is unset),
3. ``fastsim/__pycache__/numba-<key>`` next to this file;

when none is writable the kernels are compiled in memory, once per process (never into
numba's own unkeyed folders, never its "no locator available" error), and
:func:`cache_info` says so (``mode == "memory"``) -- the front end prints the note, this
package does no output. When a new keyed folder is made, the sibling folders of other code
versions unused for :data:`PRUNE_AFTER_DAYS` days, or beyond the :data:`PRUNE_KEEP` most
recently used, are removed (a full set of kernels takes about 30 MB).
"""
import hashlib
import os
import shutil
import sys
import tempfile
import time

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
PRUNE_AFTER_DAYS = 7            # keyed folders of other code versions unused this long go
PRUNE_KEEP = 8                  # and so do all but the PRUNE_KEEP most recently used
_MARKER = "troef-cache"          # file in every keyed folder: its mtime says when last used

_state = {"installed": False, "mode": None, "path": None, "new": False, "tried": ()}
_fingerprint = None
_key = None


def _source_files():
    return sorted(f for f in os.listdir(PACKAGE_DIR) if f.endswith(".py"))


def source_fingerprint():
    """Hex sha256 of the names and contents of every ``fastsim/*.py`` file: it changes
    whenever any kernel, constant or wrapper of the simulation engine changes, and is the
    same for the same code wherever it is installed."""
    global _fingerprint
    if _fingerprint is None:
        h = hashlib.sha256()
        for name in _source_files():
            with open(os.path.join(PACKAGE_DIR, name), "rb") as f:
                data = f.read()
            h.update(name.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
        _fingerprint = h.hexdigest()
    return _fingerprint


def _troef_version():
    try:
        from importlib.metadata import version
        return version("troef")
    except Exception:            # running from a checkout that is not installed
        return "unknown"


def cache_key():
    """The 16 hex digits naming the cache folder: :func:`source_fingerprint` plus the
    troef, numba, numpy and Python versions (compiled code is only valid for those)."""
    global _key
    if _key is None:
        import numba
        import numpy
        parts = [source_fingerprint(), _troef_version(), numba.__version__, numpy.__version__,
                 sys.implementation.cache_tag or "", sys.version]
        _key = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]
    return _key


def parent_folders(cache_dir):
    """The folders troef caches compiled code in, in order of preference: ``cache_dir``
    (numba's ``NUMBA_CACHE_DIR``) when set, the user cache folder, ``fastsim/__pycache__``;
    each with a ``troef`` sub-folder except the last."""
    out = []
    if cache_dir:
        out.append(os.path.join(os.path.abspath(os.path.expanduser(cache_dir)), "troef"))
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        base = xdg
    elif os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        base = os.environ["LOCALAPPDATA"]
    else:
        base = os.path.join(os.path.expanduser("~"), ".cache")
    out.append(os.path.join(base, "troef"))
    out.append(os.path.join(PACKAGE_DIR, "__pycache__"))
    return out


def _candidates(key):
    """(parent folder, keyed folder) pairs in order of preference."""
    from numba.core import config
    return [(parent, os.path.join(parent, f"numba-{key}"))
            for parent in parent_folders(config.CACHE_DIR)]


def usable_folder(path):
    """Make ``path`` and check that a file can be written in it; True if so."""
    try:
        os.makedirs(path, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
        return True
    except (OSError, ValueError):
        return False


def _touch_marker(path):
    """Mark ``path`` as used now; True if it was new (no marker yet)."""
    marker = os.path.join(path, _MARKER)
    new = not os.path.exists(marker)
    try:
        if new:
            with open(marker, "w") as f:
                f.write(f"troef compiled-kernel cache; key {cache_key()}\n")
        else:
            os.utime(marker)
    except OSError:
        pass
    return new


def _prune(parent, keep, prefix="numba-"):
    """Remove the keyed sibling folders (``prefix`` + 16 hex digits) of ``keep`` that were
    unused for PRUNE_AFTER_DAYS days or are beyond the PRUNE_KEEP most recently used (only
    folders with our marker)."""
    limit = time.time() - PRUNE_AFTER_DAYS * 86400
    try:
        names = os.listdir(parent)
    except OSError:
        return
    used = []
    for name in names:
        path = os.path.join(parent, name)
        if path == keep or not name.startswith(prefix) or len(name) != len(prefix) + 16:
            continue
        try:
            used.append((os.stat(os.path.join(path, _MARKER)).st_mtime, path))
        except OSError:
            pass                 # not ours (no marker) or vanished: leave it
    used.sort(reverse=True)
    for rank, (mtime, path) in enumerate(used):
        if mtime < limit or rank >= PRUNE_KEEP:
            shutil.rmtree(path, ignore_errors=True)


def _locate():
    key = cache_key()
    tried = []
    for parent, path in _candidates(key):
        tried.append(path)
        if usable_folder(path):
            new = _touch_marker(path)
            if new:
                _prune(parent, path)
            return "disk", path, new, tuple(tried)
    return "memory", None, True, tuple(tried)


def _ours(py_file):
    try:
        return os.path.dirname(os.path.abspath(py_file)) == PACKAGE_DIR
    except (TypeError, ValueError):
        return False


def install():
    """Install the keyed cache for this package's kernels (idempotent)."""
    if _state["installed"]:
        return
    from numba.core import caching, dispatcher

    mode, path, new, tried = _locate()
    _state.update(mode=mode, path=path, new=new, tried=tried)

    class TroefCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
        """Caches this package's kernels in the keyed folder chosen by :func:`install`."""

        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = os.path.join(
                _state["path"], self.get_suitable_cache_subpath(py_file))

        def get_cache_path(self):
            return self._cache_path

        @classmethod
        def from_function(cls, py_func, py_file):
            if _state["mode"] != "disk" or not _ours(py_file):
                return None      # someone else's function: numba's own locators
            return super().from_function(py_func, py_file)

    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    impl._locator_classes.insert(0, TroefCacheLocator)

    # Our kernels cache in the keyed folder or not at all: never in numba's unkeyed folders
    # (stale after a change elsewhere), and never its "cannot cache function ...: no
    # locator available" error when nothing is writable -- NullCache, compile in memory.
    enable = dispatcher.Dispatcher.enable_caching

    def enable_caching(self):
        code = getattr(self.py_func, "__code__", None)
        if code is None or not _ours(code.co_filename) or caching.config.CACHE_LOCATOR_CLASSES:
            return enable(self)          # not ours, or the user chose numba's locators
        if _state["mode"] == "disk":
            try:
                enable(self)
            except RuntimeError:         # no locator at all
                pass
            else:
                if isinstance(self._cache._impl.locator, TroefCacheLocator):
                    return
        self._cache = caching.NullCache()

    dispatcher.Dispatcher.enable_caching = enable_caching
    _state["installed"] = True


def cache_info():
    """Where this process caches the kernels: a dict with ``mode`` (``"disk"`` or
    ``"memory"``), ``path`` (the keyed folder, or None), ``new`` (the folder was made by
    this process, so the kernels will compile), ``key`` and ``tried`` (the folders
    considered, in order)."""
    return {"mode": _state["mode"], "path": _state["path"], "new": _state["new"],
            "key": cache_key(), "tried": _state["tried"]}
