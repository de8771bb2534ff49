# The two commands a user needs: `make lab` and `make test`.
# Each bootstraps its own virtual environment in .venv; nothing else is required.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8888

.PHONY: lab test test-fast bench lite html clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.lab-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[lab]'
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[lab,test]'
	touch $@ $(VENV)/.lab-installed

## Open JupyterLab on the lessons.
lab: $(VENV)/.lab-installed
	$(BIN)/jupyter lab --notebook-dir=lessons --port=$(PORT)

## Run the whole test suite (unit, statistical, widget, notebook and browser tests).
test: $(VENV)/.test-installed
	$(BIN)/python -m pytest

## Everything but the notebook and browser tests: the quick inner loop.
test-fast: $(VENV)/.test-installed
	$(BIN)/python -m pytest -m "not browser and not notebooks"

## Print latency and throughput benchmarks.
bench: $(VENV)/.test-installed
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build dist *.egg-info _output test-artifacts
