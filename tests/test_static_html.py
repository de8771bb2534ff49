"""Static handouts: `make html` pages show every explorer as a picture, offline.

nbconvert prefers a widget view to every other output when the notebook stores its
widget state, and such a view needs a script from a CDN to draw anything. `make html`
executes with ``--ExecutePreprocessor.store_widget_state=False``, so nbconvert skips the
widget view and shows the explorer's own PNG fallback, inline in the page. It also
drops the cells tagged ``claims`` (``--TagRemovePreprocessor.remove_cell_tags=claims``):
their asserts keep the prose honest in the tests but are noise in a handout; and it shows
the questions (cells tagged ``question``) without their code, which holds their answers.
"""
from __future__ import annotations

import re

import nbformat
import pytest
from nbconvert.nbconvertapp import NbConvertApp

from conftest import ROOT, lesson_params

pytestmark = pytest.mark.notebooks

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: The nbconvert options of `make html` that this test repeats.
HTML_OPTIONS = ["--ExecutePreprocessor.store_widget_state=False",
                "--TagRemovePreprocessor.remove_cell_tags=claims",
                "--TagRemovePreprocessor.remove_input_tags=question"]


def test_make_html_uses_the_tested_options():
    makefile = (ROOT / "Makefile").read_text()
    for option in HTML_OPTIONS:
        assert option in makefile, f"`make html` no longer passes {option}"


def explorer_pngs(nb):
    """Base64 PNGs of the explorer displays: a widget view that carries its own PNG, or a
    prediction's, whose HTML folds the pictures it reveals."""
    views = [o.data for c in nb.cells if c.cell_type == "code" for o in c.outputs
             if o.output_type in ("display_data", "execute_result") and WIDGET_VIEW in o.data]
    return ([d["image/png"] for d in views if "image/png" in d]
            + [png for d in views if "image/png" not in d
               for png in re.findall(r'src="data:image/png;base64,([^"]+)"', d.get("text/html", ""))])


# Last lesson first: when the lesson tests run in another worker at the same time (first lesson
# first), each worker executes half of the lessons and reads the other half (conftest's
# executed_lesson), instead of one waiting for the other's every lesson.
@pytest.mark.parametrize("lesson", lesson_params()[::-1])
def test_handout_shows_every_explorer_picture(lesson, tmp_path, executed_lesson):
    # the same execution `make html` asks nbconvert for (shared with the lesson test), then
    # its HTML conversion
    nb, _ = executed_lesson(lesson)
    executed = tmp_path / lesson.name
    nbformat.write(nb, executed)
    # nbconvert's command line, in this process (a process of its own costs 3 s a lesson)
    app = NbConvertApp()
    app.initialize(["--to", "html", *HTML_OPTIONS, "--output-dir", str(tmp_path), str(executed)])
    app.start()
    page = (tmp_path / lesson.with_suffix(".html").name).read_text()

    pngs = explorer_pngs(nb)
    if "Explorer(" in lesson.read_text():
        assert pngs, f"{lesson.name} opens explorers but none was displayed"
    for png in pngs:
        assert f'src="data:image/png;base64,{png}"' in page
    # nothing in the page waits for a widget renderer from the network
    assert WIDGET_VIEW not in page and "unpkg.com" not in page
    # the claims cells ran in the execution above, but the handout shows every other code cell
    # and none of them (nbconvert marks a tagged cell with the class celltag_<tag>)
    code = [c for c in nb.cells if c.cell_type == "code"]
    claims = [c for c in code if "claims" in c.metadata.get("tags", [])]
    assert "celltag_claims" not in page
    assert page.count("jp-Cell jp-CodeCell") == len(code) - len(claims)
    # each question shows its prompt, not the code with its answer
    questions = [c for c in code if "question" in c.metadata.get("tags", [])]
    assert page.count("celltag_question") == len(questions) > 0
    for word in ("et.Predict(", "et.MultipleChoice(", "et.NumericQuestion(", "explanation="):
        assert word not in page, f"{lesson.name}: the handout shows a question's code ({word})"
