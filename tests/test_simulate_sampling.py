"""Sampling simulations against per-trial references, scipy moments and scikit-learn."""
import math

import numpy as np
import pytest
from scipy import stats

from evalteach.simulate import sampling as S


# --- sample errors -----------------------------------------------------------------------

def test_sample_errors_equal_a_per_trial_loop_with_the_same_seed():
    fast = S.sample_errors(0.3, 40, 500, seed=7)
    rng = np.random.default_rng(7)
    slow = np.array([rng.binomial(40, 0.3) / 40 for _ in range(500)])
    np.testing.assert_array_equal(fast, slow)


def test_sample_errors_have_binomial_moments():
    e = S.sample_errors(0.3, 40, 200_000, seed=1)
    mean, var = stats.binom.stats(40, 0.3, moments="mv")
    assert e.mean() == pytest.approx(mean / 40, abs=4 * math.sqrt(var) / 40 / math.sqrt(2e5))
    assert e.std() == pytest.approx(math.sqrt(var) / 40, rel=0.01)
    np.testing.assert_allclose(np.unique(e * 40), np.round(np.unique(e * 40)))  # multiples of 1/n


def test_sampling_error_sd_is_the_binomial_sd_over_n():
    for p, n in [(0.3, 40), (0.1, 100), (0.5, 1), (0.0, 10)]:
        assert S.sampling_error_sd(p, n) == pytest.approx(stats.binom.std(n, p) / n, abs=1e-15)
        assert S.sampling_error_sd(p, n) == pytest.approx(math.sqrt(p * (1 - p) / n), abs=1e-15)


def test_a_generator_is_accepted_and_advanced():
    rng = np.random.default_rng(3)
    a, b = S.sample_errors(0.2, 10, 5, seed=rng), S.sample_errors(0.2, 10, 5, seed=rng)
    assert not np.array_equal(a, b)
    np.testing.assert_array_equal(a, S.sample_errors(0.2, 10, 5, seed=3))


@pytest.mark.parametrize("kwargs, name", [
    (dict(error=1.5, n=10, n_sets=5), "error"), (dict(error=0.2, n=0, n_sets=5), "n"),
    (dict(error=0.2, n=10, n_sets=0), "n_sets"), (dict(error=0.2, n=10, n_sets=5, seed=-1), "seed"),
])
def test_sample_errors_reject_bad_input_by_name(kwargs, name):
    with pytest.raises(ValueError, match=name):
        S.sample_errors(**kwargs)


# --- parent distributions ----------------------------------------------------------------

NAMED = ["uniform", "exponential", "bernoulli", "bimodal", "lognormal"]


@pytest.mark.parametrize("name", NAMED)
def test_named_distributions_have_the_moments_they_claim(name):
    d = S.parent_distribution(name, p=0.2)
    x = d.draw(0, 400_000)
    assert x.mean() == pytest.approx(d.mean, abs=5 * d.sd / math.sqrt(4e5))
    assert x.std() == pytest.approx(d.sd, rel=0.01)
    if name == "lognormal":  # sample skewness and kurtosis converge too slowly: checked against scipy below
        return
    assert stats.skew(x) == pytest.approx(d.skewness, abs=0.03 * max(1, abs(d.skewness)))
    assert stats.kurtosis(x) == pytest.approx(d.kurtosis, abs=0.05 * max(1, abs(d.kurtosis)))


def test_closed_form_moments_match_scipy():
    e = math.e
    lognorm = stats.lognorm(1.0)
    d = S.parent_distribution("lognormal")
    assert (d.mean, d.sd) == pytest.approx((lognorm.mean(), lognorm.std()))
    assert (d.skewness, d.kurtosis) == pytest.approx(tuple(map(float, lognorm.stats(moments="sk"))))
    assert d.mean == pytest.approx(math.sqrt(e))
    assert S.parent_distribution("exponential").kurtosis == pytest.approx(float(stats.expon.stats(moments="k")))
    b = S.parent_distribution("bernoulli", p=0.1)
    assert (b.skewness, b.kurtosis) == pytest.approx(tuple(map(float, stats.bernoulli(0.1).stats(moments="sk"))))
    u = S.parent_distribution("uniform")
    assert (u.sd, u.kurtosis) == pytest.approx((stats.uniform.std(), float(stats.uniform.stats(moments="k"))))


