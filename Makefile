# troef — two commands from a clean clone: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
WARM   := $(VENV)/.warm

.PHONY: setup demo test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# Compile every command's kernels once (tiny runs), again whenever fastsim/ changes; the
# cache is keyed by the code (fastsim/_cache.py). A failed warm-up only costs a slower first run.
$(WARM): $(STAMP) $(wildcard fastsim/*.py)
	$(BIN)/python -m analyzer.warm || echo "troef: warm-up incomplete; the first runs will compile"
	touch $(WARM)

setup: $(STAMP) $(WARM)

demo: setup
	$(BIN)/troef simulate boerenbridge --players 4 --hand-size 8 --deals 1000000 --seed 1
	$(BIN)/troef simulate boerenbridge --players 4 --games 20000 --seed 1

test: setup
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python benchmarks/bench_boerenbridge.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
