"""Critical values, the classic z table, and confidence intervals for an error rate.

An error rate measured on ``n`` independent test examples is a binomial proportion
``k / n``. This module turns it into an interval for the true error (Mitchell ch. 5;
Witten & Frank ch. 5) and answers the planning question "how many test examples do I
need?". :func:`proportion_bounds` is the vectorised kernel that the simulations call on
many test sets at once; :func:`proportion_interval` wraps it in a result that teaches.
"""
from __future__ import annotations

import math
from dataclasses import field

import numpy as np
from scipy import special as _special
from scipy import stats as _st

from .. import _validate as v
from .._format import fmt, pct, plain
from .._result import Explanation, Result, WithInterval, draws, result

__all__ = [
    "z_critical", "t_critical", "confidence_for_z", "confidence_for_t", "table_confidence",
    "one_sided_confidence",
    "z_table", "ZTable", "proportion_interval", "ProportionInterval", "proportion_bounds",
    "test_set_size", "TestSetSize", "difference_interval", "DifferenceInterval",
]

SIDES = ("two", "one")
METHODS = ("wald", "wilson", "clopper-pearson", "agresti-coull", "jeffreys")
_BETA_METHODS = ("clopper-pearson", "jeffreys")  # quantiles of a beta distribution; no z
INTERVAL_SIDES = ("two", "lower", "upper")

#: The classic table of the slides (Mitchell ch. 5): two-sided levels and their rounded z_N.
TABLE_LEVELS = (0.50, 0.68, 0.80, 0.90, 0.95, 0.98, 0.99)
TABLE_Z = (0.67, 1.00, 1.28, 1.64, 1.96, 2.33, 2.58)
#: The same rows read as one-sided levels, c' = 1 - (1 - c) / 2.
TABLE_LEVELS_ONE_SIDED = (0.75, 0.84, 0.90, 0.95, 0.975, 0.99, 0.995)
#: The one-sided row z'_N of the slides: the z with N% of the area below it.
TABLE_Z_ONE_SIDED = (0.0, 0.47, 0.84, 1.28, 1.64, 2.05, 2.33)


def one_sided_confidence(c):
    """Convert a two-sided confidence level to the one-sided level of the same z.

    A two-sided interval leaves ``(1 - c) / 2`` outside on each side, so the matching
    one-sided bound holds with ``c' = 1 - (1 - c) / 2`` (Mooney: "increase the confidence
    half way towards 100%").

    Examples
    --------
    >>> one_sided_confidence(0.90)
    0.95
    """
    c = v.confidence("c", c)
    return 1.0 - (1.0 - c) / 2.0


def _tail(confidence, sided):
    """Probability left in the tail beyond the critical value."""
    return (1.0 - confidence) / 2.0 if sided == "two" else 1.0 - confidence


def z_critical(confidence, sided="two"):
    """The standard normal critical value for a confidence level.

    Two-sided: ``P(|Z| <= z) = confidence``; one-sided: ``P(Z <= z) = confidence``.

    Examples
    --------
    >>> round(z_critical(0.95), 4), round(z_critical(0.90, sided="one"), 4)
    (1.96, 1.2816)
    """
    c = v.confidence("confidence", confidence)
    v.choice("sided", sided, SIDES)
    # scipy's norm.isf(q) is -ndtri(q), bit for bit; called directly it costs 1/500 as much
    return float(-_special.ndtri(_tail(c, sided)))


def t_critical(confidence, df, sided="two"):
    """Student's t critical value with ``df`` degrees of freedom (Mitchell's t_{N,k-1}).

    Examples
    --------
    >>> round(t_critical(0.95, 9), 3)
    2.262
    """
    c = v.confidence("confidence", confidence)
    df = v.real("df", df, low=0.0, low_open=True)
    v.choice("sided", sided, SIDES)
    return float(_st.t.isf(_tail(c, sided), df))


def _level(tail, sided):
    """The confidence level left by an upper-tail probability ``tail``, one or both tails."""
    return 1.0 - (2.0 * tail if sided == "two" else tail)


