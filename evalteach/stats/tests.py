"""Significance tests for comparing two hypotheses or two learning algorithms.

Two hypotheses on independent test sets: :func:`compare_hypotheses` (z test, Mitchell
ch. 5). Two learners on the same folds: :func:`paired_t_test`, :func:`paired_z_test`,
:func:`corrected_resampled_t_test` (Nadeau & Bengio 2003), the 5x2cv t and F tests
(Dietterich 1998; Alpaydin 1999). Two classifiers on one test set: McNemar's test.
Counts of wins: :func:`binomial_test` and :func:`sign_test` (Demsar 2006).

The z and paired tests broadcast: arrays of error rates, or many experiments stacked
with the pairs along ``axis``, give arrays in the result fields (as
:func:`scipy.stats.ttest_rel` does), so the simulations can run 10^5 tests at once.

Conventions
-----------
* A statistic whose denominator is zero (no variability) is ``±inf`` with p-value 0 when
  the numerator is not zero (e.g. five folds that all differ by exactly 5%), and ``0`` with
  p-value 1 when the numerator is zero too: with no observed difference there is nothing to reject.
  Such a test is degenerate, and the verdict says so.
* A one-sided test's direction is the ``alternative`` chosen before looking at the data;
  no verdict picks a direction because the data happened to show it.
* ``confidence`` in every result is the requested level, used for ``low``/``high`` and
  the verdict; the exact levels a result reaches are ``1 - p_value`` and, for the z test,
  ``two_sided_confidence``, ``one_sided_confidence`` and the classic ``table_confidence``.
"""
from __future__ import annotations

from dataclasses import field
from functools import lru_cache

import numpy as np
from scipy import stats as _st

from .. import _validate as v
from .._format import decimal, fmt, interval_text, interval_words, p_text, pct, plain, tex_interval, tex_pct
from .._result import Explanation, Result, WithInterval, WithPValue, draws, result
from .intervals import TABLE_LEVELS, TABLE_LEVELS_ONE_SIDED, TABLE_Z, t_critical, table_level, z_critical

__all__ = [
    "compare_hypotheses", "HypothesisComparison",
    "paired_t_test", "paired_z_test", "corrected_resampled_t_test", "PairedTest",
    "unpaired_t_test", "UnpairedTest", "one_sample_t_test", "OneSampleTest",
    "five_by_two_cv_t_test", "five_by_two_cv_f_test", "FiveByTwoTest",
    "mcnemar_table", "mcnemar_test", "McNemarTest",
    "binomial_test", "BinomialTest", "sign_test", "SignTest",
]

ALTERNATIVES = ("two-sided", "greater", "less")


# --- shared arithmetic -----------------------------------------------------------------

def _scalar(x):
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def _ratio(num, den):
    """num / den with 0/0 -> 0 and x/0 -> ±inf, silently (see module conventions)."""
    num, den = np.broadcast_arrays(np.asarray(num, dtype=float), np.asarray(den, dtype=float))
    out = np.where(num == 0, 0.0, np.copysign(np.inf, num))
    np.divide(num, den, out=out, where=den != 0)
    return _scalar(out)


@lru_cache(maxsize=64)
def _student_t(df):
    """Student's t distribution with ``df`` degrees of freedom, frozen once: freezing a
    scipy distribution costs milliseconds, more than the tests of a batch of thousands."""
    return _st.t(df)


def _p_value(statistic, alternative, dist):
    """p-value of a statistic with a symmetric null distribution ``dist``."""
    if alternative == "two-sided":
        return _scalar(np.minimum(1.0, 2 * dist.sf(np.abs(statistic))))
    return _scalar(dist.sf(statistic if alternative == "greater" else -np.asarray(statistic)))


def _is_batch(x):
    return isinstance(x, np.ndarray) and x.ndim > 0


def _batch_verdict(p_value, confidence, what):
    p = np.asarray(p_value)
    share = float(np.mean(p < 1 - confidence))
    return (f"A batch of {p.size} {what}: {pct(share)} of them are significant at the "
            f"{pct(1 - confidence)} level.")


def _check_alternative(alternative):
    return v.choice("alternative", alternative, ALTERNATIVES)


def _broadcast(**arrays):
    try:
        return np.broadcast_arrays(*arrays.values())
    except ValueError:
        shapes = ", ".join(f"{k} has shape {np.shape(a)}" for k, a in arrays.items())
        raise ValueError(f"arguments must broadcast together: {shapes}") from None


# --- two hypotheses on independent test sets -------------------------------------------

@result
class HypothesisComparison(WithPValue, WithInterval, Result):
    """z test for the difference of two error rates measured on independent test sets.

    Attributes
    ----------
    difference : float or ndarray
        ``error1 - error2``.
    se : float or ndarray
        Its estimated standard deviation ``sigma_d``.
    statistic : float or ndarray
        z, the difference over its standard deviation.
    p_value : float or ndarray
        The p-value for ``alternative``; ``pvalue`` is the same, under scipy's name.
    one_sided_p_value : float or ndarray
        The smaller one-sided p-value (valid only for a direction fixed in advance).
    low, high : float or ndarray
        The interval for the true difference (half-infinite for a one-sided alternative).
    confidence : float
        The level asked for, of the interval and the verdict.
    two_sided_confidence, one_sided_confidence : float or ndarray
        The exact levels z reaches, ``1 - p`` and ``1 - p / 2``.
    table_confidence, table_one_sided_confidence : float or ndarray
        The highest level of the classic z table that ``|z|`` reaches, two- and one-sided.
    error1, n1, error2, n2 : float or ndarray
        The two error rates and test-set sizes.
    alternative : {"two-sided", "less", "greater"}
        The alternative hypothesis, fixed in advance.
    """

    difference: float
    se: float
    statistic: float
    p_value: float
    one_sided_p_value: float
    low: float
    high: float
    confidence: float
    two_sided_confidence: float = field(repr=False)
    one_sided_confidence: float
    table_confidence: float
    table_one_sided_confidence: float = field(repr=False)
    error1: float = field(repr=False)
    n1: int = field(repr=False)
    error2: float = field(repr=False)
    n2: int = field(repr=False)
    alternative: str = "two-sided"

    def _explain(self):
        title = "z test for the difference of two hypotheses' errors"
        formulas = [r"\hat d = error_{S_1}(h_1) - error_{S_2}(h_2)",
                    r"\sigma_{\hat d} = \sqrt{\frac{e_1(1-e_1)}{n_1} + \frac{e_2(1-e_2)}{n_2}},"
                    r"\qquad z = \frac{\hat d}{\sigma_{\hat d}}"]
        if _is_batch(self.statistic):
            return Explanation(title, formulas, [], _batch_verdict(self.p_value, self.confidence, "z tests"))
        e1, e2, n1, n2 = self.error1, self.error2, self.n1, self.n2
        steps = [
            rf"\hat d = {fmt(e1)} - {fmt(e2)} = {fmt(self.difference)}",
            rf"\sigma_{{\hat d}} = \sqrt{{\frac{{{fmt(e1)}(1-{fmt(e1)})}}{{{n1}}} + "
            rf"\frac{{{fmt(e2)}(1-{fmt(e2)})}}{{{n2}}}}} = {fmt(self.se)}",
            rf"z = \frac{{{fmt(self.difference)}}}{{{fmt(self.se)}}} = {fmt(self.statistic)},\qquad "
            + (rf"p_{{two}} = {fmt(self.p_value)}" if self.alternative == "two-sided"
               else rf"p_{{one}} = {fmt(self.p_value)}\ (H_1: d {'<' if self.alternative == 'less' else '>'} 0)"),
            rf"{tex_pct(self.confidence)}\ \text{{interval for }} d:\ "
            rf"[{decimal(self.low, fmt, 4)},\ {decimal(self.high, fmt, 4)}]",
        ]
        return Explanation(title, formulas, steps, self._verdict())

    def _verdict(self):
        z = plain(abs(self.statistic), 4)
        prefix, row, level = "", "two-sided", self.table_confidence
        if self.alternative != "two-sided":
            lower = "h1's" if self.alternative == "less" else "h2's"
            prefix = f"For the direction fixed in advance (H1: {lower} error is lower), "
            row, level = "one-sided", self.table_one_sided_confidence
        # The table's columns are two-sided levels; a one-sided level is a column read through
        # C' = 100 - (100 - C)/2, as the slides do it.
        if level == 0:
            reach = f"|z| = {z} is below {TABLE_Z[0]:.2f}, the table's first (50%) column"
        else:
            levels = TABLE_LEVELS if row == "two-sided" else TABLE_LEVELS_ONE_SIDED
            column = levels.index(round(float(level), 3))
            printed, two = TABLE_Z[column], TABLE_LEVELS[column]
            where = (f"the table's {pct(two)} column" if row == "two-sided" else
                     f"the table's {pct(two)} column (one-sided: C' = 100 - (100 - {pct(two)[:-1]})/2 = {pct(level)})")
            reach = f"|z| = {z} reaches {printed:.2f}, {where}"
            exact = z_critical(level, "two" if row == "two-sided" else "one")
            if abs(self.statistic) < exact:  # reached only through the table's rounding
                reach = f"|z| = {z} reaches the printed {printed:.2f} of {where}, but not the exact {exact:.4f}"
        if self.alternative != "two-sided" and np.sign(self.difference) != (-1 if self.alternative == "less" else 1):
            reach = f"z = {plain(self.statistic, 4)} points the other way"
        significant = self.p_value < 1 - self.confidence
        side = "two-sided" if self.alternative == "two-sided" else "one-sided"
        interval = interval_text(self.low, self.high, self.confidence, "it", number=decimal)
        head = f"{prefix}{reach}; at the {pct(1 - self.confidence)} level the difference error1 - error2 = {plain(self.difference)} is "
        if _borderline(self.p_value, 1 - self.confidence):
            # TEACHING: an approximate p of 0.0501 is "about 0.05"; no verdict hangs on its 4th decimal
            verdict = (f"{head}borderline ({side}, {p_text(self.p_value)}, about {plain(1 - self.confidence)}): "
                       f"the normal approximation cannot decide at the fourth decimal, and {interval} shows "
                       "the values the data allow.")
        else:
            verdict = _with_interval(f"{head}{'significant' if significant else 'not significant'} "
                                     f"({side}, {p_text(self.p_value)})", significant, interval, "equal errors")
        return (f"{verdict} The test assumes two independent test sets of independently drawn examples, "
                "neither used to build either hypothesis.")

    @draws("tests", "hypothesis_comparison")
    def plot(self, ax=None):
        """Draw the difference on its distribution under the null hypothesis.

        The normal curve ``N(0, sigma_d)`` that d-hat follows if the true errors are equal,
        the share at least as extreme as the observed difference shaded (both tails for a
        two-sided test, the tail of the alternative fixed in advance for a one-sided one:
        its area is ``p_value``), the observed difference, and above them the interval for
        the true difference.

        References
        ----------
        Mitchell (1997), *Machine Learning*, section 5.5.

        Examples
        --------
        >>> compare_hypotheses(0.20, 100, 0.30, 100).plot()  # doctest: +SKIP
        """


