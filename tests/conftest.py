import io
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
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
