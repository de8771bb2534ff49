"""The lessons: each has the parts of a lesson, uses only the public API, and runs clean.

Parametrised over every ``lessons/*.ipynb``, so a new lesson is checked without
touching this file. The lint tests are fast; the execution test (marked
``notebooks``) runs each lesson top to bottom in a fresh kernel and prints its time.

What a lesson must have (each failure message says how to fix it):

* a title cell, then the setup cell verbatim (``SETUP``); ``## `` headings for every
  entry of ``SECTIONS``;
* only public ``et.NAME``s, no recomputed statistics (``FORBIDDEN_NAMES``), seeded explorers,
  question and prediction answers computed by the library;
* predict, commit, reveal: an ``et.Predict`` before any explorer is shown in a section, and at
  least one Predict that hides what answers it (``reveals=``);
* a collapsed code cell tagged ``claims`` whose asserts check every number the prose states;
* at least three exercises (``NumericQuestion`` / ``MultipleChoice``), every MultipleChoice
  with ``feedback=`` for its wrong options.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize

import nbformat
import pytest

import evalteach
from conftest import executed_lesson, executed_lesson_params, lesson_params

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
        assert any(h.startswith(section) for h in headings), \
            f"{path.name}: no '## {section}' heading (every lesson has {', '.join(SECTIONS)})"


@pytest.mark.parametrize("path", lesson_params())
def test_first_code_cell_installs_under_pyodide(path):
    assert code_cells(read(path))[0].strip() == SETUP


@pytest.mark.parametrize("path", lesson_params())
def test_at_least_three_exercises(path):
    used = et_names(read(path))
    assert sum(name in QUESTIONS for name in used) >= 3, (
        f"{path.name}: fewer than three exercises (et.NumericQuestion / et.MultipleChoice); "
        f"ask the student to apply the idea, spot a flaw or choose a test, not to read a number off")


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
    """The ``answer`` expressions of the question and prediction widgets built in a code cell."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # e.g. the setup cell's top-level await
        return
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in QUESTIONS | {"Predict"}):
            keywords = {k.arg: k.value for k in node.keywords}
            if node.func.attr == "Predict":  # a numeric prediction unless it offers options
                if "answer" in keywords and "options" not in keywords:
                    yield "NumericQuestion", keywords["answer"]
                continue
            position = 1 if node.func.attr == "NumericQuestion" else 2
            if "answer" in keywords:
                yield node.func.attr, keywords["answer"]
            elif len(node.args) > position:
                yield node.func.attr, node.args[position]


@pytest.mark.parametrize("path", lesson_params())
def test_numeric_answers_are_computed_by_the_library(path):
    """A numeric answer (NumericQuestion, numeric Predict) comes from evalteach or a variable,
    never from typed-in numbers."""
    for source in code_cells(read(path)):
        for kind, answer in question_answers(source):
            if kind == "NumericQuestion":
                computed = any(isinstance(n, (ast.Name, ast.Call)) for n in ast.walk(answer))
                assert computed, (f"{path.name}: hard-coded answer {ast.unparse(answer)!r}; compute "
                                  f"it with the library (answer=et.proportion_interval(12, 40).low) "
                                  f"in: {source[:80]}")


@pytest.mark.parametrize("path", lesson_params())
def test_explorers_are_seeded(path):
    for source in code_cells(read(path)):
        if re.search(r"\bet\.\w+Explorer\(", source):
            calls = re.findall(r"\bet\.\w+Explorer\(", source)
            assert source.count("seed=") >= len(calls), f"explorer without seed= in: {source[:80]}"


# --- teaching rules: predict before reveal, claims, exercises with feedback ---------------------
#
# These checks enforce TEACHING.md's "Predict, commit, reveal", "Match the output" and
# "Feedback names the misconception" (issue 11, "Done when"). They read the notebook's
# code with the ``ast`` module, so formatting, comments and strings never matter.

PREDICT = "Predict"
CLAIMS_TAG = "claims"


def et_calls(tree, names):
    """The ``et.NAME(...)`` calls in ``tree`` whose NAME is in ``names`` (a set or a predicate)."""
    match = names if callable(names) else names.__contains__
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "et"
            and match(node.func.attr)]


