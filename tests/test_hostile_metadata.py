"""Crafted troef metadata that names a real game but holds other fields (missing, of
another type, out of range), and dataset manifests with a crafted set-up: `stats` and
`report --from` refuse them in one line naming the file and the field (they were read as
sound, or tripped the report over with a KeyError / TypeError traceback)."""
import glob
import json
import os
import shutil

import pyarrow.parquet as pq
import pytest

from conftest import invoke_cli


def one_line(args, needle):
    code, out, err = invoke_cli(*args)
    err = [l for l in err.splitlines() if not l.startswith("troef: compiling")]
    assert code == 2 and len(err) == 1 and err[0].startswith("troef: error:"), (code, err)
    assert needle in err[0], err


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    d = tmp_path_factory.mktemp("meta")
    f, ds = d / "r.parquet", d / "ds"
    for out, extra in ((f, []), (ds, ["--chunk-deals", 100])):
        code, _, err = invoke_cli("simulate", "boerenbridge", "--hand-size", 3, "--deals", 300,
                                  *extra, "--out", out)
        assert code == 0, err
    return d, f, ds


@pytest.mark.parametrize("change, needle", [
    ({"players": None}, "field 'players' is missing"),
    ({"players": [1]}, "field 'players' is list"),
    ({"schedule": None}, "field 'schedule' is NoneType"),
    ({"policies": 5}, "field 'policies' is int"),
    ({"scoring": {}}, "field 'scoring' is dict"),
    ({"players": 99}, "99 players"),
    ({"players": 3}, "4 policies for 3 players"),
    ({"seed": -1}, "seed -1"),
    ({"first_dealer": 7}, "dealer 7"),
])
def test_crafted_fields_are_refused(made, tmp_path, change, needle):
    d, f, _ = made
    t = pq.read_table(f)
    meta = json.loads(t.schema.metadata[b"troef"])
    for k, v in change.items():
        if v is None and k == "players":
            meta.pop(k)
        else:
            meta[k] = v
    kv = dict(t.schema.metadata)
    kv[b"troef"] = json.dumps(meta).encode()
    bad = tmp_path / "bad.parquet"
    pq.write_table(t.replace_schema_metadata(kv), bad)
    one_line(["stats", bad], needle)
    one_line(["report", "boerenbridge", "--from", bad, "--out", tmp_path / "rep"], needle)
    assert not (tmp_path / "rep").exists()


@pytest.mark.parametrize("setup, needle", [
    ({"game": "../.."}, "unknown game"),
    ({"game": "boerenbridge"}, "no sound chunk count"),
    ({"chunks": "x"}, "no sound chunk count"),
    ({"players": [1]}, "field 'players' is list"),
])
def test_crafted_manifest_setups_are_refused(made, tmp_path, setup, needle):
    _, _, ds = made
    copy = tmp_path / "ds"
    shutil.copytree(ds, copy)
    for p in glob.glob(str(copy / "part-*")):
        os.remove(p)
    m = json.loads((copy / "_manifest.json").read_text())
    m["setup"] = setup if "game" in setup else dict(m["setup"], **setup)
    m["complete"] = False
    (copy / "_manifest.json").write_text(json.dumps(m))
    one_line(["stats", copy], needle)
    one_line(["report", "boerenbridge", "--from", copy, "--out", tmp_path / "rep"], needle)


def test_damaged_pandas_metadata_is_one_line(made, tmp_path):
    """A file whose pandas metadata lacks a column's type (found by the hostile-file fuzz:
    pyarrow's to_pandas raised KeyError 'pandas_type')."""
    d, f, ds = made
    t = pq.read_table(f)
    kv = dict(t.schema.metadata)
    pandas_meta = json.loads(kv[b"pandas"])
    del pandas_meta["columns"][0]["pandas_type"]
    kv[b"pandas"] = json.dumps(pandas_meta).encode()
    bad = tmp_path / "bad.parquet"
    pq.write_table(t.replace_schema_metadata(kv), bad)
    code, _, err = invoke_cli("stats", bad)      # reads only its columns: may answer
    assert code in (0, 2) and "Traceback" not in err and len(err.splitlines()) <= 1
    one_line(["report", "boerenbridge", "--from", bad, "--out", tmp_path / "rep"],
             "pandas metadata is damaged")
