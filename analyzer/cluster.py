"""Running chunks on a Dask cluster (``dask.distributed``).

Each task is :func:`analyzer.run.compute_chunk` for one chunk (a game range): the worker
plays it and returns the compact result — the summary sums and, for streamed runs, the
chunk's Parquet bytes — so workers need no shared filesystem; the client writes the parts.
At most ``window`` tasks are in flight (two per worker thread by default), which bounds the
client's memory, and results are handed on in chunk order. Since every deal's randomness is
keyed by (seed, global deal index), the results are identical to a local run.

``DaskBackend(workers=N)`` starts a LocalCluster of N single-threaded worker processes on
127.0.0.1 only; ``DaskBackend(scheduler="tcp://HOST:PORT")`` connects to a running
scheduler (its workers must be able to import ``fastsim`` and ``analyzer``: install troef
on them).
"""
import logging
import re
import signal
import threading
import time
from collections import deque
from contextlib import contextmanager

from .run import compute_chunk

ADDRESS_RE = re.compile(r"^(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")
MAX_LOCAL_WORKERS = 256
CONNECT_TIMEOUT = 20       # seconds to reach a scheduler (connect and handshake)
NO_WORKERS_TIMEOUT = 60    # seconds a run waits while the scheduler has no workers
POLL_SECONDS = 1.0         # how often a waiting run looks at the cluster
RESTART_WAIT = 10   # seconds a local cluster waits at shutdown for workers being restarted
QUIET_LOGGERS = ("distributed", "distributed.worker", "distributed.nanny",
                 "distributed.scheduler", "distributed.core", "distributed.comm",
                 "distributed.client", "distributed.batched", "distributed.deploy")


class ClusterError(RuntimeError):
    """The cluster could not be reached or a task failed; the message is one line."""


def check_address(address):
    """``tcp://HOST:PORT`` (or ``tls://``) → the address; anything else → ValueError."""
    a = str(address).strip()
    m = ADDRESS_RE.match(a)
    if not m or not 1 <= int(m.group(3)) <= 65535:
        raise ValueError(f"--scheduler must look like tcp://HOST:PORT, got {address!r}")
    return a


def check_workers(n):
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_LOCAL_WORKERS:
        raise ValueError(f"--dask-workers must be 1..{MAX_LOCAL_WORKERS}, got {n!r}")
    return n


def warm_up(game="boerenbridge"):
    """Run on every worker when a backend starts: import the game's engine and the Parquet
    encoder and play one tiny chunk, so that loading (or compiling) the numba kernels is
    part of starting the cluster, not of the first chunks. Returns the worker's pid."""
    import os
    from . import games
    from .run import RunSpec
    entry = games.get(game)
    setup = entry.tiny_setup()
    compute_chunk(RunSpec(game, setup, 1, 0, entry.parse_policies(setup), 1, threads=1),
                  0, "parquet")
    return os.getpid()


@contextmanager
def _sigint_ignored():
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _probe(address, connection_args):
    """Open one connection to ``address`` and finish the Dask handshake within
    2 x CONNECT_TIMEOUT seconds: a closed port, or a server that is not a Dask scheduler and
    never answers, becomes one OSError or TimeoutError instead of a wait without end."""
    import asyncio
    from distributed.comm import connect

    async def once():
        comm = await asyncio.wait_for(connect(address, timeout=CONNECT_TIMEOUT,
                                              **connection_args), 2 * CONNECT_TIMEOUT)
        await comm.close()

    failed = []

    def probe():          # in a thread of its own: the caller may run an event loop
        try:
            asyncio.run(once())
        except (OSError, TimeoutError) as e:
            failed.append(e)
    t = threading.Thread(target=probe, daemon=True)
    t.start()
    t.join(3 * CONNECT_TIMEOUT)
    if t.is_alive() or (failed and isinstance(failed[0], TimeoutError)):
        raise TimeoutError(f"no Dask handshake within {2 * CONNECT_TIMEOUT} s")
    if failed:
        raise failed[0]


def _one_line(e):
    text = str(e).strip() or type(e).__name__
    return text.splitlines()[0]