def is_et_call(node, names):
    """Whether ``node`` itself is one of the calls :func:`et_calls` finds."""
    return node in et_calls(node, names) if isinstance(node, ast.Call) else False


def is_explorer(name):
    return name.endswith("Explorer")


def parse(source):
    """The cell's syntax tree; ``None`` for the setup cell (top-level ``await``) or bad syntax."""
    try:
        return ast.parse(source)
    except SyntaxError:
        return None


def sections(nb):
    """The notebook cut at its ``## `` headings: a list of (heading, [code cell sources])."""
    found = [("(before the first ## heading)", [])]
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for heading in re.findall(r"^##\s+(.+?)\s*$", cell.source, flags=re.M):
                found.append((heading, []))
        elif cell.cell_type == "code":
            found[-1][1].append(cell.source)
    return found


def displayed_explorers(tree, bound):
    """Explorers this cell puts on screen, *not* through a Predict's ``reveals=``.

    An explorer is shown when it is the cell's last expression (``et.XExplorer(...)``, or a
    name bound to an explorer, here or in an earlier cell: ``bound``) or is passed to
    ``display(...)``. An explorer built to read a number (``et.XExplorer(...).result.sd``) or
    handed to ``et.Predict(..., reveals=...)`` is not shown by the cell itself.
    """
    for node in ast.walk(tree):  # remember names bound to explorers: x = et.XExplorer(...)
        if isinstance(node, ast.Assign) and is_et_call(node.value, is_explorer):
            bound.update(t.id for t in node.targets if isinstance(t, ast.Name))

    def explorer_like(expr):
        return is_et_call(expr, is_explorer) or (isinstance(expr, ast.Name) and expr.id in bound)

    shown = []
    if tree.body and isinstance(tree.body[-1], ast.Expr) and explorer_like(tree.body[-1].value):
        shown.append(ast.unparse(tree.body[-1].value))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "display"):
            shown += [ast.unparse(a) for a in node.args if explorer_like(a)]
    return shown


@pytest.mark.parametrize("path", lesson_params())
def test_predict_before_every_explorer(path):
    """Predict, commit, reveal: no explorer is on screen before the student has predicted.

    The rule, per ``## `` section of the lesson: an explorer may be displayed openly (as a
    cell's last expression or through ``display``) only after an ``et.Predict`` in an
    earlier cell of the same section. The best form hides the explorer until the lock-in:
    ``et.Predict("...", answer=..., reveals=explorer)``; a Predict cell just above an open
    explorer also passes, because the student commits there first. Sections are the unit
    because a new ``## `` heading starts a new idea, which needs its own prediction; within
    a section several explorers can follow one Predict. In addition every lesson has at
    least one Predict that hides something with ``reveals=``.

    What this cannot check, and the author must: that no *text* above the lock-in (a
    markdown cell, a printed table, a result's display) gives the answer away.
    """
    nb = read(path)
    bound, hides = set(), 0
    for heading, sources in sections(nb):
        predicted = False
        for source in sources:
            tree = parse(source)
            if tree is None:
                continue
            shown = displayed_explorers(tree, bound)
            assert predicted or not shown, (
                f"{path.name}, section '## {heading}': {shown[0]} is displayed before any "
                f"et.Predict in this section. Ask for the prediction first and hide the "
                f"explorer until the lock-in: et.Predict('...?', answer=..., reveals=explorer).")
            for call in et_calls(tree, {PREDICT}):
                predicted = True
                hides += any(k.arg == "reveals" for k in call.keywords)
    assert hides, (f"{path.name} has no et.Predict(..., reveals=...): at least one prediction "
                   f"must hide the explorer or result that answers it until the student locks in.")


def claims_cells(nb):
    return [c for c in nb.cells
            if c.cell_type == "code" and CLAIMS_TAG in c.metadata.get("tags", [])]


