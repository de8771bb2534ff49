"""ROC analysis: Scott's and Fawcett's worked examples, and cross-checks against scikit-learn."""
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as st
from sklearn import metrics

from evalteach.stats import (auc, auc_interval, confusion, cost_curve, precision_at_prevalence,
                             precision_recall_curve, roc_curve)
from evalteach.stats.examples import fawcett_roc_example, scott_roc_example


def random_scored(rng, n=None, ties=False):
    n = n or int(rng.integers(4, 60))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    scores = rng.integers(0, 6, n).astype(float) if ties else rng.normal(y, 1.0)
    return y, scores


# ----------------------------------------------------------------- Scott's 10-example table


def test_scott_roc_table():
    y, s = scott_roc_example()
    r = roc_curve(y, s)
    # Sorted by w.x the labels are + + - + + - - - + -: one point per example.
    np.testing.assert_allclose(r.fpr, [0, 0, 0, .2, .2, .2, .4, .6, .8, .8, 1])
    np.testing.assert_allclose(r.tpr, [0, .2, .4, .4, .6, .8, .8, .8, .8, 1, 1])
    np.testing.assert_array_equal(r.thresholds[1:], np.sort(s)[::-1])
    assert r.thresholds[0] == np.inf
    assert (r.n_pos, r.n_neg) == (5, 5)
    # AUC: the negatives x3, x6, x7, x8, x10 are outranked by 2, 4, 4, 4, 5 positives.
    assert r.auc == pytest.approx(19 / 25) == auc(y, s)


def test_scott_convex_hull_and_operating_point():
    r = roc_curve(*scott_roc_example())
    h = r.convex_hull()
    np.testing.assert_allclose(h.fpr, [0, 0, .2, .8, 1])
    np.testing.assert_allclose(h.tpr, [0, .4, .8, 1, 1])
    np.testing.assert_allclose(h.thresholds, [np.inf, 109.2, -2.75, -91.554, -128.212])
    assert h.hull and h.auc == pytest.approx(0.86)
    # Equal costs, |N|/|P| = 1: the slope-1 line from (0, 1) first touches (0.2, 0.8).
    op = r.operating_point()
    assert (op.fpr, op.tpr, op.threshold, op.slope) == (pytest.approx(.2), pytest.approx(.8), -2.75, 1.0)
    assert op.expected_cost == pytest.approx(0.2)
    # False positives 10 times dearer: the steep line picks the top of the vertical segment.
    op = r.operating_point(cost_fp=10)
    assert (op.fpr, op.tpr, op.threshold, op.slope) == (0.0, pytest.approx(.4), 109.2, 10.0)
    assert "-2.75" in r.operating_point()._repr_markdown_()


def test_fawcett_example():
    y, s = fawcett_roc_example()
    assert y.sum() == 10 and len(y) == 20
    r = roc_curve(y, s)
    assert r.auc == pytest.approx(0.68) == auc(y, s)
    assert len(r.fpr) == 21


# ----------------------------------------------------------------- scikit-learn cross-checks


@pytest.mark.parametrize("ties", [False, True])
def test_roc_matches_sklearn(ties):
    rng = np.random.default_rng(11 + ties)
    for _ in range(40):
        y, s = random_scored(rng, ties=ties)
        r = roc_curve(y, s)
        fpr, tpr, thr = metrics.roc_curve(y, s, drop_intermediate=False)
        np.testing.assert_allclose(r.fpr, fpr)
        np.testing.assert_allclose(r.tpr, tpr)
        np.testing.assert_array_equal(r.thresholds, thr)
        ref = metrics.roc_auc_score(y, s)
        assert r.auc == pytest.approx(ref) and auc(y, s) == pytest.approx(ref)


def test_auc_is_mann_whitney_with_half_ties():
    rng = np.random.default_rng(3)
    for _ in range(30):
        y, s = random_scored(rng, ties=True)
        pos, neg = s[y == 1], s[y == 0]
        u = st.mannwhitneyu(pos, neg).statistic
        assert auc(y, s) == pytest.approx(u / (pos.size * neg.size))
        direct = np.mean((pos[:, None] > neg) + 0.5 * (pos[:, None] == neg))
        assert auc(y, s) == pytest.approx(direct)