def _borderline(p, alpha):
    """Whether an approximate p equals alpha to three decimals (0.0495 <= p < 0.0505 for 0.05)."""
    return abs(p - alpha) < 0.0005


def _with_interval(head, significant, interval, null_words):
    """Finish a verdict: the interval beside the test, and what "not significant" means."""
    if significant:
        return f"{head}, with {interval}."
    return f"{head}: the data do not rule out {null_words}, and {interval} shows the values they allow."


def compare_hypotheses(error1, n1, error2, n2, confidence=0.95, alternative="two-sided"):
    """Is hypothesis h1's error different from h2's? (z test, independent test sets).

    Parameters
    ----------
    error1, error2 : float or array
        Sample error rates in [0, 1].
    n1, n2 : int or array
        Sizes of the two independent test sets (>= 1; the normal approximation wants >= 30).
    confidence : float
        Level of the interval ``low``/``high`` for the true difference and of the verdict.
    alternative : {"two-sided", "less", "greater"}
        H1: error1 - error2 is != 0, < 0 (h1 is better) or > 0, fixed before looking at
        the data. One-sided alternatives give a one-sided ``p_value`` and a half-infinite
        interval.

    Returns
    -------
    HypothesisComparison
        ``difference`` (error1 - error2), ``se``, ``statistic`` (z), ``p_value`` (for
        ``alternative``), ``one_sided_p_value`` (the smaller one-sided p-value, the one the
        slides read off the table: valid only for a direction fixed in advance), ``low``, ``high``,
        ``confidence`` (the requested level), the exact levels reached
        ``two_sided_confidence`` (= 1 - p) and ``one_sided_confidence`` (= 1 - p/2),
        and the slides' table look-up ``table_confidence`` / ``table_one_sided_confidence``
        (the one-sided level, a column converted by C' = 100 - (100 - C)/2, holds only for a
        direction fixed in advance), and ``alternative``.
        Array input gives array fields.

    References
    ----------
    Mitchell, *Machine Learning*, ch. 5.5; Mooney's worked examples.

    Examples
    --------
    >>> r = compare_hypotheses(0.20, 100, 0.30, 100)
    >>> round(r.statistic, 3), r.table_confidence, r.table_one_sided_confidence
    (-1.644, 0.9, 0.95)
    """
    c = v.confidence("confidence", confidence)
    _check_alternative(alternative)
    e1, e2 = v.fractions("error1", error1), v.fractions("error2", error2)
    n1, n2 = v.counts("n1", n1, 1), v.counts("n2", n2, 1)
    _broadcast(error1=e1, n1=n1, error2=e2, n2=n2)
    d = _scalar(np.subtract(e1, e2))
    se = _scalar(np.sqrt(np.multiply(e1, np.subtract(1, e1)) / n1 + np.multiply(e2, np.subtract(1, e2)) / n2))
    z = _ratio(d, se)
    two = _p_value(z, "two-sided", _st.norm)
    p1 = _scalar(_st.norm.sf(np.abs(z)))
    low, high = _bounds_for(d, se, z_critical(c, "two" if alternative == "two-sided" else "one"), alternative)
    return HypothesisComparison(
        difference=d, se=se, statistic=z, p_value=_p_value(z, alternative, _st.norm), one_sided_p_value=p1,
        low=low, high=high, confidence=c,
        two_sided_confidence=_scalar(1 - np.asarray(two)), one_sided_confidence=_scalar(1 - np.asarray(p1)),
        table_confidence=table_level(np.abs(z), "two"),
        table_one_sided_confidence=table_level(np.abs(z), "one"),
        error1=e1, n1=n1, error2=e2, n2=n2, alternative=alternative,
    )


def _bounds_for(estimate, se, critical, alternative):
    """estimate ± critical x se, half-infinite for a one-sided alternative."""
    low = estimate - critical * se if alternative != "less" else np.full_like(np.asarray(estimate, float), -np.inf)
    high = estimate + critical * se if alternative != "greater" else np.full_like(np.asarray(estimate, float), np.inf)
    return _scalar(low), _scalar(high)


# --- paired tests over folds -----------------------------------------------------------