def confidence_for_z(z, sided="two"):
    """The exact confidence level that a z score reaches (in the observed direction).

    Two-sided: ``P(|Z| <= |z|)``; one-sided: ``P(Z <= |z|)``.

    Examples
    --------
    >>> round(confidence_for_z(1.96), 4)
    0.95
    """
    z = v.real("z", z)
    v.choice("sided", sided, SIDES)
    return _level(float(_st.norm.sf(abs(z))), sided)


def confidence_for_t(t, df, sided="two"):
    """The exact confidence level that a t statistic with ``df`` degrees of freedom reaches.

    Two-sided: ``P(|T| <= |t|)``; one-sided: ``P(T <= |t|)``. It answers, for instance,
    how often a "95%" interval built with z = 1.96 from k estimates really covers:
    ``confidence_for_t(1.96, k - 1)`` (Student 1908; Mooney's t against z slide).

    Examples
    --------
    >>> round(confidence_for_t(1.96, 4), 3)
    0.878
    """
    t = v.real("t", t)
    df = v.real("df", df, low=0, low_open=True)
    v.choice("sided", sided, SIDES)
    return _level(float(_st.t.sf(abs(t), df)), sided)


def table_level(absz, sided):
    """Vectorised table look-up: the highest classic level that ``|z|`` reaches, else 0."""
    absz = np.asarray(absz, dtype=float)
    # the tolerance lets a z computed as 1.6399999999 count as the table's 1.64
    index = np.searchsorted(np.asarray(TABLE_Z), absz + 1e-9, side="right")
    levels = np.asarray((0.0,) + (TABLE_LEVELS if sided == "two" else TABLE_LEVELS_ONE_SIDED))
    found = levels[index]
    return float(found) if found.ndim == 0 else found


def table_confidence(z, sided="two"):
    """The confidence read off the classic z table, as the slides do it.

    The highest of the levels 50, 68, 80, 90, 95, 98, 99% whose two-decimal table value
    (0.67, 1.00, 1.28, 1.64, 1.96, 2.33, 2.58) ``|z|`` reaches; 0 below 0.67. One-sided
    levels are the converted ones (75, 84, 90, 95, 97.5, 99, 99.5%).

    Examples
    --------
    >>> table_confidence(1.644), table_confidence(1.644, sided="one")
    (0.9, 0.95)
    """
    z = v.real("z", z)
    v.choice("sided", sided, SIDES)
    return table_level(abs(z), sided)


@result
class ZTable(Result):
    """The z table of the slides: rounded rows as printed, and the exact values.

    Attributes
    ----------
    levels : tuple of float
        The table's two-sided levels N: 0.50, 0.68, 0.80, 0.90, 0.95, 0.98, 0.99.
    two_sided, one_sided : tuple of float
        The rounded rows as the slides print them: z_N (two-sided) and z'_N (one-sided).
    two_sided_exact, one_sided_exact : tuple of float
        The same from the normal quantile function.
    """

    levels: tuple
    two_sided: tuple
    one_sided: tuple
    two_sided_exact: tuple
    one_sided_exact: tuple

    def _explain(self):
        return Explanation(
            "The z table",
            [r"P(-z_N \le Z \le z_N) = N", r"P(Z \le z'_N) = N"],
            [],
            "The two-sided z_N is the one-sided z' of the level 1 - (1 - N)/2; the printed 1.00 "
            "for 68% is the one-sigma rule (exactly 68.27%), the exact 68% value is 0.994.",
        )

    def _repr_markdown_(self):
        head = "| N | " + " | ".join(pct(c) for c in self.levels) + " |"
        rule = "|---" * (len(self.levels) + 1) + "|"
        rows = [
            r"| $z_N$ (two-sided) | " + " | ".join(f"{z:.2f}" for z in self.two_sided) + " |",
            r"| $z'_N$ (one-sided) | " + " | ".join(f"{z:.2f}" for z in self.one_sided) + " |",
            "| exact $z_N$ | " + " | ".join(f"{z:.4f}" for z in self.two_sided_exact) + " |",
            "| exact $z'_N$ | " + " | ".join(f"{z:.4f}" for z in self.one_sided_exact) + " |",
        ]
        e = self._explain()
        return "\n".join([f"**{e.title}**", "", head, rule, *rows, "", e.verdict])


