"""Simulations for comparing learners and for test-set reuse."""
import gc
import itertools
import weakref

import numpy as np
import pytest

from evalteach.simulate import comparison
from evalteach.simulate.comparison import (ALGORITHM_TESTS, AlgorithmTestExperiments, TestSetReuseExperiments,
                                           simulate_algorithm_tests, simulate_test_set_reuse)
from evalteach.stats import paired_t_test, permutation_test


def fresh(*args, **kwargs):
    """Experiments drawn anew: not sharing the draws of experiments alive in this process."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(comparison, "_ALIVE", weakref.WeakValueDictionary())
        return AlgorithmTestExperiments(*args, **kwargs)


@pytest.fixture(scope="module")
def null():
    return simulate_algorithm_tests(n=200, difference=0.0, n_experiments=1000, seed=0)


def test_rejection_rates_are_the_share_of_small_p_values(null):
    assert set(null.p_values) == set(ALGORITHM_TESTS)
    for name, p in null.p_values.items():
        assert p.shape == (1000,) and np.all((p >= 0) & (p <= 1))
        assert null.rejection_rates[name] == np.mean(p < 0.05)
        r = null.rejection_rates[name]
        assert null.mc_error[name] == pytest.approx(np.sqrt(r * (1 - r) / 1000))
    strict = null.with_alpha(0.01)
    for name, p in null.p_values.items():
        assert strict.rejection_rates[name] == np.mean(p < 0.01) <= null.rejection_rates[name]


def test_type_one_errors_reproduce_dietterich(null):
    rates, se = null.rejection_rates, 0.007  # MC error of a rate near 0.05 with B = 1000
    assert rates["resampled_t"] > 0.25  # overlapping holdouts: far too liberal
    for name in ("5x2cv_f", "5x2cv_t", "mcnemar", "proportions"):
        assert rates[name] < 0.05 + 3 * se, name
    assert rates["5x2cv_f"] > 0.005 and rates["mcnemar"] > 0.005  # not degenerate either
    assert rates["cv_t"] < rates["resampled_t"]


def test_without_dependence_every_test_is_close_to_alpha():
    sim = simulate_algorithm_tests(n=300, n_experiments=1000, stability=0.0, training_noise=0.0, seed=3)
    # errors independent across resamples: the t-tests' independence assumption holds
    for name in ("cv_t", "resampled_t"):
        assert abs(sim.rejection_rates[name] - 0.05) < 3.5 * 0.007, name
    # the 5x2cv t may be conservative (so it was in Dietterich's runs), never liberal
    assert 0.005 < sim.rejection_rates["5x2cv_t"] < 0.05 + 3.5 * 0.007


def test_power_grows_with_the_true_difference():
    small = simulate_algorithm_tests(difference=0.02, n_experiments=400, seed=1)
    large = simulate_algorithm_tests(difference=0.10, n_experiments=400, seed=1)
    for name in ALGORITHM_TESTS:
        assert large.rejection_rates[name] > small.rejection_rates[name]
    assert large.rejection_rates["cv_t"] > 0.5 and large.rejection_rates["mcnemar"] > 0.15


def test_algorithm_simulation_is_seeded_and_reports_progress():
    seen = []
    a = simulate_algorithm_tests(n_experiments=450, seed=5, progress=seen.append)
    b = simulate_algorithm_tests(n_experiments=450, seed=5)
    assert seen[-1] == 1.0 and seen == sorted(seen) and len(seen) == 3
    for name in ALGORITHM_TESTS:
        np.testing.assert_array_equal(a.p_values[name], b.p_values[name])


@pytest.mark.parametrize("kwargs, name", [
    ({"n": 10}, "n"), ({"error": 1.0}, "error"), ({"difference": 0.9}, "difference"),
    ({"alpha": 0}, "alpha"), ({"n_experiments": 0}, "n_experiments"), ({"stability": 1.0}, "stability"),
    ({"agreement": -0.1}, "agreement"), ({"training_noise": -1}, "training_noise"),
    ({"seed": -1}, "seed"), ({"progress": 3}, "progress"),
])
def test_algorithm_simulation_rejects_bad_input(kwargs, name):
    with pytest.raises((ValueError, TypeError), match=name):
        simulate_algorithm_tests(n_experiments=10, **kwargs)


def test_reused_draws_give_the_same_p_values_as_a_fresh_simulation():
    fresh = simulate_algorithm_tests(n=120, error=0.3, difference=0.04, n_experiments=300, stability=0.5,
                                     training_noise=0.1, seed=9)
    experiments = AlgorithmTestExperiments(300, max_n=120, seed=9)
    experiments.simulate(120, 0.3, 0.0)  # another setting first: the draws are not consumed
    again = experiments.simulate(120, 0.3, 0.04, stability=0.5, training_noise=0.1)
    for name in ALGORITHM_TESTS:
        np.testing.assert_array_equal(again.p_values[name], fresh.p_values[name])
    with pytest.raises(ValueError, match="max_n"):
        experiments.simulate(n=200)


def test_smaller_data_sets_use_the_first_instances_of_the_draws():
    # Common random numbers: n = 100 from draws made for 300 is still a valid model run:
    # under no dependence every test holds alpha.
    sim = AlgorithmTestExperiments(1000, max_n=300, seed=3).simulate(100, stability=0.0, training_noise=0.0)
    for name in ("cv_t", "resampled_t", "5x2cv_t", "mcnemar"):
        assert sim.rejection_rates[name] < 0.05 + 3.5 * 0.007, name


def test_reuse_optimism_grows_with_m_and_validation_is_unbiased():
    sim = simulate_test_set_reuse(m=50, error=0.2, n_test=100, n_experiments=4000, seed=0)
    gap = sim.reused_true - sim.reused
    assert abs(gap[0]) < 3 * sim.reused_se[0] + 1e-12  # one model: no optimism
    assert gap[4] < gap[19] < gap[49] and sim.optimism == pytest.approx(gap[-1])
    assert sim.optimism > 0.05
    # expected minimum of m binomial errors, computed from the binomial cdf
    from scipy import stats
    k = np.arange(101)
    tail = stats.binom.sf(k - 1, 100, 0.2)  # P(X >= k)
    expected_min = np.sum(tail[1:] ** 50) / 100
    assert sim.reused[-1] == pytest.approx(expected_min, abs=4 * sim.reused_se[-1] + 1e-3)
    assert abs(sim.validated_bias) < 3 * sim.validated_se[-1]
    np.testing.assert_allclose(sim.reused_true, 0.2)  # all models equally good


def test_reuse_with_spread_picks_better_models_but_still_optimistic():
    sim = simulate_test_set_reuse(m=30, spread=0.03, n_experiments=3000, seed=2)
    assert sim.reused_true[-1] < 0.2 and sim.validated_true[-1] < 0.2
    assert sim.optimism > 3 * sim.reused_se[-1]
    assert abs(sim.validated_bias) < 3 * sim.validated_se[-1]
    assert sim.example_test.shape == (30,)


@pytest.mark.parametrize("kwargs, name", [
    ({"m": 0}, "m"), ({"error": 1.5}, "error"), ({"n_test": 0}, "n_test"),
    ({"n_validation": 0}, "n_validation"), ({"spread": -0.1}, "spread"),
    ({"n_experiments": 1}, "n_experiments"),
])
def test_reuse_simulation_rejects_bad_input(kwargs, name):
    with pytest.raises((ValueError, TypeError), match=name):
        simulate_test_set_reuse(**kwargs)


def test_cv_differences_are_what_the_cv_t_test_sees():
    """The fold differences equal the 10-fold CV t-test's input: the paired t-test on them
    reproduces its p-values; the sign-flip test on them raises false alarms too often in this
    model (dependent folds), like the t-test, while the corrected t stays below 5%."""
    experiments = AlgorithmTestExperiments(600, max_n=569, seed=2)
    d = experiments.cv_differences(n=569, error=0.1)
    ref = experiments.p_values(569, 0.1, 0.1)
    assert d.shape == (600, 10)
    np.testing.assert_allclose(paired_t_test(d).p_value, ref["cv_t"], rtol=1e-7)
    sign_flip = np.mean([permutation_test(row).p_value < 0.05 for row in d])
    se = np.sqrt(0.05 * 0.95 / 600)
    assert sign_flip > 0.05 + 2 * se and np.mean(ref["cv_t"] < 0.05) > 0.05 + 2 * se
    assert np.mean(ref["corrected_t"] < 0.05) < 0.05
    with pytest.raises(ValueError, match="n must be at most"):
        experiments.cv_differences(n=600)


def test_power_display_names_the_most_powerful_test_that_keeps_its_level():
    power = simulate_algorithm_tests(n=569, error=0.07, difference=0.03, n_experiments=500, seed=0)
    null = simulate_algorithm_tests(n=569, error=0.07, difference=0.0, n_experiments=500, seed=0)
    for name in ALGORITHM_TESTS:  # the same experiments with no difference
        np.testing.assert_array_equal(power.null_p_values[name], null.p_values[name])
    rates, se = null.rejection_rates, null.mc_error
    valid = tuple(k for k in ALGORITHM_TESTS if rates[k] - 1.96 * se[k] <= 0.05)
    assert power.valid_tests == null.valid_tests == valid
    assert "resampled_t" not in valid and "corrected_t" in valid
    best = max(valid, key=power.rejection_rates.get)
    most = max(ALGORITHM_TESTS, key=power.rejection_rates.get)
    assert best != most  # the invalid resampled t has the highest rate ...
    assert f"is the {ALGORITHM_TESTS[best]} (" in power.verdict  # ... but the verdict names the valid best
    assert f"is the {ALGORITHM_TESTS[most]}" not in power.verdict
    assert power._explain().title.startswith("True difference of 0.03: power")
    assert null._explain().title.startswith("No true difference: false-alarm rates")
    assert "too liberal: 10-fold CV paired t, resampled paired t (30 holdouts)." in null.verdict
    # the ± shown is the 95% Monte Carlo half-width, as in the explorer's whiskers
    shown = power._repr_markdown_()
    assert "1.96" in shown and f"{power.rejection_rates['mcnemar']:.3g} \\pm {1.96 * power.mc_error['mcnemar']:.2g}" in shown
    assert shown.count("too liberal under H0") == len(ALGORITHM_TESTS) - len(valid)
    assert power.with_alpha(0.01).null_p_values is power.null_p_values


def test_a_given_null_simulation_is_reused():
    experiments = AlgorithmTestExperiments(200, max_n=150, seed=4)
    null = experiments.simulate(150, 0.2, 0.0)
    power = experiments.simulate(150, 0.2, 0.05, null=null)
    assert power.null_p_values is null.p_values
    fresh = experiments.simulate(150, 0.2, 0.05)
    for name in ALGORITHM_TESTS:
        np.testing.assert_array_equal(fresh.null_p_values[name], null.p_values[name])


def test_a_power_simulation_gives_the_null_simulation_made_in_its_pass():
    experiments = AlgorithmTestExperiments(200, max_n=150, seed=4)
    power = experiments.simulate(150, 0.2, 0.05, alpha=0.1, stability=0.7)
    null = power.without_difference()
    fresh = experiments.simulate(150, 0.2, 0.0, alpha=0.1, stability=0.7)
    assert (null.difference, null.alpha, null.n, null.error, null.n_experiments) == (0.0, 0.1, 150, 0.2, 200)
    assert null.rejection_rates == fresh.rejection_rates and null.mc_error == fresh.mc_error
    for name in ALGORITHM_TESTS:
        np.testing.assert_array_equal(null.p_values[name], fresh.p_values[name])
        assert null.level(name) == power.level(name)
    assert fresh.without_difference() is fresh


def test_a_new_error_or_difference_reads_the_kept_rounded_scores(monkeypatch):
    # error and difference do not change the latent scores, which are kept (rounded) per
    # model setting: no score is made again, and the p-values equal those of fresh draws
    experiments = AlgorithmTestExperiments(200, max_n=100, seed=4)
    experiments.simulate(100, 0.2, 0.0, stability=0.7)
    made = []
    blocks = AlgorithmTestExperiments._latent_blocks
    monkeypatch.setattr(AlgorithmTestExperiments, "_latent_blocks", lambda *args: made.append(args) or blocks(*args))
    again = experiments.simulate(100, 0.3, 0.05, stability=0.7)
    assert made == []
    monkeypatch.undo()
    other = fresh(200, max_n=100, seed=4).simulate(100, 0.3, 0.05, stability=0.7)
    for name in ALGORITHM_TESTS:
        np.testing.assert_array_equal(again.p_values[name], other.p_values[name])


@pytest.mark.parametrize("step", [2048, 16, 4])
def test_the_rounded_scores_give_the_counts_of_the_exact_ones(monkeypatch, step):
    """Scores kept in coarse steps put thousands in the step around each threshold; each of
    those is made exactly, so every p-value equals the one-off simulation's (which compares
    the exact scores and keeps nothing)."""
    monkeypatch.setattr(comparison, "_STEP", step)
    monkeypatch.setattr(comparison, "_ROUNDED", comparison.ResultCache("test: rounded", 2**26))
    settings = [dict(error=0.2, difference=0.0), dict(error=0.31, difference=0.07),
                dict(error=0.05, difference=0.15, stability=0.0, agreement=0.9, training_noise=0.2),
                dict(error=0.45, difference=0.01, stability=0.95, training_noise=0.0)]
    experiments = fresh(400, max_n=150, seed=8)
    for setting in settings + settings:  # the second round reads the rounded scores
        kept = experiments.simulate(150, **setting)
        exact = simulate_algorithm_tests(150, n_experiments=400, seed=8, **setting)
        for name in ALGORITHM_TESTS:
            for p, q in ((kept.p_values, exact.p_values), (kept.null_p_values, exact.null_p_values)):
                if p is not None:
                    np.testing.assert_array_equal(p[name], q[name], err_msg=f"{setting} {name}")
    assert len(comparison._ROUNDED) == 3  # three settings of the scores (error and difference aside)


def test_experiments_with_the_same_draws_share_them_and_free_them_together():
    key = (400, 120, 77)
    first = AlgorithmTestExperiments(*key[:1], max_n=key[1], seed=key[2])
    second = AlgorithmTestExperiments(400, max_n=120, seed=77)
    prefix = AlgorithmTestExperiments(200, max_n=120, seed=77)  # the first 200 of the draws alive
    assert second._draws is first._draws
    assert np.shares_memory(prefix._draws.instance, first._draws.instance)
    np.testing.assert_array_equal(prefix._draws.instance, fresh(200, max_n=120, seed=77)._draws.instance)
    del first, second, prefix
    gc.collect()
    assert not any(alive[:3] == key for alive in comparison._ALIVE.keys())


def test_a_one_off_simulation_keeps_nothing(monkeypatch):
    monkeypatch.setattr(comparison, "_ROUNDED", comparison.ResultCache("test: rounded", 2**26))
    simulate_algorithm_tests(n=100, n_experiments=450, seed=31)
    gc.collect()
    assert not any(key[2] == 31 for key in comparison._ALIVE.keys()) and len(comparison._ROUNDED) == 0


def test_the_rounded_scores_stay_within_their_bound(monkeypatch):
    bound = 3 * 2 * 200 * comparison._slots(300) * 2  # three settings of 200 experiments at n = 300
    monkeypatch.setattr(comparison, "_ROUNDED", comparison.ResultCache("test: rounded", bound))
    experiments = AlgorithmTestExperiments(200, max_n=300, seed=3)
    for stability in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6):
        experiments.simulate(300, 0.2, 0.0, stability=stability)
        assert comparison._ROUNDED.nbytes <= bound
    assert len(comparison._ROUNDED) == 2  # with its keys, a third does not fit


def test_test_set_reuse_keeps_each_stream_and_equals_a_fresh_simulation():
    experiments = TestSetReuseExperiments(30, n_experiments=300, seed=5)
    first = experiments.simulate(0.2, 100, n_validation=150)
    second = experiments.simulate(0.2, 400, n_validation=150)  # a new test set: validation scores kept
    np.testing.assert_array_equal(first.example_validation, second.example_validation)
    np.testing.assert_array_equal(first.example_true, second.example_true)
    assert not np.array_equal(first.example_test, second.example_test)
    fresh = simulate_test_set_reuse(30, 0.2, 400, n_validation=150, n_experiments=300, seed=5)
    for name in ("reused", "reused_true", "validated", "validated_true"):
        np.testing.assert_array_equal(getattr(second, name), getattr(fresh, name))
    # with m = 1 nothing is chosen: the reported score is the test score of model 1
    assert second.reused[0] == second.validated[0]


def test_the_first_experiments_equal_a_smaller_draw():
    # the draws are made 200 experiments at a time: a multiple of 200 is a prefix of any
    # larger draw with the same seed, and simulates the same p-values
    big = AlgorithmTestExperiments(1000, max_n=300, seed=4)
    for k in (200, 400, 1000):
        prefix = big.first(k)
        assert prefix.n_experiments == k
        again = prefix.simulate(250, 0.2, 0.03, stability=0.6, training_noise=0.1)
        other = fresh(k, max_n=300, seed=4).simulate(250, 0.2, 0.03, stability=0.6, training_noise=0.1)
        for name in ALGORITHM_TESTS:
            np.testing.assert_array_equal(again.p_values[name], other.p_values[name])
    for bad in (500, 1200):
        with pytest.raises(ValueError, match="n_experiments"):
            big.first(bad)
    with pytest.raises(TypeError, match="n_experiments"):
        big.first(2.5)


def test_a_test_set_reuse_simulation_keeps_its_curves_not_the_draws():
    """A view of a row of the draws would keep all of them (800 kB a stream here) alive
    with each simulation an explorer keeps."""
    from evalteach.simulate.result_cache import size_of

    experiments = TestSetReuseExperiments(100, n_experiments=1000, seed=1)
    for n_test in (50, 100, 200):
        assert size_of(experiments.simulate(0.2, n_test, spread=0.01)) < 30_000
    assert experiments._draws.nbytes <= experiments._draws.max_bytes


def test_resampling_fits_keep_their_splits_and_estimates_within_bounds():
    from evalteach.data import load_dataset
    from evalteach.simulate import ResamplingFits

    data = load_dataset("breast_cancer")
    fits = ResamplingFits(data.X[:150], data.y[:150], data.X[150:], data.y[150:], "stump", seed=0)
    for k in range(2, 21):
        fits.estimates("bootstrap", k, 20)
        assert fits._recent.nbytes <= fits._recent.max_bytes
        assert fits._estimates.nbytes <= fits._estimates.max_bytes
    again = fits.estimates("bootstrap", 20, 20)
    assert again is fits.estimates("bootstrap", 20, 20)  # kept


def test_draws_made_again_are_the_kept_ones():
    """Without ``keep_draws`` only the instance draws and the generator's states are kept;
    the prediction draws made again from them are the kept ones, bit for bit."""
    kept = fresh(300, max_n=120, seed=5, keep_draws=True)
    remade = fresh(300, max_n=120, seed=5)
    assert isinstance(kept._draws, comparison._Draws) and isinstance(remade._draws, comparison._RemadeDraws)
    np.testing.assert_array_equal(kept._draws.instance, remade._draws.instance)
    width = comparison._slots(120)
    # across the first 100 (kept whole), and across a chunk of 200
    for rows, learner in itertools.product((slice(90, 110), slice(190, 230)), (0, 1)):
        out = np.empty((rows.stop - rows.start, width), np.float32)
        remade._draws.predictions(rows, learner, out)
        np.testing.assert_array_equal(out, kept._draws.prediction[rows, learner])
    for learner in (0, 1):
        experiments, slots = np.array([0, 0, 299, 7, 7]), np.array([width - 1, 3, 511, 512, 1000])
        np.testing.assert_array_equal(remade._draws.prediction_at(experiments, learner, slots),
                                      kept._draws.prediction[experiments, learner, slots])
    a = kept.simulate(120, 0.25, 0.05, stability=0.6)
    b = remade.simulate(120, 0.25, 0.05, stability=0.6)
    for name in ALGORITHM_TESTS:
        np.testing.assert_array_equal(a.p_values[name], b.p_values[name])
        np.testing.assert_array_equal(a.null_p_values[name], b.null_p_values[name])
    with pytest.raises(TypeError, match="keep_draws"):
        AlgorithmTestExperiments(10, max_n=30, keep_draws="yes")


def test_the_head_is_the_first_rows_of_the_draws_and_keeps_nothing():
    experiments = fresh(300, max_n=150, seed=6)
    heads = {k: experiments.head(k).simulate(140, 0.2, 0.05, stability=0.7) for k in (1, 100, 150)}
    assert not experiments.scored(140, stability=0.7)  # the heads' scores are not kept
    whole = experiments.simulate(140, 0.2, 0.05, stability=0.7)
    for k, part in heads.items():
        assert part.n_experiments == k
        for name in ALGORITHM_TESTS:
            np.testing.assert_array_equal(part.p_values[name], whole.p_values[name][:k])
            np.testing.assert_array_equal(part.null_p_values[name], whole.null_p_values[name][:k])
    # the first 100 experiments' draws are kept whole; later rows are made again
    assert isinstance(experiments.head(100)._draws, comparison._Draws)
    assert isinstance(experiments.head(150)._draws, comparison._RemadeDraws)
    with pytest.raises(ValueError, match="n_experiments"):
        experiments.head(301)
    with pytest.raises(TypeError, match="n_experiments"):
        experiments.head(2.5)


def test_draws_kept_whole_serve_those_that_would_make_them_again():
    kept = AlgorithmTestExperiments(400, max_n=90, seed=61, keep_draws=True)
    assert AlgorithmTestExperiments(400, max_n=90, seed=61)._draws is kept._draws
    assert np.shares_memory(AlgorithmTestExperiments(200, max_n=90, seed=61)._draws.prediction, kept._draws.prediction)


def test_scored_says_whether_the_scores_of_a_setting_are_kept():
    experiments = AlgorithmTestExperiments(200, max_n=100, seed=5)
    assert not experiments.scored(80, stability=0.5)
    experiments.simulate(80, 0.2, stability=0.5)
    assert experiments.scored(80, stability=0.5)
    assert not experiments.scored(80, stability=0.6) and not experiments.scored(90, stability=0.5)
    with pytest.raises(ValueError, match="n must be"):
        experiments.scored(10)