@result
class PairedTest(WithPValue, WithInterval, Result):
    """A paired test on per-fold differences (t, z, or corrected resampled t).

    Attributes
    ----------
    mean_difference : float or ndarray
        The mean of the differences ``a - b``.
    se : float or ndarray
        Its standard error (with Nadeau and Bengio's correction for the corrected test).
    statistic : float or ndarray
        t (or z), the mean difference over its standard error.
    df : int or None
        The t distribution's degrees of freedom, ``k - 1``; None for the z test.
    p_value : float or ndarray
        The p-value for ``alternative``; ``pvalue`` is the same.
    low, high : float or ndarray
        The interval for the mean difference (half-infinite one-sided); ``confidence_interval()``.
    confidence : float
        The level asked for.
    alternative : {"two-sided", "greater", "less"}
        The alternative hypothesis.
    k : int
        The number of pairs.
    test : str
        "paired t-test", "paired z-test" or "corrected resampled t-test".
    test_train_ratio : float or None
        ``n_test / n_train`` of the corrected test; None otherwise.
    sd : float or ndarray
        The differences' standard deviation (``ddof=1``).
    differences : ndarray
        The differences ``a - b``, pairs along the last axis.
    """

    mean_difference: float
    se: float
    statistic: float
    df: int | None
    p_value: float
    low: float
    high: float
    confidence: float
    alternative: str
    k: int
    test: str = "paired t-test"
    test_train_ratio: float | None = field(default=None, repr=False)
    sd: float = field(default=0.0, repr=False)
    differences: np.ndarray | None = field(default=None, repr=False)

    def _explain(self):
        t_like = "z" if self.df is None else "t"
        correction = r"\frac{1}{k}" if self.test_train_ratio is None else r"\left(\frac{1}{k} + \frac{n_2}{n_1}\right)"
        crit = r"z_{N}" if self.df is None else r"t_{N,k-1}"
        formulas = [
            r"\delta_i = a_i - b_i,\qquad \bar\delta = \frac{1}{k}\sum_{i=1}^k \delta_i,\qquad "
            r"s^2 = \frac{1}{k-1}\sum_{i=1}^k (\delta_i - \bar\delta)^2",
            rf"s_{{\bar\delta}} = \sqrt{{{correction}\, s^2}},\qquad {t_like} = \frac{{\bar\delta}}{{s_{{\bar\delta}}}},"
            rf"\qquad \bar\delta \pm {crit}\, s_{{\bar\delta}}",
        ]
        title = self.test[0].upper() + self.test[1:]
        if _is_batch(self.statistic):
            return Explanation(title, formulas, [], _batch_verdict(self.p_value, self.confidence, "tests"))
        k = self.k
        factor = (rf"\frac{{1}}{{{k}}}" if self.test_train_ratio is None
                  else rf"\left(\frac{{1}}{{{k}}} + {fmt(self.test_train_ratio)}\right)")
        dist = "" if self.df is None else rf",\ df = {self.df}"
        steps = [
            rf"\bar\delta = {fmt(self.mean_difference)},\qquad s = {fmt(self.sd)},\qquad "
            rf"s_{{\bar\delta}} = \sqrt{{{factor} \times {fmt(self.sd)}^2}} = {fmt(self.se)}",
            rf"{t_like} = \frac{{{fmt(self.mean_difference)}}}{{{fmt(self.se)}}} = {fmt(self.statistic)}"
            rf"{dist},\qquad p = {fmt(self.p_value)}",
            rf"{tex_pct(self.confidence)}\ \text{{interval}}:\ {tex_interval(self.low, self.high)}",
        ]
        return Explanation(title, formulas, steps, self._verdict())

    def _verdict(self):
        return _t_verdict(f"The mean difference a - b = {plain(self.mean_difference)}", "0", self.p_value,
                          self.confidence, self.alternative, self.sd == 0,
                          interval_text(self.low, self.high, self.confidence, "it"), "a zero mean difference")

    @draws("tests", "paired_test")
    def plot(self, ax=None, names=None):
        """Draw the paired differences and the statistic on its reference distribution.

        Left: each pair's difference a - b as a dot (a pair is a test set, a fold or a
        holdout; at most 12 pairs get a tick each, more get a few integer ticks), the zero
        line, and the mean difference with its interval. Right: Student's t with k - 1 df
        (the normal for the z test) with the observed statistic and the share at least as
        extreme shaded (its area is ``p_value``). An infinite statistic (no spread) is
        drawn at the edge.

        Parameters
        ----------
        names : pair of str, optional
            The learners a and b, for the axis and the legend ("tree − NB" for "a − b").

        References
        ----------
        Mitchell (1997), *Machine Learning*, section 5.6; Nadeau & Bengio (2003), Machine Learning 52.

        Examples
        --------
        >>> paired_t_test([8, 17, -5, 10, -5]).plot()  # doctest: +SKIP
        """


def _t_verdict(what, null_value, p_value, confidence, alternative, degenerate, interval, null_words):
    """One sentence for a t-like test: significance in the pre-set direction, with the interval."""
    significant = p_value < 1 - confidence
    claim = {"two-sided": "different from", "greater": "greater than", "less": "less than"}[alternative]
    side = "two-sided" if alternative == "two-sided" else "one-sided, direction fixed in advance"
    head = (f"{what} is {'significantly' if significant else 'not significantly'} {claim} {null_value} at the "
            f"{pct(1 - confidence)} level ({side}, {p_text(p_value)})")
    verdict = _with_interval(head, significant, interval, null_words)
    if degenerate:
        verdict += (" (The values do not vary, so s = 0 and the test is degenerate: its p-value reflects the "
                    "missing spread of this small sample, not strong evidence.)")
    return verdict


def _paired(d, confidence, alternative, *, normal=False, test_train_ratio=None, test="paired t-test"):
    c = v.confidence("confidence", confidence)
    _check_alternative(alternative)
    k = d.shape[-1]
    mean = d.mean(axis=-1)
    sd = d.std(axis=-1, ddof=1)
    # identical differences give a rounding-noise sd (0.87 - 0.82 vs 0.83 - 0.78): call it zero
    sd = np.where(sd <= 1e-12 * np.abs(d).max(axis=-1), 0.0, sd)
    se = sd * np.sqrt(1.0 / k + (test_train_ratio or 0.0))
    statistic = _ratio(mean, se)
    dist = _st.norm if normal else _student_t(k - 1)
    p = _p_value(statistic, alternative, dist)
    sided = "two" if alternative == "two-sided" else "one"
    crit = z_critical(c, sided) if normal else t_critical(c, k - 1, sided)
    low, high = _bounds_for(mean, se, crit, alternative)
    return PairedTest(
        mean_difference=_scalar(mean), se=_scalar(se), statistic=statistic, df=None if normal else k - 1,
        p_value=p, low=low, high=high, confidence=c, alternative=alternative,
        k=k, test=test, test_train_ratio=test_train_ratio, sd=_scalar(sd), differences=d,
    )


def paired_t_test(a, b=None, confidence=0.95, alternative="two-sided", axis=-1):
    """Paired t-test on per-fold results of two learners (Mitchell ch. 5.6; Student).

    Parameters
    ----------
    a, b : array
        Per-fold errors (or accuracies) of learners A and B on the same folds; omit ``b``
        when ``a`` already holds the differences. Pairs run along ``axis``; extra axes are
        a batch of independent tests.
    confidence : float
        Level of the interval for the mean difference and of the verdict.
    alternative : {"two-sided", "greater", "less"}
        H1: mean of a - b is != 0, > 0 or < 0 (one-sided intervals are then half-infinite).

    Returns
    -------
    PairedTest
        ``mean_difference, se, statistic, df, p_value, low, high, confidence,
        alternative, k`` (``k`` pairs, ``df = k - 1``). With zero spread the statistic
        is ``±inf`` (p = 0), or 0 (p = 1) if all differences are zero.

    Examples
    --------
    >>> r = paired_t_test([8, 17, -5, 10, -5])      # Mooney, experiment 2 (in %)
    >>> round(r.statistic, 3), r.df
    (1.15, 4)
    """
    return _paired(v.differences(a, b, axis), confidence, alternative)


def paired_z_test(a, b=None, confidence=0.95, alternative="two-sided", axis=-1):
    """The paired test with normal instead of t critical values (df is None).

    Identical to :func:`paired_t_test` except for the reference distribution; it
    overstates significance for small ``k`` and is here to show why t is right.

    Examples
    --------
    >>> r = paired_z_test([8, 17, -5, 10, -5])
    >>> r.df is None, r.p_value < paired_t_test([8, 17, -5, 10, -5]).p_value
    (True, True)
    """
    return _paired(v.differences(a, b, axis), confidence, alternative, normal=True, test="paired z-test")


