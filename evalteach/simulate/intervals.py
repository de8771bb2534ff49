"""How often does an interval for an error rate contain the true error?

Two answers: simulated (draw many test sets, build one interval each, count the hits)
and exact (sum the binomial probabilities of the error counts whose interval covers the
true error). Plus the distance between the binomial distribution of the error count and
its normal approximation, which decides when the Wald interval can be trusted
(Mitchell ch. 5; Brown, Cai & DasGupta 2001).
"""
from __future__ import annotations

import numpy as np
from scipy import special as _special
from scipy import stats as _st

from .. import _validate as v
from .._result import Explanation, Result, fmt, pct, result
from ..stats.intervals import INTERVAL_SIDES, METHODS, proportion_bounds

__all__ = ["interval_coverage", "IntervalCoverage", "exact_coverage", "normal_approximation_error",
           "NormalApproximationError"]


@result
class IntervalCoverage(Result):
    """Intervals from repeated test sets: their bounds, which ones miss, and the coverage."""

    error: float
    n: int
    confidence: float
    method: str
    sided: str
    errors: np.ndarray  # error count k of each test set
    low: np.ndarray
    high: np.ndarray
    covered: np.ndarray  # does each interval contain the true error?
    coverage: float  # fraction of the simulated intervals that cover
    exact: float  # exact coverage probability for this n and error

    def _explain(self):
        m = self.covered.size
        return Explanation(
            "Coverage of an interval for the error rate",
            [r"\text{coverage} = \frac{\#\{i : L_i \le p \le U_i\}}{m},\qquad "
             r"P(\text{cover}) = \sum_{k=0}^{n} \binom{n}{k} p^k (1-p)^{n-k}\,[L(k) \le p \le U(k)]"],
            [rf"\frac{{{int(self.covered.sum())}}}{{{m}}} = {fmt(self.coverage)},\qquad "
             rf"P(\text{{cover}}) = {fmt(self.exact)}"],
            f"{int(self.covered.sum())} of {m} intervals contain the true error {fmt(self.error, 3)} "
            f"({pct(self.coverage)}); the exact coverage is {pct(self.exact)} against the nominal "
            f"{pct(self.confidence)}.",
        )


def _check(n, confidence, method, sided):
    n = v.integer("n", n, low=1)
    confidence = v.confidence("confidence", confidence)
    v.choice("method", method, METHODS)
    v.choice("sided", sided, INTERVAL_SIDES)
    return n, confidence


def exact_coverage(error, n, confidence=0.95, method="wald", sided="two"):
    """Exact coverage probability of an interval for a true error rate.

    The interval from ``k`` errors covers ``error`` for some ``k``; the coverage is the
    binomial probability of those ``k``. Vectorised over ``error``.

    Parameters
    ----------
    error : float or array
        True error rate(s) in [0, 1].
    n : int
        Test-set size.
    confidence, method, sided
        As in :func:`evalteach.stats.proportion_interval`.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(exact_coverage(0.3, 40), 4)
    0.9299
    """
    n, confidence = _check(n, confidence, method, sided)
    p = v.array("error", error, ndim=None)
    if np.any((p < 0) | (p > 1)):
        raise ValueError(f"error must be in [0, 1], got {v._show(error)}")
    k = np.arange(n + 1)
    low, high = proportion_bounds(k, n, confidence, method, sided)
    covers = (low <= p[..., None]) & (p[..., None] <= high)
    coverage = np.where(covers, _binomial_pmf(k, n, p[..., None]), 0.0).sum(axis=-1)
    return float(coverage) if coverage.ndim == 0 else coverage


def _binomial_pmf(k, n, p):
    """P(K = k) for K ~ Binomial(n, p), from logs: C(n, k) p^k (1 - p)^(n - k).

    The same numbers as ``scipy.stats.binom.pmf`` to about 1e-12 (relative), four times
    faster on a grid of rates: the interval-coverage explorer evaluates it for every n a
    slider reaches. ``xlogy`` and ``xlog1py`` make 0 log 0 = 0, so p = 0 and p = 1 are exact.
    """
    log_choose = _special.gammaln(n + 1) - _special.gammaln(k + 1) - _special.gammaln(n - k + 1)
    return np.exp(log_choose + _special.xlogy(k, p) + _special.xlog1py(n - k, -p))