def z_table():
    """The classic z table: two-sided z_N and one-sided z'_N for N = 50 ... 99%.

    The rounded rows are the slides' (Mitchell ch. 5); the exact rows come from the
    normal quantile function. Displays as a Markdown table.

    Examples
    --------
    >>> z_table().two_sided[4]
    1.96
    """
    return ZTable(
        levels=TABLE_LEVELS,
        two_sided=TABLE_Z,
        one_sided=TABLE_Z_ONE_SIDED,
        two_sided_exact=tuple(z_critical(c) for c in TABLE_LEVELS),
        one_sided_exact=tuple(z_critical(c, "one") for c in TABLE_LEVELS),
    )


# --- argument checks that accept scalars or arrays -------------------------------------

def _k_n(k, n):
    k = v.counts("k", k, 0)
    n = v.counts("n", n, 1)
    try:
        over = np.greater(k, n)
    except ValueError:
        raise ValueError(f"k and n must broadcast together, got shapes {np.shape(k)} and {np.shape(n)}") from None
    if np.any(over):
        raise ValueError(f"k must be <= n, got k={v.show(k)} and n={v.show(n)}")
    return k, n


def _scalar(x):
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def _check_z(z, method):
    if z is None:
        return None
    z = v.real("z", z, low=0.0, low_open=True)
    if method in _BETA_METHODS:
        raise ValueError(f"z applies to the normal-approximation methods only, got method={method!r}")
    return z


def _beta_bounds(k, n, alpha, shift):
    """Beta-quantile bounds: Clopper-Pearson (shift 0) or Jeffreys (shift 1/2).

    Clopper-Pearson's lower bound uses Beta(k, n-k+1) and its upper Beta(k+1, n-k);
    Jeffreys' both use the posterior Beta(k + 1/2, n - k + 1/2). The bound is 0 at
    k = 0 and 1 at k = n in both (Brown, Cai & DasGupta 2001, section 4.1.2).
    """
    k, n = np.broadcast_arrays(k, n)
    # beta quantiles are slow; a simulation repeats few distinct (k, n) pairs many times
    code, where = np.unique(k * (np.max(n, initial=0) + 1) + n, return_inverse=True)
    uk, un = np.divmod(code, np.max(n, initial=0) + 1)
    low_a, low_b = (uk + 0.5, un - uk + 0.5) if shift else (np.maximum(uk, 1), un - uk + 1)
    high_a, high_b = (uk + 0.5, un - uk + 0.5) if shift else (uk + 1, np.maximum(un - uk, 1))
    low = np.where(uk > 0, _st.beta.ppf(alpha, low_a, low_b), 0.0)
    high = np.where(uk < un, _st.beta.isf(alpha, high_a, high_b), 1.0)
    return low[where].reshape(k.shape), high[where].reshape(k.shape)


def _bounds(k, n, confidence, method, sided, z):
    """The interval arithmetic on validated input."""
    one = "two" if sided == "two" else "one"
    if method in _BETA_METHODS:
        low, high = _beta_bounds(k, n, _tail(confidence, one), method == "jeffreys")
    else:
        z = z_critical(confidence, one) if z is None else z
        p = k / n
        if method == "wald":
            half = z * np.sqrt(p * (1 - p) / n)
            centre = p
        elif method == "agresti-coull":
            # add z^2/2 successes and z^2/2 failures, then use Wald's formula
            n_tilde = n + z * z
            centre = (k + z * z / 2) / n_tilde
            half = z * np.sqrt(centre * (1 - centre) / n_tilde)
        else:
            centre = (p + z * z / (2 * n)) / (1 + z * z / n)
            half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        # the normal approximation can leave [0, 1]; an error rate cannot
        low, high = np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)
    if sided == "lower":
        high = np.ones_like(np.asarray(high, dtype=float))
    elif sided == "upper":
        low = np.zeros_like(np.asarray(low, dtype=float))
    return _scalar(low), _scalar(high)


