"""Hostile files and outputs: crafted metadata, wrong columns, flipped bits, foreign,
missing and extra dataset parts, special files, existing outputs, over-long schedules —
each ends in one line on stderr and exit 2, never a traceback or a silently wrong number."""
import json
import os
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import invoke_cli


def one_line_error(args, needle=""):
    code, out, err = invoke_cli(*args)
    assert code == 2, (args, code, out, err)
    err = "\n".join(l for l in err.splitlines() if not l.startswith("troef: compiling"))
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert needle in err, (needle, err)
    return err


def ok(*args):
    code, out, err = invoke_cli(*args)
    assert code == 0, (args, code, err)
    return out


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    d = tmp_path_factory.mktemp("hostile")
    f = d / "r.parquet"
    ok("simulate", "boerenbridge", "--hand-size", 5, "--deals", 3000, "--out", f)
    return d, f


def _with_meta(src, dst, raw):
    t = pq.read_table(src)
    meta = dict(t.schema.metadata)
    meta[b"troef"] = raw
    pq.write_table(t.replace_schema_metadata(meta), dst)


@pytest.mark.parametrize("raw, needle", [
    (b"[1, 2]", "not a JSON object"),
    (b'"boerenbridge"', "not a JSON object"),
    (b"[" * 100_000 + b"]" * 100_000, "troef metadata"),
    (b'{"game": "bonken_stats.os"}', "unknown game"),
    (b'{"game": "../.."}', "unknown game"),
    (b'{"game": 5}', "unknown game"),
    (b"{not json", "not valid JSON"),
])
def test_crafted_metadata_is_one_line(results, tmp_path, raw, needle):
    _, f = results
    bad = tmp_path / "bad.parquet"
    _with_meta(f, bad, raw)
    one_line_error(["stats", bad], needle)
    one_line_error(["report", "boerenbridge", "--from", bad, "--out", tmp_path / "rep"])


def test_troef_tagged_files_with_other_columns_or_types(results, tmp_path):
    _, f = results
    t = pq.read_table(f)
    meta = t.schema.metadata
    other = pa.table({"x": [1, 2, 3]}).replace_schema_metadata(meta)
    pq.write_table(other, tmp_path / "other.parquet")
    one_line_error(["stats", tmp_path / "other.parquet"], "not a troef boerenbridge results file")
    i = t.schema.get_field_index("score")
    wrong = t.set_column(i, "score", pa.array([str(v) for v in t["score"].to_pylist()]))
    pq.write_table(wrong.replace_schema_metadata(meta), tmp_path / "wrong.parquet")
    one_line_error(["stats", tmp_path / "wrong.parquet"], "column 'score'")


def test_flipped_bits_in_a_results_file_are_detected(results, tmp_path):
    _, f = results
    data = bytearray(f.read_bytes())
    bad = tmp_path / "flipped.parquet"
    for k in range(4):                       # bits in the middle of the data pages
        data[len(data) // 3 + 97 * k] ^= 1 << k
    bad.write_bytes(bytes(data))
    one_line_error(["stats", bad], "cannot read")


@pytest.fixture()
def dataset(tmp_path):
    def make(name, seed=0):
        d = tmp_path / name
        ok("simulate", "boerenbridge", "--hand-size", 4, "--deals", 3000, "--chunk-deals",
           1000, "--seed", seed, "--out", d)
        return d
    return make


def test_damaged_foreign_missing_extra_and_duplicated_parts(dataset, tmp_path):
    a = dataset("a")
    base = ["simulate", "boerenbridge", "--hand-size", 4, "--deals", 3000, "--chunk-deals",
            1000, "--out"]
    # damaged: four flipped bits
    d = tmp_path / "damaged"
    shutil.copytree(a, d)
    p = d / "part-00001.parquet"
    data = bytearray(p.read_bytes())
    for k in range(4):
        data[len(data) // 2 + 31 * k] ^= 1 << k
    p.write_bytes(bytes(data))
    one_line_error(["stats", d], "damaged")
    one_line_error(base + [d, "--resume"], "damaged")
    # foreign: a part (with its hash) of a seed-2 run put into the seed-0 dataset
    b = dataset("b", seed=2)
    d = tmp_path / "foreign"
    shutil.copytree(a, d)
    for pre, suf in (("", ""), ("_", ".sha256")):
        shutil.copy2(b / f"{pre}part-00001.parquet{suf}", d / f"{pre}part-00001.parquet{suf}")
    one_line_error(["stats", d], "another run")
    one_line_error(base + [d, "--resume"], "another run")
    # duplicated: chunk 0 copied over chunk 1 (its footer names chunk 0)
    d = tmp_path / "dup"
    shutil.copytree(a, d)
    for pre, suf in (("", ""), ("_", ".sha256")):
        shutil.copy2(d / f"{pre}part-00000.parquet{suf}", d / f"{pre}part-00001.parquet{suf}")
    one_line_error(["stats", d], "another chunk")
    # missing: a complete dataset without one of its parts
    d = tmp_path / "missing"
    shutil.copytree(a, d)
    os.remove(d / "part-00001.parquet")
    one_line_error(["stats", d], "part-00001.parquet is missing")
    # extra: a part beyond the dataset's chunks
    d = tmp_path / "extra"
    shutil.copytree(a, d)
    for pre, suf in (("", ""), ("_", ".sha256")):
        shutil.copy2(d / f"{pre}part-00002.parquet{suf}", d / f"{pre}part-00007.parquet{suf}")
    one_line_error(["stats", d], "not a chunk")
    # the same folder twice
    one_line_error(["stats", a, a], "given twice")


def test_outputs_never_destroy(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_line_error(["simulate", "bonken", "--games", 1, "--out", os.devnull], os.devnull)
    one_line_error(["simulate", "bonken", "--games", 1, "--out", tmp_path / "dev.parquet",
                    "--record-play", os.devnull], "not a regular file")
    one_line_error(["simulate", "boerenbridge", "--games", 1, "--record-play", os.devnull],
                   "not a regular file")
    f = tmp_path / "x.parquet"
    f.write_bytes(b"precious")
    one_line_error(["simulate", "klaverjassen", "--deals", 10, "--out", f], "--force")
    assert f.read_bytes() == b"precious"
    ok("simulate", "klaverjassen", "--deals", 10, "--out", f, "--force")
    assert pq.read_metadata(f).num_rows == 40
    user = tmp_path / "site"
    user.mkdir()
    (user / "index.html").write_text("mine")
    one_line_error(["report", "boonaken", "--deals", 2000, "--out", user], "holds other files")
    assert (user / "index.html").read_text() == "mine"
    one_line_error(["report", "boonaken", "--deals", 2000, "--out",
                    tmp_path / "no" / "such" / "x"], "does not exist")
    assert not (tmp_path / "no").exists()


def test_schedules_beyond_the_result_dtypes_are_refused():
    one_line_error(["simulate", "boerenbridge", "--variant", "fixed_hands=1,70000", "--games", 1],
                   "at most 32,767 deals")
    # checked before the schedule is built: 10**20 rounds ended in an OverflowError traceback
    one_line_error(["simulate", "boerenbridge", "--variant", f"fixed_hands=1,{10**20}",
                    "--games", 1], "at most 32,767 deals")
    # the longest allowed schedule counts every exact bid (int16 per game)
    out = json.loads(ok("simulate", "boerenbridge", "--players", 3, "--variant",
                        "fixed_hands=1,32767", "--games", 1, "--json"))
    assert out["deals"] == 32767
    assert sum(s["mean_exact"] for s in out["seats"]) > 3 * 10_000
