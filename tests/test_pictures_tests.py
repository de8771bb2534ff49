"""Pictures of the tests in evalteach.stats.tests: every shaded share is the result's p-value,
and the statistic, the differences, the interval and the counts drawn are the result's fields."""
import matplotlib.pyplot as plt
import numpy as np
import pytest

import evalteach as et
from picture_checks import area, by_gid, heights, legend_texts, one, x_span

FOLDS = [0.02, 0.03, 0.01, 0.04, 0.02, 0.05, 0.03, 0.02, 0.01, 0.03]
FIVE_BY_TWO = [[0.02, 0.01], [0.03, 0.00], [0.01, 0.02], [0.02, 0.02], [0.00, 0.03]]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize(("e1", "e2"), [(0.20, 0.30), (0.30, 0.27), (0.05, 0.01)])
def test_hypothesis_comparison_shades_p_and_draws_d_and_its_interval(alternative, e1, e2):
    r = et.compare_hypotheses(e1, 100, e2, 150, alternative=alternative, confidence=0.9)
    ax = r.plot()
    assert area(by_gid(ax, "p-value")) == pytest.approx(r.p_value, abs=2e-4)
    assert one(ax, "statistic").get_xdata()[0] == r.difference
    assert one(ax, "estimate").get_xdata()[0] == r.difference
    low, high = x_span(one(ax, "interval"))
    assert low == pytest.approx(r.low if np.isfinite(r.low) else ax.get_xlim()[0])
    assert high == pytest.approx(r.high if np.isfinite(r.high) else ax.get_xlim()[1])
    assert len(by_gid(ax, "interval-unbounded")) == (alternative != "two-sided")
    assert any(et._format.p_text(r.p_value) in text for text in legend_texts(ax))


def test_hypothesis_comparison_without_spread_draws_no_share():
    r = et.compare_hypotheses(0.0, 50, 0.0, 60)
    ax = r.plot()
    assert by_gid(ax, "p-value") == [] and r.p_value == 1.0


@pytest.mark.parametrize("test", [
    lambda alt: et.paired_t_test(FOLDS, alternative=alt),
    lambda alt: et.paired_z_test(FOLDS, np.roll(FOLDS, 3), alternative=alt),
    lambda alt: et.corrected_resampled_t_test(FOLDS, np.roll(FOLDS, 1), test_train_ratio=0.25, alternative=alt),
])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_paired_test_draws_its_differences_mean_interval_and_shaded_p(test, alternative):
    r = test(alternative)
    left = r.plot()
    right = left.figure.axes[1]
    np.testing.assert_array_equal(one(left, "differences").get_ydata(), r.differences)
    assert one(left, "estimate").get_ydata()[0] == r.mean_difference
    interval = np.asarray(one(left, "interval").get_ydata())
    finite = [end for end in (r.low, r.high) if np.isfinite(end)]
    assert all(np.isclose(interval, end).any() for end in finite)
    assert area(by_gid(right, "p-value")) == pytest.approx(r.p_value, abs=2e-4)
    assert one(right, "statistic").get_xdata()[0] == pytest.approx(r.statistic)
    assert right.get_xlabel() == ("z" if r.df is None else "t")


def test_thirty_holdouts_are_pairs_with_readable_ticks_and_the_learners_named():
    """30 holdouts: not 'fold', not 31 tick labels running together; the legend inside the panel."""
    r = et.corrected_resampled_t_test(np.random.default_rng(4).normal(0.01, 0.02, 30), test_train_ratio=0.5)
    left = r.plot(names=("tree", "naive Bayes"))
    ticks = [t.get_text() for t in left.get_xticklabels()]
    assert ticks[-1] == "mean" and len(ticks) <= 8 and all(1 <= int(t) <= 30 for t in ticks[:-1])
    assert "fold" not in left.get_xlabel().split(" (")[0] and left.get_xlabel().startswith("pair")
    assert left.get_ylabel() == "tree − naive Bayes"
    assert one(left, "differences").get_label() == "differences tree − naive Bayes"
    legend = left.get_legend()
    box, frame = legend.get_window_extent(), left.get_window_extent()
    assert frame.x0 <= box.x0 and box.x1 <= frame.x1 + 1 and frame.y0 <= box.y0 and box.y1 <= frame.y1 + 1
    figure = left.figure
    figure.canvas.draw()
    labels = [t.get_window_extent() for t in left.get_xticklabels()]
    assert not any(a.overlaps(b) for a, b in zip(labels, labels[1:]))
    assert [t.get_text() for t in et.paired_t_test(FOLDS).plot().get_xticklabels()] == \
        [*(str(i) for i in range(1, len(FOLDS) + 1)), "mean"]
    with pytest.raises(ValueError, match="names must be 2 strings"):
        r.plot(names="ab")


