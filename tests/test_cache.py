"""The compiled-kernel cache (fastsim/_cache.py) and the compile note (analyzer/compile_note.py).

The slow tests run fresh processes on a copy of the package: each cold compile of the
Boerenbridge kernels costs 15-40 s, so the steps share one cache folder wherever that does
not defeat the point.
"""
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("fastsim", "analyzer", "reports")
BID_ARGS = ["bid", "boerenbridge", "--players", "4", "--hand", "AS KS 7H 2C 9D 3S 4H 5C",
            "--trump-card", "2H", "--position", "0", "--samples", "2000"]

# A small Boerenbridge run: the sum of all scores and the number of exact bids.
PROBE = textwrap.dedent("""
    from fastsim.boerenbridge import simulate
    from fastsim.boerenbridge_schema import build_rules
    r = simulate(build_rules(players=4, hand_size=5), 200, seed=7, threads=1)
    d = r.deals
    print(int(d["scores"].sum()), int((d["bids"] == d["tricks"]).sum()))
""")


def _copy_tree(dest):
    """The package as a user gets it: sources only, no caches."""
    dest.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in PACKAGES:
        shutil.copytree(ROOT / name, dest / name, ignore=ignore)
    shutil.copy2(ROOT / "cli.py", dest / "cli.py")
    return dest


def _env(**extra):
    """A clean environment: nothing of the caller's caches or paths."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "HOME")}
    env.update({k: str(v) for k, v in extra.items() if v is not None})
    return env


def _run(cmd, env, cwd, timeout=600):
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=timeout)
    assert proc.returncode == 0, (cmd, proc.stdout, proc.stderr)
    return proc


def _probe(src, env):
    out = _run([sys.executable, "-c", PROBE], dict(env, PYTHONPATH=str(src)), src).stdout
    total, exact = map(int, out.split())
    return total, exact


def _set_exact_base(src, value):
    path = src / "fastsim" / "boerenbridge_schema.py"
    text = path.read_text()
    new, n = re.subn(r"^EXACT_BASE = \d+", f"EXACT_BASE = {value}", text, flags=re.M)
    assert n == 1
    path.write_text(new)


def _exact_base(src):
    text = (src / "fastsim" / "boerenbridge_schema.py").read_text()
    return int(re.search(r"^EXACT_BASE = (\d+)", text, flags=re.M).group(1))


def _not_creatable(tmp_path):
    """A folder path that cannot be created, even by root: it lies under a regular file."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    return blocker / "cache"


# --------------------------------------------------------------------------- cheap tests

def test_source_fingerprint_is_stable_and_follows_every_source(tmp_path, monkeypatch):
    import fastsim
    from fastsim import _cache
    fp = fastsim.source_fingerprint()
    assert re.fullmatch(r"[0-9a-f]{64}", fp) and fastsim.source_fingerprint() == fp
    assert re.fullmatch(r"[0-9a-f]{16}", fastsim.cache_key())
    copy = _copy_tree(tmp_path / "src") / "fastsim"
    monkeypatch.setattr(_cache, "PACKAGE_DIR", str(copy))
    monkeypatch.setattr(_cache, "_fingerprint", None)
    assert _cache.source_fingerprint() == fp            # same code elsewhere: same print
    monkeypatch.setattr(_cache, "_fingerprint", None)
    (copy / "boerenbridge_schema.py").write_text(
        (copy / "boerenbridge_schema.py").read_text() + "\n")
    assert _cache.source_fingerprint() != fp            # a constant's module counts too


