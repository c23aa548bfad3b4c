"""Streaming a run to a Parquet dataset: a folder of complete chunks, resumable.

A dataset is a directory::

    results/
      _manifest.json        the run's full set-up, the chunking, and whether it is complete
      part-00000.parquet    games [0, C) as the tidy table of analyzer.frames
      part-00001.parquet    games [C, 2C) ...

Each part is one chunk of consecutive games (:func:`analyzer.run.compute_chunk`), encoded
in memory (on whichever process played it) and written by the driver under a hidden temp
name, then renamed (``os.replace``), so a part either exists completely or not at all. The
parts carry the same schema metadata as ``--out FILE.parquet`` (``analyzer.storage``) plus
their chunk record (game range, rows and the summary sums), which lets ``--resume`` check
them and rebuild the summary from their footers alone. The manifest is written the same
atomic way. Readers list the ``part-*.parquet`` files; names starting with ``_`` or ``.``
are invisible to them (and to ``pyarrow.dataset``).

Ctrl-C and SIGTERM during a streamed run are deferred while a part is being renamed into
place, so what the interrupt message counts is exactly what is on disk.
"""
import json
import os
import re
import signal
import threading
from contextlib import contextmanager

MANIFEST = "_manifest.json"
LOCK = ".lock"
FORMAT = "troef-dataset"
VERSION = 1
PART_RE = re.compile(r"^part-(\d{5,})\.parquet$")
TMP_PREFIX = ".part-"
CHUNK_KEY = b"troef_chunk"
COMPRESSION = "zstd"          # pages of random bits and floats
FAST_COMPRESSION = "lz4"      # the other pages (bit-packed already)
ROW_GROUP_ROWS = 262_144


class DatasetError(ValueError):
    """A dataset that cannot be written, resumed or read; the message is one line."""


class Terminated(KeyboardInterrupt):
    """SIGTERM during a streamed run (handled like Ctrl-C; exit status 143)."""


def is_dataset_path(path):
    """``--out`` names a dataset folder unless it ends in ``.parquet`` (and is no folder)."""
    path = os.fspath(path)
    return os.path.isdir(path) or not path.lower().endswith(".parquet")


def part_name(index):
    return f"part-{index:05d}.parquet"


HASH_SUFFIX = ".sha256"     # _part-NNNNN.parquet.sha256: the part's content hash and rows


def hash_path(part):
    """The content-hash file of a part: ``_part-NNNNN.parquet.sha256`` beside it. The
    leading ``_`` makes Parquet readers (pyarrow, pandas, Spark) skip it, so the folder
    reads as a plain dataset; troef before 2026-12 wrote ``part-NNNNN.parquet.sha256``."""
    folder, name = os.path.split(part)
    return os.path.join(folder, "_" + name + HASH_SUFFIX)


def _sha256_file(path):
    import hashlib
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check_part(path, index, expected_meta=None, within=None):
    """A saved part is sound: its content hash is the one written beside it, its footer
    names its own chunk, and (given ``expected_meta``) it holds results of this run.
    Returns (chunk record, rows); a one-line DatasetError names the part otherwise."""
    from .storage import META_KEY
    side = hash_path(path)
    if not os.path.exists(side) and os.path.exists(path + HASH_SUFFIX):
        side = path + HASH_SUFFIX        # a dataset of an earlier troef
    try:
        want = open(side, encoding="ascii").read().split()
    except OSError:
        raise DatasetError(f"{path} has no content hash ({os.path.basename(side)}); it was "
                           "not written by this troef: delete it and --resume again") from None
    if not want or _sha256_file(path) != want[0]:
        raise DatasetError(f"{path} is damaged (its content hash does not match); delete it "
                           "and --resume again")
    try:
        import pyarrow.parquet as pq
        md = pq.read_metadata(path)
    except Exception as e:  # pyarrow raises several types for a bad file
        raise DatasetError(f"{path} is damaged ({str(e).splitlines()[0]})") from None
    kv = md.metadata or {}
    try:
        rec = json.loads(kv.get(CHUNK_KEY, b"null"))
        meta = json.loads(kv.get(META_KEY, b"null"))
    except (ValueError, RecursionError):      # not JSON, or nested past the parser
        rec = meta = None
    if not isinstance(rec, dict) or rec.get("chunk") != index or rec.get("rows") != md.num_rows:
        raise DatasetError(f"{path} does not belong to this dataset (its footer names another "
                           "chunk); delete it and --resume again")
    foreign = (expected_meta is not None and meta != expected_meta) or (
        within is not None and (not isinstance(meta, dict)
                                or any(within.get(k) != v for k, v in meta.items())))
    if foreign:
        raise DatasetError(f"{path} holds results of another run (other set-up or seed); "
                           "delete it" + (" and --resume again" if within is None else ""))
    return rec, md.num_rows


