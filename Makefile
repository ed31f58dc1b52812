# flashinfer_nb developer commands. The two set-up commands (see README.md):
#   make lab    create .venv, install everything, open JupyterLab on the notebooks
#   make test   create .venv, install everything, check export sync, run pytest and the notebooks
# TORCH_SPEC picks the torch wheel. By default: `torch` (the CUDA build) where an NVIDIA GPU is present
# (nvidia-smi answers), else the CPU build `torch==2.13.0` (an unpinned torch pulls several GB of CUDA wheels).
# Set it to choose yourself, e.g. `make test TORCH_SPEC=torch==2.11.0`.
# ARGS passes options to JupyterLab: `make lab ARGS="--port 8899 --no-browser"`.
PY ?= python3
VENV ?= .venv
HAS_GPU := $(shell nvidia-smi -L >/dev/null 2>&1 && echo 1)
TORCH_SPEC ?= $(if $(HAS_GPU),torch,torch==2.13.0)
ARGS ?=
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the install depends on what it installs (dependencies, extras, torch), not on pyproject.toml's mtime, which
# every `make export` (nbdev-export) renews
DEPS_HASH := $(shell { sed -n '/^\[project\]/,/^\[tool/p' pyproject.toml; echo '$(TORCH_SPEC)'; } | sha256sum | cut -c1-16)
DEPS := $(VENV)/.deps-$(DEPS_HASH)

.PHONY: lab test test-gpu export check-sync check-gpu-outputs check-wheel test-nbs dist docs docs-check

$(DEPS):
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q "$(TORCH_SPEC)"
	$(BIN)/python -m pip install -q -e ".[dev,docs]"
	rm -f $(VENV)/.deps-*; touch $(DEPS) $(STAMP)

$(STAMP): $(DEPS)

# as root (a container), JupyterLab refuses to start without --allow-root
lab: $(STAMP)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) $(ARGS) nbs/

# notebooks -> flashinfer_nb/ and tests/, then strip execution counts and metadata churn
export: $(STAMP)
	$(BIN)/nbdev-export && $(BIN)/nbdev-clean

check-sync: $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH bash .ci/check_sync.sh

# the wheel in a fresh venv, imported from /tmp, a compile-only build (.ci/check_wheel.sh)
# every GPU cell of a page notebook carries an output recorded on a GPU (the documentation's evidence; issue 14)
check-gpu-outputs: $(STAMP)
	$(BIN)/python -m flashinfer_nb.docs check-gpu-outputs

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

test: $(STAMP) check-sync check-gpu-outputs check-wheel
	$(BIN)/python -m pytest
	$(BIN)/nbdev-test
	$(MAKE) test-nbs

# On a GPU machine, after `make lab` or `make test`: every test (GPU ones too), every notebook cell, benchmarks.
test-gpu: $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH bash .ci/gpu.sh $(PART)