def test_density_integrates_to_one():
    for name in ["uniform", "exponential", "bimodal", "lognormal"]:
        d = S.parent_distribution(name)
        x = np.linspace(-10, 80, 400_001)
        assert np.trapezoid(d.pdf(x), x) == pytest.approx(1.0, abs=2e-3)
    with pytest.raises(ValueError, match="discrete"):
        S.parent_distribution("bernoulli").pdf(0.5)


def test_parse_pairs_and_value_lists():
    d = S.parse_distribution("1:0.2, 5:0.8")
    assert d.values == (1.0, 5.0) and d.probs == pytest.approx((0.2, 0.8))
    assert (d.mean, d.sd) == pytest.approx((4.2, 1.6))
    ref = stats.rv_discrete(values=([1, 5], [0.2, 0.8]))
    assert d.skewness == pytest.approx(float(ref.stats(moments="s")))
    assert d.kurtosis == pytest.approx(float(ref.stats(moments="k")))
    same = S.parse_distribution(" 5 : 0.8 ;1: 0.2")
    assert same.values == d.values and same.probs == pytest.approx(d.probs)
    listed = S.parse_distribution("1, 2, 2, 9")
    assert listed.values == (1.0, 2.0, 9.0) and listed.probs == pytest.approx((0.25, 0.5, 0.25))


@pytest.mark.parametrize("text, message", [
    ("", "must list values"), ("1:0.5, 2", "for every entry or for none"),
    ("1:0.5, 2:0.6", "sum to 1"), ("1:-0.5, 2:1.5", ">= 0"), ("1, two", "'two' is not a number"),
    ("1:0.5:2", "value:probability"), ("1:0.5, x:0.5", "'x' is not a number"),
])
def test_parse_rejects_bad_text_with_a_clear_message(text, message):
    with pytest.raises(ValueError, match=message):
        S.parse_distribution(text)


def test_parent_distribution_rejects_bad_input():
    with pytest.raises(ValueError, match="name"):
        S.parent_distribution("cauchy")
    with pytest.raises(ValueError, match="p"):
        S.parent_distribution("bernoulli", p=1.5)
    with pytest.raises(ValueError, match="text"):
        S.parent_distribution("discrete")
    with pytest.raises(TypeError, match="text"):
        S.parse_distribution(3)


# --- sample means ------------------------------------------------------------------------

# bimodal draws two streams (component, then noise), so a per-row loop orders them differently
@pytest.mark.parametrize("name", ["uniform", "exponential", "bernoulli", "lognormal", "discrete"])
def test_sample_means_equal_a_per_trial_loop_with_the_same_seed(name):
    d = S.parent_distribution(name, p=0.3, text="1:0.2, 5:0.8")
    fast = S.sample_means(d, 7, 50, seed=11)
    rng = np.random.default_rng(11)
    slow = np.array([d.draw(rng, 7).mean() for _ in range(50)])
    np.testing.assert_allclose(fast, slow, rtol=1e-12)


@pytest.mark.parametrize("name", NAMED)
def test_sample_means_follow_the_central_limit_theorem(name):
    d = S.parent_distribution(name, p=0.2)
    n, m = 30, 40_000
    means = S.sample_means(d, n, m, seed=2)
    se = d.sd / math.sqrt(n)
    assert means.mean() == pytest.approx(d.mean, abs=4 * se / math.sqrt(m))
    assert means.std() == pytest.approx(se, rel=0.02)
    skew, kurt = d.shape_of_mean(n)
    if name != "lognormal":  # its sample skewness is too heavy-tailed to pin down here
        assert stats.skew(means) == pytest.approx(skew, abs=0.03 + 0.1 * abs(skew))