def test_precision_recall_matches_sklearn():
    rng = np.random.default_rng(5)
    for ties in (False, True):
        for _ in range(25):
            y, s = random_scored(rng, ties=ties)
            c = precision_recall_curve(y, s)
            precision, recall, thr = metrics.precision_recall_curve(y, s)
            # scikit-learn lists thresholds ascending and appends the point (recall 0, precision 1).
            np.testing.assert_allclose(c.precision, precision[:-1][::-1])
            np.testing.assert_allclose(c.recall, recall[:-1][::-1])
            np.testing.assert_allclose(c.thresholds, thr[::-1])
            assert c.average_precision == pytest.approx(metrics.average_precision_score(y, s))


@pytest.mark.parametrize("ties", [False, True])
def test_achievable_pr_steps_have_average_precision_as_area(ties):
    rng = np.random.default_rng(21)
    for _ in range(20):
        y, s = random_scored(rng, ties=ties)
        c = precision_recall_curve(y, s)
        recall, precision = c.achievable()
        area = np.sum(np.diff(recall) * (precision[1:] + precision[:-1]) / 2)
        assert area == pytest.approx(c.average_precision)
        assert area == pytest.approx(metrics.average_precision_score(y, s))
        # every threshold's point is a corner of the steps
        assert set(zip(c.recall, c.precision)) <= set(zip(recall, precision))


@pytest.mark.parametrize("ties", [False, True])
def test_achievable_pr_roc_interpolation_lies_on_the_roc_curve(ties):
    # Davis & Goadrich (2006): a PR point is achievable when its (FPR, TPR) lies on the ROC curve.
    rng = np.random.default_rng(22)
    for _ in range(20):
        y, s = random_scored(rng, ties=ties)
        c, r = precision_recall_curve(y, s), roc_curve(y, s)
        recall, precision = c.achievable("roc", points_per_segment=7)
        known = recall > 0  # FP = TP (1/precision - 1) is recoverable where TP > 0
        tp = recall[known] * r.n_pos
        fp = tp * (1 / precision[known] - 1)
        fpr, tpr = fp / r.n_neg, tp / r.n_pos
        # every (FPR, TPR) lies on a segment of the ROC polyline
        seg = [(r.fpr[k], r.tpr[k], r.fpr[k + 1], r.tpr[k + 1]) for k in range(len(r.fpr) - 1)]
        for f, t in zip(fpr, tpr):
            assert any(min(a, b) - 1e-9 <= f <= max(a, b) + 1e-9 and min(p, q) - 1e-9 <= t <= max(p, q) + 1e-9
                       and abs((b - a) * (t - p) - (q - p) * (f - a)) < 1e-9 for a, p, b, q in seg)
        assert set(map(tuple, np.round(np.c_[c.recall, c.precision], 12))) <= set(
            map(tuple, np.round(np.c_[recall, precision], 12)))


def test_achievable_pr_worked_example():
    # A tie of two positives, then a tie of one positive and two negatives: TP, FP go (0,0) -> (2,0) -> (3,2).
    # Half way along the last segment (TP 2.5, FP 1) precision is 2.5/3.5 = 0.714, not the straight
    # line's (1 + 0.6)/2 = 0.8: linear interpolation in PR space is optimistic.
    c = precision_recall_curve([1, 1, 1, 0, 0], [0.9, 0.9, 0.5, 0.5, 0.5])
    recall, precision = c.achievable("roc", points_per_segment=2)
    np.testing.assert_allclose(recall, [0, 1 / 3, 2 / 3, 2.5 / 3, 1])
    np.testing.assert_allclose(precision, [1, 1, 1, 2.5 / 3.5, 0.6])
    r, p = c.achievable()
    np.testing.assert_allclose(r, [0, 2 / 3, 2 / 3, 1])
    np.testing.assert_allclose(p, [1, 1, 0.6, 0.6])
    with pytest.raises(ValueError, match="interpolation"):
        c.achievable("linear")


def test_confusion_matches_sklearn():
    rng = np.random.default_rng(8)
    for _ in range(15):
        n = int(rng.integers(5, 50))
        y, p = rng.integers(0, 2, n), rng.integers(0, 2, n)
        y[:2], p[:2] = [0, 1], [1, 1]
        c = confusion(y, p)
        tn, fp, fn, tp = metrics.confusion_matrix(y, p, labels=[0, 1]).ravel()
        assert (c.tp, c.fp, c.tn, c.fn) == (tp, fp, tn, fn)
        assert c.accuracy == pytest.approx(metrics.accuracy_score(y, p))
        assert c.error_rate == pytest.approx(1 - c.accuracy)
        assert c.precision == pytest.approx(metrics.precision_score(y, p))
        assert c.recall == pytest.approx(metrics.recall_score(y, p))
        assert c.f1 == pytest.approx(metrics.f1_score(y, p))
        assert c.specificity == pytest.approx(metrics.recall_score(y, p, pos_label=0))
        assert c.fpr == pytest.approx(1 - c.specificity)


