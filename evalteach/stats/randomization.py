"""Inference by resampling the data: the permutation test and bootstrap intervals.

Both build a distribution by recomputing a statistic on rearranged data instead of
trusting a formula. The permutation test rearranges the data as the null hypothesis
allows (flip the sign of a paired difference, shuffle the group labels) and asks how
unusual the observed difference is; :class:`PermutationNull` draws that null
distribution one batch at a time, as an explorer grows it. The bootstrap resamples
the test examples with replacement to see how much a test-set metric would vary.

References
----------
Efron & Tibshirani (1993), *An Introduction to the Bootstrap*, ch. 14 (BCa) and
ch. 15 (permutation tests); Good (2005), *Permutation, Parametric and Bootstrap Tests
of Hypotheses*.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import field

import numpy as np

from .. import _validate as v
from .._format import fmt, interval_text, p_text, pct, plain, tex_pct
from .._result import Explanation, Result, WithInterval, WithPValue, draws, result
from ._bootstrap import bca_levels
from .tests import ALTERNATIVES

__all__ = [
    "permutation_test", "PermutationTest", "PermutationNull",
    "bootstrap_interval", "BootstrapInterval",
]

_BATCH = 4096  # rearrangements per block: bounds memory at about batch x n values


# --- permutation test ------------------------------------------------------------------

def _two_samples(a, b, paired):
    if paired:
        d = v.differences(a, b, -1)
        if d.ndim != 1:
            raise ValueError(f"a must be 1-dimensional, got shape {d.shape}")
        return d, None
    if b is None:
        raise TypeError("b must be given for an unpaired test (paired=False), got None")
    a = v.array("a", a, min_size=1)
    b = v.array("b", b, min_size=1)
    if a.size + b.size < 3:
        raise ValueError(f"a and b must hold at least 3 values together, got {a.size} and {b.size}")
    return a, b


class PermutationNull:
    """The null distribution of a permutation test, drawn one batch at a time.

    The statistic is the mean difference: ``mean(d)`` of paired differences, or
    ``mean(a) - mean(b)`` of two independent samples. Under the null hypothesis every
    sign flip of a paired difference (or every split of the pooled values into groups
    of the original sizes) was as likely as the one observed.

    Parameters
    ----------
    a, b : array
        As in :func:`permutation_test`.
    paired : bool
        Sign flips of ``a - b`` (True) or shuffles of the group labels (False).
    seed : int
        Seed of the random rearrangements.

    Attributes
    ----------
    observed : float
        The statistic on the data as observed.
    arrangements : int
        How many distinct rearrangements exist (``2**n`` or ``C(n_a + n_b, n_a)``).
    drawn : int
        How many random rearrangements :meth:`draw` has returned so far.

    Examples
    --------
    >>> null = PermutationNull([0.02, 0.01, 0.03, -0.01, 0.02], seed=0)
    >>> round(null.observed, 3), null.arrangements, null.draw(4).shape
    (0.014, 32, (4,))
    """

    def __init__(self, a, b=None, *, paired=True, seed=0):
        self.paired = v.boolean("paired", paired)
        self.seed = v.integer("seed", seed, low=0)
        first, second = _two_samples(a, b, self.paired)
        if self.paired:
            self._values = first
            self.observed = float(first.mean())
            self.arrangements = 2 ** first.size
        else:
            self._values = np.concatenate((first, second))
            self._n_a = first.size
            self.observed = float(first.mean() - second.mean())
            self.arrangements = math.comb(first.size + second.size, first.size)
        self._rng = np.random.default_rng(self.seed)
        self.drawn = 0

    def _statistics(self, chosen):
        """Statistics of rearrangements (sign rows if paired, index rows of group a if not),
        and their slopes: how each statistic moves per unit shift of the data by the
        hypothesised difference (1 for the observed arrangement, less for the others)."""
        x = self._values
        if self.paired:
            return (chosen * x).mean(axis=1), chosen.mean(axis=1)
        total, n_a, n_b = x.sum(), self._n_a, x.size - self._n_a
        sum_a = x[chosen].sum(axis=1)
        stayed = (chosen < n_a).sum(axis=1)  # members of the original group a that stayed in it
        return sum_a / n_a - (total - sum_a) / n_b, stayed / n_a - (n_a - stayed) / n_b

    def _draw(self, size):
        """Statistics and slopes of ``size`` more random rearrangements."""
        out, slope = np.empty(size), np.empty(size)
        n = self._values.size
        for start in range(0, size, _BATCH):
            u = self._rng.random((min(_BATCH, size - start), n))
            chosen = np.where(u < 0.5, -1.0, 1.0) if self.paired else np.argsort(u, axis=1)[:, :self._n_a]
            out[start:start + len(u)], slope[start:start + len(u)] = self._statistics(chosen)
        self.drawn += size
        return out, slope

    def draw(self, size):
        """The statistics of ``size`` more random rearrangements (a seeded, continuing stream).

        Drawing 10 and then 20 gives the same 30 values as drawing 30 at once.
        """
        return self._draw(v.integer("size", size, low=0))[0]

    def _enumerate(self):
        n = self._values.size
        if self.arrangements > 10 ** 6:
            raise ValueError(f"too many rearrangements to enumerate: {self.arrangements} (at most 10**6)")
        if self.paired:
            bits = (np.arange(self.arrangements)[:, None] >> np.arange(n)) & 1
            return self._statistics(1.0 - 2.0 * bits)
        return self._statistics(np.array(list(itertools.combinations(range(n), self._n_a))))

    def enumerate(self):
        """The statistics of every rearrangement (exact null distribution; small data only)."""
        return self._enumerate()[0]


@result
class PermutationTest(WithPValue, WithInterval, Result):
    """A permutation (randomisation) test of a mean difference.

    Attributes
    ----------
    statistic : float
        The observed mean difference.
    p_value : float
        The p-value; ``pvalue`` is the same.
    alternative : {"two-sided", "greater", "less"}
        The alternative hypothesis.
    exact : bool
        Whether every rearrangement was enumerated.
    n_resamples : int
        The rearrangements used.
    paired : bool
        Sign flips (True) or label shuffles (False).
    confidence : float
        The level of the verdict and of the interval.
    n : int
        The pairs, or both sample sizes added.
    low, high : float
        The interval that inverts the test; ``confidence_interval()`` gives both.
    seed : int
        The seed of the random rearrangements.
    null_distribution : ndarray
        The rearranged statistics.
    extreme : ndarray of bool
        Which rearrangements counted as at least as extreme (the smaller tail, which is
        doubled, for a two-sided unpaired test).
    """

    statistic: float
    p_value: float
    alternative: str
    exact: bool
    n_resamples: int
    paired: bool
    confidence: float
    n: int
    low: float
    high: float
    seed: int = field(repr=False)
    null_distribution: np.ndarray = field(repr=False)
    extreme: np.ndarray | None = field(default=None, repr=False)

    @property
    def smallest_p_value(self):
        """The smallest p-value this test can give on these values, whatever their signs
        (paired) or group labels (unpaired): the p of the most extreme rearrangement.

        Exact tests: the share of rearrangements as extreme as the most extreme one (for a
        paired two-sided test on m nonzero differences, 2 / 2**m). Monte Carlo tests:
        1 / (B + 1). When it exceeds alpha the test cannot reject, whatever the data show.
        """
        if not self.exact:
            return min(1.0, (2 if self.alternative == "two-sided" and not self.paired else 1) / (self.n_resamples + 1))
        t = np.asarray(self.null_distribution, dtype=float)
        tol = 1e-12 * max(1.0, float(np.abs(t).max()))
        upper, lower = np.mean(t >= t.max() - tol), np.mean(t <= t.min() + tol)
        if self.alternative == "greater":
            return float(upper)
        if self.alternative == "less":
            return float(lower)
        if self.paired:  # the sign-flip distribution is symmetric: |T*| >= max |T*|
            return float(np.mean(np.abs(t) >= np.abs(t).max() - tol))
        return float(min(1.0, 2 * min(upper, lower)))

    def _explain(self):
        stat = r"\bar\delta = \frac1n\sum_i (a_i - b_i)" if self.paired else r"\bar a - \bar b"
        how = (r"\text{flip the sign of each } a_i - b_i" if self.paired
               else r"\text{shuffle the labels A/B over the pooled values}")
        doubled = self.alternative == "two-sided" and not self.paired
        tail = {"greater": r"T^* \ge T", "less": r"T^* \le T",
                "two-sided": r"|T^*| \ge |T|" if self.paired else
                r"2\min\left(P(T^* \ge T), P(T^* \le T)\right)"}[self.alternative]
        if self.exact:
            formulas = [rf"T = {stat},\qquad T^*:\ {how}", rf"p = {tail}" if doubled
                        else rf"p = \frac{{\#\{{{tail}\}}}}{{N}}"]
            where = rf"N = {self.n_resamples}\ \text{{(all rearrangements)}}"
        else:
            formulas = [rf"T = {stat},\qquad T^*:\ {how}", rf"p = {tail}\ \text{{with}}\ "
                        r"P = \frac{\# + 1}{B + 1}" if doubled
                        else rf"p = \frac{{\#\{{{tail}\}} + 1}}{{B + 1}}"]
            where = rf"B = {self.n_resamples}\ \text{{random rearrangements (seed {self.seed})}}"
        steps = [rf"T = {fmt(self.statistic)},\quad {where},\quad p = {fmt(self.p_value)}",
                 rf"{tex_pct(self.confidence)}\ \text{{interval for the difference (inverted test)}}:\ "
                 rf"[{fmt(self.low)},\ {fmt(self.high)}]"]
        significant = self.p_value < 1 - self.confidence
        claim = {"two-sided": "different from 0", "greater": "greater than 0", "less": "less than 0"}[self.alternative]
        side = "two-sided" if self.alternative == "two-sided" else "one-sided, direction fixed in advance"
        what = "mean difference a - b" if self.paired else "difference of means a - b"
        interval = interval_text(self.low, self.high, self.confidence, "it")
        if significant:
            verdict = (f"The {what} = {plain(self.statistic)} is significantly {claim} at the "
                       f"{pct(1 - self.confidence)} level ({side}, {p_text(self.p_value)}): so extreme a value is "
                       f"rare among the rearrangements the null hypothesis allows; {interval} gives its size.")
        else:
            verdict = (f"The {what} = {plain(self.statistic)} is not significantly {claim} at the "
                       f"{pct(1 - self.confidence)} level ({side}, {p_text(self.p_value)}): the data do not rule "
                       f"out a zero difference, which is not the same as showing there is none; {interval} "
                       "shows the values they allow.")
        title = "Permutation test (" + ("exact" if self.exact else "Monte Carlo") + ", " + (
            "paired: sign flips" if self.paired else "unpaired: label shuffles") + ")"
        return Explanation(title, formulas, steps, verdict)

    @draws("randomization", "permutation_test")
    def plot(self, ax=None, statistic=None):
        """Draw the null distribution, the observed statistic and the share at least as extreme.

        Every rearrangement when the test is exact (a bar per distinct value), else the B
        random ones; the rearrangements counted as at least as extreme are stacked in
        vermillion, so their share gives ``p_value`` (``(# + 1)/(B + 1)`` for a Monte Carlo
        test; twice the smaller tail for a two-sided unpaired test). For a two-sided paired
        test the observed mean difference's mirror image is drawn too. The observed lines run
        behind the bars, so the bars they stand on stay visible.

        Parameters
        ----------
        statistic : str, optional
            What the statistic is, for the x axis (say "accuracy difference, tree − naive
            Bayes"); default "mean difference a − b" (paired) or "difference of means a − b".

        References
        ----------
        Efron & Tibshirani (1993), *An Introduction to the Bootstrap*, ch. 15; Phipson &
        Smyth (2010), Stat. Appl. Genet. Mol. Biol. 9.

        Examples
        --------
        >>> permutation_test([0.02, 0.01, 0.03, -0.01, 0.02, 0.04]).plot()  # doctest: +SKIP
        """


def permutation_test(a, b=None, *, paired=True, n_resamples=10000, alternative="two-sided", seed=0,
                     confidence=0.95):
    """Permutation (randomisation) test of a difference in means.

    Parameters
    ----------
    a, b : array
        Paired: per-fold (or per-data-set) scores of two learners, or ``a`` alone holding
        the differences. Unpaired: two independent samples (``b`` required).
    paired : bool
        True: flip the signs of the differences ``a - b``; False: shuffle the labels of
        the pooled values.
    n_resamples : int
        Random rearrangements; when there are at most this many rearrangements in all,
        every one is enumerated and the p-value is exact.
    alternative : {"two-sided", "greater", "less"}
        H1: the true mean difference is != 0, > 0 or < 0 (fix the direction in advance).
    seed : int
        Seed of the random rearrangements.
    confidence : float
        The level at which the verdict calls the result significant (alpha = 1 - confidence).

    Returns
    -------
    PermutationTest
        ``statistic`` (the observed mean difference), ``p_value``, ``alternative``,
        ``exact``, ``n_resamples`` (rearrangements used), ``paired``, ``confidence``,
        ``n`` (pairs, or both sample sizes added), ``low``, ``high`` (the interval for
        the true difference that inverts this test: every shift of the data by a
        difference inside it is not rejected at ``confidence``, so 0 lies outside exactly
        when the test is significant; one-sided for a one-sided alternative), ``seed``
        and ``null_distribution`` (the rearranged statistics). To grow the null distribution step by step, use
        :class:`PermutationNull` with the same arguments: its ``draw(n_resamples)`` gives
        exactly this test's ``null_distribution`` in the Monte Carlo case.

    Notes
    -----
    A Monte Carlo p-value counts the observed arrangement, ``(# as extreme + 1) / (B + 1)``:
    then the test keeps its level exactly for any B, and p is never 0 (Phipson & Smyth
    2010); values equal up to rounding count as equal (both as in
    :func:`scipy.stats.permutation_test`). Two-sided, paired sign flips count both tails,
    ``#{|T*| >= |T|}``: their null distribution is symmetric about 0, so the exact p is
    the same as doubling one tail, while a Monte Carlo p has half the variance of a
    doubled tail. Unpaired label shuffles keep scipy's doubling of the smaller one-sided
    p-value (capped at 1), since their null distribution need not be symmetric.

    References
    ----------
    Fisher (1935), *The Design of Experiments*; Pitman (1937), "Significance tests which
    may be applied to samples from any populations", JRSS Suppl. 4; Efron & Tibshirani
    (1993), ch. 15; Phipson & Smyth (2010), "Permutation p-values should never be zero",
    Stat. Appl. Genet. Mol. Biol. 9.

    Examples
    --------
    >>> r = permutation_test([0.02, 0.01, 0.03, -0.01, 0.02, 0.04])   # 64 sign patterns: exact
    >>> r.exact, round(r.p_value, 4)
    (True, 0.0938)
    """
    alternative = v.choice("alternative", alternative, ALTERNATIVES)
    n_resamples = v.integer("n_resamples", n_resamples, low=1)
    conf = v.confidence("confidence", confidence)
    null = PermutationNull(a, b, paired=paired, seed=seed)
    exact = null.arrangements <= n_resamples
    t, slope = null._enumerate() if exact else null._draw(n_resamples)
    # A rearranged statistic equal to the observed one up to rounding counts (scipy's rule).
    # Rounding scales with the data, not the statistic: a mean difference near 0 of errors
    # near 0.8 is off by ~1e-16 when computed along another path (e.g. the observed arrangement).
    gamma = max(abs(null.observed), float(np.abs(null._values).max())) * 100 * np.finfo(float).eps
    extra = 0 if exact else 1
    above, below = t >= null.observed - gamma, t <= null.observed + gamma
    p_greater = (np.sum(above) + extra) / (t.size + extra)
    p_less = (np.sum(below) + extra) / (t.size + extra)
    both_tails = null.paired and alternative == "two-sided"
    if both_tails:  # the sign-flip null is symmetric: count both tails instead of doubling one
        extreme = np.abs(t) >= abs(null.observed) - gamma
        p = (np.sum(extreme) + extra) / (t.size + extra)
        low, high = _inverted_bounds_both_tails(t, slope, null.observed, extra, conf)
    else:
        p = {"greater": p_greater, "less": p_less,
             "two-sided": min(1.0, 2 * min(p_greater, p_less))}[alternative]
        # the tail counted (two-sided: the smaller one, doubled)
        extreme = above if alternative == "greater" or (alternative == "two-sided" and p_greater <= p_less) else below
        low, high = _inverted_bounds(t - null.observed, 1 - slope, extra, conf, alternative)
    return PermutationTest(null.observed, float(p), alternative, bool(exact), int(t.size), null.paired, conf,
                           int(null._values.size), low, high, null.seed, t, extreme)


def _inverted_bounds(gap, rate, extra, confidence, alternative):
    """The interval for the true difference: every shift delta the test does not reject.

    Testing "difference = delta" shifts the data by delta; arrangement s then counts as
    at least as extreme as the observed one when ``gap_s + delta * rate_s >= 0``, i.e.
    for delta at or above its threshold ``-gap_s / rate_s`` (``rate_s = 0`` only for the
    observed arrangement, which always counts). So each one-sided p-value is a step
    function of delta and the bounds are order statistics of the thresholds (for sign
    flips: means of the flipped subsets; Hartigan 1969).
    """
    moving = rate > 1e-12
    thresholds = np.sort(-gap[moving] / rate[moving])
    always = int(np.sum(~moving)) + extra
    alpha = (1 - confidence) / (2 if alternative == "two-sided" else 1)
    # a bound is the k-th threshold from its end whose count makes p exceed alpha
    k = math.floor(alpha * (gap.size + extra) - always) + 1
    if k < 1:  # too few arrangements: no difference can be rejected at this level
        low, high = -np.inf, np.inf
    elif k > thresholds.size:
        low, high = np.inf, -np.inf
    else:
        low, high = float(thresholds[k - 1]), float(thresholds[-k])
    return (low if alternative != "less" else -np.inf), (high if alternative != "greater" else np.inf)


def _inverted_bounds_both_tails(t, slope, observed, extra, confidence):
    """The interval for the mean of paired differences that inverts the two-sided
    sign-flip test counting both tails, ``|T*| >= |T|``.

    Shifting the differences by delta turns the observed mean into ``observed - delta``
    and sign pattern s's mean into ``t_s - delta * slope_s``. Pattern s counts as at least
    as extreme when ``(t_s - observed + delta (1 - slope_s)) (t_s + observed - delta
    (1 + slope_s)) >= 0``, i.e. for delta between its own Hartigan threshold and its
    mirror pattern's; patterns with every sign equal (``|slope_s| = 1``) always count.
    The interval runs from the smallest to the largest delta at which enough patterns
    count for p to exceed alpha.
    """
    moving = np.abs(slope) < 1 - 1e-12
    ends = np.stack(((observed - t[moving]) / (1 - slope[moving]), (observed + t[moving]) / (1 + slope[moving])))
    starts, stops = np.sort(ends.min(axis=0)), np.sort(ends.max(axis=0))
    # accepted where the count of covering patterns reaches `need` (p > alpha)
    need = math.floor((1 - confidence) * (t.size + extra)) + 1 - int(np.sum(~moving)) - extra
    if need < 1:
        return -np.inf, np.inf

    def covering(x):
        return np.searchsorted(starts, x, "right") - np.searchsorted(stops, x, "left")

    low_candidates = starts[covering(starts) >= need]
    high_candidates = stops[covering(stops) >= need]
    if low_candidates.size == 0:
        return np.inf, -np.inf
    return float(low_candidates[0]), float(high_candidates[-1])


# --- bootstrap interval of a test-set metric -------------------------------------------

METRICS = ("error", "accuracy", "auc")
BOOTSTRAP_METHODS = ("bca", "percentile")


def _auc_by_weights(groups, positive, n_groups, draws):
    """AUC of each resample; ``draws`` holds example indices, one resample per row.

    Counts the weight of negatives below (half for ties) each positive's score group.
    """
    rows, n = draws.shape
    flat = (np.arange(rows)[:, None] * n_groups + groups[draws]).ravel()
    pos = np.bincount(flat, weights=positive[draws].ravel(), minlength=rows * n_groups).reshape(rows, n_groups)
    neg = np.bincount(flat, weights=1.0 - positive[draws].ravel(), minlength=rows * n_groups).reshape(rows, n_groups)
    below = np.cumsum(neg, axis=1) - neg
    with np.errstate(invalid="ignore", divide="ignore"):
        return (pos * (below + 0.5 * neg)).sum(axis=1) / (pos.sum(axis=1) * neg.sum(axis=1))


def _auc_jackknife(scores, positive):
    """AUC with each example left out in turn (closed form; no n x n work)."""
    pos, neg = scores[positive == 1], scores[positive == 0]
    n_pos, n_neg = pos.size, neg.size
    neg_sorted, pos_sorted = np.sort(neg), np.sort(pos)
    # each positive's credit: negatives below it plus half the tied ones; each negative's: positives above
    credit_pos = np.searchsorted(neg_sorted, pos, "left") + 0.5 * (
        np.searchsorted(neg_sorted, pos, "right") - np.searchsorted(neg_sorted, pos, "left"))
    credit_neg = (n_pos - np.searchsorted(pos_sorted, neg, "right")) + 0.5 * (
        np.searchsorted(pos_sorted, neg, "right") - np.searchsorted(pos_sorted, neg, "left"))
    total = credit_pos.sum()
    out = np.empty(scores.size)
    out[positive == 1] = (total - credit_pos) / ((n_pos - 1) * n_neg)
    out[positive == 0] = (total - credit_neg) / (n_pos * (n_neg - 1))
    return out


class _Metric:
    """One metric on one test set: its value, its bootstrap replicates and its jackknife."""

    def __init__(self, name, y_true, predictions):
        self.name = name
        if name == "auc":
            self.positive = y_true.astype(float)
            self.scores = predictions
            values, self.groups = np.unique(predictions, return_inverse=True)
            self.n_groups = values.size
        else:
            right = (predictions == y_true).astype(float)
            self.per_example = 1.0 - right if name == "error" else right

    def value(self):
        if self.name == "auc":
            return float(_auc_by_weights(self.groups, self.positive, self.n_groups,
                                         np.arange(self.scores.size)[None, :])[0])
        return float(self.per_example.mean())

    def replicates(self, draws):
        if self.name == "auc":
            return _auc_by_weights(self.groups, self.positive, self.n_groups, draws)
        return self.per_example[draws].mean(axis=1)

    def jackknife(self):
        if self.name == "auc":
            return _auc_jackknife(self.scores, self.positive)
        x, n = self.per_example, self.per_example.size
        return (x.sum() - x) / (n - 1)


def _labels(name, value):
    arr = v.array(name, value, dtype=None, finite=False, min_size=2)
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must hold finite labels (no NaN or inf), got {v.show(value)}")
    if arr.dtype.kind not in "biufUSO":
        raise TypeError(f"{name} must hold class labels, got {v.show(value)}")
    return arr


def _predictions(name, metric, value):
    return v.array(name, value, min_size=2) if metric == "auc" else _labels(name, value)


@result
class BootstrapInterval(WithInterval, Result):
    """A bootstrap confidence interval for a test-set metric or a paired difference of two.

    Attributes
    ----------
    estimate : float
        The metric (or the difference) on the whole test set.
    low, high : float
        The interval of ``method``; ``confidence_interval()`` gives both.
    confidence : float
        The level asked for.
    method : {"bca", "percentile"}
        The interval's method.
    metric : {"error", "accuracy", "auc"}
        The metric.
    n : int
        The test-set size.
    n_resamples : int
        The resamples used (those with a defined metric).
    se : float
        The replicates' standard deviation.
    difference : bool
        Whether the metric is a paired difference A - B.
    bias_correction, acceleration : float
        BCa's z0 and a.
    percentiles : tuple of float
        The percentile levels of ``method``'s ends.
    seed : int
        The resampling's seed.
    n_undefined : int
        AUC resamples lacking a class, left out.
    replicates : ndarray
        The metric on each resample.
    percentile_ends, bca_ends : tuple of float
        Both intervals, whatever ``method``.
    """

    estimate: float
    low: float
    high: float
    confidence: float
    method: str
    metric: str
    n: int
    n_resamples: int
    se: float
    difference: bool = False
    bias_correction: float | None = field(default=None, repr=False)
    acceleration: float | None = field(default=None, repr=False)
    percentiles: tuple = field(default=(), repr=False)
    seed: int = field(default=0, repr=False)
    n_undefined: int = field(default=0, repr=False)
    replicates: np.ndarray | None = field(default=None, repr=False)
    percentile_ends: tuple = field(default=(), repr=False)
    bca_ends: tuple = field(default=(), repr=False)

    def _explain(self):
        name = {"error": "error rate", "accuracy": "accuracy", "auc": "AUC"}[self.metric]
        what = (rf"\text{{{self.metric}}}(A) - \text{{{self.metric}}}(B)" if self.difference
                else rf"\text{{{self.metric}}}")
        alpha = (1 - self.confidence) / 2
        formulas = [rf"\hat\theta^*_b = {what}\ \text{{on the }} b\text{{-th resample of the {self.n} test examples}}"
                    r"\ (b = 1, \ldots, B)"]
        steps = [rf"\hat\theta = {fmt(self.estimate)},\quad B = {self.n_resamples}\ \text{{(seed {self.seed})}},\quad "
                 rf"se^* = {fmt(self.se)}"]
        if self.method == "bca":
            formulas.append(r"\alpha_{1,2} = \Phi\!\left(\hat z_0 + \frac{\hat z_0 + z_{\alpha}}"
                            r"{1 - \hat a(\hat z_0 + z_{\alpha})}\right),\quad "
                            r"[L, U] = [\hat\theta^*_{(\alpha_1)},\ \hat\theta^*_{(\alpha_2)}]")
            steps.append(rf"\hat z_0 = {fmt(self.bias_correction)},\quad \hat a = {fmt(self.acceleration)},\quad "
                         rf"\alpha = {fmt(alpha)}:\ \alpha_1 = {fmt(self.percentiles[0])},\ "
                         rf"\alpha_2 = {fmt(self.percentiles[1])}")
        else:
            formulas.append(r"[L, U] = [\hat\theta^*_{(\alpha)},\ \hat\theta^*_{(1-\alpha)}]")
            steps.append(rf"\alpha = {fmt(alpha)}")
        steps.append(rf"{tex_pct(self.confidence)}\ \text{{interval}}:\ [{fmt(self.low)},\ {fmt(self.high)}]")
        label = {"bca": "BCa", "percentile": "percentile"}[self.method]
        title = f"{pct(self.confidence)} {label} bootstrap interval for the " + (
            f"difference of {name}s" if self.difference else name)
        if self.difference:
            if self.low > 0 or self.high < 0:
                tail = ("; it excludes 0, so the two classifiers' test-set " + name
                        + f"s differ significantly at about the {pct(1 - self.confidence)} level")
            else:
                tail = ("; it includes 0, so the data do not rule out equal " + name
                        + f"s, and allow differences from {plain(self.low)} to {plain(self.high)}")
            verdict = (f"The {name} of A minus that of B is {plain(self.estimate)}, with {label} interval "
                       f"[{plain(self.low)}, {plain(self.high)}]{tail} (a bootstrap interval covers the true "
                       f"value in about {pct(self.confidence)} of test sets, approximately).")
        else:
            verdict = (f"The {name} is {plain(self.estimate)} with {label} interval [{plain(self.low)}, "
                       f"{plain(self.high)}]: intervals built this way cover the true {name} in about "
                       f"{pct(self.confidence)} of test sets (an approximation that improves with n).")
        if self.n_undefined:
            verdict += (f" ({self.n_undefined} resamples lacked one class, so their AUC is undefined; "
                        "they were left out.)")
        return Explanation(title, formulas, steps, verdict)

    @draws("randomization", "bootstrap_interval")
    def plot(self, ax=None):
        """Draw the bootstrap distribution with both intervals' ends and the observed value.

        The replicates as a histogram (a bar per distinct value when there are few), the
        percentile interval's ends (dashed) and the BCa interval's ends (solid), whichever
        method the result used, and above them the result's interval and the metric on
        the whole test set.

        References
        ----------
        Efron & Tibshirani (1993), *An Introduction to the Bootstrap*, ch. 13-14.

        Examples
        --------
        >>> bootstrap_interval([0, 1] * 50, [0, 1] * 40 + [1, 0] * 10).plot()  # doctest: +SKIP
        """


def bootstrap_interval(y_true, predictions, *, metric="error", predictions_b=None, confidence=0.95,
                       method="bca", n_resamples=2000, seed=0):
    """Bootstrap confidence interval for a metric measured on one test set.

    The test examples are resampled with replacement ``n_resamples`` times (all at once,
    no loop over resamples); the metric is recomputed on each resample. With
    ``predictions_b`` the statistic is the paired difference ``metric(A) - metric(B)``,
    both computed on the same resample.

    Parameters
    ----------
    y_true : array
        True class labels; for ``metric="auc"`` coded 0/1 with at least two of each.
    predictions : array
        Predicted labels of classifier A ("error", "accuracy") or its scores ("auc").
    metric : {"error", "accuracy", "auc"}
    predictions_b : array, optional
        Classifier B's labels or scores on the same examples.
    confidence : float
        Level of the interval.
    method : {"bca", "percentile"}
        BCa (bias-corrected and accelerated; acceleration from the jackknife) or the
        plain percentile interval.
    n_resamples : int
        Bootstrap resamples B.
    seed : int
        Seed of the resampling.

    Returns
    -------
    BootstrapInterval
        ``estimate`` (the metric or difference on the whole test set), ``low``, ``high``,
        ``confidence``, ``method``, ``metric``, ``n``, ``n_resamples``, ``se`` (standard
        deviation of the replicates), ``difference``, BCa's ``bias_correction`` z0 and
        ``acceleration`` a, the ``percentiles`` (alpha_1, alpha_2) the method used, ``seed``,
        ``n_undefined`` (AUC resamples lacking a class, left out), the ``replicates``, and
        both intervals whatever the method: ``percentile_ends`` and ``bca_ends``.

    Notes
    -----
    Follows :func:`scipy.stats.bootstrap` (``paired=True``): z0 counts ties half, the
    jackknife leaves out one example, percentiles interpolate linearly. Where every
    replicate lies on one side of the estimate, z0 is clipped to the most extreme
    level the replicates can resolve instead of becoming infinite.

    References
    ----------
    Efron (1987), "Better bootstrap confidence intervals", JASA 82; Efron & Tibshirani
    (1993), *An Introduction to the Bootstrap*, ch. 13-14.

    Examples
    --------
    >>> y = [0, 1] * 50
    >>> pred = [0, 1] * 40 + [1, 0] * 10
    >>> r = bootstrap_interval(y, pred, metric="error")
    >>> r.estimate, r.low < 0.2 < r.high
    (0.2, True)
    """
    metric = v.choice("metric", metric, METRICS)
    conf = v.confidence("confidence", confidence)
    method = v.choice("method", method, BOOTSTRAP_METHODS)
    n_resamples = v.integer("n_resamples", n_resamples, low=10)
    seed = v.integer("seed", seed, low=0)
    if metric == "auc":
        y = v.binary_labels("y_true", y_true)
        if min(np.sum(y), np.sum(1 - y)) < 2:
            raise ValueError(f"y_true must hold at least 2 examples of each class for metric='auc', "
                             f"got {int(np.sum(y))} positives and {int(np.sum(1 - y))} negatives")
    else:
        y = _labels("y_true", y_true)
    given = {"y_true": y, "predictions": _predictions("predictions", metric, predictions)}
    if predictions_b is not None:
        given["predictions_b"] = _predictions("predictions_b", metric, predictions_b)
    for name, arr in given.items():
        if arr.ndim != 1:
            raise ValueError(f"{name} must be 1-dimensional, got shape {arr.shape}")
    v.same_length(**given)
    measures = [_Metric(metric, y, given[name]) for name in ("predictions", "predictions_b") if name in given]

    def combine(parts):
        return parts[0] - parts[1] if len(parts) == 2 else parts[0]

    n = y.size
    draws = np.random.default_rng(seed).integers(0, n, size=(n_resamples, n))
    replicates = combine([m.replicates(draws) for m in measures])
    defined = np.isfinite(replicates)
    replicates = replicates[defined]
    if replicates.size < 10:
        raise ValueError(f"y_true has too few examples of a class: only {replicates.size} of {n_resamples} "
                         f"resamples contain both classes")
    estimate = combine([m.value() for m in measures])
    alpha = (1 - conf) / 2
    # both intervals, so the picture can show them side by side; the method chooses low and high
    bca, z0, acceleration = bca_levels(replicates, estimate, combine([m.jackknife() for m in measures]), alpha)
    plain_levels = np.array([alpha, 1 - alpha])
    ends = {name: tuple(float(x) for x in np.percentile(replicates, 100 * levels))
            for name, levels in (("bca", bca), ("percentile", plain_levels))}
    levels = bca if method == "bca" else plain_levels
    low, high = ends[method]
    return BootstrapInterval(
        estimate=float(estimate), low=low, high=high, confidence=conf, method=method, metric=metric, n=int(n),
        n_resamples=int(replicates.size), se=float(replicates.std(ddof=1)), difference=len(measures) == 2,
        bias_correction=z0, acceleration=acceleration, percentiles=tuple(float(x) for x in levels), seed=seed,
        n_undefined=int(np.sum(~defined)), replicates=replicates, percentile_ends=ends["percentile"],
        bca_ends=ends["bca"])