def test_a_paired_test_without_spread_draws_its_infinite_statistic_at_the_edge():
    r = et.paired_t_test([0.05] * 5)
    left = r.plot()
    right = left.figure.axes[1]
    assert r.statistic == np.inf and r.p_value == 0
    assert one(right, "statistic").get_xdata()[0] == right.get_xlim()[1]
    assert area(by_gid(right, "p-value")) == pytest.approx(0, abs=1e-6)


@pytest.mark.parametrize("make", [et.five_by_two_cv_t_test, et.five_by_two_cv_f_test])
def test_five_by_two_draws_ten_differences_and_shades_p(make):
    r = make(np.array(FIVE_BY_TWO) + 0.01)
    left = r.plot()
    right = left.figure.axes[1]
    drawn = np.column_stack([one(left, f"differences-fold-{j}").get_ydata() for j in (1, 2)])
    np.testing.assert_array_equal(drawn, r.differences)
    assert area(by_gid(right, "p-value")) == pytest.approx(r.p_value, abs=2e-4)
    assert one(right, "statistic").get_xdata()[0] == pytest.approx(r.statistic)
    assert bool(by_gid(left, "estimate")) == (make is et.five_by_two_cv_t_test)  # the t-test's numerator


@pytest.mark.parametrize(("k", "n", "p0"), [(7, 10, 0.5), (30, 100, 0.2), (2, 40, 0.1), (0, 12, 0.3)])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_binomial_test_fills_outcomes_adding_up_to_p(k, n, p0, alternative):
    r = et.binomial_test(k, n, p0, alternative=alternative)
    ax = r.plot()
    assert heights(one(ax, "p-value")).sum() == pytest.approx(r.p_value, rel=1e-9)
    assert one(ax, "statistic").get_xdata()[0] == k


@pytest.mark.parametrize(("wins", "losses", "ties"), [(11, 2, 1), (7, 6, 0), (15, 5, 4), (10, 0, 0), (3, 3, 0)])
def test_sign_test_fills_outcomes_adding_up_to_p(wins, losses, ties):
    r = et.sign_test(wins, losses, ties)
    ax = r.plot()
    assert heights(one(ax, "p-value")).sum() == pytest.approx(r.p_value, rel=1e-9)
    assert one(ax, "statistic").get_xdata()[0] == r.statistic
    assert sum(heights(c).sum() for c in by_gid(ax, "null") + by_gid(ax, "p-value")) == pytest.approx(1, abs=1e-6)
    assert "A wins" not in ax.get_title() and ax.get_xlabel() == "wins"


def test_sign_test_picture_names_the_algorithms_given():
    ax = et.sign_test(11, 2, 1, names=("C4.5+m", "C4.5")).plot()
    assert ax.get_title() == "Sign test: C4.5+m wins 11, loses 2, 1 tie split against C4.5: 11 of 13"
    assert ax.get_xlabel() == "wins of C4.5+m"


@pytest.mark.parametrize("options", [dict(exact=True), dict(), dict(correction=False)])
@pytest.mark.parametrize("table", [[[40, 10], [3, 47]], [[5, 1], [7, 0]], [[9, 4], [4, 2]], [[3, 0], [0, 5]]])
def test_mcnemar_draws_its_table_and_shades_p(options, table):
    r = et.mcnemar_test(table, **options)
    left = r.plot()
    right = left.figure.axes[1]
    assert one(left, "count-01").get_text() == f"b = {table[0][1]}"
    assert one(left, "count-10").get_text() == f"c = {table[1][0]}"
    assert [one(left, f"count-{i}{i}").get_text() for i in (0, 1)] == [str(table[0][0]), str(table[1][1])]
    assert one(right, "statistic").get_xdata()[0] == r.b
    shaded = by_gid(right, "p-value")
    if r.b + r.c == 0:
        assert r.p_value == 1.0
    elif r.exact:
        assert heights(shaded[0]).sum() == pytest.approx(r.p_value, rel=1e-9)
    else:
        assert area(shaded) == pytest.approx(r.p_value, abs=2e-4)


def test_mcnemar_from_b_and_c_shows_what_it_was_given():
    left = et.mcnemar_test(10, 3, n=100).plot()
    assert one(left, "count-00").get_text() == "·" and one(left, "count-01").get_text() == "b = 10"


@pytest.mark.parametrize("batch", [
    lambda: et.compare_hypotheses([0.2, 0.3], 100, 0.25, 100),
    lambda: et.paired_t_test(np.ones((3, 5)) + np.arange(5)),
    lambda: et.five_by_two_cv_t_test(np.ones((4, 5, 2)) + np.arange(2)),
    lambda: et.mcnemar_test([10, 3], [2, 8]),
])
def test_a_batch_is_refused_with_its_size(batch):
    with pytest.raises(ValueError, match="plot draws one test; this .* holds a batch of"):
        batch().plot()
