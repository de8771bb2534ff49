"""The lessons: each has the parts of a lesson, uses only the public API, and runs clean.

Parametrised over every ``lessons/*.ipynb``, so a new lesson is checked without
touching this file. The lint tests are fast; the execution test (marked
``notebooks``) runs each lesson top to bottom in a fresh kernel and prints its time.
"""
from __future__ import annotations

import ast
import io
import re
import time
import tokenize

import nbformat
import pytest

import evalteach
from conftest import LESSONS_DIR, lesson_params

SETUP = '''import sys
if sys.platform == "emscripten":  # JupyterLite: install the toolkit into the in-browser kernel
    import piplite
    await piplite.install(["ipywidgets>=8", "evalteach"])
import numpy as np
import evalteach as et'''

PUBLIC = set(evalteach.__all__) | set(evalteach.widgets.__all__) | set(evalteach.simulate.__all__)
QUESTIONS = {"NumericQuestion", "MultipleChoice"}
SECTIONS = ("Learning objectives", "Exercises", "Summary", "Sources")
#: Statistics must come from evalteach, not be recomputed in a lesson.
FORBIDDEN_NAMES = {"scipy", "statsmodels", "sqrt", "sleep"}


def read(path):
    return nbformat.read(path, as_version=4)


def code_cells(nb):
    return [c.source for c in nb.cells if c.cell_type == "code"]


def markdown(nb):
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def names(source):
    """The code's NAME tokens (strings and comments dropped), as (previous, name) pairs."""
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
              if t.type in (tokenize.NAME, tokenize.OP)]
    return [(tokens[i - 2].string if i >= 2 and tokens[i - 1].string == "." else None, t.string)
            for i, t in enumerate(tokens) if t.type == tokenize.NAME]


def et_names(nb):
    return [name for source in code_cells(nb) for owner, name in names(source) if owner == "et"]


# --- lint ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", lesson_params())
def test_valid_notebook_with_python3_kernel(path):
    nb = read(path)
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == "python3"
    assert nb.metadata.kernelspec.display_name == "Python 3 (ipykernel)"


@pytest.mark.parametrize("path", lesson_params())
def test_outputs_cleared(path):
    for cell in read(path).cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:60]


@pytest.mark.parametrize("path", lesson_params())
def test_title_and_sections(path):
    nb = read(path)
    assert nb.cells[0].cell_type == "markdown" and re.match(r"# \S", nb.cells[0].source), \
        "the first cell must be the title"
    headings = re.findall(r"^#+\s*(.+?)\s*$", markdown(nb), flags=re.M)
    for section in SECTIONS:
        assert any(h.startswith(section) for h in headings), f"no '{section}' heading"
    assert any(re.search(r"\bpredict", h, re.I) for h in headings), "no 'Predict first' moment"


@pytest.mark.parametrize("path", lesson_params())
def test_first_code_cell_installs_under_pyodide(path):
    assert code_cells(read(path))[0].strip() == SETUP


@pytest.mark.parametrize("path", lesson_params())
def test_at_least_three_self_checks(path):
    used = et_names(read(path))
    assert sum(name in QUESTIONS for name in used) >= 3


@pytest.mark.parametrize("path", lesson_params())
def test_only_public_api(path):
    nb = read(path)
    unknown = sorted({name for name in et_names(nb) if name not in PUBLIC})
    assert not unknown, f"not public evalteach names: {unknown}"
    for source in code_cells(nb):
        assert not re.search(r"^\s*(from|import)\s+evalteach\.", source, re.M), source[:80]
        assert not re.search(r"\bet\._", source), source[:80]
        used = {name for _, name in names(source)}
        assert not used & FORBIDDEN_NAMES, f"{sorted(used & FORBIDDEN_NAMES)} in: {source[:80]}"


def question_answers(source):
    """The ``answer`` expressions of the question widgets built in a code cell."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # e.g. the setup cell's top-level await
        return
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in QUESTIONS):
            keywords = {k.arg: k.value for k in node.keywords}
            position = 1 if node.func.attr == "NumericQuestion" else 2
            if "answer" in keywords:
                yield node.func.attr, keywords["answer"]
            elif len(node.args) > position:
                yield node.func.attr, node.args[position]


@pytest.mark.parametrize("path", lesson_params())
def test_numeric_answers_are_computed_by_the_library(path):
    """A NumericQuestion's answer comes from evalteach (or a variable), never from typed-in numbers."""
    for source in code_cells(read(path)):
        for kind, answer in question_answers(source):
            if kind == "NumericQuestion":
                computed = any(isinstance(n, (ast.Name, ast.Call)) for n in ast.walk(answer))
                assert computed, f"hard-coded answer {ast.unparse(answer)!r} in: {source[:80]}"


@pytest.mark.parametrize("path", lesson_params())
def test_explorers_are_seeded(path):
    for source in code_cells(read(path)):
        if re.search(r"\bet\.\w+Explorer\(", source):
            calls = re.findall(r"\bet\.\w+Explorer\(", source)
            assert source.count("seed=") >= len(calls), f"explorer without seed= in: {source[:80]}"


def test_lessons_exist():
    assert len(lesson_params()) >= 7


# --- execution -------------------------------------------------------------------------------

#: Shown first in the kernel: every warning once per place, so none is hidden by the defaults.
SHOW_WARNINGS = "import warnings\nwarnings.simplefilter('default')"
TIMES = {}


def problems(nb):
    """Error outputs, and warnings raised in evalteach or attributed to the lesson's own code."""
    found = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                found.append(f"{out.ename}: {out.evalue} in: {cell.source[:60]}")
            elif out.output_type == "stream" and out.name == "stderr":
                if re.search(r"evalteach|ipykernel_\d+|Cell In|Warning", out.text):
                    found.append(f"stderr: {out.text[:300]}")
    return found


def cell_times(nb):
    """(seconds, first line) per executed code cell, from the timings nbclient records."""
    from datetime import datetime

    for cell in nb.cells:
        timing = cell.metadata.get("execution", {})
        if "iopub.execute_input" in timing and "shell.execute_reply" in timing:
            start, end = (datetime.fromisoformat(timing[k].replace("Z", "+00:00"))
                          for k in ("iopub.execute_input", "shell.execute_reply"))
            yield (end - start).total_seconds(), cell.source.splitlines()[0][:50]


@pytest.mark.notebooks
@pytest.mark.parametrize("path", lesson_params())
def test_lesson_runs_clean(path, capsys):
    from nbclient import NotebookClient

    nb = read(path)
    nb.cells.insert(0, nbformat.v4.new_code_cell(SHOW_WARNINGS))
    client = NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(LESSONS_DIR)}})
    started = time.perf_counter()
    client.execute()
    TIMES[path.name] = elapsed = time.perf_counter() - started
    seconds, slowest = max(cell_times(nb))
    with capsys.disabled():
        print(f"\n{path.name}: ran in {elapsed:.1f} s, slowest cell {seconds:.1f} s: {slowest!r} "
              f"(lessons run so far: {len(TIMES)}, {sum(TIMES.values()):.1f} s in total)")
    found = problems(nb)
    assert not found, "\n".join(found)
