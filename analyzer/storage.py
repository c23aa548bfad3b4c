"""Parquet storage of simulation results: the tidy table of the game's registry entry.

Every dtype (including the categoricals) survives the round trip; the run's set-up (game,
players, schedule, variants, seed, policies) travels in the file's metadata, so a report
can say exactly what produced it. Files are written with page checksums, and reading
checks them.
"""
import contextlib
import errno
import functools
import json
import os
import stat

META_KEY = b"troef"
MAX_META_BYTES = 1 << 20


class OutputError(ValueError):
    """An output path that troef will not write (one line)."""


def write_failed(path, e):
    """An OSError met while writing ``path`` (a full disk, a quota, a read-only or vanished
    folder) as one line that names the path: an :class:`OutputError`."""
    code = getattr(e, "errno", None)
    if code in (errno.ENOSPC, errno.EDQUOT):
        reason = "no space left on the device"
    elif code is not None and code in errno.errorcode:
        reason = os.strerror(code)
    else:
        reason = (str(e).strip() or type(e).__name__).splitlines()[0]
    return OutputError(f"cannot write {path}: {reason}")


@contextlib.contextmanager
def atomic_path(path, tmp=None):
    """Write ``path`` atomically: the block writes the path this yields (``tmp``, by default
    ``path.part``), which then replaces ``path``; a failed write leaves no temporary file
    behind, and an OSError on the way is one line naming ``path`` (:func:`write_failed`)."""
    tmp = f"{path}.part" if tmp is None else tmp
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as e:
        raise write_failed(path, e) from None
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def run_metadata(result):
    """The set-up of a result of any game, as stored with its results."""
    from .games import of_result
    return of_result(result).metadata(result)


def check_output(path, force=False):
    """Refuse to write over a special file, or over an existing file without ``force``;
    the folder must exist (troef creates no folders for a file output)."""
    path = os.fspath(path)
    d = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(d):
        raise OutputError(f"cannot write {path}: folder {d} does not exist")
    if not os.access(d, os.W_OK):
        raise OutputError(f"cannot write {path}: folder {d} is not writable")
    if os.path.lexists(path):
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise OutputError(f"will not write over {path}: it is not a regular file")
        if not force:
            raise OutputError(f"{path} exists; give --force to overwrite it")


def write_parquet(result, path, force=False):
    """Write the tidy table atomically; returns the number of rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from .games import arrow_table, of_result
    check_output(path, force)
    entry = of_result(result)
    table = arrow_table(entry, result)
    meta = dict(table.schema.metadata or {})
    meta[META_KEY] = json.dumps(entry.metadata(result)).encode()
    table = table.replace_schema_metadata(meta)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, write_page_checksum=True)
    return table.num_rows


def parse_metadata(raw, path):
    """The troef metadata of a results file: a JSON object of bounded size naming a known
    game, else a one-line ValueError naming the file."""
    from .games import NAMES
    if raw is None:
        raise ValueError(f"{path} is not a troef results file (no troef metadata)")
    if len(raw) > MAX_META_BYTES:
        raise ValueError(f"{path}: troef metadata too large")
    try:
        meta = json.loads(raw)
    except RecursionError:
        raise ValueError(f"{path}: troef metadata nested too deep") from None
    except ValueError:
        raise ValueError(f"{path}: troef metadata is not valid JSON") from None
    if not isinstance(meta, dict):
        raise ValueError(f"{path}: troef metadata is not a JSON object")
    if meta.get("game") not in NAMES:
        raise ValueError(f"{path}: unknown game {str(meta.get('game'))[:40]!r} in its metadata")
    check_metadata(meta, path)
    return meta


def check_dataset_setup(setup, path):
    """The set-up in a dataset manifest: a known game, a chunk count, and the run
    metadata of that game (:func:`check_metadata`); a one-line ValueError otherwise."""
    from .games import NAMES
    if setup.get("game") not in NAMES:
        raise ValueError(f"{path}: unknown game {str(setup.get('game'))[:40]!r} in its set-up")
    chunks = setup.get("chunks")
    if isinstance(chunks, bool) or not isinstance(chunks, int) or chunks < 1:
        raise ValueError(f"{path}: the set-up has no sound chunk count ({str(chunks)[:20]})")
    check_metadata(setup, path)


@functools.lru_cache(maxsize=None)
def _reference_metadata(game):
    """The metadata troef writes for ``game`` (single deals, and whole games or matches),
    as it reads back from JSON: the schema a results file's metadata is checked against."""
    from . import games
    entry = games.get(game)
    refs = []
    for setup in (entry.tiny_setup(), entry.make_setup(entry.UNITS["games"])):
        res = entry.simulate(setup, 0, policies=entry.parse_policies(setup))
        refs.append(json.loads(json.dumps(entry.metadata(res))))
    return tuple(refs)