def test_confusion_undefined_rates_are_nan_and_shown_as_undefined():
    c = confusion([0, 0, 0], [0, 0, 0])  # no positives at all, none predicted
    assert (c.tn, c.accuracy) == (3, 1.0)
    assert math.isnan(c.precision) and math.isnan(c.recall) and math.isnan(c.f1)
    assert c.fpr == 0.0 and c.specificity == 1.0
    assert r"\text{undefined}" in c._repr_markdown_()
    c = confusion([1, 1, 0], [0, 0, 0])  # nothing predicted positive: precision undefined, F1 = 0
    assert math.isnan(c.precision) and c.recall == 0.0 and c.f1 == 0.0
    # the slides' h_A: 2/20 positives and 965/980 negatives right
    y = np.r_[np.ones(20, int), np.zeros(980, int)]
    p = np.r_[np.ones(2, int), np.zeros(18, int), np.zeros(965, int), np.ones(15, int)]
    c = confusion(y, p)
    assert c.accuracy == pytest.approx(0.967) and c.recall == pytest.approx(0.1)


@pytest.mark.parametrize("tp, fn, tn, fp", [(19, 1, 930, 50), (2, 18, 965, 15), (190, 10, 760, 40),
                                             (0, 20, 980, 0), (7, 3, 1, 9), (300, 0, 0, 700)])
def test_precision_at_prevalence_matches_sklearn_on_a_constructed_test_set(tp, fn, tn, fp):
    """A test set with exactly these counts has recall, specificity and a share of positives;
    the function must give back the precision and accuracy scikit-learn measures on it."""
    y = np.r_[np.ones(tp + fn, int), np.zeros(tn + fp, int)]
    p = np.r_[np.ones(tp, int), np.zeros(fn, int), np.zeros(tn, int), np.ones(fp, int)]
    n = y.size
    r = precision_at_prevalence(tp / (tp + fn), tn / (tn + fp), (tp + fn) / n, n=n)
    if tp + fp == 0:
        assert math.isnan(r.precision) and "undefined" in r.verdict
    else:
        assert r.precision == pytest.approx(metrics.precision_score(y, p))
    assert r.accuracy == pytest.approx(metrics.accuracy_score(y, p))
    assert r.fpr == pytest.approx(1 - metrics.recall_score(y, p, pos_label=0))
    assert (r.tp, r.fp, r.tn, r.fn) == pytest.approx((tp, fp, tn, fn))


def test_precision_at_prevalence_moves_scott_h_b_to_another_class_ratio():
    # Scott's h_B finds 19 of 20 positives and 930 of 980 negatives: precision 19/69 = 0.275.
    scott = precision_at_prevalence(19 / 20, 930 / 980, 20 / 1000)
    assert scott.precision == pytest.approx(19 / 69) and scott.tp == pytest.approx(19)
    # The same rates with half the cases positive, checked on a test set of 980 + 980 cases
    # (the counts then stay whole: 931 true positives, 50 false alarms).
    y = np.r_[np.ones(980, int), np.zeros(980, int)]
    p = np.r_[np.ones(931, int), np.zeros(49, int), np.zeros(930, int), np.ones(50, int)]
    half = precision_at_prevalence(19 / 20, 930 / 980, 0.5)
    assert half.precision == pytest.approx(metrics.precision_score(y, p))
    assert round(half.precision, 3) == 0.949 and half.fp == pytest.approx(1000 * 0.5 * 50 / 980)
    assert half.recall == scott.recall and half.specificity == scott.specificity
    shown = half._repr_markdown_()
    assert r"\pi" in shown and "0.949" in shown and "50%" in half.verdict


# ----------------------------------------------------------------- hull and operating point


def test_operating_point_minimises_cost_over_all_roc_points():
    rng = np.random.default_rng(21)
    for _ in range(60):
        y, s = random_scored(rng, ties=bool(rng.integers(0, 2)))
        r = roc_curve(y, s)
        h = r.convex_hull()
        c_fp, c_fn = rng.uniform(0.1, 10, 2)
        op = r.operating_point(c_fp, c_fn)
        P, N = r.n_pos, r.n_neg
        brute = (c_fp * r.fpr * N + c_fn * (1 - r.tpr) * P) / (P + N)
        assert op.expected_cost == pytest.approx(brute.min())
        assert op.slope == pytest.approx(c_fp * N / (c_fn * P))
        on_hull = np.isclose(h.fpr, op.fpr) & np.isclose(h.tpr, op.tpr)
        assert on_hull.any() and h.thresholds[on_hull][0] == op.threshold
        # the threshold really gives that point
        pred = (s >= op.threshold).astype(int)
        cm = confusion(y, pred)
        assert (cm.fpr, cm.recall) == (pytest.approx(op.fpr), pytest.approx(op.tpr))


