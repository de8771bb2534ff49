"""Predict, commit, reveal: lock-in, what is hidden and shown, validation, progress, static pages."""
from __future__ import annotations

import html
import re
import subprocess
import sys

import ipywidgets as W
import nbformat
import pytest
from nbclient import NotebookClient

import evalteach as et
from evalteach import plotting
from evalteach.widgets import record

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.fixture(autouse=True)
def fresh_record():
    record.clear()
    yield
    record.clear()


@pytest.fixture(scope="module")
def explorer():
    return et.SamplingErrorExplorer(error=0.3, n=40, seed=0)


def spread():
    """The standard error of a 0.3 error rate measured on 40 examples (Mitchell's sigma)."""
    return et.proportion_interval(12, 40).se


def hidden(p):
    return p._revealed.layout.display == "none"


# --- lock-in hides, reveals and freezes ------------------------------------------------------


def test_revealed_objects_are_hidden_until_lock_in(explorer):
    p = et.Predict("Standard error for 12 mistakes in 40?", answer=spread(), tolerance=0.01,
                   reveals=explorer, explanation="sqrt(0.3 * 0.7 / 40)")
    assert p._revealed.children == (explorer.widget,)
    assert p.widget.children[-1] is p._revealed  # the revealed widgets are part of its display
    assert hidden(p) and not p.locked and p.guess is None and p.feedback == ""
    assert p.lock("0.07") is True
    assert not hidden(p) and p.locked and p.guess == pytest.approx(0.07)
    assert "You predicted 0.07." in p.feedback
    assert f"The answer is {spread():.4g}" in p.feedback and "within 0.01" in p.feedback
    assert "sqrt(0.3 * 0.7 / 40)" in p.feedback and p.correct is True


def test_the_guess_is_frozen_after_lock_in():
    p = et.Predict("x?", answer=0.5, tolerance=0.1)
    assert p.lock("30%")
    assert p._input.disabled and p._lock_button.disabled
    assert p._lock_button.description == "Locked in"
    assert p.lock(0.5) is False and p.lock("nonsense") is False
    assert p.guess == pytest.approx(0.3) and p.correct is False
    assert "Already locked in: you predicted 0.3." in p.feedback


def test_outcome_stays_after_a_second_lock_attempt():
    p = et.Predict("x?", answer=0.5, tolerance=0.1)
    p.lock("12/40")
    outcome = p._outcome.value
    assert "off by 0.2, more than 0.1" in outcome
    p.lock(0.5)
    assert p._outcome.value == outcome


@pytest.mark.parametrize("typed", ["thirty", "", "  ", "1/0", "nan", None, [0.3], "0.3.1"])
def test_unreadable_guess_is_a_message_not_an_exception(typed):
    p = et.Predict("x?", answer=0.3, reveals=W.Label("the answer"))
    assert p.lock(typed) is False
    assert "Please type a number" in p.feedback
    assert not p.locked and hidden(p) and not p._lock_button.disabled


def test_the_button_locks_in_what_is_typed():
    p = et.Predict("x?", answer=0.3, reveals=W.Label("the answer"))
    p._lock_button.click()  # nothing typed yet
    assert "Please type a number" in p.feedback and hidden(p)
    p._input.value = "0,25"
    p._lock_button.click()
    assert p.guess == pytest.approx(0.25) and not hidden(p)
    assert "off by 0.05." in p.feedback and p.correct is None  # no tolerance, no verdict


def test_enter_in_the_box_locks_in():
    p = et.Predict("x?")
    p._input.value = "0.4"
    p._input._handle_custom_msg({"event": "submit"}, [])  # what the front end sends on Enter
    assert p.guess == pytest.approx(0.4)


def test_the_button_never_raises_into_the_kernel(monkeypatch):
    p = et.Predict("x?")
    monkeypatch.setattr(p, "_compare", lambda: 1 / 0)
    p._input.value = "1"
    p._lock_button.click()
    assert "Could not lock in: ZeroDivisionError" in p.feedback


def test_without_an_answer_the_guess_is_only_recorded():
    p = et.Predict("How many of 100 intervals miss?", explanation="About 5: 95% cover.")
    assert p.lock(7) and p.guess == 7.0 and p.correct is None
    assert "You predicted 7." in p.feedback and "About 5" in p.feedback
    assert "The answer" not in p.feedback


# --- what can be revealed --------------------------------------------------------------------


def test_reveals_a_question():
    q = et.NumericQuestion("Lower end?", et.proportion_interval(12, 40).low, tolerance=0.005)
    p = et.Predict("Guess first", reveals=q)
    assert p._revealed.children == (q.widget,) and hidden(p)
    p.lock(0.2)
    assert not hidden(p)


