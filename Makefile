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

.PHONY: lab test test-gpu export clean-nbs check-sync bench

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q "$(TORCH_SPEC)"
	$(BIN)/python -m pip install -q -e ".[dev]"
	touch $(STAMP)

lab: $(STAMP)
	$(BIN)/jupyter lab nbs/

# notebooks -> flashinfer_nb/ and tests/, then strip execution counts and metadata churn
export: $(STAMP)
	$(BIN)/nbdev-export && $(BIN)/nbdev-clean

check-sync: $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH bash .ci/check_sync.sh

test: $(STAMP) check-sync
	$(BIN)/python -m pytest
	$(BIN)/nbdev-test

# On a GPU machine (packages already installed): every test, GPU notebook cells, benchmarks.
test-gpu:
	python3 -m pytest
	nbdev-test --flags cuda
	python3 benchmarks/bench_scale.py --csv benchmarks/results/$$(python3 -c "import torch;print(torch.cuda.get_device_name().replace(' ','_'))").csv

bench:
	python3 benchmarks/bench_scale.py
	python3 benchmarks/bench_jit_startup.py