def test_hull_is_concave_and_dominates_the_curve():
    rng = np.random.default_rng(4)
    for _ in range(40):
        y, s = random_scored(rng)
        r = roc_curve(y, s)
        h = r.convex_hull()
        assert (h.fpr[0], h.tpr[0], h.fpr[-1], h.tpr[-1]) == (0, 0, 1, 1)
        slopes = np.diff(h.tpr) / np.where(np.diff(h.fpr) == 0, np.nan, np.diff(h.fpr))
        finite = slopes[np.isfinite(slopes)]
        assert np.all(np.diff(finite) < 1e-12)  # strictly turning right
        assert np.all(r.tpr <= np.interp(r.fpr, h.fpr, h.tpr) + 1e-12)
        assert h.auc >= r.auc - 1e-12
        assert set(map(tuple, np.c_[h.fpr, h.tpr])) <= set(map(tuple, np.c_[r.fpr, r.tpr]))


# ----------------------------------------------------------------- cost curve


def test_cost_curve_envelope_is_the_best_threshold_cost():
    y, s = scott_roc_example()
    c = cost_curve(y, s, grid=11)
    r = roc_curve(y, s)
    for pc, env in zip(c.probability_cost, c.envelope):
        # normalised expected cost of each ROC point at this probability-cost
        costs = (1 - r.tpr) * pc + r.fpr * (1 - pc)
        assert env == pytest.approx(costs.min())
    assert c.envelope[0] == 0 and c.envelope[-1] == 0  # trivial classifiers at the ends
    assert c.envelope[5] == pytest.approx(0.2)  # equal costs and classes: 0.2 from the (0.2, 0.8) point
    assert c.lines().shape == (11, 11)


def test_cost_curve_useful_below_both_trivial_classifiers():
    # Drummond & Holte (2006): useful where the envelope is below min(PC, 1 - PC). One ROC point
    # (FPR, TPR) = (0.2, 0.6) gives the line 0.4 PC + 0.2 (1 - PC) = 0.2 + 0.2 PC; it is below PC for
    # PC > 0.25 and below 1 - PC for PC < 2/3: useful exactly on (0.25, 2/3).
    y = np.r_[np.ones(5), np.zeros(5)]
    s = np.r_[1, 1, 1, 0, 0, 1, 0, 0, 0, 0]  # TP 3 of 5, FP 1 of 5
    c = cost_curve(y, s, grid=13)
    pc = c.probability_cost
    np.testing.assert_allclose(c.envelope, np.minimum.reduce([pc, 1 - pc, 0.2 + 0.2 * pc]))
    np.testing.assert_array_equal(c.useful, (pc > 0.25) & (pc < 2 / 3))
    assert "min(PC, 1 − PC)" in c.verdict and "from 0.333 to 0.583" in c.verdict
    # below max(PC, 1 - PC) is not enough: at PC = 0.75 the line (0.35) beats "always negative" (0.75)
    # but not "always positive" (0.25)
    assert not c.useful[9] and c.envelope[9] < max(pc[9], 1 - pc[9])
    # a useless classifier (random guessing) is never useful
    never = cost_curve([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.5], grid=11)
    assert not never.useful.any() and "never lies below" in never.verdict


def test_cost_curve_matches_operating_point():
    rng = np.random.default_rng(9)
    y, s = random_scored(rng, n=40)
    r = roc_curve(y, s)
    c = cost_curve(y, s, grid=5)
    P, N = r.n_pos, r.n_neg
    for pc, env in zip(c.probability_cost[1:-1], c.envelope[1:-1]):
        # PC(+) = p(+) c_fn / (p(+) c_fn + p(-) c_fp): choose c_fn = pc / P, c_fp = (1 - pc) / N
        op = r.operating_point(cost_fp=(1 - pc) / N, cost_fn=pc / P)
        assert env == pytest.approx(op.fpr * (1 - pc) + (1 - op.tpr) * pc)


# ----------------------------------------------------------------- AUC intervals