def proportion_bounds(k, n, confidence=0.95, method="wald", sided="two", z=None):
    """Vectorised confidence bounds for ``k`` errors out of ``n`` examples.

    Broadcasts over arrays of ``k`` and ``n`` (the simulations call it on 10^5 test sets
    at once). Normal-approximation bounds are clipped to [0, 1]. ``sided="lower"`` gives a one-sided lower
    bound (high is 1), ``"upper"`` a one-sided upper bound (low is 0).

    Returns
    -------
    low, high : float or ndarray

    Examples
    --------
    >>> low, high = proportion_bounds([12, 3], 40)
    >>> round(float(low[0]), 3), round(float(high[0]), 3)
    (0.158, 0.442)
    """
    c = v.confidence("confidence", confidence)
    v.choice("method", method, METHODS)
    v.choice("sided", sided, INTERVAL_SIDES)
    z = _check_z(z, method)
    k, n = _k_n(k, n)
    return _bounds(k, n, c, method, sided, z)


_METHOD_NAMES = {"wald": "Wald (normal approximation)", "wilson": "Wilson score",
                 "clopper-pearson": "Clopper-Pearson (exact binomial)", "agresti-coull": "Agresti-Coull",
                 "jeffreys": "Jeffreys"}


@result
class ProportionInterval(WithInterval, Result):
    """A confidence interval for a true error (or success) rate from ``k`` of ``n``.

    Attributes
    ----------
    estimate : float
        The observed rate ``k / n``.
    low, high : float
        The interval's ends (0 and 1 bound a one-sided interval); ``confidence_interval()`` gives both.
    confidence : float
        The level asked for.
    sided : {"two", "lower", "upper"}
        A two-sided interval or a one-sided bound.
    method : str
        The method: "wald", "wilson", "clopper-pearson", "agresti-coull" or "jeffreys".
    n : int
        The test-set size.
    se : float or None
        Wald's standard error ``sqrt(p (1 - p) / n)``; None for the other methods.
    k : int
        The count of errors (or successes).
    z : float or None
        The critical value used by the normal-approximation methods; None for the beta-quantile ones.
    """

    estimate: float
    low: float
    high: float
    confidence: float
    sided: str
    method: str
    n: int
    se: float | None
    k: int = 0
    z: float | None = None

    def _explain(self):
        p, n, z = self.estimate, self.n, self.z
        sign = {"two": r"\pm", "lower": "-", "upper": "+"}[self.sided]
        title = f"{pct(self.confidence)} {_METHOD_NAMES[self.method]} interval"
        head = rf"\hat p = \frac{{k}}{{n}} = \frac{{{self.k}}}{{{n}}} = {fmt(p)}"
        if self.method == "wald":
            formulas = [rf"\hat p {sign} z\,\sqrt{{\frac{{\hat p(1-\hat p)}}{{n}}}}"]
            steps = [head, rf"{fmt(p)} {sign} {fmt(z)} \times \sqrt{{\frac{{{fmt(p)}(1-{fmt(p)})}}{{{n}}}}}"
                           rf" = {fmt(p)} {sign} {fmt(z)} \times {fmt(self.se)}"]
        elif self.method == "wilson":
            formulas = [r"\frac{\hat p + \frac{z^2}{2n} " + sign
                        + r" z\sqrt{\frac{\hat p(1-\hat p)}{n} + \frac{z^2}{4n^2}}}{1 + \frac{z^2}{n}}"]
            steps = [head, r"\frac{" + f"{fmt(p)} + \\frac{{{fmt(z)}^2}}{{2 \\cdot {n}}} {sign} {fmt(z)}"
                     + rf"\sqrt{{\frac{{{fmt(p)}(1-{fmt(p)})}}{{{n}}} + \frac{{{fmt(z)}^2}}{{4 \cdot {n}^2}}}}}}"
                     + rf"{{1 + \frac{{{fmt(z)}^2}}{{{n}}}}}"]
        elif self.method == "agresti-coull":
            n_t = n + z * z
            centre = (self.k + z * z / 2) / n_t
            formulas = [r"\tilde n = n + z^2,\quad \tilde p = \frac{k + z^2/2}{\tilde n},\qquad "
                        rf"\tilde p {sign} z\,\sqrt{{\frac{{\tilde p(1-\tilde p)}}{{\tilde n}}}}"]
            steps = [head, rf"\tilde n = {n} + {fmt(z)}^2 = {fmt(n_t)},\quad \tilde p = "
                           rf"\frac{{{self.k} + {fmt(z * z / 2)}}}{{{fmt(n_t)}}} = {fmt(centre)}",
                     rf"{fmt(centre)} {sign} {fmt(z)} \times \sqrt{{\frac{{{fmt(centre)}(1-{fmt(centre)})}}"
                     rf"{{{fmt(n_t)}}}}}"]
        else:
            alpha = _tail(self.confidence, "two" if self.sided == "two" else "one")
            if self.method == "jeffreys":
                formulas = [r"L = B^{-1}\!\left(\alpha;\, k+\tfrac12,\, n-k+\tfrac12\right),\quad "
                            r"U = B^{-1}\!\left(1-\alpha;\, k+\tfrac12,\, n-k+\tfrac12\right)"
                            r"\quad (L = 0 \text{ if } k = 0,\ U = 1 \text{ if } k = n)"]
            else:
                formulas = [r"L = B^{-1}\!\left(\alpha;\, k,\, n-k+1\right),\quad "
                            r"U = B^{-1}\!\left(1-\alpha;\, k+1,\, n-k\right)"]
            steps = [head, rf"\alpha = {fmt(alpha)}"]
        steps.append(rf"[L, U] = [{fmt(self.low)},\ {fmt(self.high)}]")
        # only Clopper-Pearson guarantees its level; the others reach it approximately
        share = ("at least " if self.method == "clopper-pearson" else "about ") + pct(self.confidence)
        procedure = f"{share} of {'intervals' if self.sided == 'two' else 'bounds'} built this way"
        if self.sided == "two":
            verdict = (f"The interval for the true rate is [{plain(self.low)}, {plain(self.high)}]: "
                       f"{procedure} cover the true rate")
        elif self.sided == "upper":
            verdict = (f"The upper bound for the true rate is {plain(self.high)}: {procedure} lie at or above "
                       f"the true rate")
        else:
            verdict = (f"The lower bound for the true rate is {plain(self.low)}: {procedure} lie at or below "
                       f"the true rate")
        verdict += "."
        if self.method == "wald" and min(self.k, n - self.k) < 5:
            verdict = self._rare_wald_verdict()
        if self.method == "wald" and (p - z * self.se < 0 or p + z * self.se > 1):
            verdict += " (The normal approximation reached beyond [0, 1]; the bounds are clipped.)"
        return Explanation(title, formulas, steps, verdict)

    def _rare_wald_verdict(self):
        # lesson 3: near 0 or 1 Wald covers far less than its level (87% at n = 40, rate 0.05),
        # so no coverage is promised; Clopper-Pearson's guaranteed interval is given instead
        exact = proportion_bounds(self.k, self.n, self.confidence, "clopper-pearson", self.sided, None)
        what = "interval" if self.sided == "two" else "bound"
        shown = {"two": f"[{plain(self.low)}, {plain(self.high)}]", "upper": plain(self.high),
                 "lower": plain(self.low)}
        exact_shown = {"two": f"[{plain(exact[0])}, {plain(exact[1])}]", "upper": plain(exact[1]),
                       "lower": plain(exact[0])}[self.sided]
        if self.k in (0, self.n):
            why = (f"with k = {self.k} of {self.n} its standard error is 0, so it covers no true rate "
                   f"but {plain(self.estimate)}")
        else:
            why = (f"with fewer than 5 errors or successes Wald {what}s cover a true rate near 0 or 1 "
                   f"much less often than {pct(self.confidence)}")
        return (f"The Wald {what} for the true rate is {shown[self.sided]}, but {why}. "
                f"Clopper-Pearson's {what}, {exact_shown}, covers the true rate in at least "
                f"{pct(self.confidence)} of test sets.")

    @draws("intervals", "proportion_interval")
    def plot(self, ax=None):
        """Draw the interval on the sampling distribution it comes from.

        Wald: the normal curve ``N(p, p(1-p)/n)`` around the estimate, the share between
        the bounds shaded (the confidence). Agresti-Coull: the same around its adjusted
        centre. Wilson and Clopper-Pearson invert a test: at each bound, the distribution
        of the estimate if the true rate were that bound (normal for Wilson, binomial for
        Clopper-Pearson), with the observed estimate exactly in its far tail, that tail
        shaded (``(1 - confidence) / 2`` each). Jeffreys: the Beta(k + 1/2, n - k + 1/2)
        posterior, the share between the bounds shaded. Above them, the interval and
        the estimate ``k / n``.

        References
        ----------
        Brown, Cai & DasGupta (2001), "Interval estimation for a binomial proportion",
        Statistical Science 16(2), section 4 (each interval as an inverted test).

        Examples
        --------
        >>> proportion_interval(12, 40, method="clopper-pearson").plot()  # doctest: +SKIP
        """


