"""The README as a tested document.

Every ``troef …`` command in the README's code blocks is run, in README order, in one
scratch folder (so the files an earlier command writes are there for a later one), with
its sizes scaled down (``TROEF_README_SCALE``, default 0.002 of the documented size, with a
floor per option). Each must exit 0. Commands that need a machine outside this one (a Dask
``--scheduler`` at a placeholder address) are only checked to parse. Then what the README
says a command prints is checked against what it prints: the Parquet column list of
``--out``, and every JSON key the README names in a ``{"key", …}`` shape must appear in the
``--json`` output of the first command of the same section.
"""
import json
import os
import re
import shlex

import pytest

from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
SCALE = float(os.environ.get("TROEF_README_SCALE", "0.002"))
# option -> the smallest value a scaled run keeps (so every statistic still has data)
FLOORS = {"--deals": 400, "--games": 4, "--matches": 4, "--samples": 200}
PLACEHOLDER = re.compile(r"SCHEDULER|HOST:PORT")


def sections():
    """(heading, text) of every ``##``/``###`` section."""
    parts = re.split(r"^(#{2,3} .*)$", README, flags=re.M)
    return [(parts[i].lstrip("# ").strip(), parts[i + 1]) for i in range(1, len(parts), 2)]


def commands(text):
    """The troef commands of the code blocks of ``text`` (continuation lines joined,
    comments dropped), as argument lists without the leading ``troef``."""
    out = []
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.S | re.M):
        block = block.replace("\\\n", " ")
        for line in block.splitlines():
            if not line.startswith("troef "):
                continue
            words = shlex.split(line, comments=True)
            if words[:1] == ["troef"] and len(words) > 1:
                out.append(words[1:])
    return out


def scaled(args):
    args = list(args)
    for i, a in enumerate(args[:-1]):
        if a in FLOORS and args[i + 1].isdigit():
            n = int(args[i + 1])
            args[i + 1] = str(min(n, max(FLOORS[a], int(n * SCALE))))
    return args


def run(args, capsys):
    import cli
    capsys.readouterr()
    try:
        cli.main(args=args, prog_name="troef")
        code = 0
    except SystemExit as e:
        code = e.code or 0
    out, err = capsys.readouterr()
    return code, out, err


ALL = [(title, args) for title, text in sections() for args in commands(text)]


def test_the_readme_documents_commands():
    assert len(ALL) >= 30


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A scratch folder standing in for the repository root: it has `examples/`."""
    import shutil
    d = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "examples", d / "examples")
    return d


def test_every_readme_command_runs(workdir, capsys, monkeypatch):
    monkeypatch.chdir(workdir)
    failed = []
    for title, args in ALL:
        if any(PLACEHOLDER.search(a) for a in args):
            code, out, err = run(args + ["--help"], capsys)   # parses, needs no cluster
        else:
            code, out, err = run(scaled(args), capsys)
        if code != 0:
            failed.append(f"[{title}] troef {' '.join(args)}: exit {code}: {err.strip()[-300:]}")
    assert not failed, "\n".join(failed)


def test_documented_parquet_columns_are_the_files_columns(workdir, capsys, monkeypatch):
    import pyarrow.parquet as pq
    monkeypatch.chdir(workdir)
    m = re.search(r"`--out` \(Parquet\): one row per \(deal, seat\), columns `([^`]*)`", README)
    assert m, "the README documents the Parquet columns"
    documented = [c.strip() for c in m.group(1).split(",")]
    f = workdir / "columns.parquet"
    code, _, err = run(["simulate", "boerenbridge", "--games", "2", "--out", str(f)], capsys)
    assert code == 0, err
    assert documented == pq.read_schema(f).names


def _keys(obj):
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in _keys(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in _keys(v)}
    return set()


def documented_keys(text):
    """Names written inside backticked JSON shapes such as `{"a", "b": [{"c"}]}`."""
    names = set()
    for shape in re.findall(r"`(\[?\{[^`]*\}\]?)`", text.replace("\n", " ")):
        names.update(re.findall(r'"([A-Za-z_]+)"', shape))
    return names


@pytest.mark.parametrize("title", [t for t, text in sections()
                                   if documented_keys(text) and commands(text)])
def test_documented_json_keys_are_printed(workdir, capsys, monkeypatch, title):
    """Every key a section names is printed by one of the section's commands (run with
    ``--json``)."""
    monkeypatch.chdir(workdir)
    text = dict(sections())[title]
    printed = set()
    for args in commands(text):
        if any(PLACEHOLDER.search(a) for a in args) or "stats" in args[:1]:
            continue
        args = scaled(args) + ([] if "--json" in args else ["--json"])
        if any(a in ("--out", "--record-play") for a in args):
            args.append("--force")      # the file exists from the command test
        code, out, err = run(args, capsys)
        assert code == 0, err
        printed |= _keys(json.loads(out))
    missing = documented_keys(text) - printed
    assert not missing, f"[{title}] no command of the section prints {sorted(missing)}"


PYTHON_BLOCKS = re.findall(r"^```python\n(.*?)^```", README, flags=re.S | re.M)


@pytest.mark.parametrize("i", range(len(PYTHON_BLOCKS)))
def test_readme_python_examples_run(i, monkeypatch, tmp_path):
    """Every ```python block of the README runs as written (in a scratch folder: a block
    may write results)."""
    monkeypatch.chdir(tmp_path)
    code = re.sub(r"deals=(\d+)", lambda m: f"deals={min(int(m.group(1)), 2000)}", PYTHON_BLOCKS[i])
    exec(compile(code, f"README.md python block {i + 1}", "exec"), {})


def test_readme_has_python_examples():
    assert len(PYTHON_BLOCKS) >= 2
