"""ProportionInterval.plot: the interval and estimate drawn are the result's, and each shaded
share is the probability it stands for (the confidence, or the tail each bound leaves)."""
import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy import stats

import evalteach as et
from picture_checks import area, bar_centres, by_gid, heights, legend_texts, one, x_span

CASES = [(12, 40, "two"), (3, 30, "upper"), (27, 30, "lower"), (0, 20, "two"), (20, 20, "two"), (130, 1000, "two")]
METHODS = ["wald", "wilson", "clopper-pearson", "agresti-coull", "jeffreys"]


@pytest.fixture
def drawn():
    made = []

    def draw(result):
        ax = result.plot()
        made.append(ax.figure)
        return ax
    yield draw
    for figure in made:
        plt.close(figure)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(("k", "n", "sided"), CASES)
def test_the_interval_and_the_estimate_are_the_results(drawn, method, k, n, sided):
    r = et.proportion_interval(k, n, method=method, sided=sided, confidence=0.9)
    ax = drawn(r)
    assert x_span(one(ax, "interval")) == pytest.approx((r.low, r.high), abs=1e-12)
    assert one(ax, "estimate").get_xdata()[0] == r.estimate
    assert f"90% interval [{et._format.plain(r.low)}, {et._format.plain(r.high)}]" in legend_texts(ax)
    low, high = ax.get_xlim()
    assert low <= r.low and r.high <= high


@pytest.mark.parametrize(("k", "n", "sided"), [c for c in CASES if 0 < c[0] < c[1]])
def test_the_normal_curve_shades_the_confidence(drawn, k, n, sided):
    for method in ("wald", "agresti-coull"):
        r = et.proportion_interval(k, n, method=method, sided=sided, confidence=0.9)
        assert area(by_gid(drawn(r), "p-value")) == pytest.approx(0.9, abs=2e-4)


def test_a_rounded_z_shades_what_it_covers_and_says_so(drawn):
    r = et.proportion_interval(12, 40, z=1.28)   # a book's 80%, rounded
    ax = drawn(r)
    covered = 2 * stats.norm.cdf(1.28) - 1
    assert area(by_gid(ax, "p-value")) == pytest.approx(covered, abs=2e-4)
    assert f"shaded: {et._format.pct(covered)} (z = 1.28)" in legend_texts(ax)


@pytest.mark.parametrize("method", ["wilson", "clopper-pearson"])
@pytest.mark.parametrize(("k", "n", "sided"), CASES)
def test_each_bound_leaves_the_tail_beyond_the_estimate(drawn, method, k, n, sided):
    r = et.proportion_interval(k, n, method=method, sided=sided, confidence=0.9)
    ax = drawn(r)
    tail = 0.05 if sided == "two" else 0.1
    for which, bound, drawn_here in (("lower", r.low, sided != "upper" and k > 0),
                                     ("upper", r.high, sided != "lower" and k < n)):
        shaded = by_gid(ax, f"p-value-{which}")
        assert bool(shaded) == drawn_here, which
        if drawn_here:
            measured = heights(shaded[0]).sum() if method == "clopper-pearson" else area(shaded)
            assert measured == pytest.approx(tail, abs=2e-4), (which, bound)


def test_clopper_pearson_tails_are_the_exact_binomial_sums(drawn):
    r = et.proportion_interval(12, 40, method="clopper-pearson")
    ax = drawn(r)
    lower, upper = one(ax, "p-value-lower"), one(ax, "p-value-upper")
    assert heights(lower).sum() == pytest.approx(stats.binom.sf(11, 40, r.low), rel=1e-9)
    assert heights(upper).sum() == pytest.approx(stats.binom.cdf(12, 40, r.high), rel=1e-9)
    np.testing.assert_allclose(heights(lower), stats.binom.pmf(np.arange(12, 41), 40, r.low))
    # each bound's bars sit beside the count they stand for: k/n - w/2 (lower), k/n + w/2 (upper)
    np.testing.assert_allclose(bar_centres(lower), np.arange(12, 41) / 40 - 0.2 / 40)
    np.testing.assert_allclose(bar_centres(upper), np.arange(0, 13) / 40 + 0.2 / 40)


@pytest.mark.parametrize(("k", "n", "sided"), CASES)
def test_jeffreys_shades_the_posterior_between_the_bounds(drawn, k, n, sided):
    r = et.proportion_interval(k, n, method="jeffreys", sided=sided, confidence=0.9)
    ax = drawn(r)
    posterior = stats.beta(k + 0.5, n - k + 0.5)
    share = posterior.cdf(r.high) - posterior.cdf(r.low)
    assert area(by_gid(ax, "p-value")) == pytest.approx(share, abs=2e-4)
    assert f"shaded: {et._format.pct(share)}" in legend_texts(ax)
    if 0 < k < n and sided == "two":
        assert share == pytest.approx(0.9)