def proportion_interval(k, n, confidence=0.95, method="wald", sided="two", z=None):
    """Confidence interval for a true error rate from ``k`` errors in ``n`` test examples.

    Parameters
    ----------
    k, n : int
        Errors (or successes) and test-set size, ``0 <= k <= n``, ``n >= 1``.
    confidence : float
        Level in (0, 1).
    method : {"wald", "wilson", "clopper-pearson", "agresti-coull", "jeffreys"}
        Wald is the slides' ``p ± z sqrt(p(1-p)/n)``, clipped to [0, 1]; Wilson is the
        formula Witten & Frank use; Clopper-Pearson inverts the binomial exactly and
        never covers less than the nominal level. Agresti-Coull adds ``z^2/2`` successes
        and failures and then uses Wald's formula; Jeffreys takes the quantiles of the
        Beta(k + 1/2, n - k + 1/2) posterior (0 at k = 0, 1 at k = n). Brown, Cai &
        DasGupta recommend Wilson or Jeffreys for small n, Agresti-Coull for n >= 40.
    sided : {"two", "lower", "upper"}
        "lower": one-sided lower bound (high = 1); "upper": one-sided upper bound (low = 0).
    z : float, optional
        Override the critical value, e.g. ``z=1.28`` to reproduce a book's rounded 80%
        (normal-approximation methods only).

    Returns
    -------
    ProportionInterval
        ``estimate, low, high, confidence, sided, method, n, se`` (``se`` is the Wald
        standard error, None for the other methods), plus ``k`` and ``z`` used.

    Examples
    --------
    >>> r = proportion_interval(12, 40)          # Mitchell ch. 5
    >>> round(r.low, 3), round(r.high, 3)
    (0.158, 0.442)

    References
    ----------
    Brown, Cai & DasGupta (2001), "Interval estimation for a binomial proportion",
    Statistical Science 16(2); Agresti & Coull (1998), The American Statistician 52(2).
    """
    k = v.integer("k", k, low=0)
    n = v.integer("n", n, low=1)
    if k > n:
        raise ValueError(f"k must be <= n, got k={k} and n={n}")
    low, high = proportion_bounds(k, n, confidence, method, sided, z)
    if method not in _BETA_METHODS and z is None:
        z = z_critical(confidence, "two" if sided == "two" else "one")
    p = k / n
    se = math.sqrt(p * (1 - p) / n) if method == "wald" else None
    return ProportionInterval(p, low, high, float(confidence), sided, method, n, se, k,
                              None if z is None else float(z))


