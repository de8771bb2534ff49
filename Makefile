# The two commands a user needs: `make lab` and `make test`.
# Each bootstraps its own virtual environment in .venv; nothing else is required.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8888
# `make lab` serves this folder and opens its start page; LAB_ARGS adds JupyterLab options.
LESSONS_DIR ?= lessons
START_PAGE  := 00_start_here.ipynb
LAB_ARGS    ?=
APP_PORT    ?= 8866
APP_ARGS    ?=
# Jupyter refuses to run as root (containers, CI) without this flag.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)
# Outputs of `make lite` (a static JupyterLite site) and `make html` (handout pages).
LITE_OUT   ?= dist
HTML_OUT   ?= _output/html
# `make test` and `make test-fast` run the tests in this many pytest-xdist workers (0: one process).
# Tests that share a costly fixture or write the same files carry an xdist_group mark, and
# `--dist loadgroup` keeps each group in one worker.
TEST_JOBS  ?= 2
PARALLEL   := $(if $(filter 0,$(TEST_JOBS)),,-n $(TEST_JOBS) --dist loadgroup)
# The Hub's proxy, from npm, for `make classroom` and its test.
CHP        := build/chp/node_modules/.bin/configurable-http-proxy

.PHONY: lab app test test-fast bench classroom classroom-poll lite html clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.lab-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[lab]'
	touch $@

$(VENV)/.app-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[app]'
	touch $@

$(VENV)/.lite-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[lite]'
	touch $@

# The tests build the JupyterLite site and start a JupyterHub too, so the test environment
# has the lite and classroom tools.
$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[lab,app,test,lite,classroom]'
	touch $@ $(VENV)/.lab-installed $(VENV)/.app-installed $(VENV)/.lite-installed

## Open JupyterLab on the lessons' start page (project settings from jupyter-config/).
lab: $(VENV)/.lab-installed
	JUPYTER_CONFIG_PATH=$(CURDIR)/jupyter-config $(BIN)/jupyter lab --notebook-dir=$(LESSONS_DIR) \
		--port=$(PORT) --LabApp.default_url=/lab/tree/$(START_PAGE) $(ALLOW_ROOT) $(LAB_ARGS)

## Serve the explorer gallery as a Voila app (code hidden) on http://localhost:$(APP_PORT).
app: $(VENV)/.app-installed
	JUPYTER_CONFIG_PATH=$(CURDIR)/jupyter-config $(BIN)/voila apps/gallery.ipynb --port=$(APP_PORT) $(APP_ARGS)

## Run the whole test suite (unit, statistical, widget, notebook and browser tests).
test: $(VENV)/.test-installed
	$(BIN)/python -m pytest $(PARALLEL)

## Everything but the notebook and browser tests: the quick inner loop.
test-fast: $(VENV)/.test-installed
	$(BIN)/python -m pytest $(PARALLEL) -m "not browser and not notebooks"

## Print benchmarks: import time, then latency kernel side and in a real browser.
bench: $(VENV)/.test-installed
	$(BIN)/python benchmarks/import_time.py
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/browser.py

## Classroom capacity on a real JupyterHub (installs jupyterhub and configurable-http-proxy).
classroom: $(VENV)/.test-installed $(CHP)
	$(BIN)/python benchmarks/classroom.py $(CLASSROOM_ARGS)

## The class poll under load: 200 students, each with their own Hub token, vote on one question
## through a real JupyterHub's proxy (p50/p95 of a vote, time until the instructor's count has them all).
classroom-poll: $(VENV)/.test-installed $(CHP)
	$(BIN)/python benchmarks/poll.py $(POLL_ARGS)

$(CHP):
	mkdir -p build/chp
	npm install --silent --no-audit --no-fund --prefix build/chp configurable-http-proxy@4

## Build a static JupyterLite site (lessons + evalteach wheel, in-browser kernel) into dist/.
lite: $(VENV)/.lite-installed
	$(BIN)/python lite/build.py --output-dir $(LITE_OUT)

## Execute every lesson into a static HTML page (explorers as pictures) in _output/html/.
## The cells tagged `claims` (the asserts that keep the prose honest) are left out of the handouts.
html: $(VENV)/.test-installed
	$(BIN)/jupyter nbconvert --to html --execute --ExecutePreprocessor.store_widget_state=False \
		--TagRemovePreprocessor.remove_cell_tags=claims \
		--TagRemovePreprocessor.remove_input_tags=question --output-dir $(HTML_OUT) lessons/*.ipynb

clean:
	rm -rf $(VENV) build dist *.egg-info _output test-artifacts lite/.cache .jupyterlite.doit.db