def corrected_resampled_t_test(a, b=None, test_train_ratio=None, confidence=0.95,
                               alternative="two-sided", axis=-1):
    """Nadeau & Bengio's corrected resampled t-test for repeated train/test splits.

    The k = J differences come from overlapping training sets, so the usual variance
    ``s^2 / J`` is too small; the correction uses ``s^2 (1/J + n_test/n_train)``.

    Parameters
    ----------
    a, b : array
        Per-split results of the two learners (``b`` may be omitted, as in
        :func:`paired_t_test`).
    test_train_ratio : float
        ``n_test / n_train`` of each split (e.g. 0.5 for a 1/3 : 2/3 holdout).

    References
    ----------
    Nadeau & Bengio (2003), "Inference for the generalization error", Machine Learning 52.

    Examples
    --------
    >>> r = corrected_resampled_t_test([0.02, 0.03, 0.01, 0.04], test_train_ratio=0.25)
    >>> r.df
    3
    """
    if test_train_ratio is None:
        raise TypeError("test_train_ratio must be a number such as 0.25 (n_test / n_train), got None")
    ratio = v.real("test_train_ratio", test_train_ratio, low=0.0)
    return _paired(v.differences(a, b, axis), confidence, alternative, test_train_ratio=ratio,
                   test="corrected resampled t-test")


# --- unpaired and one-sample t-tests ---------------------------------------------------

DF_METHODS = ("welch", "conservative")


def _sample(name, value):
    x = v.array(name, value, min_size=2)
    return x


def _spread(x):
    """Sample variance, with rounding noise of identical values called zero."""
    var = float(x.var(ddof=1))
    return 0.0 if var <= (1e-12 * float(np.abs(x).max())) ** 2 else var


@result
class UnpairedTest(WithPValue, WithInterval, Result):
    """Unpaired t-test on results from two independent sets of experiments.

    Attributes
    ----------
    difference : float
        ``mean(a) - mean(b)``.
    se : float
        Its standard error ``sqrt(s_a^2 / k + s_b^2 / j)``.
    statistic : float
        t.
    df : float
        Welch's degrees of freedom, or ``min(k, j) - 1``.
    p_value : float
        The p-value for ``alternative``; ``pvalue`` is the same.
    low, high : float
        The interval for the difference of the expected values; ``confidence_interval()``.
    confidence : float
        The level asked for.
    alternative : {"two-sided", "greater", "less"}
        The alternative hypothesis.
    df_method : {"welch", "conservative"}
        How ``df`` was found.
    k, j : int
        The two sample sizes.
    mean_a, mean_b, var_a, var_b : float
        The two samples' means and variances.
    """

    difference: float
    se: float
    statistic: float
    df: float
    p_value: float
    low: float
    high: float
    confidence: float
    alternative: str
    df_method: str
    k: int
    j: int
    mean_a: float = field(repr=False, default=0.0)
    mean_b: float = field(repr=False, default=0.0)
    var_a: float = field(repr=False, default=0.0)
    var_b: float = field(repr=False, default=0.0)

    def _explain(self):
        formulas = [r"t = \frac{\bar a - \bar b}{\sqrt{\frac{s_a^2}{k} + \frac{s_b^2}{j}}}",
                    r"df = \min(k, j) - 1" if self.df_method == "conservative" else
                    r"df = \frac{\left(\frac{s_a^2}{k} + \frac{s_b^2}{j}\right)^2}"
                    r"{\frac{(s_a^2/k)^2}{k-1} + \frac{(s_b^2/j)^2}{j-1}}"]
        k, j = self.k, self.j
        steps = [rf"\bar a = {fmt(self.mean_a)},\ s_a^2 = {fmt(self.var_a)},\ k = {k};\quad "
                 rf"\bar b = {fmt(self.mean_b)},\ s_b^2 = {fmt(self.var_b)},\ j = {j}",
                 rf"t = \frac{{{fmt(self.difference)}}}{{\sqrt{{\frac{{{fmt(self.var_a)}}}{{{k}}} + "
                 rf"\frac{{{fmt(self.var_b)}}}{{{j}}}}}}} = \frac{{{fmt(self.difference)}}}{{{fmt(self.se)}}} = "
                 rf"{fmt(self.statistic)},\quad df = {fmt(self.df)},\quad p = {fmt(self.p_value)}",
                 rf"{tex_pct(self.confidence)}\ \text{{interval}}:\ {tex_interval(self.low, self.high)}"]
        title = f"Unpaired t-test ({'conservative' if self.df_method == 'conservative' else 'Welch'} df)"
        verdict = _t_verdict(f"The difference of means a - b = {plain(self.difference)}", "0", self.p_value,
                             self.confidence, self.alternative, self.se == 0,
                             interval_text(self.low, self.high, self.confidence, "it"),
                             "equal expected values")
        return Explanation(title, formulas, steps, verdict)


def unpaired_t_test(a, b, confidence=0.95, df="welch", alternative="two-sided"):
    """Unpaired t-test: two learners' estimates from different randomisations.

    When the ``k`` results of A and the ``j`` results of B do not come in pairs (different
    cross-validation splits, or different numbers of runs), their difference of means is
    tested against the sum of the two variances of the means.

    Parameters
    ----------
    a, b : array
        The k estimates of learner A and the j estimates of learner B (k, j >= 2).
    confidence : float
        Level of the interval for the difference of means and of the verdict.
    df : {"welch", "conservative"}
        Welch-Satterthwaite degrees of freedom, or Witten & Frank's conservative
        ``min(k, j) - 1``.
    alternative : {"two-sided", "greater", "less"}
        H1: the expected value of A is != , > or < that of B (fixed in advance).

    Returns
    -------
    UnpairedTest
        ``difference`` (mean(a) - mean(b)), ``se``, ``statistic`` (t), ``df``, ``p_value``,
        ``low``, ``high``, ``confidence``, ``alternative``, ``df_method``, ``k``, ``j``, and
        the two means and variances.

    Notes
    -----
    Use it only when the results really are unpaired: on the same folds, the paired
    t-test removes the data set's own variation and is more powerful.

    References
    ----------
    Witten, Frank & Hall, *Data Mining*, section 5.5 ("unpaired observations"); Welch (1947),
    Biometrika 34.

    Examples
    --------
    >>> r = unpaired_t_test([0.20, 0.22, 0.25, 0.21, 0.19], [0.26, 0.24, 0.29, 0.27])
    >>> round(r.statistic, 3), round(r.df, 2)
    (-3.484, 6.84)
    """
    x, y = _sample("a", a), _sample("b", b)
    c = v.confidence("confidence", confidence)
    method = v.choice("df", df, DF_METHODS)
    _check_alternative(alternative)
    k, j = x.size, y.size
    va, vb = _spread(x) / k, _spread(y) / j
    se = float(np.sqrt(va + vb))
    d = float(x.mean() - y.mean())
    if method == "conservative":
        dof = float(min(k, j) - 1)
    elif va + vb == 0:
        dof = float(k + j - 2)  # Welch's formula is 0/0 here; any df gives the same degenerate test
    else:
        dof = (va + vb) ** 2 / (va ** 2 / (k - 1) + vb ** 2 / (j - 1))
    statistic = _ratio(d, se)
    sided = "two" if alternative == "two-sided" else "one"
    low, high = _bounds_for(d, se, t_critical(c, dof, sided), alternative)
    return UnpairedTest(d, se, statistic, dof, _p_value(statistic, alternative, _st.t(dof)), low, high, c,
                        alternative, method, k, j, float(x.mean()), float(y.mean()), va * k, vb * j)