def test_reveals_a_plain_widget_and_a_list(explorer):
    label = W.Label("plain")
    q = et.MultipleChoice("Which?", ["a", "b"], 0)
    p = et.Predict("Guess", reveals=[explorer, q, label])
    assert p._revealed.children == (explorer.widget, q.widget, label)
    assert p.reveals == (explorer, q, label)


def test_close_closes_its_own_widgets_and_leaves_what_it_reveals_open():
    label, explorer = W.Label("plain"), et.ZTableExplorer(seed=0)
    p = et.Predict("Guess", reveals=[explorer, label])
    own = [p.widget, p._input, p._lock_button, p._revealed]
    p.close()
    assert all(w.comm is None for w in own) and p.closed and repr(p) == "<Predict closed>"
    assert not explorer.closed and explorer.widget.comm is not None and label.comm is not None
    assert p._repr_mimebundle_() == {"text/plain": "<Predict closed>"}
    p.restyle()  # presenter mode's theme change passes a closed prediction by
    explorer.close()


def test_reveals_a_result_through_its_rich_display():
    result = et.proportion_interval(12, 40)
    p = et.Predict("Guess", reveals=result)
    (out,) = p._revealed.children
    assert isinstance(out, W.Output)
    assert out.outputs[0]["data"]["text/markdown"] == result._repr_markdown_()


@pytest.mark.parametrize("reveals", ["text", 3, [W.Label("x"), "y"], [[W.Label("x")]], {"a": 1}])
def test_reveals_must_be_displayable(reveals):
    with pytest.raises(TypeError, match="reveals"):
        et.Predict("x?", reveals=reveals)


# --- options ---------------------------------------------------------------------------------

LEVELS = ["90%", "95%", "97.5%"]


def test_options_by_text_and_index():
    right = f"{et.one_sided_confidence(0.90):.0%}"
    p = et.Predict("z = 1.64 is 90% two-sided. One-sided?", options=LEVELS, answer=right)
    assert p.answer == "95%"
    assert p.lock(1) and p.guess == "95%" and p.correct is True
    assert "Right." in p.feedback
    p2 = et.Predict("again", options=LEVELS, answer=1)
    assert p2.lock("90%") and p2.correct is False and "The answer is 95%." in p2.feedback


@pytest.mark.parametrize("picked", [None, 7, -1, "99%", 1.5, True])
def test_unreadable_option_is_a_message(picked):
    p = et.Predict("?", options=LEVELS)
    assert p.lock(picked) is False and "pick one of the options" in p.feedback


def test_options_button():
    p = et.Predict("?", options=LEVELS, answer="95%", reveals=W.Label("x"))
    p._lock_button.click()
    assert "pick one of the options" in p.feedback and hidden(p)
    p._input.value = 2
    p._lock_button.click()
    assert p.guess == "97.5%" and not hidden(p) and p._input.disabled


# --- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"prompt": ""}, ValueError, "prompt"),
        ({"prompt": 3}, TypeError, "prompt"),
        ({"answer": "0.3"}, TypeError, "answer"),
        ({"answer": float("nan")}, ValueError, "answer"),
        ({"answer": 0.3, "tolerance": -1}, ValueError, "tolerance"),
        ({"answer": 0.3, "tolerance": "big"}, TypeError, "tolerance"),
        ({"tolerance": 0.1}, ValueError, "tolerance"),
        ({"options": LEVELS, "tolerance": 0.1}, ValueError, "tolerance"),
        ({"options": "ab"}, TypeError, "options"),
        ({"options": ["a"]}, ValueError, "options"),
        ({"options": ["a", "a"]}, ValueError, "options"),
        ({"options": LEVELS, "answer": "99%"}, ValueError, "answer"),
        ({"options": LEVELS, "answer": 3}, ValueError, "answer"),
        ({"options": LEVELS, "answer": 0.95}, TypeError, "answer"),
        ({"explanation": ""}, ValueError, "explanation"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, error, words):
    args = {"prompt": "x?", **kwargs}
    with pytest.raises(error, match=words):
        et.Predict(args.pop("prompt"), **args)


def test_signature_is_keyword_only_after_the_prompt():
    with pytest.raises(TypeError):
        et.Predict("x?", 0.3)


# --- keyboard and presenter ------------------------------------------------------------------


def test_lock_in_is_a_tabbable_button_right_after_the_input():
    p = et.Predict("x?")
    row = p.widget.children[1]
    assert row.children == (p._input, p._lock_button)
    choice = et.Predict("x?", options=["a", "b"], answer="a")
    assert choice.widget.children[2].children == (choice._input, choice._lock_button)  # Tab from the input lands on the button
    assert isinstance(p._lock_button, W.Button)  # a <button>: Enter and Space press it
    assert p._lock_button.tabbable is not False and not p._lock_button.disabled