DIFFERENCE_METHODS = ("newcombe", "wald")


@result
class DifferenceInterval(WithInterval, Result):
    """A confidence interval for the difference of two independent rates ``k1/n1 - k2/n2``.

    Attributes
    ----------
    estimate : float
        The difference of the rates, ``p1 - p2``.
    low, high : float
        The interval's ends; ``confidence_interval()`` gives both.
    confidence : float
        The level asked for.
    method : {"newcombe", "wald"}
        The method.
    p1, p2 : float
        The two rates, ``k1 / n1`` and ``k2 / n2``.
    se : float or None
        Wald's standard error of the difference; None for Newcombe's interval.
    k1, n1, k2, n2 : int
        The counts and the test-set sizes.
    wilson1, wilson2 : tuple of float
        The two Wilson intervals Newcombe's method combines (empty for Wald).
    """

    estimate: float
    low: float
    high: float
    confidence: float
    method: str
    p1: float
    p2: float
    se: float | None
    k1: int = field(repr=False, default=0)
    n1: int = field(repr=False, default=1)
    k2: int = field(repr=False, default=0)
    n2: int = field(repr=False, default=1)
    wilson1: tuple = field(repr=False, default=())
    wilson2: tuple = field(repr=False, default=())

    def _explain(self):
        p1, p2, d = self.p1, self.p2, self.estimate
        head = (rf"\hat p_1 = \frac{{{self.k1}}}{{{self.n1}}} = {fmt(p1)},\quad "
                rf"\hat p_2 = \frac{{{self.k2}}}{{{self.n2}}} = {fmt(p2)},\quad \hat d = {fmt(d)}")
        if self.method == "wald":
            z = z_critical(self.confidence)
            formulas = [r"\hat d \pm z\sqrt{\frac{\hat p_1(1-\hat p_1)}{n_1} + \frac{\hat p_2(1-\hat p_2)}{n_2}}"]
            steps = [head, rf"{fmt(d)} \pm {fmt(z)} \times {fmt(self.se)}"]
            title = f"{pct(self.confidence)} Wald interval for a difference of rates"
        else:
            (l1, u1), (l2, u2) = self.wilson1, self.wilson2
            formulas = [r"[l_i, u_i] = \text{Wilson interval for } \hat p_i",
                        r"L = \hat d - \sqrt{(\hat p_1 - l_1)^2 + (u_2 - \hat p_2)^2},\quad "
                        r"U = \hat d + \sqrt{(u_1 - \hat p_1)^2 + (\hat p_2 - l_2)^2}"]
            steps = [head, rf"[l_1, u_1] = [{fmt(l1)},\ {fmt(u1)}],\quad [l_2, u_2] = [{fmt(l2)},\ {fmt(u2)}]",
                     rf"L = {fmt(d)} - \sqrt{{({fmt(p1)} - {fmt(l1)})^2 + ({fmt(u2)} - {fmt(p2)})^2}},\quad "
                     rf"U = {fmt(d)} + \sqrt{{({fmt(u1)} - {fmt(p1)})^2 + ({fmt(p2)} - {fmt(l2)})^2}}"]
            title = f"{pct(self.confidence)} Newcombe hybrid score interval for a difference of rates"
        steps.append(rf"[L, U] = [{fmt(self.low)},\ {fmt(self.high)}]")
        if self.low > 0 or self.high < 0:
            tail = (f"it excludes 0, so the two rates differ significantly at the {pct(1 - self.confidence)} level "
                    "(two-sided)")
        else:
            tail = ("it includes 0, so the data do not rule out equal rates; they allow differences from "
                    f"{plain(self.low)} to {plain(self.high)}")
        verdict = (f"The interval for the true difference p1 - p2 is [{plain(self.low)}, {plain(self.high)}] "
                   f"({pct(self.confidence)} of intervals built this way cover it, if the test sets are "
                   f"independent); {tail}.")
        return Explanation(title, formulas, steps, verdict)


