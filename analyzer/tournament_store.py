"""A folder that keeps a tournament's finished pieces, so that an interrupted tournament
(Ctrl-C, a kill, a crash) loses no finished work: ``troef tournament … --out DIR`` saves
every block of deals of every seating as it ends, and the same command with ``--resume``
plays only what is missing. Every deal's randomness is keyed by its index, so a resumed
tournament gives exactly the result of one run straight through (tested).

The folder holds ``tournament.json`` (what the tournament is: game, policies, deals,
seed, variants, worlds, … and a hash of each policy file of your own, so a changed file is
not mixed with old results), one ``piece-HASH.npz`` per finished piece (its key stored
inside, checked on reading), written atomically, and ``result.json`` once it is complete.
numpy and the standard library only.
"""
import hashlib
import io
import json
import os

import numpy as np

MANIFEST = "tournament.json"
LOCK = ".lock"
RESULT = "result.json"
FORMAT = "troef-tournament"
VERSION = 1
CODE_KEYS = ("troef_version", "source")
ORDER = ("engine", "whole_games", "units", "policies", "seed", "worlds", "rules",
         "policy_files")     # the identity's code part (stream.code_identity)


class TournamentStoreError(ValueError):
    """A --out/--resume folder that cannot be used (one line)."""


def policy_hashes(names):
    """sha256 of the file of every ``PATH.py:FUNCTION`` policy in ``names``."""
    from .agents import is_user_spec
    out = {}
    for p in names:
        if is_user_spec(p):
            path = p.strip().rpartition(":")[0]
            try:
                with open(path, "rb") as f:
                    out[p] = hashlib.sha256(f.read()).hexdigest()
            except OSError:
                out[p] = None       # the policy's own loading says what is wrong
    return out


def _own_files(p):
    """The files of folder ``p`` that are not troef's lock or temp files."""
    return [n for n in os.listdir(p) if n != LOCK and not (n.startswith(".") and ".tmp" in n)]


class TournamentStore:
    """The pieces of one tournament in folder ``path``: :meth:`get` a saved piece or
    None, :meth:`put` a finished one. ``identity`` is a JSON-able dict of everything
    the results depend on; a folder written for another identity is refused."""

    def __init__(self, path, identity, resume=False):
        self.path = os.fspath(path)
        self.identity = json.loads(json.dumps(identity))
        self.loaded = self.saved = 0
        p = self.path
        if os.path.exists(p) and not os.path.isdir(p):
            raise TournamentStoreError(f"--out {p} is a file; a tournament keeps its "
                                       "pieces in a folder")
        manifest = os.path.join(p, MANIFEST)
        if os.path.isdir(p) and not os.path.isfile(manifest) and _own_files(p):
            self._open(manifest, resume)    # refuses someone else's folder, touching nothing
        os.makedirs(p, exist_ok=True)
        self._lock = open(os.path.join(p, LOCK), "a")
        try:                                # one troef at a time in a folder
            import fcntl
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.close()
            raise TournamentStoreError(f"another troef is writing to {p}") from None
        try:
            self._open(manifest, resume)
        except BaseException:
            self.close()
            raise

    def _open(self, manifest, resume):
        p = self.path
        for name in os.listdir(p):          # a killed run's temp files (never a finished piece)
            if name.startswith(".") and ".tmp" in name:
                os.remove(os.path.join(p, name))
        fresh = not _own_files(p)
        if resume and not fresh:            # --resume on a new or empty folder starts it
            if not os.path.isfile(manifest):
                raise TournamentStoreError(f"--resume: {p} holds no tournament "
                                           f"({MANIFEST} missing)")
            try:
                with open(manifest, encoding="utf-8") as f:
                    old = json.load(f)
            except (OSError, ValueError) as e:
                raise TournamentStoreError(f"--resume: {manifest} is unreadable: "
                                           f"{str(e).splitlines()[0]}") from None
            if not isinstance(old, dict) or old.get("format") != FORMAT \
                    or not isinstance(old.get("identity"), dict):
                raise TournamentStoreError(f"--resume: {manifest} is not a troef tournament")
            was = old["identity"]
            keys = sorted(set(was) | set(self.identity),      # the plainest difference first
                          key=lambda k: (ORDER.index(k) if k in ORDER else len(ORDER), k))
            diff = [k for k in keys if was.get(k) != self.identity.get(k)]
            if diff:
                k = diff[0]
                hint = ("it was played by other code: start it again in another folder"
                        if k in CODE_KEYS else "use the original options or another folder")
                a, b = was.get(k), self.identity.get(k)
                if isinstance(a, dict) and isinstance(b, dict):     # name the rule itself
                    sub = next(x for x in sorted(set(a) | set(b)) if a.get(x) != b.get(x))
                    k, a, b = f"{k}.{sub}", a.get(sub), b.get(sub)
                raise TournamentStoreError(f"--resume: {p} was written with {k} = {a!r}, "
                                           f"not {b!r}; {hint}")
            return
        if not fresh:
            raise TournamentStoreError(
                f"--out {p} is not empty; give --resume to continue the tournament in it, "
                "or a new folder")
        self._write(MANIFEST, (json.dumps({"format": FORMAT, "version": VERSION,
                                           "identity": self.identity}, indent=1)
                               + "\n").encode())

    def _file(self, key):
        return os.path.join(self.path, "piece-" + hashlib.sha256(key.encode()).hexdigest()[:24]
                            + ".npz")

    def _write(self, name, data):
        from .storage import atomic_path
        path = os.path.join(self.path, name)
        with atomic_path(path, os.path.join(self.path, f".{name}.tmp{os.getpid()}")) as t, \
                open(t, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())

    def get(self, key):
        """The arrays saved under ``key`` (a dict), or None if that piece is not saved."""
        f = self._file(key)
        if not os.path.exists(f):
            return None
        try:
            with np.load(f, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
        except Exception as e:      # a damaged piece: one line, never a traceback
            raise TournamentStoreError(f"{f} is damaged ({type(e).__name__}); delete it "
                                       "and --resume again") from None
        if str(arrays.pop("_key", "")) != key:
            raise TournamentStoreError(f"{f} is not the piece it is named for; delete it "
                                       "and --resume again")
        self.loaded += 1
        return arrays

    def put(self, key, **arrays):
        """Save a finished piece atomically (Ctrl-C and SIGTERM wait for the rename)."""
        from .stream import _SIGNALS
        buf = io.BytesIO()
        np.savez(buf, _key=np.array(key), **arrays)
        with _SIGNALS.critical():
            self._write(os.path.basename(self._file(key)), buf.getvalue())
            self.saved += 1         # counted before a deferred Ctrl-C is raised

    def finish(self, result):
        """Write the whole tournament's result next to its pieces."""
        self._write(RESULT, (json.dumps(result) + "\n").encode())

    def close(self):
        if getattr(self, "_lock", None) is not None:
            self._lock.close()          # releases the lock
            self._lock = None

    def describe(self):
        return (f"{self.loaded + self.saved} pieces saved in {self.path}")