def test_hanley_mcneil_worked_example():
    # Hanley & McNeil (1982), Table 1: 58 normal and 51 abnormal CT images on a 5-point scale.
    neg = np.repeat([1, 2, 3, 4, 5], [33, 6, 6, 11, 2])
    pos = np.repeat([1, 2, 3, 4, 5], [3, 2, 2, 11, 33])
    y, s = np.r_[np.zeros(58, int), np.ones(51, int)], np.r_[neg, pos]
    r = auc_interval(y, s)
    assert round(r.estimate, 3) == 0.893
    assert r.se == pytest.approx(0.032, abs=0.001)
    A, P, N = r.estimate, 51, 58
    q1, q2 = A / (2 - A), 2 * A ** 2 / (1 + A)
    se = math.sqrt((A * (1 - A) + (P - 1) * (q1 - A ** 2) + (N - 1) * (q2 - A ** 2)) / (P * N))
    assert r.se == pytest.approx(se)
    assert (r.low, r.high) == (pytest.approx(A - 1.959964 * se), pytest.approx(A + 1.959964 * se))


def delong_variance_direct(y, s):
    """DeLong et al. (1988) written out with the full kernel matrix psi(x_i, y_j)."""
    pos, neg = s[y == 1], s[y == 0]
    psi = (pos[:, None] > neg) + 0.5 * (pos[:, None] == neg)
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    m, n = pos.size, neg.size
    s10 = np.sum((v10 - psi.mean()) ** 2) / (m - 1)
    s01 = np.sum((v01 - psi.mean()) ** 2) / (n - 1)
    return s10 / m + s01 / n


def test_delong_matches_direct_computation():
    rng = np.random.default_rng(13)
    for ties in (False, True):
        for _ in range(25):
            y, s = random_scored(rng, ties=ties)
            y[:4] = [0, 0, 1, 1]
            r = auc_interval(y, s, confidence=0.9, method="delong")
            assert r.se ** 2 == pytest.approx(delong_variance_direct(y, s))
            z = st.norm.ppf(0.95)
            assert r.low == pytest.approx(max(r.estimate - z * r.se, 0.0))
            assert r.high == pytest.approx(min(r.estimate + z * r.se, 1.0))


def test_auc_interval_covers_in_simulation():
    # Binormal scores with true AUC Phi(1/sqrt 2); DeLong's 90% interval should cover about 90%.
    rng = np.random.default_rng(2)
    true_auc = st.norm.cdf(1 / math.sqrt(2))
    y = np.r_[np.zeros(40, int), np.ones(40, int)]
    hits = [auc_interval(y, rng.normal(y, 1.0), 0.9, "delong") for _ in range(300)]
    coverage = np.mean([h.low <= true_auc <= h.high for h in hits])
    assert 0.84 <= coverage <= 0.95


def test_results_explain_themselves():
    y, s = scott_roc_example()
    for res in (roc_curve(y, s), roc_curve(y, s).convex_hull(), precision_recall_curve(y, s),
                cost_curve(y, s), auc_interval(y, s), auc_interval(y, s, method="delong"), confusion(y, s > 0)):
        md = res._repr_markdown_()
        assert "$$" in md and res.verdict and len(repr(res)) < 400
    assert "0.76" in roc_curve(y, s)._repr_markdown_()


def test_auc_verdict_speaks_of_this_test_set_and_estimates_the_probability():
    # the AUC is the share of this test set's pairs; the population probability is what it estimates
    y, s = scott_roc_example()
    verdict = roc_curve(y, s).verdict
    assert "in this test set" in verdict and "19 of the 25 (positive, negative) pairs" in verdict
    assert "estimates the probability" in verdict
    tied = roc_curve([1, 0, 1, 0], [0.5, 0.5, 0.9, 0.1])      # ties count half: 3.5 of 4 pairs
    assert "3.5 of the 4" in tied.verdict and tied.auc == metrics.roc_auc_score([1, 0, 1, 0], [0.5, 0.5, 0.9, 0.1])


# ----------------------------------------------------------------- DeLong's test of two AUCs


def delong_test_direct(y, a, b):
    """DeLong et al. (1988) written out with the full kernel matrices psi(x_i, y_j), O(P N)."""
    comps = []
    for s in (a, b):
        pos, neg = s[y == 1], s[y == 0]
        psi = (pos[:, None] > neg) + 0.5 * (pos[:, None] == neg)
        comps.append((psi.mean(), psi.mean(axis=1), psi.mean(axis=0)))
    (A, v10a, v01a), (B, v10b, v01b) = comps
    m, n = v10a.size, v01a.size
    s10 = np.array([[np.sum((p - P_) * (q - Q_)) / (m - 1) for q, Q_ in ((v10a, A), (v10b, B))]
                    for p, P_ in ((v10a, A), (v10b, B))])
    s01 = np.array([[np.sum((p - P_) * (q - Q_)) / (n - 1) for q, Q_ in ((v01a, A), (v01b, B))]
                    for p, P_ in ((v01a, A), (v01b, B))])
    c = np.array([1.0, -1.0])
    return A, B, np.sqrt(c @ s10 @ c / m + c @ s01 @ c / n)