@result
class OneSampleTest(WithPValue, WithInterval, Result):
    """One-sample t-test of the mean of K fold errors against a fixed rate ``p0``.

    Attributes
    ----------
    mean : float
        The mean fold error m.
    p0 : float
        The error rate tested against.
    sd : float
        The fold errors' standard deviation S.
    statistic : float
        t.
    df : int
        ``K - 1``.
    p_value : float
        The p-value for ``alternative``; ``pvalue`` is the same.
    low, high : float
        The interval for the expected error (half-infinite one-sided); ``confidence_interval()``.
    confidence : float
        The level asked for.
    alternative : {"greater", "less", "two-sided"}
        The alternative hypothesis.
    k : int
        The number of folds K.
    """

    mean: float
    p0: float
    sd: float
    statistic: float
    df: int
    p_value: float
    low: float
    high: float
    confidence: float
    alternative: str
    k: int

    def _explain(self):
        formulas = [r"m = \frac1K\sum_{i=1}^K p_i,\quad S^2 = \frac{1}{K-1}\sum_{i=1}^K (p_i - m)^2,\qquad "
                    r"t = \frac{\sqrt{K}\,(m - p_0)}{S} \sim t_{K-1}"]
        steps = [rf"m = {fmt(self.mean)},\quad S = {fmt(self.sd)},\quad K = {self.k}",
                 rf"t = \frac{{\sqrt{{{self.k}}}\,({fmt(self.mean)} - {fmt(self.p0)})}}{{{fmt(self.sd)}}} = "
                 rf"{fmt(self.statistic)},\quad df = {self.df},\quad p = {fmt(self.p_value)}",
                 rf"{tex_pct(self.confidence)}\ \text{{interval for the expected error}}:\ "
                 rf"{tex_interval(self.low, self.high)}"]
        verdict = _t_verdict(f"The mean fold error m = {plain(self.mean)}", f"p0 = {plain(self.p0)}",
                             self.p_value, self.confidence, self.alternative, self.sd == 0,
                             interval_text(self.low, self.high, self.confidence, "the expected error"),
                             f"an expected error of {plain(self.p0)}")
        return Explanation("One-sample t-test of an error rate (Alpaydın)", formulas, steps, verdict)


def one_sample_t_test(errors, p0, confidence=0.95, alternative="greater"):
    """Is the expected error above ``p0``? Alpaydın's t-test on K fold errors.

    Parameters
    ----------
    errors : array
        The error rates ``p_i`` of K >= 2 folds (or runs).
    p0 : float
        The error rate to test against, in [0, 1].
    confidence : float
        Level of the interval for the expected error and of the verdict.
    alternative : {"greater", "less", "two-sided"}
        H1: the expected error is > p0 (Alpaydın's "H1: p > p0", the default), < p0,
        or != p0. Fix it before looking at the data.

    Returns
    -------
    OneSampleTest
        ``mean`` m, ``p0``, ``sd`` S, ``statistic`` t, ``df = K - 1``, ``p_value``, ``low``,
        ``high`` (half-infinite for one-sided alternatives), ``confidence``, ``alternative``,
        ``k``.

    Notes
    -----
    The test treats the K fold errors as independent and roughly normal. Folds of one
    cross-validation share training data, so they are not independent, and the test is
    then optimistic.

    References
    ----------
    Alpaydın, *Introduction to Machine Learning*, ch. 19 ("assessing error: H0: p <= p0
    vs. H1: p > p0", the t test over K training/validation sets).

    Examples
    --------
    >>> r = one_sample_t_test([0.12, 0.15, 0.10, 0.14, 0.13, 0.16, 0.11, 0.12, 0.15, 0.12], p0=0.10)
    >>> round(r.statistic, 3), r.df
    (4.881, 9)
    """
    x = _sample("errors", errors)
    if np.any((x < 0) | (x > 1)):
        raise ValueError(f"errors must be error rates in [0, 1], got {v.show(x.tolist())}")
    p0 = v.probability("p0", p0)
    c = v.confidence("confidence", confidence)
    _check_alternative(alternative)
    k = x.size
    mean, sd = float(x.mean()), float(np.sqrt(_spread(x)))
    se = sd / np.sqrt(k)
    statistic = _ratio(mean - p0, se)
    sided = "two" if alternative == "two-sided" else "one"
    low, high = _bounds_for(mean, se, t_critical(c, k - 1, sided), alternative)
    return OneSampleTest(mean, p0, sd, statistic, k - 1, _p_value(statistic, alternative, _student_t(k - 1)), low, high,
                         c, alternative, k)


# --- 5x2 cross-validation --------------------------------------------------------------

@result
class FiveByTwoTest(WithPValue, Result):
    """Dietterich's 5x2cv paired t-test or Alpaydin's combined 5x2cv F-test.

    Attributes
    ----------
    statistic : float or ndarray
        t (Dietterich) or F (Alpaydin).
    df : int or tuple
        5 for the t-test, (10, 5) for the F-test.
    p_value : float or ndarray
        The p-value; ``pvalue`` is the same.
    numerator : float or ndarray
        The t-test's ``p_1^(1)``, or the F-test's sum of the ten squared differences.
    variance_sum : float or ndarray
        The sum over the replications of ``s_i^2``.
    test : str
        "5x2cv paired t-test" or "5x2cv combined F-test".
    confidence : float
        The level of the verdict.
    alternative : str
        The t-test's alternative hypothesis (the F-test is two-sided).
    differences : ndarray, shape (..., 5, 2)
        The differences ``p_i^(j)``.
    """

    statistic: float
    df: object
    p_value: float
    numerator: float
    variance_sum: float
    test: str
    confidence: float = field(default=0.95, repr=False)
    alternative: str = field(default="two-sided", repr=False)
    differences: np.ndarray | None = field(default=None, repr=False)

    def _explain(self):
        is_t = self.test.endswith("t-test")
        s2 = r"s_i^2 = (p_i^{(1)} - \bar p_i)^2 + (p_i^{(2)} - \bar p_i)^2,\quad \bar p_i = \frac{p_i^{(1)} + p_i^{(2)}}{2}"
        if is_t:
            formulas = [s2, r"t = \frac{p_1^{(1)}}{\sqrt{\frac15 \sum_{i=1}^5 s_i^2}} \sim t_5"]
        else:
            formulas = [s2, r"F = \frac{\sum_{i=1}^5\sum_{j=1}^2 (p_i^{(j)})^2}{2\sum_{i=1}^5 s_i^2} \sim F_{10,5}"]
        title = "5x2cv paired t-test (Dietterich 1998)" if is_t else "5x2cv combined F-test (Alpaydin 1999)"
        if _is_batch(self.statistic):
            return Explanation(title, formulas, [], _batch_verdict(self.p_value, self.confidence, "tests"))
        if is_t:
            step = (rf"t = \frac{{{fmt(self.numerator)}}}{{\sqrt{{{fmt(self.variance_sum)} / 5}}}}"
                    rf" = {fmt(self.statistic)},\qquad p = {fmt(self.p_value)}")
        else:
            step = (rf"F = \frac{{{fmt(self.numerator)}}}{{2 \times {fmt(self.variance_sum)}}}"
                    rf" = {fmt(self.statistic)},\qquad p = {fmt(self.p_value)}")
        significant = self.p_value < 1 - self.confidence
        if self.alternative == "two-sided":
            claim, side = "differ significantly", "two-sided"
        else:
            claim = f"A's error is significantly {'higher' if self.alternative == 'greater' else 'lower'} than B's"
            side = "one-sided, direction fixed in advance"
        if significant:
            verdict = (f"The two learners' errors {claim} at the {pct(1 - self.confidence)} level "
                       f"({side}, {p_text(self.p_value)})." if self.alternative == "two-sided" else
                       f"{claim} at the {pct(1 - self.confidence)} level ({side}, {p_text(self.p_value)}).")
        else:
            verdict = (f"The difference between the two learners' errors is not significant at the "
                       f"{pct(1 - self.confidence)} level ({side}, {p_text(self.p_value)}): the data do not rule "
                       "out equal expected errors.")
        return Explanation(title, formulas, [step], verdict)

    @draws("tests", "five_by_two")
    def plot(self, ax=None):
        """Draw the ten differences by replication and fold, and the statistic on its reference distribution.

        Left: p_i^(j) for replication i (x) and fold j (colour), the t-test's numerator
        p_1^(1) ringed. Right: t with 5 df, or F with (10, 5) df, the share at least as
        extreme shaded (its area is ``p_value``).

        References
        ----------
        Dietterich (1998), Neural Computation 10(7); Alpaydin (1999), Neural Computation 11(8).

        Examples
        --------
        >>> d = [[0.02, 0.01], [0.03, 0.00], [0.01, 0.02], [0.02, 0.02], [0.00, 0.03]]
        >>> five_by_two_cv_f_test(d).plot()  # doctest: +SKIP
        """


