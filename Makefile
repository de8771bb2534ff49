# The two commands a user needs: `make lab` and `make test`.
# Each bootstraps its own virtual environment in .venv; nothing else is required.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8888
# Jupyter refuses to run as root (containers, CI) without this flag.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)
# Outputs of `make lite` (a static JupyterLite site) and `make html` (handout pages).
LITE_OUT   ?= dist
LITE_WHEEL := build/lite-wheel
HTML_OUT   ?= _output/html

.PHONY: lab test test-fast bench lite html clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.lab-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[lab]'
	touch $@

$(VENV)/.lite-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[lite]'
	touch $@

# The tests build the JupyterLite site too, so the test environment has the lite tools.
$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[lab,test,lite]'
	touch $@ $(VENV)/.lab-installed $(VENV)/.lite-installed

## Open JupyterLab on the lessons.
lab: $(VENV)/.lab-installed
	$(BIN)/jupyter lab --notebook-dir=lessons --port=$(PORT) $(ALLOW_ROOT)

## Run the whole test suite (unit, statistical, widget, notebook and browser tests).
test: $(VENV)/.test-installed
	$(BIN)/python -m pytest

## Everything but the notebook and browser tests: the quick inner loop.
test-fast: $(VENV)/.test-installed
	$(BIN)/python -m pytest -m "not browser and not notebooks"

## Print latency and throughput benchmarks: kernel side, then in a real browser.
bench: $(VENV)/.test-installed
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/browser.py

## Build a static JupyterLite site (lessons + evalteach wheel, in-browser kernel) into dist/.
lite: $(VENV)/.lite-installed
	rm -rf $(LITE_WHEEL) $(LITE_OUT)
	$(BIN)/pip wheel --quiet --no-deps --wheel-dir $(LITE_WHEEL) .
	$(BIN)/jupyter lite build --lite-dir lite --output-dir $(abspath $(LITE_OUT)) \
		--piplite-wheels $(CURDIR)/$(LITE_WHEEL)/evalteach-*.whl

## Execute every lesson into a static HTML page (explorers as pictures) in _output/html/.
html: $(VENV)/.test-installed
	$(BIN)/jupyter nbconvert --to html --execute --ExecutePreprocessor.store_widget_state=False \
		--output-dir $(HTML_OUT) lessons/*.ipynb

clean:
	rm -rf $(VENV) build dist *.egg-info _output test-artifacts lite/.cache .jupyterlite.doit.db