def test_presenter_mode_scales_the_prediction():
    p = et.Predict("x?")
    try:
        et.presenter()
        assert p._prompt.style.font_size == plotting.PRESENTER.control_font
        assert p._lock_button.style.font_size == plotting.PRESENTER.control_font
        assert p._input.layout.width == plotting.PRESENTER.control_width
    finally:
        et.presenter(False)
    assert p._prompt.style.font_size == plotting.CLASSROOM.control_font
    assert p._input.layout.width == plotting.CLASSROOM.control_width


# --- progress --------------------------------------------------------------------------------


def test_progress_counts_questions_and_predictions():
    q1 = et.NumericQuestion("q1", 0.3)
    q2 = et.MultipleChoice("q2", ["a", "b"], 1)
    et.NumericQuestion("q3", 1.0)
    p1 = et.Predict("p1", answer=0.3, tolerance=0.05)
    p2 = et.Predict("p2", options=["a", "b"], answer="a")
    et.Predict("p3")
    q1.check(0.3)  # right at once
    q2.check(0)
    q2.check(1)  # right at the second try
    p1.lock("0.4")
    p2.lock("a")
    summary = et.progress()
    assert (summary.questions, summary.answered, summary.solved, summary.first_try) == (3, 2, 2, 1)
    assert (summary.predictions, summary.locked, summary.judged, summary.hits) == (3, 2, 2, 1)
    text = str(summary)
    assert "Questions: 2 of 3 answered, 2 right (1 at the first try)." in text
    assert "still open: q3" in text
    assert "Predictions: 2 of 3 locked in, 1 of 2 close to the answer." in text
    assert "p1 You predicted 0.4; the answer is 0.3, off by 0.1 (outside the tolerance)." in text
    assert "p2 You predicted a, which is right." in text
    assert "not yet locked in: p3" in text
    assert repr(summary) == text


def test_show_answer_spoils_the_first_try():
    q = et.NumericQuestion("q", 0.3)
    q.show_answer()
    q.check(0.3)
    assert q.solved and not q.first_try
    assert et.progress().first_try == 0


def test_progress_display_updates_itself():
    summary = et.progress()
    bundle = summary._repr_mimebundle_()
    assert WIDGET_VIEW in bundle and bundle["text/plain"] == str(summary)
    assert "0 of 0 answered" in summary.widget.value
    q = et.NumericQuestion("late question", 0.5)
    q.check("1/2")
    assert "1 of 1 answered, 1 right" in summary.widget.value


def test_rerunning_a_cell_replaces_its_question():
    et.NumericQuestion("same prompt", 0.3).check(0.3)
    et.NumericQuestion("same prompt", 0.3)  # the cell run again: a fresh, unanswered question
    summary = et.progress()
    assert summary.questions == 1 and summary.answered == 0


# --- static fallback -------------------------------------------------------------------------


def test_display_bundle(explorer):
    p = et.Predict("Spread <b>?", options=["x < y", "y"], answer="y", reveals=explorer,
                   explanation="because")
    bundle = p._repr_mimebundle_()
    assert WIDGET_VIEW in bundle
    assert bundle["text/plain"].splitlines() == ["Predict: Spread <b>?", "(a) x < y", "(b) y"]
    page = bundle["text/html"]
    assert "Spread &lt;b&gt;?" in page and "x &lt; y" in page
    reveal = page.index("<details><summary>Reveal</summary>")
    picture = page.index(f'src="data:image/png;base64,{explorer._repr_mimebundle_()["image/png"]}"')
    assert reveal < picture < page.index("Answer: <b>y</b>. because")
    assert "image/png" not in bundle  # a PDF export would show it unfolded, before the lock-in


def test_static_page_of_plain_widgets_and_results():
    result = et.proportion_interval(12, 40)
    page = et.Predict("?", reveals=[W.HTML("<i>told you</i>"), W.IntSlider(), result])._html()
    assert "<i>told you</i>" in page and "(an interactive IntSlider)" in page
    # a result shows its worked display (title, equations for MathJax, verdict), not its plain repr
    assert f"<pre>{html.escape(repr(result))}</pre>" not in page
    title, *equations = result._repr_markdown_().split("\n\n")[:-1]
    assert f"<p><b>{title.strip('*')}</b></p>" in page
    for equation in equations:
        assert f"<p>{html.escape(equation, quote=False)}</p>" in page and equation.startswith("$$")
    assert f"<p>{html.escape(result.verdict, quote=False)}</p>" in page


def test_static_page_of_a_result_with_a_table():
    table = et.z_table()
    page = et.Predict("?", reveals=table)._html()
    assert "<tr><td>N</td><td>50%</td>" in page and "<td>$z_N$ (two-sided)</td><td>0.67</td>" in page
    assert "---" not in page and "**" not in page


