"""Bad input to the post-hoc, AUC-comparison, multi-class, lift and Cochran functions (and the new
keywords of friedman_test, wilcoxon_test and PrecisionRecallCurve.achievable) is rejected, naming the parameter."""
import numpy as np
from hypothesis import given
from hypothesis import strategies as hs

from bad_values import FAST, LABELS, NOT_BOOL, NOT_FINITE, bad_word, rejects
from evalteach import stats as et


def table(n=6, k=4, seed=0):
    return np.random.default_rng(seed).normal(size=(n, k))


# ----------------------------------------------------------------- Friedman, Wilcoxon keywords


@FAST
@given(NOT_BOOL)
def test_friedman_tie_correction_must_be_bool(bad):
    rejects(lambda: et.friedman_test(table(), tie_correction=bad), "tie_correction")


@FAST
@given(bad_word("zsplit", "wilcox", "pratt"))
def test_wilcoxon_zero_method(bad):
    rejects(lambda: et.wilcoxon_test([1.0, -2.0, 3.0], zero_method=bad), "zero_method")


# ----------------------------------------------------------------- friedman_posthoc


@FAST
@given(hs.sampled_from([(1, 3), (5, 1), (0, 4)]))
def test_posthoc_shape(shape):
    rejects(lambda: et.friedman_posthoc(np.ones(shape)), "scores")


@FAST
@given(NOT_FINITE, hs.integers(0, 23))
def test_posthoc_non_finite(bad, i):
    x = table()
    x.flat[i] = bad
    rejects(lambda: et.friedman_posthoc(x), "scores")
    rejects(lambda: et.friedman_posthoc("scores"), "scores")


@FAST
@given(hs.one_of(hs.integers(max_value=-1), hs.integers(min_value=4), hs.just(1.5), hs.just("nobody")))
def test_posthoc_control(bad):
    rejects(lambda: et.friedman_posthoc(table(), control=bad), "control")


@FAST
@given(bad_word("nemenyi", "bonferroni-dunn", "holm", "hochberg", max_size=10))
def test_posthoc_method(bad):
    rejects(lambda: et.friedman_posthoc(table(), method=bad), "method")
    rejects(lambda: et.friedman_posthoc(table(), control=0, method="nemenyi"), "nemenyi")


@FAST
@given(hs.one_of(hs.floats(max_value=0.0, allow_nan=False), hs.floats(min_value=1.0), NOT_FINITE))
def test_posthoc_alpha_and_names(bad):
    rejects(lambda: et.friedman_posthoc(table(), alpha=bad), "alpha")
    rejects(lambda: et.friedman_posthoc(table(), names=["a", "b"]), "names")
    rejects(lambda: et.friedman_posthoc(table(), higher_is_better="yes"), "higher_is_better")


# ----------------------------------------------------------------- delong_test


@FAST
@given(LABELS, hs.integers(1, 5))
def test_delong_lengths(y, extra):
    y = [0, 0, 1, 1] + y
    s = np.arange(len(y), dtype=float)
    rejects(lambda: et.delong_test(y, s, np.arange(len(y) + extra, dtype=float)), "scores_b")
    rejects(lambda: et.delong_test(y, np.arange(len(y) + extra, dtype=float), s), "scores")


@FAST
@given(LABELS, NOT_FINITE, hs.data())
def test_delong_non_finite_and_labels(y, bad, data):
    y = [0, 0, 1, 1] + y
    s = np.arange(len(y), dtype=float)
    t = s[::-1].copy()
    t[data.draw(hs.integers(0, len(y) - 1))] = bad
    rejects(lambda: et.delong_test(y, s, t), "scores_b")
    rejects(lambda: et.delong_test(y, t, s), "scores")
    rejects(lambda: et.delong_test([2] + y[1:], s, s[::-1]), "y_true")
    rejects(lambda: et.delong_test([1] + [0] * (len(y) - 1), s, s[::-1]), "y_true")  # one positive


