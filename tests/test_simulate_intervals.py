"""Interval coverage (simulated and exact) and the binomial-normal distance."""
import numpy as np
import pytest
from scipy import stats

from evalteach.simulate import exact_coverage, interval_coverage, normal_approximation_error
from evalteach.stats import proportion_interval


def brute_force_coverage(p, n, confidence, method, sided):
    total = 0.0
    for k in range(n + 1):
        r = proportion_interval(k, n, confidence, method, sided)
        if r.low <= p <= r.high:
            total += stats.binom.pmf(k, n, p)
    return total


@pytest.mark.parametrize("method", ["wald", "wilson", "clopper-pearson"])
@pytest.mark.parametrize("sided", ["two", "lower", "upper"])
def test_exact_coverage_is_the_binomial_sum_over_covering_counts(method, sided):
    ps = np.array([0.02, 0.1, 0.3, 0.5, 0.77])
    got = exact_coverage(ps, 40, 0.9, method, sided)
    expected = [brute_force_coverage(p, 40, 0.9, method, sided) for p in ps]
    np.testing.assert_allclose(got, expected, rtol=1e-12)


@pytest.mark.parametrize("n", [0, 1, 7, 40, 500, 1000])
def test_the_binomial_probabilities_behind_exact_coverage_are_scipys(n):
    from evalteach.simulate.intervals import _binomial_pmf

    k = np.arange(n + 1)
    p = np.array([0.0, 1e-3, 0.005, 0.3, 0.5, 0.995, 1.0])[:, None]
    got, expected = _binomial_pmf(k, n, p), stats.binom.pmf(k, n, p)
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-300)
    np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=1e-12)


def test_clopper_pearson_never_covers_less_than_nominal_and_wald_does():
    ps = np.linspace(0.01, 0.99, 99)
    assert np.all(exact_coverage(ps, 40, 0.95, "clopper-pearson") >= 0.95 - 1e-12)
    assert exact_coverage(0.02, 40, 0.95, "wald") < 0.6  # Wald collapses near 0


def test_simulated_intervals_are_proportion_intervals_and_coverage_is_the_hit_fraction():
    r = interval_coverage(0.3, 40, 0.95, "wilson", n_sets=500, seed=3)
    for i in (0, 17, 499):
        ref = proportion_interval(int(r.errors[i]), 40, 0.95, "wilson")
        assert (r.low[i], r.high[i]) == pytest.approx((ref.low, ref.high))
        assert r.covered[i] == (ref.low <= 0.3 <= ref.high)
    assert r.coverage == np.mean([lo <= 0.3 <= hi for lo, hi in zip(r.low, r.high)])
    # 500 draws: simulated coverage within 4 Monte Carlo SEs of the exact one
    assert abs(r.coverage - r.exact) < 4 * np.sqrt(r.exact * (1 - r.exact) / 500)
    assert r.exact == pytest.approx(brute_force_coverage(0.3, 40, 0.95, "wilson", "two"))


def test_simulation_is_seeded():
    a, b = interval_coverage(0.2, 50, seed=7), interval_coverage(0.2, 50, seed=7)
    np.testing.assert_array_equal(a.errors, b.errors)
    assert not np.array_equal(a.errors, interval_coverage(0.2, 50, seed=8).errors)


def test_normal_approximation_distance_matches_scipy():
    for n, p in [(40, 0.3), (10, 0.05), (200, 0.5), (1, 0.5)]:
        mu, sd = n * p, np.sqrt(n * p * (1 - p))
        k = np.arange(n + 1)
        normal = stats.norm(mu, sd)
        d = np.max(np.abs(stats.binom.cdf(k, n, p) - normal.cdf(k + 0.5)))
        bins = normal.cdf(k + 0.5) - normal.cdf(k - 0.5)
        tv = 0.5 * (np.abs(stats.binom.pmf(k, n, p) - bins).sum() + normal.cdf(-0.5) + normal.sf(n + 0.5))
        r = normal_approximation_error(n, p)
        assert r.max_cdf == pytest.approx(d, rel=1e-10)
        assert r.total_variation == pytest.approx(tv, rel=1e-10)
    many = normal_approximation_error(np.array([5, 40, 200]), 0.1)
    assert many.max_cdf[1] == pytest.approx(normal_approximation_error(40, 0.1).max_cdf)
    assert many.max_cdf[0] > many.max_cdf[1] > many.max_cdf[2]


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="n must be >= 1"):
        interval_coverage(0.3, 0)
    with pytest.raises(ValueError, match="method"):
        exact_coverage(0.3, 40, method="agresti")
    with pytest.raises(ValueError, match="error"):
        exact_coverage([0.3, 1.2], 40)
    with pytest.raises(ValueError, match="n_sets"):
        interval_coverage(0.3, 40, n_sets=0)
    with pytest.raises(ValueError, match="p"):
        normal_approximation_error(40, 0.0)
    with pytest.raises(TypeError, match="n"):
        normal_approximation_error(4.5, 0.3)


def test_results_explain_themselves():
    assert "intervals contain" in interval_coverage(0.3, 40).verdict
    assert "D =" in normal_approximation_error(40, 0.3)._repr_markdown_()
