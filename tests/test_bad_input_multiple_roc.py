"""Bad input to multiple.py, roc.py, resampling.py and losses.py is rejected, naming the parameter."""
import numpy as np
from hypothesis import given
from hypothesis import strategies as hs

from bad_values import FAST, LABELS, NOT_FINITE, NOT_NUMBER, OUTSIDE_UNIT, rejects
from evalteach import stats as et
from evalteach.stats.examples import scott_roc_example


# ----------------------------------------------------------------- ROC


@FAST
@given(hs.integers(0, 1), hs.integers(2, 15))
def test_one_class_only_is_rejected(cls, n):
    y, s = [cls] * n, np.linspace(0, 1, n)
    for f in (et.roc_curve, et.auc, et.auc_interval, et.precision_recall_curve, et.cost_curve):
        rejects(lambda: f(y, s), "y_true")


@FAST
@given(LABELS, hs.integers(1, 5))
def test_lengths_differ_are_rejected(y, extra):
    y = [0, 1] + y
    s = np.arange(len(y) + extra, dtype=float)
    for f in (et.roc_curve, et.auc, et.auc_interval, et.precision_recall_curve, et.cost_curve):
        rejects(lambda: f(y, s), "scores")
    rejects(lambda: et.confusion(y, list(y) + [0] * extra), "y_pred")


@FAST
@given(LABELS, NOT_FINITE, hs.data())
def test_non_finite_scores_are_rejected(y, bad, data):
    y = [0, 1] + y
    s = np.arange(len(y), dtype=float)
    s[data.draw(hs.integers(0, len(y) - 1))] = bad
    for f in (et.roc_curve, et.auc, et.auc_interval, et.cost_curve):
        rejects(lambda: f(y, s), "scores")
    rejects(lambda: et.roc_curve(s, y), "y_true")  # labels and scores swapped: labels not finite 0/1
    rejects(lambda: et.confusion(y, s), "y_pred")


@FAST
@given(hs.sampled_from([2, -1, 0.5, 7]))
def test_labels_other_than_0_1_are_rejected(bad):
    rejects(lambda: et.roc_curve([0, 1, bad], [1.0, 2.0, 3.0]), "y_true")
    rejects(lambda: et.confusion([0, 1, 1], [0, 1, bad]), "y_pred")


@FAST
@given(OUTSIDE_UNIT, NOT_NUMBER)
def test_precision_at_prevalence_rejects_bad_rates(bad, wrong_type):
    for name in ("recall", "specificity", "prevalence"):
        for value in (bad, wrong_type):
            arguments = {"recall": 0.9, "specificity": 0.8, "prevalence": 0.1, name: value}
            rejects(lambda: et.precision_at_prevalence(**arguments), name)
    for share in (0.0, 1.0):  # a share of positives strictly between 0 and 1
        rejects(lambda: et.precision_at_prevalence(0.9, 0.8, share), "prevalence")
    for n in (0, -5, 2.5, "1000"):
        rejects(lambda: et.precision_at_prevalence(0.9, 0.8, 0.1, n=n), "n")


@FAST
@given(hs.one_of(OUTSIDE_UNIT, hs.just(0.0), hs.just(1.0)))
def test_bad_confidence_is_rejected(bad):
    y, s = scott_roc_example()
    rejects(lambda: et.auc_interval(y, s, confidence=bad), "confidence")


def test_bad_method_and_delong_needs_two_of_each():
    y, s = scott_roc_example()
    rejects(lambda: et.auc_interval(y, s, method="bootstrap"), "method")
    rejects(lambda: et.auc_interval([0, 1, 1], [1.0, 2.0, 3.0], method="delong"), "y_true")
    rejects(lambda: et.cost_curve(y, s, grid=1), "grid")


@FAST
@given(hs.one_of(hs.floats(max_value=0, allow_nan=False, allow_infinity=False), NOT_FINITE, NOT_NUMBER))
def test_bad_costs_are_rejected(bad):
    r = et.roc_curve(*scott_roc_example())
    rejects(lambda: r.operating_point(cost_fp=bad), "cost_fp")
    rejects(lambda: r.operating_point(cost_fn=bad), "cost_fn")


# ----------------------------------------------------------------- multiple comparisons


@FAST
@given(hs.integers(-3, 1), hs.integers(1, 30))
def test_nemenyi_needs_two_algorithms(k, n):
    rejects(lambda: et.nemenyi_cd(k, n), "k")


@FAST
@given(hs.integers(-3, 0), OUTSIDE_UNIT)
def test_nemenyi_bad_datasets_and_alpha(n, alpha):
    rejects(lambda: et.nemenyi_cd(3, n), "n_datasets")
    rejects(lambda: et.nemenyi_cd(3, 10, alpha=alpha), "alpha")


@FAST
@given(hs.sampled_from([(1, 4), (5, 1), (0, 3)]))
def test_friedman_shape(shape):
    rejects(lambda: et.friedman_test(np.ones(shape)), "scores")


@FAST
@given(NOT_FINITE, hs.integers(0, 11))
def test_friedman_non_finite(bad, i):
    x = np.arange(12, dtype=float).reshape(4, 3)
    x.flat[i] = bad
    rejects(lambda: et.friedman_test(x), "scores")
    rejects(lambda: et.friedman_test(np.arange(6.0)), "scores")  # 1-d
    rejects(lambda: et.friedman_test(np.ones((3, 3)), higher_is_better="yes"), "higher_is_better")
    rejects(lambda: et.friedman_test(np.ones((3, 3))), "scores")  # every row tied