def _five_by_two(differences):
    p = v.array("differences", differences, ndim=None)
    if p.ndim < 2 or p.shape[-2:] != (5, 2):
        raise ValueError(f"differences must have shape (5, 2) (or (..., 5, 2)), got shape {p.shape}")
    s2 = ((p - p.mean(axis=-1, keepdims=True)) ** 2).sum(axis=-1)
    return p, s2.sum(axis=-1)


def five_by_two_cv_t_test(differences, confidence=0.95, alternative="two-sided"):
    """Dietterich's 5x2cv paired t-test.

    Parameters
    ----------
    differences : array, shape (5, 2) or (..., 5, 2)
        ``p_i^(j)``: error of A minus error of B on fold j of replication i.

    Returns
    -------
    FiveByTwoTest
        ``statistic`` (numerator p_1^(1), the first fold of the first replication), ``df`` 5,
        ``p_value``.

    References
    ----------
    Dietterich (1998), "Approximate statistical tests for comparing supervised
    classification learning algorithms", Neural Computation 10(7).

    Examples
    --------
    >>> d = [[0.02, 0.01], [0.03, 0.00], [0.01, 0.02], [0.02, 0.02], [0.00, 0.03]]
    >>> five_by_two_cv_t_test(d).df
    5
    """
    c = v.confidence("confidence", confidence)
    _check_alternative(alternative)
    p, total = _five_by_two(differences)
    numerator = p[..., 0, 0]
    t = _ratio(numerator, np.sqrt(total / 5))
    return FiveByTwoTest(t, 5, _p_value(t, alternative, _student_t(5)), _scalar(numerator), _scalar(total),
                         "5x2cv paired t-test", c, alternative, p)


def five_by_two_cv_f_test(differences, confidence=0.95):
    """Alpaydin's combined 5x2cv F-test (uses all ten differences; df (10, 5)).

    References
    ----------
    Alpaydin (1999), "Combined 5x2 cv F test for comparing supervised classification
    learning algorithms", Neural Computation 11(8).

    Examples
    --------
    >>> d = [[0.02, 0.01], [0.03, 0.00], [0.01, 0.02], [0.02, 0.02], [0.00, 0.03]]
    >>> five_by_two_cv_f_test(d).df
    (10, 5)
    """
    c = v.confidence("confidence", confidence)
    p, total = _five_by_two(differences)
    numerator = (p ** 2).sum(axis=(-2, -1))
    f = _ratio(numerator, 2 * total)
    return FiveByTwoTest(f, (10, 5), _scalar(_st.f.sf(f, 10, 5)), _scalar(numerator), _scalar(total),
                         "5x2cv combined F-test", c, differences=p)


# --- McNemar, binomial and sign tests --------------------------------------------------

def mcnemar_table(y_true, pred_a, pred_b):
    """The 2x2 table of McNemar's test for two classifiers on one test set.

    Returns
    -------
    ndarray of int, shape (2, 2)
        ``[[both right, A right & B wrong], [A wrong & B right, both wrong]]`` (the layout
        of mlxtend's ``mcnemar_table``); ``b = table[0, 1]``, ``c = table[1, 0]``.

    Examples
    --------
    >>> mcnemar_table([0, 1, 1, 0], [0, 1, 0, 0], [1, 1, 1, 0]).tolist()
    [[2, 1], [1, 0]]
    """
    arrays = {}
    for name, value in (("y_true", y_true), ("pred_a", pred_a), ("pred_b", pred_b)):
        arr = v.array(name, value, dtype=None, finite=False)
        if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must hold finite labels (no NaN or inf), got {v.show(value)}")
        arrays[name] = arr
    v.same_length(**arrays)
    right_a = arrays["pred_a"] == arrays["y_true"]
    right_b = arrays["pred_b"] == arrays["y_true"]
    return np.array([[np.sum(right_a & right_b), np.sum(right_a & ~right_b)],
                     [np.sum(~right_a & right_b), np.sum(~right_a & ~right_b)]], dtype=int)


@result
class McNemarTest(WithPValue, WithInterval, Result):
    """McNemar's test on the discordant counts b and c; with the test-set size n, the
    difference in error rates err(A) - err(B) = (c - b) / n and Tango's score interval for it.

    Attributes
    ----------
    b, c : int or ndarray
        The discordant counts: only A right, only B right.
    statistic : float or ndarray
        The chi-square statistic, or ``min(b, c)`` for the exact test.
    df : int or None
        1 for the chi-square test, None for the exact test.
    p_value : float or ndarray
        The p-value; ``pvalue`` is the same.
    correction, exact : bool
        Whether the continuity correction was applied, whether the test is exact.
    confidence : float
        The level of the verdict and of the interval.
    n : int or None
        The test-set size, when known.
    difference : float
        ``err(A) - err(B) = (c - b) / n``; NaN without ``n``.
    low, high : float
        Tango's score interval for the difference of the true error rates; NaN without ``n``.
    table : ndarray of int, shape (2, 2), or None
        The table, when one was given.
    """

    _no_interval = "give the test-set size n (or the whole table) for Tango's interval"

    b: int
    c: int
    statistic: float
    df: int | None
    p_value: float
    correction: bool
    exact: bool
    confidence: float = field(default=0.95, repr=False)
    n: int | None = field(default=None, repr=False)
    difference: float = float("nan")
    low: float = float("nan")
    high: float = float("nan")
    table: np.ndarray | None = field(default=None, repr=False)

    def _explain(self):
        if self.exact:
            formulas = [r"p = \min\left(1,\ 2\sum_{i=0}^{\min(b,c)} \binom{b+c}{i} 2^{-(b+c)}\right)"]
        elif self.correction:
            formulas = [r"\chi^2 = \frac{(|b - c| - 1)^2}{b + c} \approx \chi^2_1 \text{ under } H_0"]
        else:
            formulas = [r"\chi^2 = \frac{(b - c)^2}{b + c} \approx \chi^2_1 \text{ under } H_0"]
        if self.n is not None:
            # Tango's statistic itself (with its restricted maximum-likelihood estimate) is in
            # _tango_statistic's docstring: in the display it was more than a reader needs
            formulas.append(r"\hat d = \frac{c - b}{n},\qquad \text{Tango's interval: every } d "
                            r"\text{ that his score test does not reject}")
        title = "McNemar's test" + (" (exact binomial)" if self.exact else "")
        if _is_batch(self.p_value):
            return Explanation(title, formulas, [], _batch_verdict(self.p_value, self.confidence, "tests"))
        b, c = self.b, self.c
        if self.exact:
            step = rf"b = {b},\ c = {c}:\quad p = {fmt(self.p_value)}"
        else:
            minus = " - 1" if self.correction else ""
            step = (rf"\chi^2 = \frac{{(|{b} - {c}|{minus})^2}}{{{b} + {c}}} = {fmt(self.statistic)},"
                    rf"\qquad p = {fmt(self.p_value)}")
        steps = [step]
        if self.n is not None:
            steps.append(rf"\hat d = \frac{{{c} - {b}}}{{{self.n}}} = {fmt(self.difference)},\qquad "
                         rf"z = {fmt(z_critical(self.confidence))}:\ {tex_pct(self.confidence)}\ "
                         rf"\text{{interval}}\ {tex_interval(self.low, self.high)}")
        significant = self.p_value < 1 - self.confidence
        disagreements, level = b + c, pct(1 - self.confidence)
        source = ("exact binomial" if self.exact else
                  f"chi-square, 1 df, {'with' if self.correction else 'without'} continuity correction")
        verdict = (f"A and B {'differ significantly' if significant else 'do not differ significantly'} at the "
                   f"{level} level "
                   f"({p_text(self.p_value)}, {source}): only A was right on b = {b} test "
                   f"example{'' if b == 1 else 's'}, only B on c = {c}.")
        if self.n is not None:
            fewer = ("equal errors" if self.difference == 0 else
                     f"{'A' if self.difference < 0 else 'B'} made fewer errors")
            interval = interval_words(self.low, self.high, self.confidence)
            verdict += (f" err(A) - err(B) = (c - b) / n = {plain(self.difference)} ({fewer}); Tango's {interval} "
                        "shows the true differences the data allow.")
            excludes = not self.low <= 0 <= self.high
            if excludes != significant:
                uncorrected = mcnemar_test(b, c, correction=False, confidence=self.confidence)
                verdict += (f" The interval {'excludes' if excludes else 'includes'} 0 although the test "
                            f"{'is not' if excludes else 'is'} significant: at d = 0 the score test is McNemar's "
                            f"chi-square without the continuity correction ({p_text(uncorrected.p_value)} here); "
                            "this close to the line the evidence is weak either way.")
        if not significant:
            lopsided = mcnemar_test(disagreements, 0, self.correction, self.exact, self.confidence)
            if disagreements and lopsided.p_value >= 1 - self.confidence:
                verdict += (f" With only {disagreements} disagreement{'' if disagreements == 1 else 's'} no split "
                            f"could reach the {level} level.")
        if not self.exact and 0 < disagreements < 25:
            exact = mcnemar_test(b, c, exact=True, confidence=self.confidence)
            verdict += f" With b + c = {disagreements} < 25 the exact test (exact=True) is safer: {p_text(exact.p_value)}."
        verdict += (" This compares two trained classifiers on independent test examples neither was trained on, "
                    "not the learning algorithms (Dietterich 1998).")
        return Explanation(title, formulas, steps, verdict)

    @draws("tests", "mcnemar_test")
    def plot(self, ax=None):
        """Draw the 2 x 2 table and the null distribution of b given b + c.

        Left: the table of right and wrong (only b and c when no table was given), the
        discordant cells b and c marked. Right: b ~ Bin(b + c, 1/2) if the two error rates
        are equal, with the observed b; the exact test shades the outcomes at least as
        extreme (their total is ``p_value``), the chi-square test the tails of the normal
        approximation beyond ``(|b - c| - correction) / 2`` from the centre (their area is
        ``p_value``).

        References
        ----------
        McNemar (1947), Psychometrika 12; Dietterich (1998), Neural Computation 10(7).

        Examples
        --------
        >>> mcnemar_test([[40, 10], [3, 47]]).plot()  # doctest: +SKIP
        """


