"""Cached learner scores and growing resample streams, against scikit-learn and evalteach.stats."""
import numpy as np
import pytest
from sklearn.naive_bayes import GaussianNB

from evalteach.data import load_dataset
from evalteach.simulate import (GrowingResamples, clear_caches, cv_folds, fold_errors, growing_resamples,
                                holdout_predictions, repeated_cv_errors)
from evalteach.stats import bootstrap_interval, permutation_test


def test_fold_errors_equal_a_plain_scikit_learn_fit_on_the_same_folds():
    data = load_dataset("iris")
    errors = fold_errors("iris", "naive_bayes", k=5, seed=2)
    for (train, test), error in zip(cv_folds("iris", 5, 2), errors):
        model = GaussianNB().fit(data.X[train], data.y[train])
        assert error == np.mean(model.predict(data.X[test]) != data.y[test])


def test_repeated_cv_uses_new_folds_each_run():
    e = repeated_cv_errors("iris", "naive_bayes", runs=3, k=5, seed=1)
    assert e.shape == (15,)
    np.testing.assert_array_equal(e[5:10], fold_errors("iris", "naive_bayes", 5, 1001))
    assert not np.array_equal(cv_folds("iris", 5, 1000)[0][1], cv_folds("iris", 5, 1001)[0][1])


def test_holdout_is_a_stratified_third():
    y, pred = holdout_predictions("iris", "naive_bayes", 0)
    assert y.size == 50 and np.all(np.abs(np.bincount(y) - 50 / 3) < 1)
    assert pred.shape == y.shape


def test_growing_streams_match_the_tests_and_are_read_by_prefix():
    d = np.array([0.02, -0.01, 0.03, 0.01, 0.00, 0.04, -0.02])
    g = GrowingResamples(d, "sign-flip", seed=5)
    first = g.first(30).copy()
    g.first(300)
    np.testing.assert_array_equal(g.first(30), first)
    np.testing.assert_array_equal(g.first(100), permutation_test(d, n_resamples=100, seed=5).null_distribution)
    y = np.array([0, 1] * 20)
    pred = y.copy()
    pred[:7] = 1 - pred[:7]
    errors = (y != pred).astype(float)
    boot = growing_resamples(errors, "bootstrap", seed=9)
    boot.first(13)
    ref = bootstrap_interval(y, pred, n_resamples=400, seed=9, method="percentile")
    np.testing.assert_array_equal(boot.first(400), ref.replicates)
    assert growing_resamples(errors, "bootstrap", seed=9) is boot


def test_bad_values_are_refused():
    with pytest.raises(ValueError, match="kind"):
        GrowingResamples([0.1, 0.2], "jackknife")
    with pytest.raises(ValueError, match="learner"):
        fold_errors("iris", "svm")
    with pytest.raises(ValueError, match="runs"):
        repeated_cv_errors("iris", runs=0)


def test_fits_run_on_one_thread(monkeypatch):
    """Worker threads slow small fits down many times on a busy machine: every fit and
    prediction behind the cached scores runs with OpenMP and BLAS limited to one thread."""
    from threadpoolctl import threadpool_info

    import evalteach.simulate.learner_scores as scores

    seen = []

    class Probe(GaussianNB):
        def fit(self, X, y):
            seen.append([pool["num_threads"] for pool in threadpool_info()])
            return super().fit(X, y)

        def predict(self, X):
            seen.append([pool["num_threads"] for pool in threadpool_info()])
            return super().predict(X)

    monkeypatch.setattr(scores, "make_learner", lambda name, seed=0: Probe())
    clear_caches()
    try:
        scores.fold_errors("iris", "naive_bayes", k=3, seed=7)
        scores.holdout_predictions("iris", "naive_bayes", 70)  # not bundled: fitted
    finally:
        clear_caches()  # nothing fitted by the probe stays
    assert len(seen) == 2 * 3 + 2 and all(seen)
    assert all(n == 1 for threads in seen for n in threads), seen
