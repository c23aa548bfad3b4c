"""Dead and unreachable Dask clusters (loopback only): a scheduler address where nothing
listens, a server there that is not a Dask scheduler, a scheduler without workers, and
workers that die on every task all end in one line on stderr and exit 2 (with a resume
hint for a dataset folder), never a wait without end or pages of Dask log records.

Each command runs in a subprocess with a wall-clock bound (a hang fails the test, no speed
is asserted); the waiting times of analyzer.cluster are shortened in its prelude."""
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import error_lines

pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
BOUND = 240          # seconds; far above what any case needs: only a hang reaches it
PRELUDE = ("import analyzer.cluster as c; c.CONNECT_TIMEOUT = 3; c.NO_WORKERS_TIMEOUT = 4; "
           "c.POLL_SECONDS = 0.2; import cli, sys; cli.main(sys.argv[1:])")
DEALS = ["simulate", "boerenbridge", "--hand-size", "3", "--deals", "400", "--chunk-deals", "100"]

pytestmark = pytest.mark.slow


def troef(*args):
    env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{HERE}")
    p = subprocess.run([sys.executable, "-c", PRELUDE, *map(str, args)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=BOUND)
    err = error_lines(p.stderr)
    return p.returncode, err


def one_line(args, *needles):
    code, err = troef(*args)
    assert code == 2 and len(err) == 1 and err[0].startswith("troef: error:"), (code, err)
    for n in needles:
        assert n in err[0], (n, err)
    return err[0]


@pytest.fixture
def silent_server():
    """A TCP server on 127.0.0.1 that accepts connections and never answers."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    held, stop = [], threading.Event()

    def serve():
        srv.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(srv.accept()[0])
            except OSError:
                pass
    t = threading.Thread(target=serve, daemon=True)
    t.start()
    yield f"tcp://127.0.0.1:{srv.getsockname()[1]}"
    stop.set()
    t.join()
    for c in held:
        c.close()
    srv.close()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_scheduler_where_nothing_listens():
    one_line([*DEALS, "--scheduler", f"tcp://127.0.0.1:{free_port()}"], "cannot reach Dask")


def test_tls_scheduler_without_tls_configuration():
    # before: a TypeError traceback from Dask's TLS connector
    one_line([*DEALS, "--scheduler", f"tls://127.0.0.1:{free_port()}"], "TLS configuration")


def test_scheduler_that_is_not_dask(silent_server):
    # before: the Dask handshake waited for an answer for ever
    one_line([*DEALS, "--scheduler", silent_server], "cannot reach Dask", "handshake")


@pytest.fixture
def empty_scheduler():
    """A Dask scheduler on 127.0.0.1 with no workers (in this process)."""
    import distributed
    import logging
    with distributed.LocalCluster(n_workers=0, processes=True, host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0",
                                  silence_logs=logging.CRITICAL) as cluster:
        yield cluster


def test_scheduler_without_workers(empty_scheduler):
    # before: every task waited for a worker for ever
    one_line([*DEALS, "--scheduler", empty_scheduler.scheduler_address], "has no workers")


def test_workers_that_die_mid_run(empty_scheduler, tmp_path):
    """One worker without a nanny, killed by the first task it unpickles: the scheduler is
    left without workers, and the run ends with one line and the resume hint."""
    import time
    addr = empty_scheduler.scheduler_address
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", addr,
                               "--no-nanny", "--nthreads", "1"], cwd=ROOT,
                              env=dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{HERE}"),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        t0 = time.monotonic()
        while not empty_scheduler.scheduler.workers and time.monotonic() - t0 < BOUND / 2:
            time.sleep(0.2)
        assert empty_scheduler.scheduler.workers
        out = tmp_path / "ds"
        prelude = PRELUDE.replace("import cli", "import dask_killer; dask_killer.arm(); import cli")
        env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{HERE}")
        p = subprocess.run([sys.executable, "-c", prelude, *DEALS, "--scheduler", addr,
                            "--out", out], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=BOUND)
        err = error_lines(p.stderr)
        assert p.returncode == 2 and len(err) == 1, (p.returncode, err)
        assert "no workers" in err[0] and "--resume" in err[0] and str(out) in err[0], err
    finally:
        worker.kill()
        worker.wait()


def test_local_workers_that_keep_dying(tmp_path):
    """Every task kills its worker; the nannies restart them until Dask gives the task up:
    one line (no Dask log records, no tracebacks) and the resume hint."""
    out = tmp_path / "ds"
    prelude = PRELUDE.replace("import cli", "import dask_killer; dask_killer.arm(); import cli")
    env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{HERE}")
    p = subprocess.run([sys.executable, "-c", prelude, *DEALS, "--dask-workers", "2",
                        "--out", out], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=BOUND)
    err = error_lines(p.stderr)
    assert p.returncode == 2 and len(err) == 1, (p.returncode, err)
    assert "Traceback" not in p.stderr and "--resume" in err[0], err
