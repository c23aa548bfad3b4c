"""The streamed results path's pipeline changes no byte: a part is the same whatever the
number of encoding threads, whether the table was built whole or a row group at a time,
and whether the chunk was played by the local pipeline or by ``compute_chunk`` (a Dask
worker's path); the parts of any chunking read back as one table; and a run interrupted
while several chunks are being encoded saves every finished chunk, in order, and resumes
to the same parts."""
from dataclasses import replace

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from analyzer import run as runner
from analyzer import stream
from analyzer.run import RunSpec, compute_chunk, run


def parts(path):
    return {p.name: p.read_bytes() for p in sorted(path.glob("part-*.parquet"))}


CASES = [
    ("boerenbridge", dict(deals=5000, hand_size=8)),
    ("boerenbridge", dict(deals=3001, players=7, hand_size=6, policy="random")),
    ("boerenbridge", dict(games=40, players=5, variant=("no_trump_rounds=ones,top",))),
    ("bonken", dict(deals=900, contract="no-hearts")),
    ("klaverjassen", dict(games=40, variant=("amsterdam",))),
    ("boonaken", dict(deals=900, preset="leimuiden", players=5)),
    ("boonaken", dict(games=12)),           # whole matches: one table a part
]


@pytest.mark.parametrize("game,case", CASES)
def test_parts_same_for_any_encoder_count_and_on_a_worker(tmp_path, monkeypatch, game, case):
    monkeypatch.setattr(stream, "ROW_GROUP_ROWS", 300)     # several row groups a part
    spec = RunSpec.make(game, seed=3, **case)
    spec = replace(spec, chunk=max(1, spec.n // 5))
    got = {}
    for k in (1, 2, 3):
        monkeypatch.setattr(runner, "ENCODERS", k)
        run(spec, out=str(tmp_path / f"e{k}"))
        got[k] = parts(tmp_path / f"e{k}")
    assert len(got[1]) == spec.n_chunks >= 5
    assert got[1] == got[2] == got[3]
    for i in range(spec.n_chunks):
        worker = compute_chunk(spec, i, "parquet")
        assert isinstance(worker.data, bytes)
        assert worker.data == got[2][stream.part_name(i)], i
    groups = pq.ParquetFile(tmp_path / "e2" / stream.part_name(0)).num_row_groups
    assert groups > 1 if "games" not in case or game != "boonaken" else groups >= 1


@pytest.mark.parametrize("game,case", CASES)
def test_row_groups_built_one_at_a_time_are_the_whole_table(game, case):
    spec = RunSpec.make(game, seed=8, **case)
    res = spec.simulate(0, spec.n)
    part = spec.entry.partials(res)
    whole = stream.chunk_table(res, spec, 0, part)
    per_deal = 5 if game == "boonaken" else res.rules.players if game == "boerenbridge" else 4
    for rows in (1, 7, 999, 10**9):
        schema, blocks = stream.ChunkSource(res, spec, 0, part, max_rows=rows).blocks()
        blocks = list(blocks)
        table = pa.concat_tables(blocks).replace_schema_metadata(schema.metadata)
        assert table.equals(whole, check_metadata=True), rows
        if game == "boonaken" and "games" in case:
            assert len(blocks) == 1
        else:
            assert all(b.num_rows <= max(rows, per_deal) for b in blocks)
            assert len(blocks) == -(-whole.num_rows // (max(1, rows // per_deal) * per_deal))


def test_a_table_that_needs_the_kernel_lock_is_built_beside_the_play(tmp_path, monkeypatch):
    """A game whose table kernels may not run beside the simulation's (no
    COLUMNS_ANY_THREAD) builds it on the playing thread: the same parts."""
    from analyzer.games import get
    spec = replace(RunSpec.make("boonaken", deals=900, seed=3), chunk=200)
    run(spec, out=str(tmp_path / "free"))
    monkeypatch.delattr(get("boonaken"), "COLUMNS_ANY_THREAD")
    run(spec, out=str(tmp_path / "locked"))
    assert parts(tmp_path / "free") == parts(tmp_path / "locked")
    assert len(parts(tmp_path / "free")) == 5


def test_any_chunking_reads_back_as_one_table(tmp_path, monkeypatch):
    monkeypatch.setattr(stream, "ROW_GROUP_ROWS", 4096)
    base = RunSpec.make("boerenbridge", deals=20000, hand_size=5, seed=2)
    tables = []
    for chunk in (20000, 6000, 1777):
        d = tmp_path / f"c{chunk}"
        run(replace(base, chunk=chunk), out=str(d))
        df, _ = stream.read_dataset(d)
        tables.append(df)
    for df in tables[1:]:
        assert df.equals(tables[0])


def test_interrupt_while_chunks_encode_saves_every_finished_chunk(tmp_path, monkeypatch):
    spec = RunSpec.make("boerenbridge", deals=6000, hand_size=8, seed=6)
    spec = replace(spec, chunk=500)         # 12 chunks
    ref = tmp_path / "ref"
    run(spec, out=str(ref))
    real = RunSpec.simulate

    def interrupted(self, start, count, record=None):
        if start == 7 * 500:
            raise KeyboardInterrupt
        return real(self, start, count, record)
    monkeypatch.setattr(RunSpec, "simulate", interrupted)
    monkeypatch.setattr(runner, "ENCODERS", 3)
    cut = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        run(spec, out=str(cut))
    # the seven chunks played before the interrupt are all saved, none after
    assert list(parts(cut)) == [stream.part_name(i) for i in range(7)]
    assert not [p for p in cut.iterdir() if ".tmp" in p.name]
    monkeypatch.setattr(RunSpec, "simulate", real)
    again = run(spec, out=str(cut), resume=True)
    assert again.resumed == 7 and parts(cut) == parts(ref)


def test_ctrl_c_while_waiting_for_an_encoder_leaves_no_temp_file(tmp_path, monkeypatch):
    """Ctrl-C while the playing thread waits for a chunk being encoded: the chunks saved
    are a prefix, every temp file (of that chunk, and of any chunk written after it) is
    removed, and resume gives the uninterrupted run's parts."""
    import os
    import signal
    import time
    spec = replace(RunSpec.make("boerenbridge", deals=6000, hand_size=8, seed=6), chunk=500)
    ref = tmp_path / "ref"
    run(spec, out=str(ref))
    real = stream.spool_part

    def spool_then_interrupt(schema, blocks, folder, index):
        got = real(schema, blocks, folder, index)
        if index == 4:              # written under its temp name, not yet handed on
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.3)         # the playing thread is interrupted while it waits
        return got
    monkeypatch.setattr(stream, "spool_part", spool_then_interrupt)
    monkeypatch.setattr(runner, "ENCODERS", 1)  # the playing thread waits for each chunk
    cut = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        run(spec, out=str(cut))
    saved = list(parts(cut))
    assert saved == [stream.part_name(i) for i in range(4)]
    assert not [p.name for p in cut.iterdir() if ".tmp" in p.name]
    monkeypatch.setattr(stream, "spool_part", real)
    again = run(spec, out=str(cut), resume=True)
    assert parts(cut) == parts(ref)
