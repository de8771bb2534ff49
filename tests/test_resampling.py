"""Splits are partitions with the right sizes and class proportions; .632 and .632+ follow their formulas."""
import numpy as np
import pytest

from evalteach._format import plain
from evalteach.stats import (bootstrap_632, bootstrap_632_plus, bootstrap_samples, holdout_split, kfold_splits,
                             leave_one_out_splits, no_information_error, repeated_holdout_splits)


def assert_partition(train, test, n):
    assert np.intersect1d(train, test).size == 0
    np.testing.assert_array_equal(np.sort(np.r_[train, test]), np.arange(n))


def test_holdout_sizes_and_seed():
    train, test = holdout_split(30, seed=1)
    assert (len(train), len(test)) == (20, 10)
    assert_partition(train, test, 30)
    again = holdout_split(30, seed=1)
    np.testing.assert_array_equal(test, again.test)
    assert not np.array_equal(test, holdout_split(30, seed=2).test)
    assert len(holdout_split(10, test_size=0.25, seed=0).test) == 2  # round(2.5) = 2


def test_stratified_holdout_keeps_proportions():
    y = np.r_[np.zeros(60, int), np.ones(30, int), np.full(9, 2)]
    train, test = holdout_split(len(y), test_size=1 / 3, stratify=y, seed=3)
    assert_partition(train, test, len(y))
    np.testing.assert_array_equal(np.bincount(y[test]), [20, 10, 3])


def test_repeated_holdout():
    splits = repeated_holdout_splits(20, repeats=4, test_size=0.5, seed=0)
    assert len(splits) == 4 and all(len(s.test) == 10 for s in splits)
    assert len({tuple(s.test) for s in splits}) > 1
    for s in splits:
        assert_partition(s.train, s.test, 20)


@pytest.mark.parametrize("n,k", [(10, 3), (100, 10), (7, 7), (31, 5)])
def test_kfold_partitions(n, k):
    folds = kfold_splits(n, k, seed=0)
    assert len(folds) == k
    tests = np.concatenate([f.test for f in folds])
    np.testing.assert_array_equal(np.sort(tests), np.arange(n))  # each index tested once
    sizes = [len(f.test) for f in folds]
    assert max(sizes) - min(sizes) <= 1
    for f in folds:
        assert_partition(f.train, f.test, n)


def test_kfold_without_shuffle_is_contiguous():
    folds = kfold_splits(7, 3, shuffle=False)
    assert [f.test.tolist() for f in folds] == [[0, 1, 2], [3, 4], [5, 6]]


def test_stratified_kfold_proportions_within_one():
    from sklearn.model_selection import StratifiedKFold

    rng = np.random.default_rng(7)
    for _ in range(30):
        n = int(rng.integers(20, 200))
        k = int(rng.integers(2, 11))
        y = rng.choice(3, n, p=rng.dirichlet([1, 1, 1]))
        folds = kfold_splits(n, k, stratify=y, seed=int(rng.integers(1000)))
        counts = np.array([np.bincount(y[f.test], minlength=3) for f in folds])
        share = np.bincount(y, minlength=3) / k
        assert np.all(np.abs(counts - share) < 1)  # within one instance of n_c / k
        sizes = counts.sum(axis=1)
        assert sizes.max() - sizes.min() <= 1
        # scikit-learn's StratifiedKFold achieves the same balance
        ref = np.array([np.bincount(y[test], minlength=3)
                        for _, test in StratifiedKFold(k, shuffle=True, random_state=0).split(np.zeros(n), y)
                        ]) if np.bincount(y, minlength=3).min() >= k else None
        if ref is not None:
            np.testing.assert_array_equal(np.sort(counts.sum(1)), np.sort(ref.sum(1)))
        np.testing.assert_array_equal(np.sort(np.concatenate([f.test for f in folds])), np.arange(n))


def test_leave_one_out():
    splits = leave_one_out_splits(5)
    assert len(splits) == 5
    for i, (train, test) in enumerate(splits):
        assert test.tolist() == [i] and len(train) == 4
        assert_partition(train, test, 5)


def test_bootstrap_samples_and_oob_share():
    samples = bootstrap_samples(50, 400, seed=0)
    assert len(samples) == 400
    for s in samples[:20]:
        assert len(s.train) == 50
        np.testing.assert_array_equal(s.oob, np.setdiff1d(np.arange(50), s.train))
    oob_share = np.mean([len(s.oob) / 50 for s in samples])
    assert oob_share == pytest.approx((1 - 1 / 50) ** 50, abs=0.01)  # about e^-1 = 0.368
    np.testing.assert_array_equal(bootstrap_samples(10, 3, seed=5)[2].train, bootstrap_samples(10, 3, seed=5)[2].train)
    gen = np.random.default_rng(1)
    assert len(bootstrap_samples(10, 2, seed=gen)) == 2