def test_cache_folder_order(tmp_path, monkeypatch):
    from numba.core import config
    from fastsim import _cache
    key = _cache.cache_key()
    bad = _not_creatable(tmp_path)
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    monkeypatch.setattr(_cache, "PACKAGE_DIR", str(pkg))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "nb"))

    def where():
        mode, path, new, tried = _cache._locate()
        return mode, path

    assert where() == ("disk", str(tmp_path / "nb" / "troef" / f"numba-{key}"))
    monkeypatch.setattr(config, "CACHE_DIR", str(bad))
    assert where() == ("disk", str(tmp_path / "xdg" / "troef" / f"numba-{key}"))
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert where() == ("disk", str(tmp_path / "home" / ".cache" / "troef" / f"numba-{key}"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(bad))
    monkeypatch.setenv("HOME", str(bad))
    assert where() == ("disk", str(pkg / "__pycache__" / f"numba-{key}"))
    (pkg / "__pycache__").rename(tmp_path / "moved")
    (pkg / "__pycache__").write_text("")               # a file: nothing can go below it
    assert where() == ("memory", None)


def _keyed_folders(parent, ages):
    """Keyed folders with our marker, last used ``ages`` seconds ago."""
    now = os.stat(parent.parent).st_mtime
    out = []
    for i, age in enumerate(ages):
        d = parent / f"numba-{i:016x}"
        d.mkdir(parents=True)
        (d / "troef-cache").write_text("")
        os.utime(d / "troef-cache", (now - age, now - age))
        out.append(d)
    return out


def test_old_keyed_folders_are_pruned(tmp_path, monkeypatch):
    from numba.core import config
    from fastsim import _cache
    day = 86400
    # by age: unused for longer than PRUNE_AFTER_DAYS
    (tmp_path / "a").mkdir()
    recent, stale = _keyed_folders(tmp_path / "a" / "troef",
                                   [day, (_cache.PRUNE_AFTER_DAYS + 1) * day])
    foreign = [tmp_path / "a" / "troef" / "mine", tmp_path / "a" / "troef" / ("numba-" + "e" * 16)]
    for d in foreign:                                 # no marker: not ours, left alone
        d.mkdir()
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "a"))
    mode, path, new, _ = _cache._locate()
    assert new and Path(path).parent == recent.parent and Path(path).exists()
    assert recent.exists() and not stale.exists() and all(d.exists() for d in foreign)
    # by number: all but the PRUNE_KEEP most recently used
    (tmp_path / "b").mkdir()
    keyed = _keyed_folders(tmp_path / "b" / "troef", [60 * i for i in range(_cache.PRUNE_KEEP + 2)])
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "b"))
    _cache._locate()
    assert [d.exists() for d in keyed] == [True] * _cache.PRUNE_KEEP + [False, False]
    _cache._locate()                                  # the folder exists now: no pruning
    assert all(d.exists() for d in keyed[:_cache.PRUNE_KEEP])


def test_compile_note_prints_one_line_and_counts_the_time(tmp_path):
    mod = tmp_path / "tiny_kernels.py"
    mod.write_text(textwrap.dedent("""
        from numba import njit
        @njit(cache=True)
        def f(x):
            return x + 1
        @njit(cache=True)
        def g(x):
            return f(x) * 2.5
    """))
    script = textwrap.dedent("""
        import sys
        from analyzer import compile_note
        compile_note.install()
        compile_note.install()
        assert "numba" not in sys.modules      # it waits for the kernels' numba
        import fastsim._jit                    # as every kernel module does
        import tiny_kernels as k
        before = compile_note.seconds_compiling()
        k.g(1.0); k.g(2); k.f(3)
        print(before, compile_note.seconds_compiling(), compile_note.noted())
    """)
    env = _env(PYTHONPATH=os.pathsep.join([str(ROOT), str(tmp_path)]),
               NUMBA_CACHE_DIR=tmp_path / "nbcache", HOME=tmp_path)
    cold = _run([sys.executable, "-c", script], env, tmp_path)
    lines = cold.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("troef: compiling the simulation kernels")
    before, spent, noted = cold.stdout.split()
    assert float(spent) > float(before) >= 0.0 and noted == "True"
    warm = _run([sys.executable, "-c", script], env, tmp_path)   # all from the cache
    assert warm.stderr == "" and warm.stdout.split()[2] == "False"


def test_compile_note_says_when_nothing_is_cached(monkeypatch):
    from analyzer import compile_note
    from fastsim import _cache, _jit  # noqa: F401  (installed first: the note reads its mode)
    monkeypatch.setitem(_cache._state, "mode", "memory")
    msg = compile_note._message()
    assert "\n" not in msg and "NUMBA_CACHE_DIR" in msg and "this run only" in msg


