"""Pictures of ROC analysis, checked against scikit-learn and scipy: the ROC curve, its convex hull
and iso-cost line, the precision-recall steps (their area is average precision), the cost curve's
lines and envelope, and DeLong's two curves with the difference's shaded p and interval."""
import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy.spatial import ConvexHull
from sklearn import metrics

import evalteach as et
from evalteach.stats.examples import fawcett_roc_example, scott_roc_example
from picture_checks import area, by_gid, legend_texts, one, x_span

RNG = np.random.default_rng(9)
Y = RNG.integers(0, 2, 200)
S = np.round(RNG.random(200) + 0.5 * Y, 2)  # rounded: ties
EXAMPLES = [fawcett_roc_example(), scott_roc_example(), (Y, S)]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.mark.parametrize(("y", "s"), EXAMPLES)
def test_the_roc_picture_draws_scikit_learns_curve_and_the_upper_convex_hull(y, s):
    r = et.roc_curve(y, s)
    ax = r.plot()
    fpr, tpr, _ = metrics.roc_curve(y, s, drop_intermediate=False)
    curve = one(ax, "curve")
    np.testing.assert_allclose(curve.get_xdata(), fpr)
    np.testing.assert_allclose(curve.get_ydata(), tpr)
    assert f"AUC = {et._format.plain(metrics.roc_auc_score(y, s))}" in legend_texts(ax)[2]
    # the hull: with (1, 0) added, scipy's convex hull of the points is the ROC hull and the two edges
    # (0, 0) -> (1, 0) -> (1, 1); its vertices but (1, 0) are the ROC hull's
    points = np.r_[np.unique(np.c_[fpr, tpr], axis=0), [[1.0, 0.0]]]
    upper = {tuple(v) for v in points[ConvexHull(points).vertices] if tuple(v) != (1.0, 0.0)}
    hull = one(ax, "hull")
    assert set(zip(hull.get_xdata(), hull.get_ydata())) == upper


@pytest.mark.parametrize("costs", [(1, 1), (1, 3), (5, 1)])
def test_the_iso_cost_line_touches_the_hull_at_the_least_cost_point(costs):
    y, s = fawcett_roc_example()
    r = et.roc_curve(y, s)
    ax = r.plot(costs=costs)
    point = r.operating_point(*costs)
    mark = one(ax, "estimate")
    assert (mark.get_xdata()[0], mark.get_ydata()[0]) == (point.fpr, point.tpr)
    line = one(ax, "iso-cost")
    x, yy = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
    np.testing.assert_allclose(np.diff(yy) / np.diff(x), point.slope)
    assert point.slope == pytest.approx(costs[0] * r.n_neg / (costs[1] * r.n_pos))
    assert np.interp(point.fpr, x, yy) == pytest.approx(point.tpr)
    # no hull vertex lies above the line: the line touches the hull from above
    hull = r.convex_hull()
    assert np.all(hull.tpr <= point.tpr + point.slope * (hull.fpr - point.fpr) + 1e-12)


@pytest.mark.parametrize("costs", [5, (1,), "cheap"])
def test_costs_that_are_no_pair_are_refused(costs):
    with pytest.raises(TypeError, match="costs must be a pair"):
        et.roc_curve(*fawcett_roc_example()).plot(costs=costs)


def test_negative_costs_are_refused_by_name():
    with pytest.raises(ValueError, match="cost_fp must be > 0"):
        et.roc_curve(*fawcett_roc_example()).plot(costs=(-1, 1))


@pytest.mark.parametrize(("y", "s"), EXAMPLES)
def test_the_precision_recall_steps_enclose_average_precision(y, s):
    r = et.precision_recall_curve(y, s)
    ax = r.plot()
    steps = one(ax, "curve")
    x, p = np.asarray(steps.get_xdata()), np.asarray(steps.get_ydata())
    enclosed = float(np.sum(np.diff(x) * p[1:]))  # each step holds its precision over its recall interval
    assert enclosed == pytest.approx(metrics.average_precision_score(y, s))
    assert one(ax, "chance").get_ydata()[0] == pytest.approx(np.mean(y))


@pytest.mark.parametrize(("y", "s"), EXAMPLES)
def test_the_cost_curve_draws_every_operating_line_and_their_lower_envelope(y, s):
    r = et.cost_curve(y, s)
    ax = r.plot()
    fpr, tpr, _ = metrics.roc_curve(y, s, drop_intermediate=False)
    pc = np.linspace(0, 1, 101)
    lines = (1 - tpr)[:, None] * pc + fpr[:, None] * (1 - pc)
    drawn = np.array([line.get_ydata() for line in by_gid(ax, "line")])
    np.testing.assert_allclose(np.sort(drawn, axis=0), np.sort(lines, axis=0))
    np.testing.assert_allclose(one(ax, "envelope").get_ydata(), lines.min(axis=0))
    np.testing.assert_allclose(one(ax, "always-negative").get_ydata(), pc)
    np.testing.assert_allclose(one(ax, "always-positive").get_ydata(), 1 - pc)


def test_delong_draws_both_curves_and_shades_p():
    scores_b = S + RNG.normal(0, 0.4, 200)
    r = et.delong_test(Y, S, scores_b)
    left = r.plot()
    right = left.figure.axes[1]
    for gid, scores, auc in (("curve-a", S, r.auc_a), ("curve-b", scores_b, r.auc_b)):
        fpr, tpr, _ = metrics.roc_curve(Y, scores, drop_intermediate=False)
        np.testing.assert_allclose(one(left, gid).get_xdata(), fpr)
        np.testing.assert_allclose(one(left, gid).get_ydata(), tpr)
        assert auc == pytest.approx(metrics.roc_auc_score(Y, scores))
    assert area(by_gid(right, "p-value")) == pytest.approx(r.p_value, abs=2e-4)
    assert x_span(one(right, "interval")) == pytest.approx((r.low, r.high))
    assert one(right, "statistic").get_xdata()[0] == r.difference
