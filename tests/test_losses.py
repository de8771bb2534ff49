"""Quadratic and informational loss against Witten & Frank's definitions and scikit-learn."""
import math
import warnings

import numpy as np
import pytest
from sklearn import metrics

from evalteach.stats import ZeroFrequencyWarning, informational_loss, quadratic_loss


def random_distributions(rng, n, k):
    p = rng.dirichlet(np.ones(k), n)
    return p, rng.integers(0, k, n)


def test_quadratic_loss_by_hand():
    # predicted (0.7, 0.2, 0.1), actual class 0: 0.3^2 + 0.2^2 + 0.1^2 = 0.14
    r = quadratic_loss([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1]], [0, 2])
    np.testing.assert_allclose(r.losses, [0.14, 0.01 + 0.64 + 0.81])
    assert r.mean == pytest.approx((0.14 + 1.46) / 2)
    assert quadratic_loss([[1, 0], [0, 1]], [1, 0]).mean == 2  # worst case
    assert quadratic_loss([[1, 0], [0, 1]], [0, 1]).mean == 0


def test_quadratic_binary_is_twice_sklearn_brier():
    rng = np.random.default_rng(0)
    for _ in range(20):
        p1 = rng.uniform(size=30)
        y = rng.integers(0, 2, 30)
        assert quadratic_loss(p1, y).mean == pytest.approx(2 * metrics.brier_score_loss(y, p1))
        both = quadratic_loss(np.c_[1 - p1, p1], y)
        np.testing.assert_allclose(both.losses, quadratic_loss(p1, y).losses)


def test_quadratic_multiclass_matches_definition():
    rng = np.random.default_rng(1)
    for k in (2, 3, 5):
        p, y = random_distributions(rng, 40, k)
        onehot = np.zeros_like(p)
        onehot[np.arange(40), y] = 1
        assert quadratic_loss(p, y).mean == pytest.approx(np.mean(np.sum((p - onehot) ** 2, axis=1)))


def test_informational_loss_matches_sklearn_log_loss():
    rng = np.random.default_rng(2)
    for k in (2, 3, 4):
        p, y = random_distributions(rng, 50, k)
        y[:k] = np.arange(k)  # every class present, as log_loss needs
        natural = metrics.log_loss(y, p, labels=list(range(k)))
        assert informational_loss(p, y, base=math.e).mean == pytest.approx(natural)
        assert informational_loss(p, y).mean == pytest.approx(natural / math.log(2))
    p1 = rng.uniform(0.05, 0.95, 20)
    y = rng.integers(0, 2, 20)
    y[:2] = [0, 1]
    assert informational_loss(p1, y, base=math.e).mean == pytest.approx(metrics.log_loss(y, p1))


def test_informational_bits_by_hand():
    r = informational_loss([[0.5, 0.25, 0.25], [0.25, 0.25, 0.5], [1.0, 0.0, 0.0]], [0, 1, 0])
    np.testing.assert_allclose(r.losses, [1, 2, 0])
    assert r.mean == pytest.approx(1.0)
    assert "bits" in r.verdict


def test_both_losses_are_minimised_by_the_true_probabilities():
    # Witten & Frank: both losses "encourage honesty": the expected loss under the true class
    # distribution p* is smallest when the prediction q equals p*.
    rng = np.random.default_rng(3)
    for k in (2, 3, 4):
        true = rng.dirichlet(np.ones(k))
        classes = np.arange(k)

        def expected(loss, q):
            return float(true @ loss(np.tile(q, (k, 1)), classes).losses)

        for loss in (quadratic_loss, informational_loss):
            best = expected(loss, true)
            others = rng.dirichlet(np.ones(k), 50)
            assert all(expected(loss, q) > best for q in others)


def test_zero_frequency_gives_inf_and_warning():
    with pytest.warns(ZeroFrequencyWarning, match="probability 0"):
        r = informational_loss([[0.5, 0.5], [1.0, 0.0]], [0, 1])
    assert r.losses[0] == 1 and math.isinf(r.losses[1]) and math.isinf(r.mean)
    assert issubclass(ZeroFrequencyWarning, RuntimeWarning)
    assert "zero-frequency" in r.verdict
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        informational_loss([[0.5, 0.5]], [0])  # no warning without a zero


def test_results_explain_themselves():
    r = quadratic_loss([0.9, 0.2], [1, 0])
    assert "(p_{ij} - a_{ij})^2" in r._repr_markdown_() and "0.05" in r._repr_markdown_()
    assert len(repr(r)) < 200
