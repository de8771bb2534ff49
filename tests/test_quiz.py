"""The self-check questions: right, wrong, tolerance, unreadable input, validation, display."""
import pytest

import evalteach as et
from evalteach import plotting
from evalteach.widgets.quiz import parse_number


def wald_low():
    return et.proportion_interval(12, 40).low


# --- NumericQuestion -----------------------------------------------------------------------


def test_numeric_right_and_wrong():
    q = et.NumericQuestion("Lower end of the 95% interval for 12/40?", wald_low(), tolerance=0.005,
                           hint="error +- 1.96 sigma", explanation="0.30 - 1.96 * 0.0725")
    assert q.check(0.158) and q.solved
    assert "Correct" in q.feedback and "1.96 * 0.0725" in q.feedback
    assert not q.check(0.30)
    assert "Not quite" in q.feedback and "Hint: error +- 1.96 sigma" in q.feedback
    assert q.attempts == 2


def test_numeric_absolute_tolerance_edges():
    q = et.NumericQuestion("x?", 0.5, tolerance=0.01)
    assert q.check(0.51) and q.check(0.49) and q.check("0.5")
    assert not q.check(0.5101) and not q.check(0.4899)


def test_numeric_zero_tolerance_needs_exact():
    q = et.NumericQuestion("x?", 0.25, tolerance=0)
    assert q.check(0.25) and q.check("1/4")
    assert not q.check(0.2501)


def test_numeric_relative_tolerance():
    q = et.NumericQuestion("How many examples?", 384, tolerance=0.02, relative=True)
    assert q.check(391) and q.check(377)  # within 2% of 384 = 7.68
    assert not q.check(392) and not q.check(376)


def test_numeric_accepts_percent_comma_and_fraction():
    q = et.NumericQuestion("Error rate for 12 of 40?", 0.3)
    for typed in ("0.3", " 0,30 ", "30%", "12/40", "3e-1"):
        assert q.check(typed), typed


def test_numeric_percentage_without_sign_gets_a_nudge():
    q = et.NumericQuestion("Error rate for 12 of 40?", 0.3)
    assert not q.check("30")
    assert "fraction" in q.feedback and "0.3" in q.feedback


@pytest.mark.parametrize("typed", ["thirty", "", "  ", "1/0", "nan", "inf", None, [0.3], "0.3.1"])
def test_numeric_unreadable_input_is_feedback_not_exception(typed):
    q = et.NumericQuestion("x?", 0.3)
    assert q.check(typed) is False
    assert "Please type a number" in q.feedback
    assert q.attempts == 0  # an unreadable answer is not counted as an attempt


def test_parse_number():
    assert parse_number("25%") == pytest.approx(0.25)
    assert parse_number("1,5") == pytest.approx(1.5)
    assert parse_number("1,000.5") is None  # ambiguous: refuse rather than guess
    assert parse_number(True) is None and parse_number(float("nan")) is None


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"prompt": ""}, ValueError, "prompt"),
        ({"prompt": "   "}, ValueError, "prompt"),
        ({"prompt": 3}, TypeError, "prompt"),
        ({"answer": "0.3"}, TypeError, "answer"),
        ({"answer": float("nan")}, ValueError, "answer"),
        ({"answer": True}, TypeError, "answer"),
        ({"tolerance": -0.1}, ValueError, "tolerance"),
        ({"tolerance": "big"}, TypeError, "tolerance"),
        ({"relative": 1}, TypeError, "relative"),
        ({"hint": ""}, ValueError, "hint"),
        ({"explanation": 5}, TypeError, "explanation"),
    ],
)
def test_numeric_validates_arguments(kwargs, error, words):
    args = {"prompt": "x?", "answer": 0.3, **kwargs}
    prompt, answer = args.pop("prompt"), args.pop("answer")
    with pytest.raises(error, match=words):
        et.NumericQuestion(prompt, answer, **args)


def test_numeric_widget_buttons():
    q = et.NumericQuestion("z for 95%?", et.z_critical(0.95), explanation="the 97.5% quantile")
    q._input.value = "abc"  # pressing Enter with nonsense: feedback, no exception
    assert "Please type a number" in q.feedback
    q._input.value = "1.96"
    assert "Correct" in q.feedback
    q._input.value = "2.5"
    q._check_button.click()
    assert "Not quite" in q.feedback
    q._show_button.click()
    assert "Answer: 1.96" in q.feedback and "97.5% quantile" in q.feedback


# --- MultipleChoice ------------------------------------------------------------------------


OPTIONS = ["50%", "68%", "90%", "95%"]


