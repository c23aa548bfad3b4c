"""One run API for every game: chunks, streaming datasets, resume, Dask.

A run is described by a :class:`RunSpec` (game, set-up, number of units, seed, policies,
chunking). The engines key every deal's random numbers by (seed, global unit index), so
splitting a run into consecutive blocks of units and concatenating gives identical
arrays. Chunk ``i`` is the unit range ``[i·chunk, min((i+1)·chunk, n))``.
:func:`compute_chunk` plays one chunk and returns a :class:`ChunkOut` (the summary's
integer sums plus, as asked, the Result or the chunk's Parquet bytes); it is the unit of
work of every backend: :class:`LocalBackend` here, :class:`analyzer.cluster.DaskBackend`
on a Dask cluster. :func:`execute` drives a backend over chunks with a progress bar, and
:func:`run` is the whole job: in memory, to one Parquet file, or streamed to a resumable
dataset folder, locally or on Dask. The CLI only parses options and calls :func:`run`::

    from analyzer.run import RunSpec, run
    spec = RunSpec.make("bonken", games=1000, seed=1)
    out = run(spec, out="bonken-runs/")          # a dataset folder; resume=True continues
    out.summary["seats"]
"""
import math
import sys
import threading
import time
from dataclasses import dataclass, field, replace

import numpy as np

from . import games as registry

PROGRESS_MIN_DEALS = 2_000_000
BLOCK_DEALS = 1_000_000       # chunk of in-memory runs shown with a progress bar
CHUNK_DEALS = 250_000         # default chunk of streamed / cluster runs
MAX_DEALS = 2**62             # global deal indices are int64
MODES = ("summary", "parquet", "result")

# numba's default (workqueue) threading layer must not run two parallel kernels at once
# from different threads of one process (a Dask worker with several threads would).
_KERNEL_LOCK = threading.Lock()


class RunError(ValueError):
    """A run that cannot be set up as asked (one line)."""