# --------------------------------------------------------------------------- slow tests

@pytest.mark.slow
def test_changed_constant_is_used_with_default_cache_and_numba_cache_dir(tmp_path):
    """After EXACT_BASE changes, the next fresh process scores with the new value."""
    src = _copy_tree(tmp_path / "src")
    cache = tmp_path / "cache"
    default = _env(HOME=tmp_path / "home", XDG_CACHE_HOME=cache)
    given = _env(HOME=tmp_path / "home", XDG_CACHE_HOME=tmp_path / "other",
                 NUMBA_CACHE_DIR=cache)
    base = _exact_base(src)
    delta = 37

    total1, exact1 = _probe(src, default)               # compiles into the default cache
    assert exact1 > 0
    _set_exact_base(src, base + delta)
    total2, exact2 = _probe(src, default)               # the old kernels must not be used
    assert exact2 == exact1 and total2 == total1 + delta * exact1

    # NUMBA_CACHE_DIR: the same folder already holds the kernels of both versions, so
    # these runs load them; a cache keyed by file alone would give the old value.
    assert _probe(src, given) == (total2, exact2)
    _set_exact_base(src, base)
    assert _probe(src, given) == (total1, exact1)


def _install(tmp_path):
    """``pip install --no-deps .`` of this checkout into a fresh venv (a plain, non-editable
    install) that sees the project venv's dependencies through one .pth file."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "project-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    build = tmp_path / "build-src"           # pip builds in the tree: give it a clean copy
    _copy_tree(build)
    for f in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / f, build / f)
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--no-deps", str(build)],
                   check=True, capture_output=True)
    assert (site / "fastsim" / "__init__.py").exists() and (venv / "bin" / "troef").exists()
    return venv, site


def _read_only(site, tmp_path):
    """Make ``site`` unwritable for the command; returns (command prefix, how)."""
    if os.geteuid() != 0:
        for d, _, _ in os.walk(site):
            os.chmod(d, 0o555)
        return [], "permission bits"
    # root ignores permission bits: a read-only bind mount in a private mount namespace
    unshare = shutil.which("unshare")
    if unshare:
        wrap = [unshare, "-m", "sh", "-c",
                'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" "$0" && exec "$@"',
                str(site)]
        probe = subprocess.run(wrap + ["sh", "-c", f'! touch "{site}/probe" 2>/dev/null'],
                               capture_output=True)
        if probe.returncode == 0:
            return wrap, "read-only bind mount"
    # last resort that binds root too: __pycache__ (where the package caches) is a file
    shutil.rmtree(site / "fastsim" / "__pycache__")
    (site / "fastsim" / "__pycache__").write_text("")
    return [], "__pycache__ is a file"


def _restore(site):
    if os.geteuid() != 0:
        for d, _, _ in os.walk(site):
            os.chmod(d, 0o755)


@pytest.mark.slow
def test_read_only_install_without_a_writable_home_answers(tmp_path):
    venv, site = _install(tmp_path)
    nowhere = _not_creatable(tmp_path)
    env = _env(HOME=nowhere, XDG_CACHE_HOME=nowhere)
    prefix, how = _read_only(site, tmp_path)
    try:
        got = subprocess.run(prefix + [str(venv / "bin" / "troef"), *BID_ARGS],
                             capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    finally:
        _restore(site)
    assert got.returncode == 0, (how, got.stderr)
    assert "Traceback" not in got.stderr and len(got.stderr.splitlines()) <= 1, (how, got.stderr)
    assert not list((site / "fastsim").rglob("*.nbi"))           # nothing was cached there
    # the same question asked of the checkout (its own, writable cache) gets the same answer
    ref = _run([sys.executable, str(ROOT / "cli.py"), *BID_ARGS],
               dict(os.environ, PYTHONPATH=str(ROOT)), ROOT)
    assert got.stdout == ref.stdout and got.stdout.strip()