def test_choice_by_index_and_text():
    right = f"{et.compare_hypotheses(0.20, 100, 0.30, 100).table_confidence:.0%}"
    q = et.MultipleChoice("Two-sided table confidence?", OPTIONS, right, hint="z is 1.64",
                          explanation="1.64 reaches the 90% column")
    assert q.answer == 2
    assert q.check(2) and q.check("90%")
    assert "Correct" in q.feedback and "90% column" in q.feedback
    assert not q.check(3) and not q.check("95%")
    assert "Not quite" in q.feedback and "z is 1.64" in q.feedback


@pytest.mark.parametrize("picked", [None, 7, -1, "99%", 1.5, True])
def test_choice_unreadable_pick_is_feedback(picked):
    q = et.MultipleChoice("?", OPTIONS, 0)
    assert q.check(picked) is False
    assert "pick one of the options" in q.feedback and q.attempts == 0


@pytest.mark.parametrize(
    "options, answer, error, words",
    [
        (OPTIONS, 4, ValueError, "answer"),
        (OPTIONS, -1, ValueError, "answer"),
        (OPTIONS, "99%", ValueError, "answer"),
        (OPTIONS, 1.0, TypeError, "answer"),
        (OPTIONS, True, TypeError, "answer"),
        (["only"], 0, ValueError, "options"),
        (["a", "a"], 0, ValueError, "options"),
        (["a", ""], 0, ValueError, "options"),
        ("ab", 0, TypeError, "options"),
        (["a", 2], 0, TypeError, "options"),
    ],
)
def test_choice_validates_arguments(options, answer, error, words):
    with pytest.raises(error, match=words):
        et.MultipleChoice("?", options, answer)


def test_choice_widget_buttons():
    q = et.MultipleChoice("Which is more conservative?", ["one-sided", "two-sided"], "two-sided",
                          explanation="it needs a larger z")
    q._check_button.click()  # nothing picked yet
    assert "pick one of the options" in q.feedback
    q._choice.value = 0
    q._check_button.click()
    assert "Not quite" in q.feedback and "Try again" in q.feedback
    q._show_button.click()
    assert "Answer: two-sided" in q.feedback and "larger z" in q.feedback


# --- display ---------------------------------------------------------------------------------


def test_display_bundle_has_widget_and_static_fallbacks():
    q = et.MultipleChoice("Pick <b>", ["x < y", "y"], 1, hint="h", explanation="because")
    bundle = q._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"].splitlines() == ["Question: Pick <b>", "(a) x < y", "(b) y", "Hint: h"]
    page = bundle["text/html"]
    assert "Pick &lt;b&gt;" in page and "x &lt; y" in page  # escaped, so it cannot break the page
    assert "<details><summary>Answer</summary><p><b>y</b>. because</p></details>" in page


def test_numeric_static_fallback_folds_the_answer():
    q = et.NumericQuestion("z?", 1.959964)
    page = q._repr_mimebundle_()["text/html"]
    assert "<b>1.96</b>" in page and "<details>" in page


def test_presenter_mode_scales_the_question():
    q = et.NumericQuestion("x?", 1.0)
    try:
        et.presenter()
        assert q._prompt.style.font_size == plotting.PRESENTER.control_font
    finally:
        et.presenter(False)
    assert q._prompt.style.font_size == plotting.CLASSROOM.control_font


def test_numeric_accepts_numpy_answers_and_inputs():
    import numpy as np

    q = et.NumericQuestion("How many examples?", np.int64(323), tolerance=0)
    assert q.answer == 323.0 and q.check(np.float64(323.0)) and not q.check(np.int64(322))


def test_relative_tolerance_on_a_zero_answer_needs_exact_zero():
    q = et.NumericQuestion("Training error of 1-NN?", 0.0, tolerance=0.05, relative=True)
    assert q.check("0") and not q.check(0.001)


# --- feedback that names the mistake ---------------------------------------------------------

A = [0.10, 0.12, 0.09, 0.11, 0.13]  # fold errors of two learners (k = 5 folds)
B = [0.08, 0.10, 0.10, 0.07, 0.09]


def fold_question():
    paired = et.paired_t_test(A, B)
    return et.NumericQuestion(
        "Critical t for the 95% interval of the mean difference over k = 5 folds?",
        et.t_critical(0.95, df=paired.df), tolerance=0.01, hint="df is not k",
        mistakes={et.t_critical(0.95, df=paired.k): "You used n = 5 degrees of freedom; "
                                                    "the paired t-test has k - 1 = 4.",
                  et.z_critical(0.95): "That is z, for large samples; five folds need t."})