@pytest.mark.parametrize("path", lesson_params())
def test_claims_cell_asserts_what_the_prose_says(path):
    """Match the output: the numbers and trends the prose states are asserted in code.

    At least one code cell tagged ``claims`` (cell metadata ``"tags": ["claims"]``), each
    holding ``assert`` statements that can fail (not ``assert True``), kept collapsed
    (``"jupyter": {"source_hidden": true}``). The notebook execution test runs them, so a
    change of seed or parameter that makes the prose wrong fails the tests; ``make html``
    removes them from the handouts.
    """
    cells = claims_cells(read(path))
    assert cells, (f"{path.name} has no code cell tagged '{CLAIMS_TAG}': add one (cell metadata "
                   f"\"tags\": [\"{CLAIMS_TAG}\"]) that asserts every number and trend the prose "
                   f"states, e.g. assert round(interval.low, 3) == 0.158")
    for cell in cells:
        tree = parse(cell.source)
        asserts = [n for n in ast.walk(tree) if isinstance(n, ast.Assert)] if tree else []
        assert asserts, f"{path.name}: the '{CLAIMS_TAG}' cell has no assert: {cell.source[:80]!r}"
        for node in asserts:
            assert not isinstance(node.test, ast.Constant), (
                f"{path.name}: 'assert {ast.unparse(node.test)}' cannot fail; assert a computed value")
        assert cell.metadata.get("jupyter", {}).get("source_hidden"), (
            f"{path.name}: keep the '{CLAIMS_TAG}' cell collapsed: set its metadata "
            f"\"jupyter\": {{\"source_hidden\": true}}")


QUESTION_TAG = "question"