@FAST
@given(NOT_FINITE)
def test_group_tests_reject_bad_groups(bad):
    for f in (et.anova_test, et.kruskal_wallis_test):
        rejects(lambda: f([1.0, 2.0, 3.0]), "groups")  # one group only
        rejects(lambda: f([1.0, 2.0], [3.0, bad]), "groups[1]")
        rejects(lambda: f([1.0, 2.0], []), "groups[1]")
        rejects(lambda: f([1.0, 1.0], [1.0, 1.0]), "groups")  # nothing varies


@FAST
@given(hs.integers(2, 10), hs.integers(1, 4))
def test_wilcoxon_lengths_and_alternative(n, extra):
    rejects(lambda: et.wilcoxon_test(np.arange(n), np.arange(n + extra)), "b")
    rejects(lambda: et.wilcoxon_test(np.arange(1.0, n + 1), alternative="bigger"), "alternative")
    rejects(lambda: et.wilcoxon_test(np.zeros(n)), "a")


@FAST
@given(hs.integers(1, 4), hs.integers(0, 3))
def test_hotelling_needs_more_rows_than_columns(p, short):
    n = max(p - short, 1)
    rejects(lambda: et.hotelling_t2_test(np.random.default_rng(0).normal(size=(n, p))), "differences")


def test_hotelling_singular_and_shape():
    rejects(lambda: et.hotelling_t2_test(np.ones((6, 2))), "differences")
    rejects(lambda: et.hotelling_t2_test(np.arange(6.0)), "differences")


# ----------------------------------------------------------------- resampling


@FAST
@given(hs.integers(-5, 1))
def test_too_few_examples(n):
    for f in (et.holdout_split, et.kfold_splits, et.leave_one_out_splits, et.repeated_holdout_splits):
        rejects(lambda: f(n), "n")


@FAST
@given(hs.integers(2, 40), hs.integers(-3, 1))
def test_kfold_needs_two_folds_and_at_most_n(n, k):
    rejects(lambda: et.kfold_splits(n, k), "k")
    rejects(lambda: et.kfold_splits(n, n + 1), "k")


@FAST
@given(hs.one_of(OUTSIDE_UNIT, hs.just(0.0), hs.just(1.0), NOT_NUMBER))
def test_bad_test_size(bad):
    rejects(lambda: et.holdout_split(10, test_size=bad), "test_size")
    rejects(lambda: et.repeated_holdout_splits(10, test_size=bad), "test_size")


@FAST
@given(hs.integers(2, 30), hs.integers(1, 5))
def test_stratify_length_and_seed(n, extra):
    rejects(lambda: et.kfold_splits(n, 2, stratify=np.zeros(n + extra)), "stratify")
    rejects(lambda: et.holdout_split(n, stratify=np.zeros(n + extra)), "stratify")
    rejects(lambda: et.kfold_splits(n, 2, seed=-extra), "seed")
    rejects(lambda: et.bootstrap_samples(n, 2, seed="x"), "seed")
    rejects(lambda: et.bootstrap_samples(n, 0), "n_boot")


@FAST
@given(OUTSIDE_UNIT)
def test_bootstrap_estimates_need_error_rates(bad):
    rejects(lambda: et.bootstrap_632(bad, 0.2), "resub_error")
    rejects(lambda: et.bootstrap_632(0.1, bad), "oob_error")
    rejects(lambda: et.bootstrap_632_plus(0.1, 0.2, bad), "gamma")


@FAST
@given(hs.integers(1, 10), hs.integers(1, 3))
def test_no_information_error_lengths(n, extra):
    rejects(lambda: et.no_information_error([0] * n, [0] * (n + extra)), "y_pred")
    rejects(lambda: et.no_information_error([], []), "y_true")


# ----------------------------------------------------------------- losses


@FAST
@given(hs.floats(0.01, 0.4), hs.integers(0, 2))
def test_rows_must_sum_to_one(excess, row):
    p = np.full((3, 3), 1 / 3)
    p[row, 0] += excess
    for f in (et.quadratic_loss, et.informational_loss):
        rejects(lambda: f(p, [0, 1, 2]), "probabilities")


@FAST
@given(hs.one_of(OUTSIDE_UNIT, hs.floats(1.01, 5)))
def test_probabilities_out_of_range(bad):
    for f in (et.quadratic_loss, et.informational_loss):
        rejects(lambda: f([0.5, bad], [0, 1]), "probabilities")


@FAST
@given(hs.integers(3, 10))
def test_losses_bad_labels_shapes_and_base(k):
    p = np.full((2, 3), 1 / 3)
    for f in (et.quadratic_loss, et.informational_loss):
        rejects(lambda: f(p, [0, k]), "y")
        rejects(lambda: f(p, [0, 1, 2]), "y")
        rejects(lambda: f(np.ones((2, 1)), [0, 0]), "probabilities")
        rejects(lambda: f(np.full((2, 2, 2), 0.5), [0, 0]), "probabilities")
    rejects(lambda: et.informational_loss(p, [0, 1], base=1), "base")
    rejects(lambda: et.informational_loss(p, [0, 1], base=-k), "base")