def difference_interval(k1, n1, k2, n2, confidence=0.95, method="newcombe"):
    """Confidence interval for the difference of two error rates on independent test sets.

    Parameters
    ----------
    k1, n1, k2, n2 : int
        Errors and test-set sizes of the two hypotheses (``0 <= k <= n``, ``n >= 1``).
    confidence : float
        Level in (0, 1).
    method : {"newcombe", "wald"}
        "newcombe": Newcombe's hybrid score interval (method 10), built from the two
        Wilson intervals; it stays inside [-1, 1] and behaves well for small counts and
        rates near 0 or 1. "wald": ``d ± z sqrt(p1(1-p1)/n1 + p2(1-p2)/n2)``, the interval
        of :func:`compare_hypotheses` (Mitchell ch. 5), not clipped.

    Returns
    -------
    DifferenceInterval
        ``estimate`` (``p1 - p2``), ``low``, ``high``, ``confidence``, ``method``,
        ``p1``, ``p2``, ``se`` (Wald's standard error; None for Newcombe), the counts,
        and the Wilson intervals ``wilson1``, ``wilson2`` that Newcombe's method uses.

    References
    ----------
    Newcombe (1998), "Interval estimation for the difference between independent
    proportions: comparison of eleven methods", Statistics in Medicine 17, method 10.

    Examples
    --------
    >>> r = difference_interval(56, 70, 48, 80)          # Newcombe (1998), example (a)
    >>> round(r.low, 4), round(r.high, 4)
    (0.0524, 0.3339)
    """
    k1, n1 = v.integer("k1", k1, low=0), v.integer("n1", n1, low=1)
    k2, n2 = v.integer("k2", k2, low=0), v.integer("n2", n2, low=1)
    for k_name, k, n_name, n in (("k1", k1, "n1", n1), ("k2", k2, "n2", n2)):
        if k > n:
            raise ValueError(f"{k_name} must be <= {n_name}, got {k_name}={k} and {n_name}={n}")
    c = v.confidence("confidence", confidence)
    method = v.choice("method", method, DIFFERENCE_METHODS)
    p1, p2 = k1 / n1, k2 / n2
    d = p1 - p2
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    if method == "wald":
        half = z_critical(c) * se
        return DifferenceInterval(d, d - half, d + half, c, method, p1, p2, se, k1, n1, k2, n2)
    l1, u1 = _bounds(k1, n1, c, "wilson", "two", None)
    l2, u2 = _bounds(k2, n2, c, "wilson", "two", None)
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return DifferenceInterval(d, low, high, c, method, p1, p2, None, k1, n1, k2, n2, (l1, u1), (l2, u2))