@pytest.mark.parametrize("ties", [False, True])
def test_delong_test_matches_direct_computation(ties):
    from evalteach.stats import delong_test

    rng = np.random.default_rng(51)
    for _ in range(25):
        y, a = random_scored(rng, ties=ties)
        y[:4] = [0, 0, 1, 1]
        b = a + rng.normal(0, 1.0, a.size) if not ties else rng.integers(0, 6, a.size).astype(float)
        r = delong_test(y, a, b, confidence=0.9)
        A, B, se = delong_test_direct(y, a, b)
        assert (r.auc_a, r.auc_b) == (pytest.approx(A), pytest.approx(B))
        assert r.auc_a == pytest.approx(metrics.roc_auc_score(y, a))
        assert r.se == pytest.approx(se)
        assert r.statistic == pytest.approx((A - B) / se)
        assert r.p_value == pytest.approx(2 * st.norm.sf(abs(A - B) / se))
        z = st.norm.ppf(0.95)
        assert (r.low, r.high) == (pytest.approx(A - B - z * se), pytest.approx(A - B + z * se))
        # swapping the classifiers flips the sign only
        s = delong_test(y, b, a, confidence=0.9)
        assert s.statistic == pytest.approx(-r.statistic) and s.p_value == pytest.approx(r.p_value)


def test_delong_test_worked_example_and_independence_limit():
    from evalteach.stats import auc_interval, delong_test

    # 4 positives, 4 negatives: a misranks one pair (AUC 15/16), b five pairs (AUC 11/16)
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0])
    a = np.array([9, 8, 7, 3, 6, 2, 1, 0.0])
    b = np.array([9, 3, 7, 2, 8, 6, 1, 0.0])
    r = delong_test(y, a, b)
    assert (r.auc_a, r.auc_b, r.difference) == (15 / 16, 11 / 16, 0.25)
    A, B, se = delong_test_direct(y, a, b)
    assert r.se == pytest.approx(se)
    # Var(a - b) = Var(a) + Var(b) - 2 Cov: each variance is auc_interval's DeLong SE squared
    va, vb = auc_interval(y, a, method="delong").se ** 2, auc_interval(y, b, method="delong").se ** 2
    cov = r.correlation * np.sqrt(va * vb)
    assert r.se ** 2 == pytest.approx(va + vb - 2 * cov)
    assert "do not rule out equal AUCs" in r.verdict and "interval" in r.verdict
    # many examples and a clearly better classifier: significant
    rng = np.random.default_rng(52)
    y = np.r_[np.ones(300), np.zeros(300)].astype(int)
    good = rng.normal(2.0 * y, 1.0)
    worse = good + rng.normal(0, 1.5, y.size)
    big = delong_test(y, good, worse)
    assert big.p_value < 0.01 and big.low > 0 and "differ significantly" in big.verdict


def _asah():
    """pROC's aSAH data (Turck et al. 2010, Intensive Care Med 36:107-115): 113 patients after
    subarachnoid haemorrhage, outcome Good/Poor and three predictors (WFNS grade, S100beta, NDKA).
    Exported unchanged from pROC's data/aSAH.RData to tests/data/asah.csv."""
    d = np.genfromtxt(Path(__file__).parent / "data" / "asah.csv", delimiter=",", names=True, dtype=None,
                      encoding="ascii")
    return (d["outcome"] == "Poor").astype(int), d["wfns"].astype(float), d["s100b"], d["ndka"]


@pytest.mark.parametrize("first, second, z, p, low, high", [
    ("wfns", "s100b", 2.20898359144091, 0.0271757822291882, 0.0104061769564846, 0.174214419249478),
    ("wfns", "ndka", 2.79777591868904, 0.00514557970691098, 0.0634011709339876, 0.3600405634833566),
    ("ndka", "s100b", -1.39077002573558, 0.164295175223054, -0.2876917446341914, 0.0488706064228094),
])
def test_delong_test_reproduces_proc_on_the_asah_data(first, second, z, p, low, high):
    """Robin et al.'s pROC (the R reference for DeLong et al. 1988): the expected Z, p-value and
    95% interval of the AUC difference are pROC's own regression values, tests/testthat/
    test-roc.test.R ("roc.test statistic and p are as expected with defaults"); its printed
    example ``roc.test(roc(outcome, wfns), roc(outcome, s100b))`` reads Z = 2.209, p = 0.02718."""
    from evalteach.stats import delong_test

    y, *columns = _asah()
    scores = dict(zip(("wfns", "s100b", "ndka"), columns))
    r = delong_test(y, scores[first], scores[second])
    assert r.statistic == pytest.approx(z, rel=1e-9)
    assert r.p_value == pytest.approx(p, rel=1e-9)
    assert (r.low, r.high) == (pytest.approx(low, rel=1e-9), pytest.approx(high, rel=1e-9))


