"""A full disk: every write that fails with ENOSPC ends in one line naming the path (and, for
a dataset folder, how far it got and the --resume hint), leaves no temp or .part file and
no hash of a part that was not written; a later --resume finishes the run."""
import errno
import os
import subprocess

import pytest

from conftest import invoke_cli

DEALS = ["simulate", "boerenbridge", "--hand-size", "3", "--deals", "600"]


def one_line(args, *needles):
    code, out, err = invoke_cli(*args)
    err = [l for l in err.splitlines() if not l.startswith("troef: compiling")]
    assert code == 2 and len(err) == 1 and err[0].startswith("troef: error:"), (code, err)
    for n in needles:
        assert n in err[0], (n, err)
    return err[0]


def leftovers(folder):
    return sorted(n for n in os.listdir(folder)
                  if ".tmp" in n or n.endswith(".part") or n.endswith(".sha256"))


def no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_dataset_part_on_a_full_disk(tmp_path, monkeypatch):
    from analyzer import stream
    out = tmp_path / "ds"
    calls = {"n": 0}
    real_fsync = os.fsync

    def fsync(fd):          # the manifest and the first two parts fit; then the disk is full
        calls["n"] += 1
        if calls["n"] > 3:
            no_space()
        return real_fsync(fd)
    monkeypatch.setattr(stream.os, "fsync", fsync)
    err = one_line([*DEALS, "--chunk-deals", 100, "--out", out], "part-00002.parquet",
                   "no space left", "saved 2 of 6 chunks", "--resume")
    assert str(out) in err
    assert leftovers(out) == ["_part-00000.parquet.sha256", "_part-00001.parquet.sha256"]
    monkeypatch.setattr(stream.os, "fsync", real_fsync)
    code, _, err = invoke_cli(*DEALS, "--chunk-deals", 100, "--out", out, "--resume")
    assert code == 0, err


def test_single_file_on_a_full_disk(tmp_path, monkeypatch):
    import pyarrow.parquet as pq
    f = tmp_path / "r.parquet"
    real = pq.write_table

    def half_written(table, where, **kw):
        with open(where, "wb") as fh:
            fh.write(b"PAR1")
        no_space()
    monkeypatch.setattr(pq, "write_table", half_written)
    one_line([*DEALS, "--out", f], f"cannot write {f}", "no space left")
    assert os.listdir(tmp_path) == []
    monkeypatch.setattr(pq, "write_table", real)


@pytest.fixture
def tiny_disk(tmp_path):
    """A 64 KiB tmpfs (needs root; skipped elsewhere)."""
    d = tmp_path / "tiny"
    d.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs",
                                            str(d)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    yield d
    subprocess.run(["umount", str(d)], check=True)


def test_a_real_full_disk(tiny_disk):
    big = ["simulate", "boerenbridge", "--hand-size", "5", "--deals", "20000"]
    one_line([*big, "--out", tiny_disk / "r.parquet"], f"cannot write {tiny_disk / 'r.parquet'}",
             "no space left")
    one_line([*big, "--record-play", tiny_disk / "p.jsonl"], f"cannot write {tiny_disk / 'p.jsonl'}",
             "no space left")
    assert os.listdir(tiny_disk) == []
    ds = tiny_disk / "ds"
    one_line([*big, "--chunk-deals", 2000, "--out", ds], str(ds / "part-0000"), "--resume")
    for n in leftovers(ds):       # only the hashes of the parts that were written
        assert n.endswith(".sha256") and (ds / n[1:-len(".sha256")]).exists(), n


def test_report_on_a_full_disk_names_the_file_and_can_be_written_again(tmp_path, monkeypatch):
    import matplotlib.figure
    out = tmp_path / "rep"
    real = matplotlib.figure.Figure.savefig
    calls = {"n": 0}

    def savefig(self, *a, **kw):     # the first figure fits; then the disk is full
        calls["n"] += 1
        if calls["n"] > 1:
            no_space()
        return real(self, *a, **kw)
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", savefig)
    one_line(["report", "boonaken", "--deals", 300, "--out", out], f"cannot write {out}",
             "no space left")
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", real)
    # before: the cut-short folder had no setup.json, and was refused as "holds other files"
    code, _, err = invoke_cli("report", "boonaken", "--deals", 300, "--out", out)
    assert code == 0, err
    assert (out / "index.html").exists()
