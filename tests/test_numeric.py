"""evalteach.stats.numeric: Witten & Frank's error measures against scikit-learn and numpy."""
import math

import numpy as np
import pytest
from sklearn.metrics import mean_absolute_error, mean_squared_error, r2_score

import evalteach as et


def test_matches_sklearn_and_numpy():
    rng = np.random.default_rng(2)
    for _ in range(20):
        n = int(rng.integers(2, 200))
        a = rng.normal(100, 30, n)
        p = a + rng.normal(0, 20, n)
        r = et.numeric_errors(a, p)
        assert r.mean_absolute_error == pytest.approx(mean_absolute_error(a, p))
        assert r.mean_squared_error == pytest.approx(mean_squared_error(a, p))
        assert r.root_mean_squared_error == pytest.approx(math.sqrt(mean_squared_error(a, p)))
        # relative squared error is 1 - R^2
        assert r.relative_squared_error == pytest.approx(1 - r2_score(a, p))
        assert r.root_relative_squared_error == pytest.approx(math.sqrt(1 - r2_score(a, p)))
        assert r.relative_absolute_error == pytest.approx(np.abs(p - a).sum() / np.abs(a - a.mean()).sum())
        assert r.correlation == pytest.approx(np.corrcoef(p, a)[0, 1])
        assert r.n == n


def test_worked_example_by_hand():
    a, p = [3.0, 5.0, 2.0, 8.0], [2.5, 5.0, 3.0, 7.0]   # mean of a is 4.5
    r = et.numeric_errors(a, p)
    assert r.mean_absolute_error == pytest.approx(2.5 / 4)
    assert r.root_mean_squared_error == pytest.approx(math.sqrt(2.25 / 4))
    assert r.relative_absolute_error == pytest.approx(2.5 / 8)           # |a - 4.5| sums to 8
    assert r.root_relative_squared_error == pytest.approx(math.sqrt(2.25 / 21))
    md = r._repr_markdown_()
    assert "RRSE" in md and "0.625" in md
    assert "they do better (relative absolute error 31.2%, root relative squared error 32.7%)" in r.verdict


def test_trivial_predictor_scores_100_percent_and_constants_are_handled():
    a = np.array([1.0, 4.0, 2.0, 7.0])
    mean = et.numeric_errors(a, np.full(4, a.mean()))
    assert mean.relative_absolute_error == pytest.approx(1.0)
    assert mean.root_relative_squared_error == pytest.approx(1.0)
    assert math.isnan(mean.correlation)  # constant predictions do not correlate with anything
    worse = et.numeric_errors(a, a[::-1])
    assert worse.relative_absolute_error > 1 and "they do no better" in worse.verdict
    flat = et.numeric_errors([2.0, 2.0, 2.0], [1.0, 2.0, 3.0])
    assert math.isnan(flat.relative_absolute_error) and "undefined" in flat.verdict
    assert et.numeric_errors(a, a).mean_absolute_error == 0 and et.numeric_errors(a, a).correlation == 1


def test_verdict_against_the_mean_needs_both_relative_errors():
    """RAE below 100% with RRSE at or above it is not 'better than predicting the mean'."""
    a = np.array([0.0] * 9 + [10.0])
    r = et.numeric_errors(a, np.zeros(10))               # right 9 times, 10 off once
    assert r.relative_absolute_error == pytest.approx(10 / (9 * 1 + 9))
    assert r.root_relative_squared_error == pytest.approx(math.sqrt(100 / (9 * 1 + 81)))
    assert r.relative_absolute_error < 1 <= r.root_relative_squared_error
    assert "do better in absolute error but not in squared error" in r.verdict
    assert "they do better (" not in r.verdict
    assert "correlation is undefined" in r.verdict and "nan" not in r.verdict
    mean = et.numeric_errors([1.0, 4.0, 2.0, 7.0], np.full(4, 3.5))      # RAE = RRSE = 100%
    assert "they do no better" in mean.verdict
    assert "relative to the mean of ``y_true``, the test values" in " ".join(et.numeric_errors.__doc__.split())
