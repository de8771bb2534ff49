"""Repeated paired experiments and the coverage of t and z intervals."""
import numpy as np
import pytest
from scipy import stats

from evalteach.simulate import paired_experiments, t_vs_z_coverage


def test_paired_experiments_have_the_asked_mean_and_noise():
    d = paired_experiments(10, difference=0.5, noise=2.0, n_experiments=20000, seed=1)
    assert d.shape == (20000, 10)
    assert d.mean() == pytest.approx(0.5, abs=4 * 2.0 / np.sqrt(d.size))
    assert d.std() == pytest.approx(2.0, rel=0.01)
    np.testing.assert_array_equal(d, paired_experiments(10, 0.5, 2.0, 20000, seed=1))


def test_coverage_equals_a_direct_scipy_computation():
    r = t_vs_z_coverage([4], difference=0.3, noise=1.5, confidence=0.9, n_experiments=500, seed=2)
    d = paired_experiments(4, 0.3, 1.5, 500, seed=2 + 4)
    se = d.std(axis=1, ddof=1) / 2
    t, z = stats.t.ppf(0.95, 3), stats.norm.ppf(0.95)
    mean = d.mean(axis=1)
    assert r.t_coverage[0] == np.mean(np.abs(mean - 0.3) <= t * se)
    assert r.z_coverage[0] == np.mean(np.abs(mean - 0.3) <= z * se)
    p = 2 * stats.t.sf(np.abs(mean / se), 3)
    assert r.t_reject[0] == np.mean(p < 0.1)


def test_z_is_too_liberal_for_k_3_and_t_is_right():
    r = t_vs_z_coverage([3], n_experiments=20000, seed=0)
    mc = r.mc_error  # about 0.0015
    assert abs(r.t_coverage[0] - 0.95) < 4 * mc
    assert r.z_coverage[0] < 0.95 - 0.1  # exact z coverage at k=3 is about 0.81
    # under H0 (difference 0) rejection = 1 - coverage: t's type-I error is alpha
    assert r.t_reject[0] == pytest.approx(1 - r.t_coverage[0])
    assert r.z_reject[0] > 0.15


def test_z_catches_up_as_k_grows():
    r = t_vs_z_coverage([2, 5, 30], n_experiments=5000)
    assert r.z_coverage[0] < r.z_coverage[1] < r.z_coverage[2]
    assert np.all(r.z_coverage <= r.t_coverage)


def test_progress_is_reported():
    seen = []
    t_vs_z_coverage([2, 3, 4], n_experiments=10, progress=seen.append)
    assert seen == pytest.approx([1 / 3, 2 / 3, 1])


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="k must be >= 2"):
        paired_experiments(1)
    with pytest.raises(ValueError, match="noise"):
        paired_experiments(5, noise=0)
    with pytest.raises(ValueError, match="ks"):
        t_vs_z_coverage([1, 2])
    with pytest.raises(ValueError, match="confidence"):
        t_vs_z_coverage([3], confidence=95)
    assert "k = " in t_vs_z_coverage([3], n_experiments=100).verdict


def test_coverage_agrees_with_the_paired_tests_of_evalteach_stats():
    from evalteach.stats import paired_t_test, paired_z_test

    r = t_vs_z_coverage([6], difference=-0.4, noise=0.7, confidence=0.95, n_experiments=800, seed=5)
    d = paired_experiments(6, -0.4, 0.7, 800, seed=5 + 6)
    for test, coverage, reject in ((paired_t_test, r.t_coverage, r.t_reject),
                                   (paired_z_test, r.z_coverage, r.z_reject)):
        res = test(d)
        assert coverage[0] == np.mean((res.low <= -0.4) & (-0.4 <= res.high))
        assert reject[0] == np.mean(res.p_value < 0.05)