@FAST
@given(hs.one_of(hs.floats(max_value=0.0, allow_nan=False), hs.floats(min_value=1.0, max_value=1.5), NOT_FINITE))
def test_delong_confidence_and_identical_scores(bad):
    y, s = [0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.3, 0.7, 0.2, 0.4]
    rejects(lambda: et.delong_test(y, s, s[::-1], confidence=bad), "confidence")
    rejects(lambda: et.delong_test(y, s, s), "scores_b")  # zero variance of the difference


# ----------------------------------------------------------------- cochran_q_test


@FAST
@given(hs.lists(hs.integers(0, 2), min_size=3, max_size=20), hs.integers(1, 4))
def test_cochran_lengths_and_count(y, extra):
    p = list(y)
    rejects(lambda: et.cochran_q_test(y, p), "predictions")  # one classifier only
    rejects(lambda: et.cochran_q_test(y, p, p + [0] * extra), "predictions[1]")
    rejects(lambda: et.cochran_q_test(y, p, p), "predictions")  # never disagree: Q undefined
    rejects(lambda: et.cochran_q_test("abc", p, p), "y_true")
    rejects(lambda: et.cochran_q_test(y, p, None), "predictions[1]")
    rejects(lambda: et.cochran_q_test([], [], []), "y_true")


@FAST
@given(NOT_FINITE)
def test_cochran_non_finite(bad):
    rejects(lambda: et.cochran_q_test([0.0, 1.0, bad], [0, 1, 1], [1, 1, 0]), "y_true")
    rejects(lambda: et.cochran_q_test([0, 1, 1], [0, 1, 1], [1.0, bad, 0.0]), "predictions[1]")


# ----------------------------------------------------------------- multiclass_auc


def probabilities(n=9, c=3, seed=0):
    return np.random.default_rng(seed).dirichlet(np.ones(c), n)


@FAST
@given(hs.sampled_from([-1, 3, 7, 0.5]))
def test_multiclass_labels_outside_the_columns(bad):
    y = [0, 1, 2] * 3
    y[4] = bad
    rejects(lambda: et.multiclass_auc(y, probabilities()), "y_true")


@FAST
@given(hs.integers(0, 2))
def test_multiclass_missing_class_and_shapes(missing):
    y = [c for c in [0, 1, 2] * 3 if c != missing] + [(missing + 1) % 3] * 3
    rejects(lambda: et.multiclass_auc(y, probabilities()), "y_true")
    rejects(lambda: et.multiclass_auc([0, 1, 2] * 3, probabilities()[:, :1]), "probabilities")
    rejects(lambda: et.multiclass_auc([0, 1, 2] * 3, probabilities()[:, 0]), "probabilities")
    rejects(lambda: et.multiclass_auc([0, 1, 2] * 4, probabilities()), "probabilities")


@FAST
@given(NOT_FINITE, bad_word("hand-till", "ovr", max_size=10))
def test_multiclass_non_finite_and_method(bad, method):
    p = probabilities()
    p[2, 1] = bad
    rejects(lambda: et.multiclass_auc([0, 1, 2] * 3, p), "probabilities")
    rejects(lambda: et.multiclass_auc([0, 1, 2] * 3, probabilities(), method=method), "method")


# ----------------------------------------------------------------- lift_chart, achievable PR curve


@FAST
@given(LABELS, hs.integers(1, 5), NOT_FINITE)
def test_lift_chart(y, extra, bad):
    y = [0, 1] + y
    rejects(lambda: et.lift_chart(y, np.arange(len(y) + extra, dtype=float)), "scores")
    s = np.arange(len(y), dtype=float)
    s[0] = bad
    rejects(lambda: et.lift_chart(y, s), "scores")
    rejects(lambda: et.lift_chart([1] * len(y), np.arange(len(y), dtype=float)), "y_true")


@FAST
@given(bad_word("steps", "roc"), hs.integers(max_value=0))
def test_achievable_pr_arguments(interpolation, points):
    c = et.precision_recall_curve([0, 1, 1, 0], [0.1, 0.8, 0.4, 0.5])
    rejects(lambda: c.achievable(interpolation), "interpolation")
    rejects(lambda: c.achievable("roc", points_per_segment=points), "points_per_segment")
