"""Repeated paired experiments: why t and not z for the mean of k fold differences.

Each experiment runs two learners on ``k`` folds (or trials) and records the ``k``
differences; the mean difference gets an interval from the sample SD with either the
t(k-1) or the normal critical value. With few folds the sample SD is noisy and the
z interval covers the true difference less often than promised (Mitchell ch. 5.6;
Dietterich 1998).
"""
from __future__ import annotations

import numpy as np

from .. import _validate as v
from .._result import Explanation, Result, fmt, pct, result
from ..stats.intervals import t_critical, z_critical
from .result_cache import cached

__all__ = ["paired_experiments", "t_vs_z_coverage", "TvsZCoverage"]


def _setting(difference, noise, n_experiments, seed):
    return (v.real("difference", difference), v.real("noise", noise, low=0.0, low_open=True),
            v.integer("n_experiments", n_experiments, low=1), v.integer("seed", seed, low=0))


def paired_experiments(k, difference=0.0, noise=1.0, n_experiments=2000, seed=0):
    """Per-fold differences of ``n_experiments`` simulated paired experiments.

    Differences are Normal(``difference``, ``noise``^2), independent across folds.

    Returns
    -------
    ndarray of shape (n_experiments, k)

    Examples
    --------
    >>> paired_experiments(5, 0.02, 0.05, n_experiments=3).shape
    (3, 5)
    """
    k = v.integer("k", k, low=2)
    difference, noise, n_experiments, seed = _setting(difference, noise, n_experiments, seed)
    return difference + noise * _standard_draws(k, n_experiments, seed)


def _standard_draws(k, n_experiments, seed):
    return np.random.default_rng(seed).standard_normal((n_experiments, k))


#: t critical values by (confidence, df): scipy's per-call overhead is most of a curve's cost,
#: and an explorer moving the difference or the noise asks for the same ones again
_t_critical = cached(max_bytes=2**20, name="t critical values")(t_critical)


@cached(max_bytes=8 * 2**20, name="paired experiments")  # 2 x n_experiments numbers per k
def _standard_summaries(k, n_experiments, seed):
    """Mean and SD of each experiment's standard-normal draws (cached: an explorer moving
    the difference or the noise only rescales them)."""
    draws = _standard_draws(k, n_experiments, seed)
    return draws.mean(axis=1), draws.std(axis=1, ddof=1)


@result
class TvsZCoverage(Result):
    """Coverage and rejection rate of the t and z intervals for the mean difference, per k."""

    ks: np.ndarray
    difference: float
    noise: float
    confidence: float
    n_experiments: int
    t_coverage: np.ndarray  # fraction of t intervals containing the true difference
    z_coverage: np.ndarray
    t_reject: np.ndarray  # fraction of experiments where the test rejects "difference = 0"
    z_reject: np.ndarray
    mc_error: float  # Monte Carlo standard error of a coverage at the nominal level

    def _explain(self):
        worst = int(np.argmin(self.z_coverage))
        return Explanation(
            "t vs z intervals for a mean of k differences",
            [r"\bar\delta \pm t_{N,k-1}\, \frac{s}{\sqrt k}\quad\text{vs}\quad \bar\delta \pm z_N\, \frac{s}{\sqrt k}"],
            [rf"k = {self.ks[worst]}:\ \text{{coverage}}_t = {fmt(self.t_coverage[worst])},\ "
             rf"\text{{coverage}}_z = {fmt(self.z_coverage[worst])},\ \text{{nominal}} = {fmt(self.confidence)}"],
            f"With k = {self.ks[worst]} the z interval covers the true difference only "
            f"{pct(self.z_coverage[worst])} of the time, t {pct(self.t_coverage[worst])}, against the "
            f"nominal {pct(self.confidence)}.")


def t_vs_z_coverage(ks=range(2, 31), difference=0.0, noise=1.0, confidence=0.95, n_experiments=2000,
                    seed=0, progress=None):
    """Simulated coverage of t and z intervals (and rejection rates of the tests) per ``k``.

    For each number of folds ``k`` draws ``n_experiments`` paired experiments
    (:func:`paired_experiments`) and builds, for all of them at once, the interval
    ``mean ± c s / sqrt(k)`` with ``c`` the t(k-1) or the normal critical value (as
    :func:`evalteach.stats.paired_t_test` and :func:`evalteach.stats.paired_z_test` do).
    The test of "no difference" rejects when that interval excludes 0: with
    ``difference=0`` the rejection rate is the type-I error, otherwise the power.

    Parameters
    ----------
    ks : sequence of int
        Numbers of folds, each >= 2.
    progress : callable, optional
        Called with the fraction done after each ``k``.

    Returns
    -------
    TvsZCoverage

    Examples
    --------
    >>> r = t_vs_z_coverage([3, 30], n_experiments=4000)
    >>> bool(r.z_coverage[0] < 0.9 < 0.93 < r.t_coverage[0])
    True
    """
    ks = v.array("ks", list(ks), ndim=1).astype(np.int64)
    if np.any(ks < 2):
        raise ValueError(f"ks must all be >= 2, got {v._show(ks.tolist())}")
    difference, noise, n_experiments, seed = _setting(difference, noise, n_experiments, seed)
    confidence = v.confidence("confidence", confidence)
    z = z_critical(confidence)
    out = np.empty((4, ks.size))
    for i, k in enumerate(ks):  # a few dozen k values; each is one vectorised batch
        m, s = _standard_summaries(int(k), n_experiments, seed + int(k))
        mean, se = difference + noise * m, noise * s / np.sqrt(k)
        for j, c in enumerate((_t_critical(confidence, int(k) - 1), z)):
            out[j, i] = np.mean(np.abs(mean - difference) <= c * se)
            out[2 + j, i] = np.mean(np.abs(mean) > c * se)
        if progress is not None:
            progress((i + 1) / ks.size)
    mc = float(np.sqrt(confidence * (1 - confidence) / n_experiments))
    return TvsZCoverage(ks, difference, noise, confidence, n_experiments, *out, mc)