def test_delong_variance_reproduces_proc_on_the_asah_data():
    """pROC's tests/testthat/test-var.R ("var with delong works"): the DeLong variances of the
    three single AUCs."""
    y, wfns, s100b, ndka = _asah()
    for scores, variance in ((wfns, 0.00146991470882363), (ndka, 0.0031908105493913),
                             (s100b, 0.00266868245717244)):
        assert auc_interval(y, scores, method="delong").se ** 2 == pytest.approx(variance, rel=1e-9)
    # and its tests/testthat/test-auc.R ("full auc works")
    assert (auc(y, wfns), auc(y, ndka)) == (pytest.approx(0.823678861788618), pytest.approx(0.611957994579946))


# ----------------------------------------------------------------- multi-class AUC and lift chart


@pytest.mark.parametrize("method, sklearn_name", [("hand-till", "ovo"), ("ovr", "ovr")])
def test_multiclass_auc_against_sklearn(method, sklearn_name):
    from evalteach.stats import multiclass_auc

    rng = np.random.default_rng(61)
    for _ in range(20):
        c = int(rng.integers(3, 6))
        n = int(rng.integers(3 * c, 80))
        y = np.r_[np.arange(c), rng.integers(0, c, n - c)]
        logits = rng.normal(size=(n, c)) + 1.5 * np.eye(c)[y]
        if rng.random() < 0.3:
            logits = np.round(logits)  # ties
        p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        r = multiclass_auc(y, p, method=method)
        assert r.estimate == pytest.approx(metrics.roc_auc_score(y, p, multi_class=sklearn_name))
        assert r.n_classes == c


def test_multiclass_auc_hand_till_by_hand():
    from evalteach.stats import multiclass_auc

    # Three classes, two examples each. A(0|1): column 0 on classes 0 and 1 ranks 0.7, 0.5 over
    # 0.3, 0.2: 1. A(1|0): column 1 gives 0.4, 0.5 (class 1) vs 0.2, 0.3: 1. A(0|2) = 1,
    # A(2|0): 0.6, 0.3 vs 0.1, 0.2: 1. A(1|2): column 1, 0.4, 0.5 vs 0.3, 0.6: 2/4 = 0.5;
    # A(2|1): column 2, 0.6, 0.3 vs 0.3, 0.3: (1 + 1 + 0.5 + 0.5)/4 = 0.75. M = (1 + 1 + 0.625)/3.
    p = np.array([[.7, .2, .1], [.3, .4, .3], [.1, .3, .6], [.5, .3, .2], [.2, .5, .3], [.1, .6, .3]])
    y = [0, 1, 2, 0, 1, 2]
    r = multiclass_auc(y, p)
    assert r.per_class[1, 2] == pytest.approx(0.625)
    assert r.estimate == pytest.approx((1 + 1 + 0.625) / 3)
    assert "0.875" in r.verdict


def test_multiclass_auc_reproduces_handtill2001():
    """Cullmann's R package HandTill2001 (M of Hand & Till 2001, eq. 7), tests/testthat/test-auc.R:
    auc(multcap(...)) on its data ht01.multipleclass is 0.947211779448622. The data are rpart's
    class probabilities for the forensic glass data (Venables & Ripley 2002, pp. 261-265), copied
    unchanged from the package's data/ht01.multipleclass.txt to tests/data/ht01_multipleclass.csv."""
    from evalteach.stats import multiclass_auc

    d = np.genfromtxt(Path(__file__).parent / "data" / "ht01_multipleclass.csv", delimiter=",", names=True,
                      dtype=None, encoding="ascii")
    classes = sorted(set(d["observed"]))  # R's factor levels
    y = np.searchsorted(classes, d["observed"])
    p = np.column_stack([d[c] for c in classes])
    r = multiclass_auc(y, p)
    assert r.n_classes == 6 and r.estimate == pytest.approx(0.947211779448622, rel=1e-12)