def _tango_statistic(b, c, n, d):
    """Tango's (1998) score statistic for H0: err(A) - err(B) = d, from b (only A right) and
    c (only B right) in n test examples: (c - b - n d) / sqrt(n (2 p_b + d (1 - d))), where p_b
    is the maximum-likelihood P(only A right) under H0 (the root of a quadratic)."""
    quad_b = -b - c + (2 * n - c + b) * d
    quad_c = -b * d * (1 - d)
    p_b = (np.sqrt(np.maximum(quad_b ** 2 - 8 * n * quad_c, 0.0)) - quad_b) / (4 * n)
    variance = np.maximum(n * (2 * p_b + d * (1 - d)), 1e-300)
    return (c - b - n * d) / np.sqrt(variance)


def _tango_interval(b, c, n, z):
    """Tango's score interval for err(A) - err(B): the d whose score statistic is within +-z.

    The statistic falls as d grows, from +inf near d = -1 to -inf near d = 1 (Tango 1998), so
    each limit is found by bisection on its side of the estimate (vectorised over batches).
    """
    b, c, n = (np.asarray(x, dtype=float) for x in (b, c, n))
    estimate = (c - b) / n
    limits = []
    for outer, sign in ((-1.0, 1.0), (1.0, -1.0)):
        near, far = estimate.copy(), np.full_like(estimate, outer)
        for _ in range(60):  # 2^-60: far below the printed digits
            mid = (near + far) / 2
            inside = sign * _tango_statistic(b, c, n, mid) <= z
            near, far = np.where(inside, mid, near), np.where(inside, far, mid)
        limits.append(np.where(estimate == outer, outer, (near + far) / 2))
    return estimate, limits[0], limits[1]


def mcnemar_test(table_or_b, c=None, correction=True, exact=False, confidence=0.95, n=None):
    """McNemar's test: do two classifiers err on the same test set at different rates?

    Parameters
    ----------
    table_or_b : array (2, 2) or int or array of int
        A table from :func:`mcnemar_table`, or the count ``b`` (only A right) when ``c``
        (only B right) is given. Arrays of ``b`` and ``c`` give a batch.
    n : int, optional
        The test-set size, when ``b`` and ``c`` are given (a table knows it). With it the
        result also holds ``difference`` = err(A) - err(B) = (c - b) / n on the test set and
        ``low``, ``high``: Tango's (1998) score interval for the difference of the true
        error rates, the interval recommended by Fagerland, Lydersen and Laake (2014). It
        excludes 0 exactly when the chi-square test *without* continuity correction rejects.
    correction : bool
        Edwards' continuity correction ``(|b - c| - 1)^2 / (b + c)``, clipped at 0 when
        ``b == c`` (statsmodels and mlxtend give ``1 / (b + c)`` there; otherwise equal).
    exact : bool
        Exact two-sided binomial p-value ``min(1, 2 P(X <= min(b, c)))``, X ~ Bin(b + c, 1/2);
        then ``statistic`` is ``min(b, c)`` (as in statsmodels) and ``df`` is None.

    Defaults follow mlxtend (chi-square with correction); statsmodels defaults to exact.
    With ``b + c = 0`` there is no evidence: statistic 0, p-value 1.

    References
    ----------
    McNemar (1947); Dietterich (1998); Tango, "Equivalence test and confidence interval for
    the difference in proportions for the paired-sample design", Statistics in Medicine 17
    (1998); Fagerland, Lydersen and Laake, "Recommended tests and confidence intervals for
    paired binomial proportions", Statistics in Medicine 33 (2014).

    Examples
    --------
    >>> round(mcnemar_test(10, 2).statistic, 4)
    4.0833
    """
    conf = v.confidence("confidence", confidence)
    correction = v.boolean("correction", correction)
    exact = v.boolean("exact", exact)
    table = None
    if c is None:
        table = v.array("table_or_b", table_or_b, ndim=2, shape=(2, 2))
        if np.any(table < 0) or not np.all(table == np.floor(table)):
            raise ValueError(f"table_or_b must hold non-negative integer counts, got {v.show(table.tolist())}")
        if n is not None:
            raise TypeError("n is the size of the test set only when b and c are given: a table knows it")
        b, c, n = int(table[0, 1]), int(table[1, 0]), int(table.sum())
        table = table.astype(int)
        if n == 0:
            raise ValueError(f"table_or_b must count at least one test example, got {v.show(table.tolist())}")
    else:
        b, c = v.counts("table_or_b", table_or_b, 0), v.counts("c", c, 0)
        _broadcast(table_or_b=b, c=c)
        if n is not None:
            n = v.counts("n", n, 1)
            if np.any(np.add(b, c) > n):
                raise ValueError(f"n must be at least b + c (the test examples the two disagree on), got "
                                 f"n={v.show(n)}, b={v.show(b)}, c={v.show(c)}")
    disagreements = np.add(b, c)
    if exact:
        statistic = np.minimum(b, c)
        p = _scalar(np.minimum(1.0, 2 * _st.binom.cdf(statistic, disagreements, 0.5)))
        statistic, df = (int(statistic) if np.ndim(statistic) == 0 else statistic), None
    else:
        gap = np.abs(np.subtract(b, c)) - (1 if correction else 0)
        statistic = _ratio(np.maximum(gap, 0) ** 2, disagreements)
        p, df = _scalar(_st.chi2.sf(statistic, 1)), 1
    if n is None:
        return McNemarTest(b, c, statistic, df, p, correction, exact, conf)
    difference, low, high = (_scalar(x) for x in _tango_interval(b, c, n, z_critical(conf)))
    return McNemarTest(b, c, statistic, df, p, correction, exact, conf, n, difference, low, high, table)


