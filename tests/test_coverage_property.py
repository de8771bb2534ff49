"""Coverage of the proportion intervals, by simulation (fixed seed) and by exact binomial sums.

Each cell of an (n, p) grid draws R test sets, counts errors, and asks how often the 95%
interval from :func:`proportion_bounds` (one vectorised call for the whole grid) covers the
true p. Exact coverage, sum_k P(k) [p in interval(k)], checks the simulation itself.
"""
import functools

import numpy as np
import pytest
from scipy import stats

import evalteach as et

NOMINAL = 0.95
R = 4000
NS = np.array([10, 20, 50, 100, 200])
PS = np.concatenate([[0.02], np.linspace(0.05, 0.5, 19)])
MC_SE = np.sqrt(NOMINAL * (1 - NOMINAL) / R)


def _simulated(method, seed=2024):
    rng = np.random.default_rng(seed)
    n = np.broadcast_to(NS[:, None, None], (NS.size, PS.size, R))
    p = np.broadcast_to(PS[None, :, None], n.shape)
    k = rng.binomial(n, p)
    low, high = et.proportion_bounds(k, n, NOMINAL, method)
    return ((low <= p) & (p <= high)).mean(axis=-1)


def _exact(method):
    out = np.empty((NS.size, PS.size))
    for i, n in enumerate(NS):
        k = np.arange(n + 1)
        low, high = et.proportion_bounds(k, n, NOMINAL, method)
        for j, p in enumerate(PS):
            out[i, j] = stats.binom.pmf(k, n, p)[(low <= p) & (p <= high)].sum()
    return out


@functools.lru_cache(maxsize=None)
def coverage(method):
    return _simulated(method), _exact(method)


@pytest.mark.parametrize("method", ["wald", "wilson", "clopper-pearson"])
def test_simulation_agrees_with_exact_coverage(method):
    simulated, exact = coverage(method)
    se = np.sqrt(exact * (1 - exact) / R)
    assert np.all(np.abs(simulated - exact) <= 4.5 * np.maximum(se, 1 / R))


def test_clopper_pearson_never_undercovers():
    simulated, exact = coverage("clopper-pearson")
    assert np.all(exact >= NOMINAL)
    assert np.all(simulated >= NOMINAL - 4 * MC_SE)
    assert simulated.mean() > NOMINAL + 0.01  # and it is conservative


def test_wilson_reaches_nominal_on_average():
    simulated, _ = coverage("wilson")
    # Wilson's coverage oscillates with p (discreteness) but centres on the nominal level
    per_n = simulated[:, 1:].mean(axis=1)
    assert np.all(np.abs(per_n - NOMINAL) <= 0.012), per_n
    assert simulated.min() >= 0.90


def test_wald_undercovers_when_np_is_small():
    """Shown, not hidden: the slides' normal-approximation interval fails for small n p."""
    simulated, _ = coverage("wald")
    np_ = NS[:, None] * PS[None, :]
    assert np.all(simulated[np_ <= 2] < 0.90)
    assert simulated[NS <= 20].mean() < NOMINAL - 0.05
    # with n p large it is close to nominal: n = 200, p = 0.5
    assert abs(simulated[-1, -1] - NOMINAL) <= 4 * MC_SE