def interval_coverage(error, n, confidence=0.95, method="wald", sided="two", n_sets=100, seed=0):
    """Simulate ``n_sets`` test sets of size ``n``, one interval each, and count the hits.

    Parameters
    ----------
    error : float
        True error rate of the hypothesis.
    n : int
        Test-set size.
    confidence, method, sided
        As in :func:`evalteach.stats.proportion_interval`.
    n_sets : int
        How many test sets (and intervals) to draw.
    seed : int

    Returns
    -------
    IntervalCoverage
        Per test set: ``errors, low, high, covered``; overall: ``coverage`` (simulated)
        and ``exact`` (:func:`exact_coverage`).

    Examples
    --------
    >>> r = interval_coverage(0.3, 40, n_sets=1000)
    >>> abs(r.coverage - r.exact) < 0.03
    True
    """
    p = v.probability("error", error)
    n, confidence = _check(n, confidence, method, sided)
    n_sets = v.integer("n_sets", n_sets, low=1)
    rng = np.random.default_rng(v.integer("seed", seed, low=0))
    k = rng.binomial(n, p, n_sets)
    low, high = proportion_bounds(k, n, confidence, method, sided)
    covered = (low <= p) & (p <= high)
    return IntervalCoverage(p, n, confidence, method, sided, k, low, high, covered,
                            float(covered.mean()), exact_coverage(p, n, confidence, method, sided))


@result
class NormalApproximationError(Result):
    """How far the binomial distribution of the error count is from its normal approximation.

    ``max_cdf`` is max_k |F_binomial(k) - Phi((k + 1/2 - np) / sigma)| (continuity corrected);
    ``total_variation`` is half the summed absolute difference between the binomial
    probabilities and the normal probabilities of the unit bins around each count (the
    normal mass outside [-1/2, n + 1/2] counts as difference).
    """

    n: np.ndarray | int
    p: float
    max_cdf: np.ndarray | float
    total_variation: np.ndarray | float

    def _explain(self):
        formulas = [r"D = \max_k \left|F_{B(n,p)}(k) - \Phi\!\left(\frac{k + \frac12 - np}{\sqrt{np(1-p)}}\right)\right|",
                    r"TV = \frac12 \sum_k \left|P_B(k) - P_N(k - \tfrac12 < X \le k + \tfrac12)\right|"]
        if np.ndim(self.max_cdf):
            return Explanation("Binomial vs normal", formulas, [],
                               f"Distances for {np.size(self.n)} values of n at p = {fmt(self.p, 3)}.")
        return Explanation(
            "Binomial vs normal", formulas,
            [rf"n = {self.n},\ p = {fmt(self.p)}:\quad D = {fmt(self.max_cdf)},\quad TV = {fmt(self.total_variation)}"],
            f"The normal approximation's CDF is at most {fmt(self.max_cdf, 3)} away from the binomial's.")


def normal_approximation_error(n, p):
    """Distance between Binomial(n, p) and Normal(np, np(1-p)), vectorised over ``n``.

    Examples
    --------
    >>> r = normal_approximation_error(40, 0.3)
    >>> round(r.max_cdf, 4)
    0.0091
    """
    p = v.probability("p", p, open_low=True, open_high=True)
    if np.ndim(n) == 0 and not isinstance(n, np.ndarray):
        ns = np.array([v.integer("n", n, low=1)])
    else:
        ns = v.array("n", n, ndim=1).astype(np.int64)
        if np.any(ns < 1):
            raise ValueError(f"n must be >= 1, got {v._show(n)}")
    k = np.arange(ns.max() + 1)
    inside = k <= ns[:, None]
    mu = ns[:, None] * p
    sigma = np.sqrt(ns[:, None] * p * (1 - p))
    upper = _st.norm.cdf((k + 0.5 - mu) / sigma)
    lower = _st.norm.cdf((k - 0.5 - mu) / sigma)
    pmf = _st.binom.pmf(k, ns[:, None], p)
    cdf = _st.binom.cdf(k, ns[:, None], p)
    max_cdf = np.where(inside, np.abs(cdf - upper), 0.0).max(axis=1)
    outside = lower[:, 0] + _st.norm.sf((ns + 0.5 - mu[:, 0]) / sigma[:, 0])
    tv = 0.5 * (np.where(inside, np.abs(pmf - (upper - lower)), 0.0).sum(axis=1) + outside)
    if np.ndim(n) == 0 and not isinstance(n, np.ndarray):
        return NormalApproximationError(int(ns[0]), p, float(max_cdf[0]), float(tv[0]))
    return NormalApproximationError(ns, p, max_cdf, tv)