@result
class TestSetSize(Result):
    """The smallest test set whose Wald interval is no wider than ``± half_width``.

    ``int(result)`` gives ``n``.

    Attributes
    ----------
    n : int
        The smallest test-set size (``int(result)`` gives it too).
    error : float
        The expected error rate planned for.
    half_width : float
        The wanted half-width of the interval.
    confidence : float
        The interval's level.
    z : float
        The two-sided critical value of that level.
    """

    n: int
    error: float
    half_width: float
    confidence: float
    z: float

    __test__ = False  # not a pytest test class despite its name

    def __int__(self):
        return self.n

    __index__ = __int__

    def _explain(self):
        e, h, z = self.error, self.half_width, self.z
        return Explanation(
            "Test-set size for a given precision",
            [r"z\sqrt{\frac{e(1-e)}{n}} \le h \iff n \ge \frac{z^2\, e(1-e)}{h^2}"],
            [rf"n \ge \frac{{{fmt(z)}^2 \times {fmt(e)}(1-{fmt(e)})}}{{{fmt(h)}^2}}"
             rf" = {fmt(z * z * e * (1 - e) / (h * h))}"],
            f"About {self.n} test examples give a {pct(self.confidence)} interval of ±{plain(h)} "
            f"around an error of {plain(e)}.",
        )


def test_set_size(error, half_width, confidence=0.95):
    """Smallest ``n`` with ``z sqrt(error (1 - error) / n) <= half_width``.

    Plans a test set so that the (Wald) interval for an expected error rate has the
    wanted half-width (Mitchell ch. 5; Witten & Frank ch. 5). Returns a result that shows
    the computation; ``int(result)`` or ``result.n`` is the number.

    Examples
    --------
    >>> test_set_size(0.25, 0.05).n
    289
    """
    e = v.probability("error", error, open_low=True, open_high=True)
    h = v.real("half_width", half_width, low=0.0, high=1.0, low_open=True)
    c = v.confidence("confidence", confidence)
    z = z_critical(c)
    need = z * z * e * (1 - e) / (h * h)
    n = max(1, math.ceil(need * (1 - 1e-12)))  # guard 100.00000000001 -> 101
    return TestSetSize(n, e, h, c, z)


test_set_size.__test__ = False  # keep pytest from collecting it when imported into a test module