def test_bootstrap_632():
    r = bootstrap_632(0.05, 0.20)
    assert r.estimate == pytest.approx(0.368 * 0.05 + 0.632 * 0.20)
    assert r.weight == 0.632
    assert "0.632" in r._repr_markdown_() and r.verdict


def test_bootstrap_632_plus_efron_tibshirani():
    # no overfitting (oob = resub): R = 0, w = .632, the .632 estimate
    r = bootstrap_632_plus(0.1, 0.1, 0.5)
    assert r.relative_overfitting == 0 and r.estimate == pytest.approx(0.1)
    # general case
    err, e1, g = 0.02, 0.25, 0.48
    R = (e1 - err) / (g - err)
    w = 0.632 / (1 - 0.368 * R)
    r = bootstrap_632_plus(err, e1, g)
    assert r.relative_overfitting == pytest.approx(R) and r.weight == pytest.approx(w)
    assert r.estimate == pytest.approx(bootstrap_632(err, e1).estimate + (e1 - err) * (w - 0.632))
    assert r.estimate == pytest.approx((1 - w) * err + w * e1)
    # Witten & Frank's perfect memoriser on random two-class data: resubstitution error 0, 50% on
    # the out-of-bag data and a true error of 50%. The .632 bootstrap says 31.6%; .632+ (R = 1) says 50%.
    assert bootstrap_632(0.0, 0.5).estimate == pytest.approx(0.316)
    r = bootstrap_632_plus(0.0, 0.5, 0.5)
    assert r.relative_overfitting == 1 and r.weight == pytest.approx(1) and r.estimate == pytest.approx(0.5)
    assert "0.632" in r._repr_markdown_()


def test_bootstrap_632_plus_when_oob_exceeds_gamma():
    # Efron & Tibshirani (1997, eqs. 32-33): E1' = min(E1, gamma) enters R' and the correction term,
    # while Err(.632) keeps the unclipped E1; so R' = 1 and the estimate is 0.632 E1 + 0.368 gamma.
    r = bootstrap_632_plus(0.1, 0.6, 0.5)
    assert r.relative_overfitting == 1
    assert r.estimate == pytest.approx(0.632 * 0.6 + 0.368 * 0.5)
    assert r.estimate == pytest.approx(bootstrap_632(0.1, 0.6).estimate + (0.5 - 0.1) * 0.368)
    assert "\\min(0.6, 0.5) = 0.5" in r._repr_markdown_()
    # gamma below the resubstitution error: R' = 0, the .632 estimate
    assert bootstrap_632_plus(0.3, 0.4, 0.2).estimate == pytest.approx(bootstrap_632(0.3, 0.4).estimate)


def _ipred_bootest(resubst, one, gamma):
    """R ipred::bootest's final lines (bc632plus = TRUE), restated: R from the unclipped out-of-bag error."""
    err632 = 0.368 * resubst + 0.632 * one
    r = (one - resubst) / (gamma - resubst) if (one > resubst and gamma > resubst) else 0.0
    return err632 + (min(one, gamma) - resubst) * (0.368 * 0.632 * r) / (1 - 0.368 * r)


def test_bootstrap_632_plus_agrees_with_ipred_where_ipred_follows_the_paper():
    rng = np.random.default_rng(11)
    err, e1, g = rng.uniform(0, 0.5, (3, 300))
    for a, b, c in zip(err, e1, g):
        ours = bootstrap_632_plus(a, b, c).estimate
        if b <= c:
            assert ours == pytest.approx(_ipred_bootest(a, b, c))
        else:  # ipred's R exceeds 1 here; the paper's R' is 1
            assert ours == pytest.approx(0.632 * b + 0.368 * c if c > a else bootstrap_632(a, b).estimate)


def test_no_information_error():
    assert no_information_error([0, 0, 1, 1], [0, 1, 1, 1]) == pytest.approx(0.5 * 0.75 + 0.5 * 0.25)
    # two balanced classes: always 1/2
    assert no_information_error([0, 1] * 5, [0] * 3 + [1] * 7) == pytest.approx(0.5)


def test_bootstrap_632_display_calls_the_out_of_bag_error_pessimistic_only_on_average():
    """For one data set the out-of-bag error can lie below the true error: its bias is an average."""
    for r in (bootstrap_632(0.05, 0.20), bootstrap_632_plus(0.05, 0.20, 0.5)):
        assert r.estimate == pytest.approx(0.05 + r.weight * 0.15)
        assert "pessimistic out-of-bag" not in r.verdict
        assert "On average the first is optimistic" in r.verdict and "second pessimistic" in r.verdict
        assert f"weight {plain(r.weight)}" in r.verdict