def unit_of(setup):
    """The plural of what a dataset counts: deals, games, boompjes or matches."""
    return {"deal": "deals", "game": "games", "boompje": "boompjes",
            "match": "matches"}.get(setup.get("unit"), "games")


def setup_of(spec):
    """The run's set-up as stored in the manifest: everything that determines the results
    (game, rules, variants, seed, policies, units), the chunking, and the code that made
    them (troef version and source fingerprint); not threads or backend."""
    meta = spec.metadata()
    per = spec.setup.deals_per_unit
    meta.update({"unit": spec.unit, "n_games": spec.n, "deals_per_game": per,
                 "total_deals": spec.n * per if per else None, "chunk_games": spec.chunk,
                 "chunks": spec.n_chunks, "worlds": int(spec.worlds)})
    meta.update(code_identity())
    return json.loads(json.dumps(meta))  # as it reads back from JSON


def code_identity():
    """The troef version and a fingerprint of the engine's sources."""
    from importlib import metadata as im
    try:
        version = im.version("troef")
    except im.PackageNotFoundError:
        version = "unknown"
    return {"troef_version": version, "source": source_fingerprint()}


def source_fingerprint():
    """sha256 (16 hex digits) of every fastsim/ and analyzer/ source file."""
    import hashlib
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for pkg in ("fastsim", "analyzer"):
        for f in sorted((root / pkg).rglob("*.py")):
            h.update(str(f.relative_to(root)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


# columns of random bits (the dealt hands as masks): plain, zstd pages
RANDOM_COLUMNS = ("hand",)
# integer columns that are the same for every seat of a deal or cycle over the seats
# (constant within a chunk of single deals): plain pages, which lz4 shrinks to almost
# nothing at half the time of bit-packing their differences first
PLAIN_COLUMNS = ("players", "dealer", "seat", "position", "team", "hand_size", "deal_no",
                 "round", "trump_card")
# float columns of few distinct values (the heuristic's hand value in tricks)
DICTIONARY_COLUMNS = ("strength",)
# the global indices: differences of 0 and 1, packed to almost nothing (and min/max
# statistics, so that a reader's filter on them skips row groups)
INDEX_COLUMNS = ("deal", "game_index", "match")


def parquet_options(table):
    """How a part of ``table`` (or of a schema) is encoded (every choice lossless; the
    values read back are the table's). Chosen by measuring the encoding time and bytes of
    each column of a chunk of 250,000 deals of every game (``pq.write_table`` of one
    column at a time; docs/architecture.md A-10):

    * integer columns as ``DELTA_BINARY_PACKED`` (bit-packed differences: the small codes
      shrink to a few bits, the global indices to almost nothing) with lz4 pages (which
      halve the sparse ones, such as roem or Boonaken's bids), except
    * the columns of ``PLAIN_COLUMNS`` (repeated for the seats of a deal, or cycling over
      them): plain, lz4 pages;
    * the hand masks plain with zstd pages (random bits: zstd halves them, nothing else
      does); other float columns likewise;
    * the hand strength (``DICTIONARY_COLUMNS``: a few hundred distinct values)
      dictionary-encoded, uncompressed: two thirds of the bytes of zstd pages in less
      time;
    * the category columns dictionary-encoded, booleans plain, lz4 pages;
    * page checksums; min/max statistics for the global indices only (the rest cost
      encoding time and serve no reader of ours)."""
    import pyarrow as pa
    schema = getattr(table, "schema", table)
    names = schema.names
    encoding, codec, dictionary = {}, {}, []
    for f in schema:
        t, name = f.type, f.name
        if pa.types.is_dictionary(t):
            dictionary.append(name)
            codec[name] = FAST_COMPRESSION
        elif pa.types.is_floating(t) and name in DICTIONARY_COLUMNS:
            dictionary.append(name)
            codec[name] = "none"
        elif name in RANDOM_COLUMNS or pa.types.is_floating(t):
            encoding[name], codec[name] = "PLAIN", COMPRESSION
        elif pa.types.is_integer(t) and name not in PLAIN_COLUMNS:
            encoding[name], codec[name] = "DELTA_BINARY_PACKED", FAST_COMPRESSION
        else:
            encoding[name], codec[name] = "PLAIN", FAST_COMPRESSION
    return {"compression": codec, "row_group_size": ROW_GROUP_ROWS,
            "write_page_checksum": True, "column_encoding": encoding,
            "use_dictionary": dictionary,
            "write_statistics": [c for c in INDEX_COLUMNS if c in names]}


def prepare(spec=None):
    """Import what building and encoding a chunk's table needs (pyarrow's Parquet writer,
    pandas for the schema metadata, the table builders) and, given the run's ``spec``,
    build and encode the table of no deals (which loads the table's kernels and pyarrow's
    pandas bridge), so that a streamed run's play time, from which its deals/s are told,
    holds no start-up work (~0.5-1 s here)."""
    import pyarrow.parquet  # noqa: F401
    from . import agents, frames  # noqa: F401
    if spec is not None and spec.n_chunks:
        res = spec.empty_result()
        parquet_buffer(*chunk_blocks(res, spec, 0, spec.entry.partials(res)))


def _chunk_metadata(table, spec, index, partials, rows, result):
    """The chunk table's schema metadata: pandas' (from ``table``), the run metadata and
    the chunk record."""
    meta = dict(table.schema.metadata or {})
    meta.update(_chunk_record(spec, index, partials, rows, result))
    return meta


def _chunk_record(spec, index, partials, rows, result):
    from .storage import META_KEY
    start, units = spec.chunk_range(index)
    return {META_KEY: json.dumps(spec.entry.metadata(result)).encode(),
            CHUNK_KEY: json.dumps({"chunk": index, "game_start": start, "games": units,
                                   "deals": partials["deals"], "rows": rows,
                                   "summary": partials}).encode()}


def chunk_table(result, spec, index, partials):
    """One chunk's tidy table as Arrow, with the run metadata and the chunk record in its
    schema metadata (uses the kernels: call it where kernels may run)."""
    from .games import arrow_table
    table = arrow_table(spec.entry, result)
    return table.replace_schema_metadata(
        _chunk_metadata(table, spec, index, partials, table.num_rows, result))


class ChunkSource:
    """What a chunk's table is built from, taken from its result in a moment (views, no
    copies): the sub-results of its row groups where the game cuts its table
    (:func:`analyzer.games.row_parts`; the per-game arrays, which the table never reads,
    left behind), else the result itself, and the metadata the part carries."""

    def __init__(self, result, spec, index, partials, max_rows=None):
        from .games import row_parts
        self.entry = spec.entry
        self.rows, self.parts = row_parts(self.entry, result,
                                          ROW_GROUP_ROWS if max_rows is None else max_rows)
        self.record = (None if self.rows is None
                       else _chunk_record(spec, index, partials, self.rows, result))
        self._whole = (spec, index, partials) if self.rows is None else None

    def blocks(self):
        """(schema with the chunk's metadata, iterator of Arrow tables of consecutive rows),
        built one row group at a time as the iterator is read, so that only one row
        group's columns are in memory while the part is encoded (else the whole table)."""
        from .games import arrow_table
        parts, self.parts = self.parts, None
        first = arrow_table(self.entry, parts[0])
        record = self.record
        if record is None:          # one part: the whole table
            spec, index, partials = self._whole
            record = _chunk_record(spec, index, partials, first.num_rows, parts[0])
        meta = dict(first.schema.metadata or {})
        meta.update(record)
        schema = first.schema.with_metadata(meta)

        def all_blocks(first, rest):
            yield first
            del first
            while rest:
                yield arrow_table(self.entry, rest.pop(0))
        return schema, all_blocks(first, parts[1:])


def chunk_blocks(result, spec, index, partials):
    """One chunk's tidy table as (schema with the chunk's metadata, iterator of Arrow
    tables of consecutive rows): :meth:`ChunkSource.blocks`."""
    return ChunkSource(result, spec, index, partials).blocks()


def write_blocks(schema, blocks, sink):
    """Write the tables ``blocks`` (of ``schema``, which carries the file's metadata) as
    one Parquet file to ``sink`` (pyarrow only, no kernels unless ``blocks`` builds with
    them); returns the rows written."""
    import pyarrow.parquet as pq
    options = parquet_options(schema)
    group = options.pop("row_group_size")
    rows = 0
    with pq.ParquetWriter(sink, schema, **options) as w:
        for t in blocks:
            w.write_table(t.replace_schema_metadata(schema.metadata), row_group_size=group)
            rows += t.num_rows
    return rows


def parquet_buffer(schema, blocks):
    """The chunk's Parquet file in memory (a ``pyarrow.Buffer``, which hashing and file
    writes read without a copy) and its rows. Deterministic: the same chunk gives the same
    bytes anywhere, whether its table was built whole or a row group at a time."""
    import pyarrow as pa
    sink = pa.BufferOutputStream()
    rows = write_blocks(schema, blocks, sink)
    return sink.getvalue(), rows


def temp_part(folder, index):
    """The hidden name a part is written under before it is renamed into place (removed
    when a dataset is opened again: :class:`Dataset`)."""
    return os.path.join(folder, f"{TMP_PREFIX}{part_name(index)}.tmp{os.getpid()}")


def spool_part(schema, blocks, folder, index):
    """Write a chunk's part straight to its hidden temp name in the dataset ``folder``
    (no buffer of the whole file in memory; no fsync: :meth:`Dataset.write` syncs it
    before the rename) → (temp path, content hash, rows). Runs in an encoding thread; a
    failed write leaves no temp file and is one line naming the part (OutputError)."""
    import pyarrow as pa
    from .storage import write_failed
    tmp = temp_part(folder, index)
    try:
        with pa.OSFile(tmp, "wb") as raw, pa.BufferedOutputStream(raw, 1 << 20) as sink:
            rows = write_blocks(schema, blocks, sink)
        digest = _sha256_file(tmp)
    except BaseException as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        if isinstance(e, OSError):
            raise write_failed(os.path.join(folder, part_name(index)), e) from None
        raise
    return tmp, digest, rows


def parquet_bytes(table):
    """A chunk table as Parquet bytes (pyarrow only, no kernels: safe in another thread)."""
    return parquet_buffer(table.schema, iter([table]))[0].to_pybytes()


def encode_chunk(result, spec, index, partials):
    """One chunk's tidy table as Parquet bytes (run metadata and the chunk record in the
    schema metadata) and its row count. Deterministic: the same chunk gives the same
    bytes anywhere."""
    data, rows = parquet_buffer(*chunk_blocks(result, spec, index, partials))
    return data.to_pybytes(), rows


def _write_atomic(path, data, fsync=True):
    d, base = os.path.split(path)
    tmp = os.path.join(d, f"{TMP_PREFIX}{base}.tmp{os.getpid()}" if base.startswith("part-")
                       else f".{base}.tmp{os.getpid()}")
    from .storage import atomic_path
    with atomic_path(path, tmp) as t, open(t, "wb") as f:
        f.write(data)
        if fsync:
            f.flush()
            os.fsync(f.fileno())


def _place_part(tmp, path):
    """Sync the part written at ``tmp`` to disk and rename it to ``path``; on a failure
    the temp file is removed and the error is one line naming ``path``."""
    from .storage import atomic_path
    with atomic_path(path, tmp):
        fd = os.open(tmp, os.O_WRONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def read_manifest(path):
    f = os.path.join(path, MANIFEST)
    try:
        with open(f, encoding="utf-8") as fh:
            m = json.load(fh)
    except FileNotFoundError:
        raise DatasetError(f"{path} holds no troef dataset (no {MANIFEST})") from None
    except (OSError, ValueError) as e:
        raise DatasetError(f"cannot read {f}: {str(e).splitlines()[0]}") from None
    except RecursionError:
        raise DatasetError(f"cannot read {f}: nested too deep") from None
    if not isinstance(m, dict) or m.get("format") != FORMAT or not isinstance(m.get("setup"), dict):
        raise DatasetError(f"{f} is not a troef dataset manifest")
    if m.get("version") != VERSION:
        raise DatasetError(f"{path}: dataset version {m.get('version')!r} is not supported "
                           f"(this troef reads version {VERSION})")
    from .storage import check_dataset_setup
    check_dataset_setup(m["setup"], f)
    return m


def part_files(path):
    """{chunk index: file path} of the parts present in a dataset folder."""
    out = {}
    for name in os.listdir(path):
        m = PART_RE.match(name)
        if m:
            out[int(m.group(1))] = os.path.join(path, name)
    return dict(sorted(out.items()))


def chunk_record(file):
    """The chunk record stored in a part's footer (None if it has none)."""
    import pyarrow.parquet as pq
    md = pq.read_metadata(file)
    raw = (md.metadata or {}).get(CHUNK_KEY)
    if raw is None:
        return None, md.num_rows
    return json.loads(raw), md.num_rows


def _differences(old, new):
    names = {"source": "other troef code (source fingerprint)",
             "troef_version": "another troef version", "game": "game",
             "seed": "seed", "players": "players", "schedule": "schedule (hand size)",
             "policies": "policies", "n_games": "number of deals/games",
             "chunk_games": "chunk size (games per chunk)", "variants": "variants"}
    for k in list(names) + sorted(set(old) | set(new)):
        if old.get(k) != new.get(k):
            return f"{names.get(k, k)} {old.get(k)!r}, not {new.get(k)!r}"
    return None


class _Signals:
    """SIGINT/SIGTERM → KeyboardInterrupt/Terminated, deferred inside critical sections."""

    def __init__(self):
        self.depth = 0
        self.pending = None

    def handler(self, signum, frame):
        exc = Terminated if signum == signal.SIGTERM else KeyboardInterrupt
        if self.depth:
            self.pending = exc
            return
        raise exc()

    @contextmanager
    def critical(self):
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
            if not self.depth and self.pending is not None:
                exc, self.pending = self.pending, None
                raise exc()


_SIGNALS = _Signals()


@contextmanager
def interruptible():
    """During a streamed run: Ctrl-C raises KeyboardInterrupt and SIGTERM
    :class:`Terminated`, both held back while a part is renamed into place."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.signal(s, _SIGNALS.handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


class Dataset:
    """A dataset folder being written: created fresh, or reopened with ``resume``."""

    def __init__(self, path, spec, resume=False):
        import fcntl
        self.path = os.fspath(path)
        self.spec = spec
        self.setup = setup_of(spec)
        self.saved = {}     # chunk index -> chunk record
        p = self.path
        if os.path.exists(p) and not os.path.isdir(p):
            raise DatasetError(f"--out {p} is a file; a dataset needs a folder "
                               "(name the output *.parquet for a single file)")
        os.makedirs(p, exist_ok=True)
        self._lock = open(os.path.join(p, LOCK), "a")
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock.close()
            raise DatasetError(f"another troef run is writing to {p}") from None
        try:
            self._open(resume)
        except BaseException:
            self.close()
            raise

    def _open(self, resume):
        p = self.path
        for name in os.listdir(p):      # temp files of an earlier, killed run
            if name.startswith(TMP_PREFIX) or (name.startswith(f".{MANIFEST}.tmp")):
                os.remove(os.path.join(p, name))
        has_manifest = os.path.exists(os.path.join(p, MANIFEST))
        parts = part_files(p)
        for name in os.listdir(p):      # a hash written just before a kill, its part not
            m = name.endswith(HASH_SUFFIX) and PART_RE.match(name[:-len(HASH_SUFFIX)].lstrip("_"))
            if m and int(m.group(1)) not in parts:
                os.remove(os.path.join(p, name))
        if has_manifest and not parts:  # a run that saved nothing: start it afresh
            os.remove(os.path.join(p, MANIFEST))
            has_manifest = False
        if has_manifest and not resume:
            raise DatasetError(f"{p} already holds a troef dataset; add --resume to continue "
                               "it, or write to another folder")
        if not has_manifest:
            others = [n for n in os.listdir(p) if n != LOCK]
            if others:
                raise DatasetError(f"{p} is not empty and holds no troef dataset; "
                                   "write to a new or empty folder")
            self._write_manifest(complete=False)
            return
        old = read_manifest(p)
        diff = _differences(old["setup"], self.setup)
        if diff:
            raise DatasetError(f"--resume: {p} was written with {diff}; "
                               "use the original options or another folder")
        expected = json.loads(json.dumps(self.spec.metadata()))
        for i, f in parts.items():
            if i >= self.spec.n_chunks:
                raise DatasetError(f"{f} is not a chunk of this run (it has "
                                   f"{self.spec.n_chunks} chunks); delete it and --resume again")
            rec, rows = check_part(f, i, expected)
            if [rec.get("game_start"), rec.get("games")] != list(self.spec.chunk_range(i)):
                raise DatasetError(f"{f} does not belong to this run; delete it and "
                                   "--resume again")
            self.saved[i] = rec

    def _write_manifest(self, complete):
        m = {"format": FORMAT, "version": VERSION, "setup": self.setup, "complete": complete}
        if complete:
            m["rows"] = sum(r["rows"] for r in self.saved.values())
        data = (json.dumps(m, indent=1) + "\n").encode()
        _write_atomic(os.path.join(self.path, MANIFEST), data)

    @property
    def missing(self):
        from .run import ChunksLeft
        return ChunksLeft(self.spec.n_chunks, self.saved)

    @property
    def saved_deals(self):
        return sum(r["deals"] for r in self.saved.values())

    @property
    def saved_units(self):
        return sum(r["games"] for r in self.saved.values())

    def summaries(self):
        return [self.saved[i]["summary"] for i in sorted(self.saved)]

    def write(self, out):
        """Put one chunk in place, atomically: ``ChunkOut`` with ``data`` (the Parquet
        bytes), or with ``file`` and ``sha256`` (the part already written under its temp
        name by :func:`spool_part`, which is synced and renamed here)."""
        if out.data is None and getattr(out, "file", None) is None:
            raise ValueError("chunk has no Parquet data")
        import hashlib
        path = os.path.join(self.path, part_name(out.index))
        with _SIGNALS.critical():
            digest = out.sha256 if out.data is None else hashlib.sha256(out.data).hexdigest()
            _write_atomic(hash_path(path), f"{digest} {out.rows}\n".encode(), fsync=False)
            try:
                if out.data is None:
                    _place_part(out.file, path)
                else:
                    _write_atomic(path, out.data)
            except BaseException:   # e.g. a full disk: no hash of a part that is not there
                os.remove(hash_path(path))
                raise
            self.saved[out.index] = {"chunk": out.index, "game_start": out.start,
                                     "games": out.units, "deals": out.deals,
                                     "rows": out.rows, "summary": out.partials}

    def finish(self):
        if not self.missing:
            self._write_manifest(complete=True)

    def describe(self):
        s = self.spec
        return (f"saved {len(self.saved)} of {s.n_chunks} chunks ({self.saved_units:,} of "
                f"{s.n:,} {unit_of(self.setup)}) in {self.path}")

    def close(self):
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


# ---------------------------------------------------------------- reading

def sources(path):
    """A results path → (list of Parquet files, run metadata). A dataset folder gives its
    parts in chunk order and the manifest's set-up (plus ``complete``/``chunks_saved``);
    a file gives itself and its metadata."""
    import pyarrow.parquet as pq
    from .storage import META_KEY
    path = os.fspath(path)
    if os.path.isdir(path):
        m = read_manifest(path)
        parts = part_files(path)
        chunks = m["setup"].get("chunks")
        for i, f in parts.items():
            if not isinstance(chunks, int) or i >= chunks:
                raise DatasetError(f"{f} is not a chunk of the dataset {path} "
                                   f"({chunks} chunks)")
            check_part(f, i, within=m["setup"])
        if m.get("complete") and len(parts) != chunks:
            missing = next(i for i in range(chunks) if i not in parts)   # within len(parts) + 1
            raise DatasetError(f"{path} is marked complete but {part_name(missing)} is missing")
        files = list(parts.values())
        meta = dict(m["setup"])
        meta["complete"] = bool(m.get("complete"))
        meta["chunks_saved"] = len(files)
        return files, meta
    if not os.path.exists(path):
        raise OSError(f"no such results file: {path}")
    from .storage import parse_metadata, verify_file
    md = verify_file(path)
    return [path], parse_metadata((md.metadata or {}).get(META_KEY), path)


def read_dataset(path, columns=None, filter=None):
    """Read a dataset folder (or one results file) → (DataFrame, metadata). ``columns``
    and ``filter`` (a ``pyarrow.dataset`` expression, e.g. ``ds.field("hand_size") == 8``)
    are pushed down: only those columns, and only row groups whose statistics can match,
    are read."""
    import pyarrow.dataset as ds
    files, meta = sources(path)
    if not files:
        raise DatasetError(f"{path} holds no saved chunks yet")
    try:
        table = ds.dataset(files, format="parquet").to_table(columns=columns, filter=filter)
    except Exception as e:  # pyarrow raises several types for bad files or columns
        raise ValueError(f"cannot read {path}: {str(e).splitlines()[0]}") from None
    from .storage import frame_of
    return frame_of(table, path), meta