def test_lift_chart_reproduces_witten_and_eibes_mailout():
    """Witten & Frank, *Data Mining* (ch. 5, "Lift charts"): a mailout to 1,000,000 households of
    which 0.1% (1000) respond; the 100,000 the model ranks highest hold 400 respondents (response
    rate 0.4%, a lift factor of 4) and the top 40% hold 800. Three score bands build that ranking."""
    from evalteach.stats import lift_chart

    sizes, respondents, scores = (100_000, 300_000, 600_000), (400, 400, 200), (0.9, 0.5, 0.1)
    y = np.concatenate([np.r_[np.ones(k, int), np.zeros(n - k, int)] for n, k in zip(sizes, respondents)])
    c = lift_chart(y, np.repeat(scores, sizes))
    assert c.sample_size.tolist() == [100_000, 400_000, 1_000_000]
    assert c.true_positives.tolist() == [400, 800, 1000]
    assert c.lift.tolist() == pytest.approx([4.0, 2.0, 1.0])
    assert "(10%) reaches 400 of the 1000 positives (40%), 4 times as many" in c.verdict


def test_lift_chart_worked_example():
    from evalteach.stats import lift_chart

    # Witten & Frank's table of ranked predictions: 10 examples, 4 positives. The top 3 hold 2
    # positives: lift (2/3)/(4/10) = 5/3; everything: lift 1.
    y = [1, 1, 0, 1, 0, 0, 0, 0, 1, 0]
    s = [.95, .93, .93, .88, .86, .85, .82, .80, .80, .79]
    c = lift_chart(y, s)
    assert c.sample_size.tolist() == [1, 3, 4, 5, 6, 7, 9, 10]
    assert c.true_positives.tolist() == [1, 2, 3, 3, 3, 3, 4, 4]
    assert c.lift[1] == pytest.approx(5 / 3) and c.lift[-1] == pytest.approx(1.0)
    assert "Taking the 1 top-scored of 10 examples" in c.verdict and "2.5 times" in c.verdict
    # against the ROC counts: TP(t) = TPR P, sample = TP + FP
    rng = np.random.default_rng(62)
    for _ in range(10):
        y, s = random_scored(rng, ties=True)
        c, r = lift_chart(y, s), roc_curve(y, s)
        np.testing.assert_allclose(c.true_positives, r.tpr[1:] * r.n_pos)
        np.testing.assert_allclose(c.sample_size, r.tpr[1:] * r.n_pos + r.fpr[1:] * r.n_neg)
        np.testing.assert_allclose(c.lift, (c.true_positives / c.sample_size) / np.mean(y))


def test_lift_chart_plot_draws_the_curve_the_diagonal_and_the_reported_point():
    """plot() draws what the result holds: the curve from (0, 0) through every (sample size, TP)
    point, the diagonal of a random sample from (0, 0) to (n, P), and a dot at the sample the
    display reports (the first covering 10% of the examples), here Witten & Frank's mailout."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evalteach.stats import lift_chart

    sizes, respondents, scores = (100_000, 300_000, 600_000), (400, 400, 200), (0.9, 0.5, 0.1)
    y = np.concatenate([np.r_[np.ones(k, int), np.zeros(n - k, int)] for n, k in zip(sizes, respondents)])
    c = lift_chart(y, np.repeat(scores, sizes))
    figure, given = plt.subplots()
    try:
        ax = c.plot(ax=given)
        assert ax is given
        curve, diagonal, dot = ax.get_lines()
        assert curve.get_xdata().tolist() == [0, 100_000, 400_000, 1_000_000]
        assert curve.get_ydata().tolist() == [0, 400, 800, 1000]
        assert diagonal.get_xydata().tolist() == [[0, 0], [1_000_000, 1000]]
        assert dot.get_xydata().tolist() == [[100_000, 400]]
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert labels == ["examples taken by decreasing score", "random sample", "top 100000 (10%): lift 4"]
        assert ax.get_xlim() == (0, 1_000_000) and ax.get_ylim()[1] >= 1000
        assert "sample size" in ax.get_xlabel() and "positives" in ax.get_ylabel()
    finally:
        plt.close(figure)
    # without an Axes it makes its own figure
    own = lift_chart([1, 1, 0, 1, 0, 0, 0, 0, 1, 0], [.95, .93, .93, .88, .86, .85, .82, .80, .80, .79]).plot()
    try:
        assert own.get_lines()[0].get_xdata().tolist() == [0, 1, 3, 4, 5, 6, 7, 9, 10]
        assert own.get_lines()[2].get_xydata().tolist() == [[1, 1]]  # the first sample covering 10%
    finally:
        plt.close(own.figure)
