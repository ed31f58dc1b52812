# flashinfer_nb developer commands. The two set-up commands (see README.md):
#   make lab    create .venv, install everything, open JupyterLab on the notebooks
#   make test   create .venv, install everything, check export sync, run pytest and the notebooks
# TORCH_SPEC picks the torch wheel: the default `torch` gets the CUDA build on a GPU box;
# CI sets TORCH_SPEC=torch==2.13.0 (a CPU wheel).
PY ?= python3
VENV ?= .venv
TORCH_SPEC ?= torch
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab test test-gpu export check-sync check-wheel test-nbs dist docs docs-check

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q "$(TORCH_SPEC)"
	$(BIN)/python -m pip install -q -e ".[dev,docs]"
	touch $(STAMP)

lab: $(STAMP)
	$(BIN)/jupyter lab nbs/

# notebooks -> flashinfer_nb/ and tests/, then strip execution counts and metadata churn
export: $(STAMP)
	$(BIN)/nbdev-export && $(BIN)/nbdev-clean

check-sync: $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH bash .ci/check_sync.sh

# the wheel in a fresh venv, imported from /tmp, a compile-only build (.ci/check_wheel.sh)
check-wheel: $(STAMP)
	PYTHON=$(CURDIR)/$(BIN)/python bash .ci/check_wheel.sh

# sdist and wheel into dist/ (the version comes from flashinfer_nb.__version__, set in nbs/90_package.ipynb)
dist: $(STAMP)
	$(BIN)/python -m build

# every notebook cell nbdev-test runs, under nbval (the hygiene policy: README, nbs/conftest.py)
test-nbs: $(STAMP)
	$(BIN)/python -m pytest -p no:cacheprovider --nbval-lax --nbval-current-env nbs/

# the documentation site (nbs/97_docs.ipynb) -> docs/_build/html/index.html
docs: $(STAMP)
	$(BIN)/python -m flashinfer_nb.docs build

# the site just built, checked in headless Chromium (links, rendering); refreshes docs/screenshots/
docs-check: docs
	FLASHINFER_NB_DOCS_HTML=$(CURDIR)/docs/_build/html FLASHINFER_NB_SCREENSHOTS=$(CURDIR)/docs/screenshots \
	  $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_docs.py

test: $(STAMP) check-sync check-wheel
	$(BIN)/python -m pytest
	$(BIN)/nbdev-test
	$(MAKE) test-nbs

# On a GPU machine, after `make lab` or `make test`: every test (GPU ones too), every notebook cell, benchmarks.
test-gpu: $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH bash .ci/gpu.sh