def test_shape_of_the_mean_is_exact_for_the_binomial():
    d = S.parent_distribution("bernoulli", p=0.05)
    for n in (1, 10, 30, 200):
        skew, kurt = d.shape_of_mean(n)
        ref_skew, ref_kurt = stats.binom.stats(n, 0.05, moments="sk")
        assert (skew, kurt) == pytest.approx((float(ref_skew), float(ref_kurt)))
    skew, kurt = d.shape_of_mean(np.arange(1, 201))
    assert np.all(np.diff(np.abs(skew)) < 0) and np.all(np.diff(np.abs(kurt)) < 0)


def test_sample_means_reject_bad_input():
    with pytest.raises(TypeError, match="distribution"):
        S.sample_means("uniform", 5, 10)
    d = S.parent_distribution("uniform")
    with pytest.raises(ValueError, match="n must be >= 1"):
        S.sample_means(d, 0, 10)
    with pytest.raises(ValueError, match="n_samples"):
        S.sample_means(d, 5, 0)


# --- resubstitution ----------------------------------------------------------------------

def test_resubstitution_matches_scikit_learn_on_the_same_splits():
    from sklearn.neighbors import KNeighborsClassifier

    from evalteach.data import load_dataset

    r = S.resubstitution_vs_holdout("wine", "1nn", test_fraction=0.25, n_splits=3, seed=4)
    data = load_dataset("wine", binary=True)
    n = len(data.y)
    n_test = round(0.25 * n)
    assert (r.n_test, r.n_train) == (n_test, n - n_test)
    rng = np.random.default_rng(4)
    for i in range(3):
        order = rng.permutation(n)
        test, train = order[:n_test], order[n_test:]
        model = KNeighborsClassifier(1).fit(data.X[train], data.y[train])
        assert r.test_errors[i] == pytest.approx(1 - model.score(data.X[test], data.y[test]))
        assert r.train_errors[i] == pytest.approx(1 - model.score(data.X[train], data.y[train]))


def test_resubstitution_is_optimistic_for_a_memoriser():
    r = S.resubstitution_vs_holdout(n_splits=5)
    assert np.all(r.train_errors == 0.0)  # 1-NN finds each training example itself
    assert r.test_errors.mean() > 0.03 and r.optimism == pytest.approx(r.test_errors.mean())
    assert S.resubstitution_vs_holdout(n_splits=5) is r  # cached


def test_resubstitution_rejects_bad_input():
    with pytest.raises(ValueError, match="dataset"):
        S.resubstitution_vs_holdout("titanic")
    with pytest.raises(ValueError, match="learner"):
        S.resubstitution_vs_holdout(learner="svm")
    with pytest.raises(ValueError, match="test_fraction"):
        S.resubstitution_vs_holdout(test_fraction=1.0)
    with pytest.raises(ValueError, match="n_splits"):
        S.resubstitution_vs_holdout(n_splits=0)


@pytest.mark.parametrize("name, kwargs", [("uniform", {}), ("exponential", {}), ("bernoulli", {"p": 0.1}),
                                          ("bimodal", {}), ("lognormal", {}), ("discrete", {"text": "1:0.2, 5:0.8"})])
def test_sample_means_drawn_in_blocks_equal_one_draw_of_every_sample(monkeypatch, name, kwargs):
    """Blocks of samples keep a change of the CLT explorer's n from allocating every draw at
    once; the numbers are those of the whole draw (the bimodal's stream holds every component
    choice before the normals)."""
    monkeypatch.setattr(S, "_DRAWN_AT_ONCE", 64)
    d = S.parent_distribution(name, **kwargs)
    for n, n_samples, seed in [(1, 10, 0), (7, 501, 3), (200, 300, 1), (100, 1, 2)]:
        whole = d.draw(np.random.default_rng(seed), (n_samples, n)).mean(axis=1)
        np.testing.assert_array_equal(S.sample_means(d, n, n_samples, seed=seed), whole)