NOTEBOOK_CELLS = [
    "import evalteach as et\nexplorer = et.SamplingErrorExplorer(error=0.3, n=40, seed=0)",
    "et.Predict('How wide is the spread for n = 40?', answer=0.0725, tolerance=0.01,\n"
    "           reveals=explorer, explanation='sqrt(0.3 * 0.7 / 40)')",
    "q = et.NumericQuestion('One-sided 95% z?', 1.645)\nq",
    "et.progress()",
]


def _static_page(cells, tmp_path):
    """Execute the cells without stored widget state and convert them with nbconvert: (notebook, HTML page)."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    NotebookClient(nb, timeout=120, store_widget_state=False, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    path = tmp_path / "page.ipynb"
    nbformat.write(nb, path)
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html",
                    "--ExecutePreprocessor.store_widget_state=False", "--output-dir", tmp_path,
                    path], check=True, capture_output=True, timeout=120)
    return nb, (tmp_path / "page.html").read_text()


@pytest.mark.notebooks
def test_static_html_shows_the_prompt_and_the_hidden_picture(tmp_path):
    nb, page = _static_page(NOTEBOOK_CELLS, tmp_path)
    predict_output = nb.cells[1].outputs[0].data
    assert "image/png" not in predict_output  # only folded inside the HTML
    png = re.search(r'src="data:image/png;base64,([^"]+)"', predict_output["text/html"]).group(1)
    assert "How wide is the spread for n = 40?" in page
    picture = page.index(f'src="data:image/png;base64,{png}"')  # the explorer's own picture
    assert page.index("<details><summary>Reveal</summary>") < picture  # folded until opened
    assert "Answer: <b>0.0725</b>. sqrt(0.3 * 0.7 / 40)" in page
    assert "Question.</b> One-sided 95% z?" in page
    assert "Your progress in this lesson" in page and "Predictions: 0 of 1 locked in." in page
    assert WIDGET_VIEW not in page and "unpkg.com" not in page


@pytest.mark.notebooks
def test_static_html_shows_a_revealed_results_worked_display(tmp_path):
    cells = ["import evalteach as et\nr = et.wilcoxon_test(et.DEMSAR_AUC[:, 1], et.DEMSAR_AUC[:, 0])",
             "et.Predict('Will the Wilcoxon test reject at the 5% level?', options=['yes', 'no'], answer='yes',\n"
             "           reveals=r)"]
    _, page = _static_page(cells, tmp_path)
    reveal = page.index("<details><summary>Reveal</summary>")
    assert reveal < page.index("<b>Wilcoxon signed-rank test</b>")
    assert reveal < page.index(r"<p>$$\hat\theta_{HL} = 0.013,\quad M = 105,\ k = 22:")  # left for MathJax
    assert "rank sums this lopsided (R+ = 93, R- = 12)" in page and "WilcoxonResult(" not in page
    assert "mathjax" in page.lower()


def test_long_options_get_room_for_every_line():
    """ipywidgets gives a radio option one line: a wrapped option used to lie over the next one,
    which took its clicks (found by the browser test of lesson 19)."""
    from evalteach.widgets.quiz import CHOICE_STYLE, CHOICE_STYLE_CSS
    long = "the tree, but clearly so only under very heavy noise; under moderate noise nothing " * 2
    p = et.Predict("which?", options=[long, "b"], answer="b")
    q = et.MultipleChoice("which?", options=[long, "b"], answer="b")
    for widget, buttons in ((p.widget, p._input), (q.widget, q._choice)):
        assert "evalteach-choices" in buttons._dom_classes
        assert CHOICE_STYLE in widget.children or any(CHOICE_STYLE in getattr(c, "children", ()) for c in widget.children)
    assert "label {height: auto" in CHOICE_STYLE_CSS and CHOICE_STYLE_CSS in CHOICE_STYLE.value


def test_a_picture_is_held_back_until_lock_in():
    """``reveals=result.plot()`` hands over an Axes of a pyplot figure; pyplot's inline backend
    would show the figure at the end of the cell, before the lock-in, unless it is closed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 3), dpi=100)
    ax.plot([0, 1], [0, 1])
    p = et.Predict("Which way does the line go?", options=["up", "down"], answer="up", reveals=ax)
    assert fig.number not in plt.get_fignums()  # closed: the cell's end shows nothing
    picture = p._revealed.children[0]
    assert isinstance(picture, W.Image) and bytes(picture.value).startswith(b"\x89PNG")
    assert picture.layout.width == "400px" and p._revealed.layout.display == "none"
    page = p._html()
    assert page.index("<details><summary>Reveal</summary>") < page.index('<img src="data:image/png;base64,')
    p.lock("up")
    assert p._revealed.layout.display == "flex"