def _same_shape(value, ref):
    """``value`` has the JSON type of ``ref`` (a list: every element that of ref's)."""
    if ref is None:
        return value is None or isinstance(value, (str, int, float))
    if isinstance(ref, bool):
        return isinstance(value, bool)
    if isinstance(ref, (int, float)):
        return isinstance(value, (int, float)) and not isinstance(value, bool) and (
            isinstance(value, int) or not isinstance(ref, int))
    if isinstance(ref, str):
        return isinstance(value, str)
    if isinstance(ref, list):
        return isinstance(value, list) and (not ref or all(_same_shape(v, ref[0])
                                                           for v in value))
    return isinstance(value, dict)


def check_metadata(meta, path):
    """The troef metadata of a results file has every field troef writes for its game,
    each of the type troef writes, and a sound player count, seed, dealer and policies
    (a one-line ValueError naming the file and the field otherwise): a report built from
    it never shows, nor trips over, values that troef did not write."""
    best = None
    for ref in _reference_metadata(meta["game"]):
        bad = [k for k in ref if k not in meta or not _same_shape(meta[k], ref[k])]
        if not bad:
            break
        best = bad if best is None or len(bad) < len(best) else best
    else:
        k = best[0]
        raise ValueError(f"{path}: troef metadata field {k!r} is "
                         + ("missing" if k not in meta else
                            f"{type(meta[k]).__name__}, not what troef writes"))
    players, pols = meta.get("players"), meta.get("policies")
    if players is not None and not 2 <= players <= 7:
        raise ValueError(f"{path}: troef metadata has {players} players")
    if isinstance(pols, list) and players is not None and len(pols) != players:
        raise ValueError(f"{path}: troef metadata has {len(pols)} policies for {players} "
                         "players")
    if "seed" in meta and not 0 <= meta["seed"] < 2**64:
        raise ValueError(f"{path}: troef metadata seed {meta['seed']} is out of range")
    if players is not None and "first_dealer" in meta and \
            not 0 <= meta["first_dealer"] < players:
        raise ValueError(f"{path}: troef metadata dealer {meta['first_dealer']} is not a seat")


def frame_of(table, path, **options):
    """``table.to_pandas(**options)``; a file whose pandas metadata is damaged (pyarrow
    then trips over it with a KeyError, TypeError, ...) is a one-line ValueError."""
    try:
        return table.to_pandas(**options)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise ValueError(f"cannot read {path} as a troef results file: its pandas metadata "
                         f"is damaged ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})") from None


def read_parquet(path, columns=None):
    """Read a results file → (pandas DataFrame, run metadata dict)."""
    import pyarrow.parquet as pq
    if not os.path.exists(path):
        raise OSError(f"no such results file: {path}")
    try:
        table = pq.read_table(path, columns=columns, page_checksum_verification=True)
    except Exception as e:  # pyarrow raises several types for a bad file
        raise ValueError(f"cannot read {path} as a troef results file: {str(e).splitlines()[0]}") from None
    meta = parse_metadata((table.schema.metadata or {}).get(META_KEY), path)
    return frame_of(table, path), meta


def verify_file(path):
    """Read every page of a results file once, checking the page checksums (a row group
    at a time); returns its Parquet metadata. A damaged file is a one-line ValueError."""
    import pyarrow.parquet as pq
    try:
        pf = pq.ParquetFile(path, page_checksum_verification=True)
        for rg in range(pf.num_row_groups):
            pf.read_row_group(rg)
        return pf.metadata
    except Exception as e:  # pyarrow raises several types for a bad file
        raise ValueError(f"cannot read {path} as a troef results file: "
                         f"{str(e).splitlines()[0]}") from None