def test_numeric_mistakes_name_what_went_wrong():
    q = fold_question()
    assert not q.check(2.571) and "k - 1 = 4" in q.feedback and "Hint" not in q.feedback
    assert not q.check("1.96") and "five folds need t" in q.feedback
    assert not q.check(2.3) and "Hint: df is not k" in q.feedback  # no known mistake: the hint
    assert q.check(2.776) and "Correct" in q.feedback
    assert q.attempts == 4


def test_numeric_mistakes_use_the_question_tolerance():
    q = fold_question()
    two_sided = et.z_critical(0.95)
    assert not q.check(two_sided + 0.0099) and "need t" in q.feedback
    assert not q.check(two_sided + 0.0101) and "Hint" in q.feedback


def test_numeric_mistakes_relative_tolerance_and_nearest_match():
    sd = et.paired_t_test(A, B).sd
    se = et.paired_t_test(A, B).se
    q = et.NumericQuestion("Standard error of the mean difference?", se, tolerance=0.05,
                           relative=True, mistakes={sd: "That is the standard deviation; "
                                                        "divide by sqrt(k)."})
    assert se == pytest.approx(sd / 5 ** 0.5)
    assert not q.check(sd * 1.04) and "divide by sqrt(k)" in q.feedback
    assert not q.check(sd * 1.06) and "Try again" in q.feedback
    near = et.NumericQuestion("x?", 1.0, tolerance=0.1, mistakes={0.5: "half", 0.6: "sixty"})
    near.check(0.56)
    assert "sixty" in near.feedback and "half" not in near.feedback


def test_a_known_mistake_beats_the_percent_nudge():
    q = et.NumericQuestion("Error rate?", 0.3, mistakes={30: "a count, not a rate"})
    assert not q.check("30") and "a count, not a rate" in q.feedback


@pytest.mark.parametrize(
    "mistakes, error, words",
    [
        ([1.96], TypeError, "mistakes"),
        ({"1.96": "text"}, TypeError, "mistakes"),
        ({1.96: ""}, ValueError, "mistakes"),
        ({1.96: 3}, TypeError, "mistakes"),
        ({1.645: "the answer itself"}, ValueError, "mistakes"),
    ],
)
def test_numeric_mistakes_are_validated(mistakes, error, words):
    with pytest.raises(error, match=words):
        et.NumericQuestion("z?", 1.6449, mistakes=mistakes)


def test_choice_feedback_per_option():
    levels = ["90%", "95%", "99%"]
    right = f"{et.one_sided_confidence(0.90):.0%}"
    q = et.MultipleChoice("z = 1.64 reaches 90% two-sided. One-sided level?", levels, right,
                          hint="halve the tails",
                          feedback={"90%": "That is the two-sided level; the direction was "
                                           "fixed in advance, so one tail counts.",
                                    2: "Too far: 99% one-sided needs z = 2.33."})
    assert not q.check("90%") and "two-sided level" in q.feedback and "Hint" not in q.feedback
    assert not q.check(2) and "z = 2.33" in q.feedback
    assert q.check("95%")


def test_choice_without_feedback_for_an_option_falls_back_to_the_hint():
    q = et.MultipleChoice("?", OPTIONS, 2, hint="think", feedback={"50%": "too low"})
    assert not q.check("95%") and "Hint: think" in q.feedback


@pytest.mark.parametrize(
    "feedback, error, words",
    [
        (["a"], TypeError, "feedback"),
        ({"99%": "x"}, ValueError, "feedback"),
        ({7: "x"}, ValueError, "feedback"),
        ({"90%": "right one"}, ValueError, "feedback"),
        ({"50%": ""}, ValueError, "feedback"),
    ],
)
def test_choice_feedback_is_validated(feedback, error, words):
    with pytest.raises(error, match=words):
        et.MultipleChoice("?", OPTIONS, "90%", feedback=feedback)


# --- ids (a class poll keys answers by them) ---------------------------------------------


@pytest.mark.parametrize("make", [
    lambda id: et.NumericQuestion("x?", 0.5, id=id),
    lambda id: et.MultipleChoice("x?", ["a", "b"], 0, id=id),
    lambda id: et.Predict("x?", answer=0.5, id=id),
], ids=["NumericQuestion", "MultipleChoice", "Predict"])
def test_questions_keep_a_valid_id_and_refuse_a_bad_one(make):
    assert make("training-error.v2_1").id == "training-error.v2_1"
    assert make(None).id is None
    assert make("x" * 80).id == "x" * 80
    for bad in ("", "two words", "x" * 81, "slash/no", "ümlaut"):
        with pytest.raises(ValueError, match=r"id must be 1 to 80 letters.*" + repr(bad)[:20].replace("(", r"\(")):
            make(bad)
    with pytest.raises(TypeError, match="id must be a string, got 7"):
        make(7)