class DaskBackend:
    """Runs chunks as Dask tasks; a context manager that owns the client (and the
    LocalCluster it started, if any)."""
    name = "dask"

    def __init__(self, scheduler=None, workers=None, window=None, game="boerenbridge"):
        if (scheduler is None) == (workers is None):
            raise ValueError("give a scheduler address or a number of local workers")
        self.scheduler = check_address(scheduler) if scheduler is not None else None
        self.workers = check_workers(workers) if workers is not None else None
        self.window = window
        self.game = game
        self.cluster = None
        self.client = None

    def __enter__(self):
        try:
            import distributed
        except ImportError:
            raise ClusterError("Dask is not installed; install the cluster extra: "
                               "pip install 'troef[cluster]'") from None
        # a failure is told in one line (ClusterError), not in Dask's log records
        for name in QUIET_LOGGERS:
            logging.getLogger(name).setLevel(logging.CRITICAL)
        try:
            if self.workers is not None:
                # The worker processes inherit an ignored SIGINT, so that Ctrl-C in a
                # terminal (sent to the whole process group) interrupts only this
                # process, which then shuts the cluster down in order.
                with _sigint_ignored():
                    self.cluster = distributed.LocalCluster(
                        n_workers=self.workers, threads_per_worker=1, processes=True,
                        host="127.0.0.1", dashboard_address="127.0.0.1:0",
                        silence_logs=logging.CRITICAL)
                self.client = distributed.Client(self.cluster)
            else:
                security = distributed.Security()     # Dask's own (TLS) configuration
                args = security.get_connection_args("client")
                if self.scheduler.startswith("tls://") and args.get("ssl_context") is None:
                    raise ClusterError(f"--scheduler {self.scheduler} needs Dask's TLS "
                                       "configuration (distributed.comm.tls in the Dask "
                                       "config); or give a tcp:// address")
                _probe(self.scheduler, args)
                self.client = distributed.Client(self.scheduler,
                                                 timeout=f"{CONNECT_TIMEOUT}s")
        except (OSError, TimeoutError) as e:
            self.__exit__(None, None, None)
            where = self.scheduler or "a local cluster"
            raise ClusterError(f"cannot reach Dask scheduler at {where}: {_one_line(e)}") from None
        try:
            self.client.wait_for_workers(1, timeout=NO_WORKERS_TIMEOUT)
        except (TimeoutError, OSError):
            self.__exit__(None, None, None)
            raise ClusterError(f"the Dask scheduler at {self.scheduler or 'a local cluster'} "
                               f"has no workers (waited {NO_WORKERS_TIMEOUT} s); start "
                               "workers, then run the command again") from None
        try:
            self.client.run(warm_up, self.game)
        except (KeyboardInterrupt, GeneratorExit):
            self.__exit__(None, None, None)
            raise
        except Exception as e:
            self.__exit__(None, None, None)
            raise ClusterError(f"the Dask workers cannot run troef ({type(e).__name__}: "
                               f"{_one_line(e)}); install troef on every worker") from None
        return self

    def __exit__(self, *exc):
        if self.cluster is not None and self.client is not None:
            # a worker its nanny is restarting (after a crash) would die mid-start when the
            # cluster closes, printing its traceback: let the restarts finish first
            try:
                self.client.wait_for_workers(self.workers, timeout=RESTART_WAIT)
            except Exception:
                pass
        for name in ("client", "cluster"):      # the client first, then its cluster
            part = getattr(self, name)
            if part is not None:
                try:
                    part.close()
                except Exception:
                    pass
                setattr(self, name, None)
        return False

    def _wait(self, fut, index):
        """Wait for ``fut``; while the cluster has no workers for NO_WORKERS_TIMEOUT
        seconds, or the scheduler is lost, give up with a ClusterError."""
        import distributed
        idle_since = None
        while True:
            try:
                distributed.wait(fut, timeout=POLL_SECONDS)
                return
            except TimeoutError:
                pass
            try:
                workers = self.client.nthreads()
            except (OSError, TimeoutError) as e:
                raise ClusterError(f"lost the Dask scheduler while waiting for chunk {index}: "
                                   f"{_one_line(e)}") from None
            if workers:
                idle_since = None
            elif idle_since is None:
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since > NO_WORKERS_TIMEOUT:
                raise ClusterError(f"the Dask cluster has had no workers for "
                                   f"{NO_WORKERS_TIMEOUT} s (chunk {index} still waiting); "
                                   "they keep dying or were stopped")

    @property
    def threads(self):
        return max(1, sum(self.client.nthreads().values()))

    def run(self, spec, indices, mode):
        """Yield :class:`analyzer.run.ChunkOut` of ``indices`` in order; tasks not yet
        handed on are cancelled when the generator is closed (error, Ctrl-C)."""
        from dataclasses import replace
        if spec.threads is None:          # one kernel thread per task: Dask parallelises
            spec = replace(spec, threads=1)
        todo = iter(indices)
        window = self.window or 2 * self.threads
        futures = {}
        order = deque()         # submitted, not yet handed on, in chunk order

        def top_up():
            while len(futures) < window:
                i = next(todo, None)
                if i is None:
                    return
                futures[i] = self.client.submit(compute_chunk, spec, i, mode, pure=False,
                                                key=f"troef-chunk-{i}-{id(futures):x}")
                order.append(i)

        try:
            top_up()
            while order:
                i = order.popleft()
                fut = futures[i]
                self._wait(fut, i)
                try:
                    out = fut.result()
                except (KeyboardInterrupt, GeneratorExit):
                    raise
                except Exception as e:
                    raise ClusterError(f"Dask task for chunk {i} failed: {type(e).__name__}: "
                                       f"{_one_line(e)}") from None
                del futures[i]
                top_up()
                yield out
        finally:
            if futures:
                try:
                    self.client.cancel(list(futures.values()))
                except Exception:
                    pass