def asks_the_student(tree):
    """Whether code builds an ``et.Predict``, ``et.MultipleChoice`` or ``et.NumericQuestion``."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
               and n.func.attr in QUESTIONS | {"Predict"} for n in ast.walk(tree))


@pytest.mark.parametrize("path", lesson_params())
def test_questions_keep_their_answers_out_of_sight(path):
    """A question's code holds its answer, its explanation and the feedback for every wrong
    option: keep it collapsed (``"jupyter": {"source_hidden": true}``) so that the student
    sees the question, not the answer, and tag it ``question`` so that ``make html`` shows
    the question without its code. Anything else the cell would compute goes in a visible
    cell before it."""
    asked = 0
    for cell in read(path).cells:
        tree = parse(cell.source) if cell.cell_type == "code" else None
        if tree is None or not asks_the_student(tree):
            continue
        asked += 1
        where = f"{path.name}: the question cell {cell.source[:60]!r}"
        assert cell.metadata.get("jupyter", {}).get("source_hidden"), (
            f"{where} shows its answer: set its metadata \"jupyter\": {{\"source_hidden\": true}}")
        assert QUESTION_TAG in cell.metadata.get("tags", []), f"{where} lacks the tag {QUESTION_TAG!r}"
        first = tree.body[0]
        assert asks_the_student(first), (
            f"{where} computes something before its question; move that to a visible cell above")
    assert asked, f"{path.name} asks the student nothing"


def literal(node):
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


@pytest.mark.parametrize("path", lesson_params())
def test_every_multiple_choice_has_feedback_per_wrong_option(path):
    """Feedback names the misconception: every MultipleChoice passes ``feedback={option: text}``.

    When the options, the answer and the feedback are written out literally, every wrong option
    (by its text or its index) must have its own text; when they are computed, ``feedback=``
    must at least be given (the widget's own tests check what it does with it).
    """
    for source in code_cells(read(path)):
        tree = parse(source)
        for call in et_calls(tree, {"MultipleChoice"}) if tree else []:
            keywords = {k.arg: k.value for k in call.keywords}
            where = f"{path.name}: MultipleChoice({ast.unparse(call.args[0]) if call.args else ''}...)"
            assert "feedback" in keywords, (
                f"{where} has no feedback=: give each wrong option a text saying why it is tempting "
                f"and why it is wrong, feedback={{'option': 'text', ...}}")
            options = literal(keywords.get("options", call.args[1] if len(call.args) > 1 else None))
            answer = literal(keywords.get("answer", call.args[2] if len(call.args) > 2 else None))
            feedback = literal(keywords["feedback"])
            if isinstance(options, list) and answer is not None and isinstance(feedback, dict):
                right = answer if isinstance(answer, int) else options.index(answer)
                for i, option in enumerate(options):
                    if i != right:
                        assert i in feedback or option in feedback, (
                            f"{where}: the wrong option {option!r} has no feedback text")


@pytest.mark.parametrize("path", lesson_params())
def test_a_do_it_yourself_exercise_with_feedback_on_slips(path):
    """Each lesson teaches a formula or a procedure, so each has an exercise on new numbers that
    the student computes: a NumericQuestion whose ``mistakes=`` maps the typical slips (n for
    n - 1, z for t, a two-sided level for a one-sided question, ...) to feedback naming them."""
    calls = [call for source in code_cells(read(path)) if (tree := parse(source))
             for call in et_calls(tree, {"NumericQuestion"})]
    with_slips = [call for call in calls
                  if any(k.arg == "mistakes" and not (isinstance(k.value, ast.Constant) and k.value.value is None)
                         for k in call.keywords)]
    assert with_slips, (f"{path.name}: no NumericQuestion(..., mistakes={{slip_value: 'what went wrong'}}): "
                        f"give the student new numbers to compute and name the typical slips")


def test_lesson_14_uses_the_real_data_example_only_after_explaining_balancing():
    """The ImbalanceExplorer's real-data option trains a learner on balanced data, so lesson 14
    neither opens it (``source="data"``) nor sends the student to it before its section on
    balancing; after that section it does both (a review found the switch used too early)."""
    from conftest import LESSONS_DIR

    nb = read(LESSONS_DIR / "14_performance_measures.ipynb")
    start = next(i for i, cell in enumerate(nb.cells)
                 if cell.cell_type == "markdown" and "## Balancing the training data" in cell.source)
    uses = [i for i, cell in enumerate(nb.cells)
            if re.search(r'source\s*=\s*"data"|[Ss]witch(ed|es)?\b[^.]{0,40}\bto\s+real data|opened on\s+real data',
                      cell.source)]
    assert uses and min(uses) > start, f"cells {[i for i in uses if i <= start]} use the real data before cell {start}"
    assert any(nb.cells[i].cell_type == "markdown" for i in uses), "no text introduces the real-data example"


def test_lessons_exist():
    assert len(lesson_params()) >= 7


# --- execution -------------------------------------------------------------------------------

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
@pytest.mark.parametrize("path", executed_lesson_params())
def test_lesson_runs_clean(path, capsys):
    nb, elapsed = executed_lesson(path)
    TIMES[path.name] = elapsed
    seconds, slowest = max(cell_times(nb))
    with capsys.disabled():
        print(f"\n{path.name}: ran in {elapsed:.1f} s, slowest cell {seconds:.1f} s: {slowest!r} "
              f"(lessons run so far: {len(TIMES)}, {sum(TIMES.values()):.1f} s in total)")
    found = problems(nb)
    assert not found, "\n".join(found)


# --- the teaching checks themselves, on small made-up notebooks --------------------------------


def made_up(*cells):
    """A notebook from ("md" | "code", source) pairs."""
    make = {"md": nbformat.v4.new_markdown_cell, "code": nbformat.v4.new_code_cell}
    return nbformat.v4.new_notebook(cells=[make[kind](source) for kind, source in cells])


def first_open_explorer(nb):
    bound = set()
    for heading, sources in sections(nb):
        for source in sources:
            shown = displayed_explorers(ast.parse(source), bound)
            if shown:
                return heading, shown[0]
    return None


def test_explorer_detection_follows_what_a_cell_displays():
    nb = made_up(("md", "## A"), ("code", "x = et.CLTExplorer(seed=0)\nsd = x.result.sd"),
                 ("code", "et.Predict('?', reveals=et.CLTExplorer(seed=0))"),
                 ("code", "et.NumericQuestion('?', answer=et.CLTExplorer(seed=0).result.sd)"),
                 ("md", "## B"), ("code", "x"))
    assert first_open_explorer(nb) == ("B", "x")  # shown by name, in a later cell
    assert first_open_explorer(made_up(("code", "display(et.ZTableExplorer(seed=0))"))) \
        == ("(before the first ## heading)", "et.ZTableExplorer(seed=0)")
    assert first_open_explorer(made_up(("code", "e = et.CLTExplorer(seed=0)\n"
                                                "et.Predict('?', reveals=e)"))) is None
