import io
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The suite runs numba's kernels (the reference for the ahead-of-time ones, which
# tests/test_aot.py compares with them); here and in every process the tests start.
os.environ["TROEF_AOT"] = "0"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def run_cli(*args, check=None, timeout=300):
    """Run ``troef ARGS`` in a fresh process; returns CompletedProcess (text)."""
    env = dict(os.environ)
    env.setdefault("PYTHONPATH", str(ROOT))
    proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)
    if check is not None:
        assert proc.returncode == check, (proc.returncode, proc.stdout, proc.stderr)
    return proc


def error_lines(stderr):
    """stderr's lines without the compile note (analyzer/compile_note.py), which a process
    prints once when a kernel it needs is not yet in the cache: an input error must be
    exactly one of the remaining lines, whether the kernels were cached or not."""
    return [x for x in stderr.strip().splitlines()
            if not x.startswith(("troef: compiling", "troef: no writable cache"))]


def invoke_cli(*args):
    """Run ``troef ARGS`` in this process through ``cli.main`` (the real entry point: it
    turns errors into one stderr line and calls ``sys.exit``) -> (exit code, stdout,
    stderr); the exit code is None if cli.main returned without exiting."""
    import numba

    import cli as troef_cli
    out, err = io.StringIO(), io.StringIO()
    threads = numba.get_num_threads()
    code = None
    try:
        with redirect_stdout(out), redirect_stderr(err):
            troef_cli.main(args=[str(a) for a in args], prog_name="troef")
    except SystemExit as e:
        code = e.code
    finally:
        numba.set_num_threads(threads)   # --threads must not leak into later tests
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def cli():
    return run_cli


# The long-running files and tests: `pytest -m "not slow"` is the quick subset (a few
# minutes); `make test` (CI) runs everything.
SLOW_FILES = ("test_boerenbridge_diff.py", "test_bonken_diff.py", "test_klaverjassen_diff.py",
              "test_boonaken_diff.py", "test_naive_boerenbridge.py", "test_naive_bonken.py",
              "test_naive_klaverjassen.py", "test_naive_boonaken.py", "test_cache.py",
              "test_scaleout.py", "test_fingerprint.py", "test_boerenbridge_exact.py")
SLOW_TESTS = ("test_dask_runs_equal_local_runs_for_every_game", "test_cli_and_bid_advice",
              "test_one_card_query_agrees_with_exact_enumeration",
              "test_trump_query_consistency")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in SLOW_FILES or item.originalname in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
