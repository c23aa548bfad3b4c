"""Parquet storage of simulation results: the tidy table of the game's registry entry.

Every dtype (including the categoricals) survives the round trip; the run's set-up (game,
players, schedule, variants, seed, policies) travels in the file's metadata, so a report
can say exactly what produced it. Files are written with page checksums, and reading
checks them.
"""
import errno
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
    from .games import of_result
    check_output(path, force)
    entry = of_result(result)
    table = pa.Table.from_pandas(entry.tidy(result), preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[META_KEY] = json.dumps(entry.metadata(result)).encode()
    table = table.replace_schema_metadata(meta)
    tmp = f"{path}.part"
    try:
        pq.write_table(table, tmp, write_page_checksum=True)
        os.replace(tmp, path)
    except OSError as e:
        raise write_failed(path, e) from None
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
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
    return meta


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
    return table.to_pandas(), meta


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
