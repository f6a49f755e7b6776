# Two commands do all the set-up on a fresh machine: `make serve` and `make test`.
# Both create (or reuse) .venv from requirements.lock through `make setup`.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# ProperDocs: the maintained drop-in fork of MkDocs 1.6 (same site, byte for byte but
# the generator tag; tests/content/test_build.py checks it)
ENGINE ?= $(VENV)/bin/properdocs
STAMP  := $(VENV)/.installed
ADDR   ?= 127.0.0.1:8000
JOBS   ?= 2
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup serve build lint test test-fast bench-loop test-versions test-notebooks screenshots outputs figures bench bench-gpu test-gpu lint-workflows lock clean

setup: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else "Python 3.11 is required (the pinned torch CPU wheel is cp311); set PYTHON=python3.11")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements.lock
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

serve: setup  ## build the site and serve it at http://127.0.0.1:8000/detach-in-depth/ (ONLY=zh or en: one language, a faster reload)
	$(if $(filter-out zh en,$(ONLY)),$(error ONLY=$(ONLY): use ONLY=zh or ONLY=en, or leave it out for both languages))
	$(if $(ONLY),ONLY_LANG=$(ONLY)) $(ENGINE) serve -f mkdocs.yml --strict -a $(ADDR)

build: setup  ## strict build into site/ (ENGINE=.venv/bin/mkdocs: the same site with MkDocs 1.6)
	$(ENGINE) build -f mkdocs.yml --strict

lint: setup  ## ruff over tools/ src/ tests/ benchmarks/ figures/ snippets/ (config: pyproject.toml)
	$(VENV)/bin/ruff check
	$(VENV)/bin/ruff format --check

# Checks that passed before with the same inputs are reused (tests/support/verdicts.py);
# FRESH=1 runs every one of them again, as a clean clone and CI do.
PYTEST_FLAGS = -n $(JOBS) --durations=15
export TEST_VERDICTS := $(if $(FRESH),off,on)

test: setup lint  ## lint, then the whole test suite (FRESH=1: no reused verdicts; browser tests need Chromium: CHROMIUM, default /usr/bin/chromium)
	$(PY) -m pytest $(PYTEST_FLAGS)

test-fast: setup lint  ## lint, then everything but the build and the browser
	$(PY) -m pytest -n $(JOBS) -m "not browser" --deselect tests/content/test_build.py

screenshots: setup  ## first screens of the key pages, 1280 and 390 px, both languages -> test-artifacts/screenshots/
	SCREENSHOTS=1 $(PY) -m pytest -n $(JOBS) tests/content/test_browser.py -k test_reader_screenshots

test-versions: setup  ## every snippet under other torch releases -> data/torch-versions/ (nox; ~6 GB and ~10 min install per release)
	$(VENV)/bin/nox $(NOXFLAGS) $(if $(TORCH),-s $(addprefix torch-,$(TORCH)),-t versions) -- $(if $(DROP),--drop) $(ARGS)
	$(PY) -m tools versions summary

test-notebooks: setup  ## execute every page's notebook in a Jupyter kernel and compare with the records
	ALL_NOTEBOOKS=1 $(PY) -m pytest -n $(JOBS) tests/tooling/test_downloads.py -k test_notebook_executes

outputs: setup  ## re-run every snippet and refresh its recorded output
	$(PY) -m tools snippets record

figures: setup  ## render the figures now (the build does this too)
	$(PY) -m tools figures build

bench: setup  ## CPU benchmarks -> benchmarks/results/cpu/
	$(PY) -m benchmarks run --device cpu && $(PY) -m tools snippets record snippets/benchmarks

bench-loop: setup  ## the loop benchmark on a clean clone (COMMIT=HEAD) -> benchmarks/loop-results/
	$(PY) -m tools dev loop --commit $(or $(COMMIT),HEAD)

bench-gpu: setup  ## CUDA benchmarks -> benchmarks/results/cuda/ (needs a GPU)
	$(PY) -m benchmarks run --device cuda && $(PY) -m tools snippets record snippets/benchmarks

test-gpu: setup  ## the gpu-marked tests (needs a GPU)
	$(PY) -m pytest -m gpu

lint-workflows: setup  ## validate .github/workflows/ against GitHub's schema, then audit them with zizmor (offline)
	$(VENV)/bin/check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml
	$(VENV)/bin/zizmor --offline --no-progress .github/workflows/

# The torch pin lives in requirements.lock only; `lock` keeps it (pip says 2.x.y+cpu).
TORCH_PIN = $(shell sed -n 's/^torch==\([0-9.]*\).*/\1/p' requirements.lock)

# pip-compile resolves what .venv holds and hashes every file pip may pick for it
# (torch: the CPU wheel; set PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu
# where no local copy is configured). Index options stay out of the file.
lock: setup  ## rewrite requirements.lock, with hashes, from the current .venv (keeping its torch pin)
	$(PY) -m pip freeze --exclude-editable | sed -e 's/^torch==.*/torch==$(TORCH_PIN)/' > $(VENV)/lock.in
	CUSTOM_COMPILE_COMMAND="make lock" $(VENV)/bin/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras --no-annotate \
	  --no-emit-index-url --no-emit-find-links \
	  --output-file requirements.lock.new $(VENV)/lock.in
	sed -e 's/^torch==[^ ]*/torch==$(TORCH_PIN)/' requirements.lock.new > requirements.lock
	rm requirements.lock.new

clean:
	rm -rf site .cache test-artifacts figure-preview