def _binomial_p(k, n, p0, alternative):
    """Binomial test p-value; two-sided sums the outcomes no more likely than k (as scipy)."""
    if alternative == "less":
        return float(_st.binom.cdf(k, n, p0))
    if alternative == "greater":
        return float(_st.binom.sf(k - 1, n, p0))
    pmf = _st.binom.pmf(np.arange(n + 1), n, p0)
    # the relative tolerance keeps outcomes with equal probability (up to rounding) in
    return float(min(1.0, pmf[pmf <= pmf[k] * (1 + 1e-7)].sum()))


@result
class BinomialTest(WithPValue, Result):
    """Exact binomial test of ``k`` successes in ``n`` trials against ``p0``.

    Attributes
    ----------
    k, n : int
        The successes and the trials.
    p0 : float
        The rate under the null hypothesis.
    estimate : float
        ``k / n``.
    p_value : float
        The p-value for ``alternative``; ``pvalue`` is the same.
    alternative : {"two-sided", "greater", "less"}
        The alternative hypothesis.
    confidence : float
        The level of the verdict.
    """

    k: int
    n: int
    p0: float
    estimate: float
    p_value: float
    alternative: str
    confidence: float = field(default=0.95, repr=False)

    def _explain(self):
        k, n, p0 = self.k, self.n, self.p0
        term = r"\binom{n}{i} p_0^i (1-p_0)^{n-i}"
        formulas = {
            "less": [rf"p = \sum_{{i=0}}^{{k}} {term}"],
            "greater": [rf"p = \sum_{{i=k}}^{{n}} {term}"],
            "two-sided": [rf"p = \sum_{{i:\ P(i) \le P(k)}} {term}"],
        }[self.alternative]
        steps = [rf"k = {k},\ n = {n},\ p_0 = {fmt(p0)},\ \hat p = {fmt(self.estimate)}:\quad p = {fmt(self.p_value)}"]
        significant = self.p_value < 1 - self.confidence
        rel = {"two-sided": "different from", "greater": "greater than", "less": "less than"}[self.alternative]
        verdict = (f"The observed rate {plain(self.estimate)} is {'significantly' if significant else 'not significantly'} "
                   f"{rel} {plain(p0)} at the {pct(1 - self.confidence)} level ({p_text(self.p_value)}).")
        return Explanation("Binomial test", formulas, steps, verdict)

    @draws("tests", "binomial_test")
    def plot(self, ax=None):
        """Draw the binomial null distribution of the count, the observed count and the extreme outcomes.

        Bin(n, p0) as bars; the outcomes the test counts as at least as extreme (the tail
        of a one-sided test, every outcome no more probable than k for a two-sided one)
        filled: their total is ``p_value``.

        References
        ----------
        Conover (1999), *Practical Nonparametric Statistics*, 3rd ed., section 3.1.

        Examples
        --------
        >>> binomial_test(30, 100, p0=0.2, alternative="greater").plot()  # doctest: +SKIP
        """


def binomial_test(k, n, p0=0.5, alternative="two-sided", confidence=0.95):
    """Exact binomial test: is a rate of ``k`` in ``n`` consistent with ``p0``?

    Alpaydin's test of an error rate: with ``alternative="greater"``, H1 is that the
    true error exceeds ``p0``. Two-sided p-values add all outcomes no more probable
    than the observed one (the convention of :func:`scipy.stats.binomtest`).

    Examples
    --------
    >>> round(binomial_test(7, 10).p_value, 4)
    0.3438
    """
    k = v.integer("k", k, low=0)
    n = v.integer("n", n, low=1)
    if k > n:
        raise ValueError(f"k must be <= n, got k={k} and n={n}")
    p0 = v.probability("p0", p0, open_low=True, open_high=True)
    _check_alternative(alternative)
    conf = v.confidence("confidence", confidence)
    return BinomialTest(k, n, p0, k / n, _binomial_p(k, n, p0, alternative), alternative, conf)


@result
class SignTest(WithPValue, Result):
    """Sign test over data sets: wins against losses under H0 of a fair coin.

    Attributes
    ----------
    wins, losses, ties : int
        The counts as given.
    n : int
        The comparisons counted, ``wins + losses + 2 * (ties // 2)``.
    statistic : int
        The wins with half the ties, ``wins + ties // 2``.
    p_value : float
        The two-sided exact binomial p-value; ``pvalue`` is the same.
    confidence : float
        The level of the verdict.
    names : tuple of str
        The two algorithms' names as given (the one whose wins are counted first), or empty.
    """

    wins: int
    losses: int
    ties: int
    n: int
    statistic: int
    p_value: float
    confidence: float = field(default=0.95, repr=False)
    names: tuple = ()

    def _explain(self):
        half = self.ties // 2
        formulas = [r"w' = w + \lfloor t/2 \rfloor,\quad n = w + l + 2\lfloor t/2 \rfloor,"
                    r"\quad p = \min\left(1,\ 2 P\left(X \le \min(w', n - w')\right)\right),\ X \sim Bin(n, \tfrac12)"]
        steps = [rf"w' = {self.wins} + {half} = {self.statistic},\quad n = {self.n},\quad p = {fmt(self.p_value)}"]
        significant = self.p_value < 1 - self.confidence
        who = (f"{self.names[0]} wins {self.statistic} of {self.n} comparisons against {self.names[1]}"
               if self.names else f"{self.statistic} of {self.n} comparisons are wins")
        verdict = (f"{who} (ties split evenly); at the "
                   f"{pct(1 - self.confidence)} level this split is {'' if significant else 'not '}significantly "
                   f"different from half and half (two-sided, {p_text(self.p_value)})")
        verdict += "." if significant else ": the data do not rule out that each algorithm wins half the time."
        return Explanation("Sign test" + (f": {self.names[0]} against {self.names[1]}" if self.names else ""),
                           formulas, steps, verdict)

    @draws("tests", "sign_test")
    def plot(self, ax=None):
        """Draw Bin(n, 1/2), the count of wins and the outcomes at least as extreme.

        The counts at least as far from n/2 as A's wins (ties split) are filled: their
        total is ``p_value``.

        References
        ----------
        Demšar (2006), JMLR 7, section 3.1.3.

        Examples
        --------
        >>> sign_test(11, 2, 1).plot()  # doctest: +SKIP
        """


def sign_test(wins, losses, ties=0, confidence=0.95, names=None):
    """Sign test for two algorithms compared on several data sets (Demsar 2006).

    Ties are split evenly between the two algorithms; an odd tie is ignored. The
    two-sided p-value comes from the exact binomial distribution with p = 1/2.

    Parameters
    ----------
    wins, losses, ties : int
        The data sets on which the first algorithm wins, loses and ties.
    confidence : float
        The level of the verdict.
    names : pair of str, optional
        The two algorithms' names, the one whose wins are counted first, for the display
        and the picture (without them these speak of wins, not of an algorithm).

    Examples
    --------
    >>> round(sign_test(15, 5).p_value, 4)
    0.0414
    """
    w = v.integer("wins", wins, low=0)
    l_ = v.integer("losses", losses, low=0)
    t = v.integer("ties", ties, low=0)
    conf = v.confidence("confidence", confidence)
    half = t // 2
    n = w + l_ + 2 * half
    if n == 0:
        raise ValueError(f"wins + losses + ties must count at least 2 comparisons, got wins={w}, losses={l_}, ties={t}")
    named = () if names is None else v.names("names", names, 2, "the algorithm whose wins are counted, then the other")
    statistic = w + half
    p = float(min(1.0, 2 * _st.binom.cdf(min(statistic, n - statistic), n, 0.5)))
    return SignTest(w, l_, t, n, statistic, p, conf, named)