def _units_per_chunk(setup, chunk_deals):
    """Units per chunk for about ``chunk_deals`` deals (whole units, at least one)."""
    per = setup.deals_per_unit or _typical_deals(setup)
    return max(1, int(chunk_deals) // per)


def _typical_deals(setup):
    # boompjes have 16 deals; a Boonaken match has a few dozen
    return 16 if setup.unit == "boompje" else 30


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's results, plus how it is cut and threaded
    (``threads`` and the chunking never change the results)."""
    game: str
    setup: object
    n: int
    seed: int = 0
    policies: np.ndarray = None
    chunk: int = None
    threads: int | None = None
    record: bool = False
    worlds: int | None = None

    def __post_init__(self):
        entry = registry.get(self.game)
        if self.policies is None:
            object.__setattr__(self, "policies", entry.parse_policies(self.setup))
        if self.chunk is None:
            object.__setattr__(self, "chunk", max(1, self.n))
        if self.worlds is None:
            object.__setattr__(self, "worlds", 16)

    @classmethod
    def make(cls, game, deals=None, games=None, seed=0, policy="heuristic", seat_policy=(),
             chunk=None, threads=None, record=False, worlds=None, **options):
        """A spec from CLI-style options (``options``: the game's set-up options)."""
        entry = registry.get(game)
        registry.check_options(entry, options)
        setup, n = registry.resolve(entry, deals, games, {k: v for k, v in options.items()
                                               if v not in (None, (), [])})
        pols = entry.parse_policies(setup, policy, seat_policy)
        return cls(game, setup, n, seed, pols, chunk, threads, record, worlds)

    @property
    def entry(self):
        return registry.get(self.game)

    @property
    def unit(self):
        return self.setup.unit

    @property
    def n_chunks(self):
        return math.ceil(self.n / self.chunk) if self.n else 0

    def chunk_range(self, index):
        """(first unit, number of units) of chunk ``index``."""
        if not 0 <= index < self.n_chunks:
            raise IndexError(f"chunk {index} outside 0..{self.n_chunks - 1}")
        start = index * self.chunk
        return start, min(self.chunk, self.n - start)

    def chunk_units(self, index):
        return self.chunk_range(index)[1]

    def with_chunk_deals(self, chunk_deals):
        return replace(self, chunk=_units_per_chunk(self.setup, chunk_deals))

    def simulate(self, start, count, record=None):
        return self.entry.simulate(self.setup, count, seed=self.seed, policies=self.policies,
                                   start=start, threads=self.threads,
                                   record=self.record if record is None else record,
                                   worlds=self.worlds)

    def empty_result(self):
        """A result of no units: carries the run's metadata (:func:`metadata`)."""
        return self.simulate(0, 0, record=False)

    def metadata(self):
        return self.entry.metadata(self.empty_result())


@dataclass
class ChunkOut:
    """One finished chunk: its unit range, deals and rows, the summary sums
    (``partials``) and, by mode, the Result (``result``) or Parquet bytes (``data``)."""
    index: int
    start: int
    units: int
    deals: int
    partials: dict
    rows: int = 0
    result: object = None
    data: bytes | None = None
    file: str | None = None       # the part, written under its temp name (local streaming)
    sha256: str | None = None     # its content hash


def compute_chunk(spec, index, mode="summary"):
    """Play chunk ``index`` of ``spec``. ``mode``: ``summary`` (statistics only),
    ``parquet`` (also the chunk as Parquet bytes, :func:`analyzer.stream.encode_chunk`)
    or ``result`` (also the Result). A pure function of its arguments: any process on any
    machine returns the same."""
    if mode not in MODES:
        raise ValueError(f"unknown chunk mode {mode!r}")
    start, count = spec.chunk_range(index)
    with _KERNEL_LOCK:
        res = spec.simulate(start, count, record=spec.record and mode == "result")
        part = spec.entry.partials(res)
        data, rows = None, 0
        if mode == "parquet":
            from .stream import encode_chunk
            data, rows = encode_chunk(res, spec, index, part)
    return ChunkOut(index=index, start=start, units=count, deals=part["deals"],
                    partials=part, rows=rows, result=res if mode == "result" else None,
                    data=data)


class LocalBackend:
    """Plays the chunks one after the other in this process (numba threads inside). With
    ``spool`` (a dataset folder; :func:`run` sets it) a streamed run's encoding threads
    write each part straight to its temp name there (``ChunkOut.file``), else they hand
    on its bytes."""
    name = "local"
    spool = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def run(self, spec, indices, mode):
        if mode != "parquet":
            for i in indices:
                yield compute_chunk(spec, i, mode)
            return
        yield from _stream_chunks(spec, indices, ENCODERS, self.spool)


# threads that encode a streamed run's chunks while the next chunk plays (each holds one
# chunk: its result, one row group of its table and its Parquet bytes)
ENCODERS = 2


def _stream_chunks(spec, indices, encoders, spool=None):
    """Play chunks ``indices`` one after the other (the kernels on every core, under
    ``_KERNEL_LOCK``) while up to ``encoders`` threads build and encode the chunks played
    before (table a row group at a time; pyarrow and serial nogil kernels, the GIL
    released) into Parquet: written to its temp name in the dataset folder ``spool``
    with its content hash (``ChunkOut.file``, ``sha256``), or into memory (``data``). The
    chunks come out in order. A game whose table needs parallel kernels (no
    ``COLUMNS_ANY_THREAD``) builds it here, under the lock, and only the encoding runs
    beside the next chunk. A chunk plays while fewer than ``encoders`` chunks are being
    encoded; once it is played every encoder has work (it and the chunk before), so the
    cores stay busy, with at most ``encoders`` chunks in memory. The bytes are the same
    for any number of threads. Temp files of chunks not handed on are removed."""
    from collections import deque
    from concurrent.futures import ThreadPoolExecutor
    from .stream import ChunkSource, parquet_buffer, spool_part
    any_thread = getattr(spec.entry, "COLUMNS_ANY_THREAD", False)

    def encode(out, source):
        schema, blocks = source.blocks() if any_thread else source
        if spool is None:
            out.data, out.rows = parquet_buffer(schema, blocks)
        else:
            out.file, out.sha256, out.rows = spool_part(schema, blocks, spool, out.index)
        return out

    pending = deque()
    handed = None
    pool = ThreadPoolExecutor(max(1, encoders), thread_name_prefix="troef-encode")
    try:
        for i in indices:
            # hand on what is encoded; wait while every encoder is busy
            while pending and (pending[0].done() or len(pending) >= encoders):
                handed = _next_out(pending)
                yield handed
            start, count = spec.chunk_range(i)
            try:
                with _KERNEL_LOCK:
                    res = spec.simulate(start, count, record=False)
                    part = spec.entry.partials(res)
                    source = ChunkSource(res, spec, i, part)
                    if not any_thread:      # the table's kernels may not run beside these
                        schema, blocks = source.blocks()
                        source = (schema, list(blocks))
            except KeyboardInterrupt:
                # interrupted while playing the next chunk: the chunks being encoded are
                # finished work, so they are handed on (and saved) before stopping
                while pending:
                    handed = _next_out(pending)
                    yield handed
                raise
            out = ChunkOut(index=i, start=start, units=count, deals=part["deals"],
                           partials=part)
            pending.append(pool.submit(encode, out, source))
            del res, source
        while pending:
            handed = _next_out(pending)
            yield handed
    finally:
        # stopped early (an error, or the consumer closed us): chunks not yet started are
        # dropped, the ones encoding are waited for; no temp file is left behind
        pool.shutdown(wait=True, cancel_futures=True)
        import os
        for f in [*pending, None]:
            out = handed if f is None else (
                f.result() if f.done() and not f.cancelled() and not f.exception() else None)
            if out is not None and out.file is not None and os.path.exists(out.file):
                os.remove(out.file)


def _next_out(pending):
    """The first pending chunk's ChunkOut, waiting for it; it leaves ``pending`` only once
    it is there (a Ctrl-C during the wait leaves it to the clean-up, which removes its
    temp file)."""
    out = pending[0].result()
    pending.popleft()
    return out


class ChunksLeft:
    """The chunks ``0 .. n - 1`` not in ``done`` (a small set: the chunks saved earlier),
    in order, without listing them: a run of 10**14 deals has 4 * 10**8 chunks, and its
    first chunk starts at once."""

    def __init__(self, n, done=()):
        self.n = int(n)
        self.done = {i for i in done if 0 <= i < self.n}

    def __iter__(self):
        return (i for i in range(self.n) if i not in self.done)

    def __len__(self):
        return self.n - len(self.done)

    def __bool__(self):
        return len(self) > 0


def units_in(spec, indices):
    """The units of chunks ``indices``: every chunk holds ``spec.chunk`` units but the
    run's last, so ``range(n)`` or a :class:`ChunksLeft` is counted without a walk."""
    if isinstance(indices, range) and indices.start == 0 and indices.step == 1:
        indices = ChunksLeft(indices.stop)
    if not isinstance(indices, ChunksLeft):
        return sum(spec.chunk_units(i) for i in indices)
    last = spec.n_chunks - 1
    units = len(indices) * spec.chunk
    if 0 <= last < indices.n and last not in indices.done:
        units -= spec.chunk - spec.chunk_units(last)
    return units


def progress_default(units, setup=None):
    deals = units * ((setup.deals_per_unit or _typical_deals(setup)) if setup else 1)
    return deals >= PROGRESS_MIN_DEALS and sys.stderr.isatty()


def execute(spec, indices, mode, backend=None, progress=None, on_chunk=None, done_units=0):
    """Run chunks ``indices`` of ``spec`` on ``backend`` (default: local), calling
    ``on_chunk(ChunkOut)`` in chunk order. The progress bar (tqdm on stderr: units, rate,
    ETA) starts at ``done_units``, the units of chunks saved earlier. Returns the number
    of deals played."""
    if not isinstance(indices, (range, ChunksLeft)):
        indices = list(indices)         # counted, then walked: not a one-shot iterator
    todo = units_in(spec, indices)
    if progress is None:
        progress = progress_default(todo, spec.setup)
    backend = backend if backend is not None else LocalBackend()
    bar = None
    per = spec.setup.deals_per_unit     # count deals where a unit's deals are known
    if progress:
        from tqdm import tqdm
        scale = per or 1
        bar = tqdm(total=(done_units + todo) * scale, initial=done_units * scale,
                   unit="deal" if per else spec.unit, unit_scale=True, file=sys.stderr,
                   dynamic_ncols=True, smoothing=0.1)
    played = 0
    try:
        gen = backend.run(spec, indices, mode)
        try:
            for out in gen:
                if on_chunk is not None:
                    on_chunk(out)
                played += out.deals
                if bar is not None:
                    bar.update(out.deals if per else out.units)
        finally:
            gen.close()
    finally:
        if bar is not None:
            bar.close()
    return played


# ---------------------------------------------------------------- the whole job

@dataclass
class RunOutcome:
    """What :func:`run` did: the summary payload, the deals played now, the seconds they
    took, the in-memory Result (when asked), and the dataset state."""
    summary: dict
    played: int
    seconds: float
    result: object = None
    resumed: int = 0
    chunks: int = 0
    rows: int = 0
    extra: dict = field(default_factory=dict)

    def payload(self, spec):
        """The summary with the run's seed, policy names (also per seat) and variants."""
        p = dict(self.summary)
        names = spec.entry.policy_names(spec.policies)
        for s in p.get("seats", []):
            s["policy"] = names[s["seat"]]
        p.update({"seed": spec.seed, "policies": names,
                  "variants": dict(getattr(spec.setup.rules, "variants", {}))})
        return p

    def header(self, spec, p, where=""):
        """The first lines of a run's text summary: what was played, by whom, how fast."""
        v = p["variants"]
        rate = self.played / self.seconds if self.seconds > 0 else 0.0
        return [f"{spec.entry.describe(spec.setup, spec.n)}, seed {spec.seed}",
                f"policies by seat: {', '.join(p['policies'])}" + (
                    f"; variants {', '.join(f'{k}={x}' if x else k for k, x in v.items())}"
                    if v else ""),
                f"played in {self.seconds:.2f} s ({rate:,.0f} deals/s){where}" + (
                    f"; resumed with {self.resumed} of {spec.n_chunks} chunks already saved"
                    if self.resumed else "")]


def run(spec, out=None, resume=False, backend=None, progress=None, keep_result=False,
        record_path=None, force=False):
    """Play ``spec``: in memory (``keep_result``), to one Parquet file (``out`` ending in
    ``.parquet``) or streamed to a dataset folder (any other ``out``; ``resume`` continues
    an interrupted one); ``record_path`` writes the play record (JSON lines). ``backend``:
    local (default) or :class:`analyzer.cluster.DaskBackend`. Returns :class:`RunOutcome`;
    an interrupted streamed run raises KeyboardInterrupt after saving what finished."""
    from .stream import is_dataset_path
    entry = spec.entry
    dataset = out is not None and is_dataset_path(out)
    if resume and not dataset:
        raise RunError("--resume continues a dataset folder: give it as --out DIR")
    if dataset and (record_path or spec.record):
        raise RunError("--record-play keeps every deal in memory; it cannot go with a "
                       "dataset folder --out DIR")
    in_memory = keep_result or (out is not None and not dataset) or record_path is not None
    if record_path is not None and not spec.record:
        spec = replace(spec, record=True)
    backend = backend if backend is not None else LocalBackend()
    from .compile_note import seconds_compiling
    c0 = seconds_compiling()     # compile time is told (compile_note), not counted as play
    summ = registry.Summary(entry, spec.setup)
    results = []

    def on_chunk(o):
        summ.add(o.partials)
        if ds is not None:
            ds.write(o)
        if in_memory:
            results.append(o.result)

    ds = None
    outcome = RunOutcome(summary={}, played=0, seconds=0.0)
    if dataset:
        from . import stream
        from .cluster import ClusterError
        from .storage import OutputError
        with stream.Dataset(out, spec, resume) as ds:
            outcome.resumed = len(ds.saved)
            for p in ds.summaries():
                summ.add(p)
            t0 = time.perf_counter()
            with stream.interruptible():
                try:
                    if ds.missing:
                        stream.prepare(spec)    # imports and kernel loads are start-up, not play
                        local = isinstance(backend, LocalBackend)
                        if local:
                            backend.spool = ds.path     # parts written by the encoders
                        try:
                            with backend:
                                t0 = time.perf_counter()
                                outcome.played = execute(spec, ds.missing, "parquet", backend,
                                                         progress, on_chunk,
                                                         done_units=ds.saved_units)
                        finally:
                            if local:
                                backend.spool = None
                except KeyboardInterrupt as e:
                    e.troef_dataset = ds.describe()
                    raise
                except (ClusterError, OutputError) as e:    # a dead cluster, a full disk
                    raise type(e)(f"{e}; {ds.describe()}: run the same command with "
                                  "--resume to continue") from None
            outcome.seconds = max(0.0, time.perf_counter() - t0 - (seconds_compiling() - c0))
            ds.finish()
            outcome.chunks = spec.n_chunks
            outcome.rows = sum(r["rows"] for r in ds.saved.values())
    else:
        mode = "result" if in_memory else "summary"
        with backend:
            t0 = time.perf_counter()
            outcome.played = execute(spec, range(spec.n_chunks), mode, backend, progress,
                                     on_chunk)
            outcome.seconds = max(0.0, time.perf_counter() - t0 - (seconds_compiling() - c0))
    outcome.summary = summ.payload()
    if in_memory:
        result = entry.concat(results) if results else spec.empty_result()
        if record_path:
            from .records import write_jsonl
            write_jsonl(entry.records(result), record_path, force=force)
        if out is not None and not dataset:
            from .storage import write_parquet
            outcome.rows = write_parquet(result, out, force=force)
        if keep_result:
            outcome.result = result
    return outcome


def run_chunked(rules, n_games, seed=0, policies=None, threads=None, record=False,
                progress=None, block_deals=BLOCK_DEALS):
    """Boerenbridge: like :func:`fastsim.boerenbridge.simulate`, in blocks with an
    optional progress bar (``None``: shown for long runs when stderr is a terminal)."""
    from .games.boerenbridge import Setup
    setup = Setup(rules, "deal" if len(rules.schedule) == 1 else "game")
    spec = RunSpec("boerenbridge", setup, n_games, seed, policies, None, threads, record)
    spec = spec.with_chunk_deals(block_deals)
    return run(spec, progress=progress, keep_result=True).result


def memory_limit():
    """Bytes this process may use: the cgroup limit when there is one, else physical RAM
    (None when neither can be read)."""
    import os
    for f in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            raw = open(f).read().strip()
        except OSError:
            continue
        if raw.isdigit() and int(raw) < 1 << 60:
            return int(raw)
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def check_run(spec, out=None, record_path=None, chunk_deals=None, progress=None,
              scheduler=None, dask_workers=None, force=False):
    """Validate a CLI run before any work starts and choose its chunking and backend:
    returns (spec, backend). Every refusal is one line (:class:`RunError` et al.)."""
    from fastsim.common import check_seed
    from .storage import check_output
    from .stream import is_dataset_path
    check_seed(spec.seed)
    if isinstance(spec.n, bool) or not isinstance(spec.n, int) or spec.n < 1:
        raise RunError(f"need at least one deal or game, got {spec.n}")
    if spec.threads is not None and spec.threads < 1:
        raise RunError(f"--threads must be at least 1, got {spec.threads}")
    if not 1 <= spec.worlds <= 4096:
        raise RunError(f"--worlds must be 1..4096, got {spec.worlds}")
    per = spec.setup.deals_per_unit or _typical_deals(spec.setup)
    if spec.n * per > MAX_DEALS:
        raise RunError(f"at most {MAX_DEALS:,} deals in one run, got {spec.n * per:,}")
    if chunk_deals is not None and chunk_deals < 1:
        raise RunError(f"--chunk-deals must be at least 1, got {chunk_deals}")
    if scheduler is not None and dask_workers is not None:
        raise RunError("give --scheduler or --dask-workers, not both")
    dataset = out is not None and is_dataset_path(out)
    for path in ((out,) if out and not dataset else ()) + ((record_path,) if record_path else ()):
        check_output(path, force)
    in_memory = (out is not None and not dataset) or record_path is not None
    if in_memory:
        from .limits import check_in_memory
        check_in_memory(spec, out or record_path, record_path is not None)
    dask = scheduler is not None or dask_workers is not None
    if dask:
        from .cluster import DaskBackend, check_address, check_workers
        if scheduler is not None:
            check_address(scheduler)
        else:
            check_workers(dask_workers)
        backend = DaskBackend(scheduler=scheduler, workers=dask_workers, game=spec.game)
    else:
        backend = LocalBackend()
    if progress is None:
        progress = progress_default(spec.n, spec.setup)
    if chunk_deals is not None:
        spec = spec.with_chunk_deals(chunk_deals)
    elif dataset or dask:
        spec = spec.with_chunk_deals(CHUNK_DEALS)
    elif progress or not in_memory:     # a summary needs one block at a time only
        spec = spec.with_chunk_deals(BLOCK_DEALS)
    return spec, backend
