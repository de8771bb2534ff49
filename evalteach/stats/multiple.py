"""Comparing several algorithms (or several data sets) at once.

Demsar (2006) recommends the Friedman test on the ranks of k algorithms over N data sets,
with the Iman-Davenport F correction, followed by the Nemenyi critical difference.
Alpaydin (ch. 19) adds one-way ANOVA, Kruskal-Wallis and, for paired multivariate
differences, Hotelling's T^2. Where scipy has the test, the function here is a thin,
documented wrapper that returns a result showing the formula with the numbers put in.
"""
from __future__ import annotations

from dataclasses import field

import numpy as np
from scipy import stats as _st

from .. import _validate as v
from .._format import fmt, interval_text, p_text, pct, plain
from .._result import Explanation, Result, WithInterval, WithPValue, draws, result

__all__ = [
    "friedman_test", "FriedmanResult", "nemenyi_cd", "NemenyiCD", "friedman_posthoc", "FriedmanPosthoc", "anova_test", "AnovaResult",
    "kruskal_wallis_test", "KruskalWallisResult", "wilcoxon_test", "WilcoxonResult",
    "hotelling_t2_test", "HotellingResult", "cochran_q_test", "CochranQResult",
]

ALTERNATIVES = ("two-sided", "greater", "less")


def _verdict(p_value, claim, null, alpha=0.05, source=None):
    """Significant: the claim; not significant: the data do not rule out the null (which is not proof of it).
    ``source`` names the distribution the p comes from where that is not obvious."""
    p = f"{p_text(p_value)} ({source})" if source else p_text(p_value)
    if p_value < alpha:
        return f"{p}, below {plain(alpha)}: {claim} (significant at the {pct(alpha)} level)."
    return (f"{p}, not below {plain(alpha)}: not significant at the {pct(alpha)} level; "
            f"the data do not rule out that {null}.")


# --------------------------------------------------------------------------- Friedman


@result
class FriedmanResult(WithPValue, Result):
    """Friedman's rank test for k algorithms on N data sets, with Iman-Davenport's F.

    Attributes
    ----------
    average_ranks : ndarray, shape (k,)
        Each algorithm's average rank over the data sets (1 = best).
    statistic : float
        Friedman's chi2_F.
    p_value : float
        Its p-value from the chi-square distribution; ``pvalue`` is the same.
    iman_davenport : float
        Iman and Davenport's F_F.
    iman_davenport_p_value : float
        Its p-value from the F distribution with ``(k - 1, (k - 1)(N - 1))`` df.
    df : int
        ``k - 1``.
    k, n : int
        The numbers of algorithms and of data sets.
    tie_correction : bool
        Whether chi2_F was divided by the tie correction.
    tie_factor : float
        The tie correction ``1 - sum(t^3 - t) / (N k (k^2 - 1))``.
    """

    average_ranks: np.ndarray
    statistic: float
    p_value: float
    iman_davenport: float
    iman_davenport_p_value: float
    df: int
    k: int
    n: int
    tie_correction: bool = False
    tie_factor: float = 1.0

    @property
    def other_statistic(self):
        """chi2_F computed the other way (with the tie correction if this one has none, and vice versa)."""
        return self.statistic * self.tie_factor if self.tie_correction else self.statistic / self.tie_factor

    def critical_difference(self, alpha=0.05):
        """The Nemenyi critical difference for these k algorithms and N data sets (:func:`nemenyi_cd`)."""
        return nemenyi_cd(self.k, self.n, alpha)

    def groups(self, alpha=0.05):
        """The algorithms the Nemenyi test cannot tell apart at ``alpha``: maximal runs in rank
        order whose average ranks differ by less than the critical difference (Demšar's bars),
        as tuples of column indices, best first; an algorithm apart from all others is in none."""
        cd, ranks = self.critical_difference(alpha).cd, self.average_ranks
        return _runs_not_apart(ranks, lambda i, j: abs(ranks[i] - ranks[j]) >= cd)

    def _two_tests(self, alpha=0.05):
        """Demšar's chi2_F and Iman-Davenport's F_F, both named, and what they say together."""
        k, n = self.k, self.n
        both = (f"Friedman's χ²_F = {plain(self.statistic)} ({p_text(self.p_value)}, chi-square with {k - 1} df) "
                f"and Iman-Davenport's F_F = {plain(self.iman_davenport)} ({p_text(self.iman_davenport_p_value)}, "
                f"F with {k - 1} and {(k - 1) * (n - 1)} df; Demšar prefers it, χ²_F being conservative)")
        chi, f = self.p_value < alpha, self.iman_davenport_p_value < alpha
        if chi and f:
            return (f"{both}: both below {plain(alpha)}, the algorithms do not all perform equally well "
                    f"(significant at the {pct(alpha)} level).")
        if not (chi or f):
            return (f"{both}: neither below {plain(alpha)}, not significant at the {pct(alpha)} level; the data do "
                    "not rule out that all the algorithms perform equally well.")
        return (f"{both}: only {'F_F' if f else 'χ²_F'} is below {plain(alpha)}, so the evidence is borderline at "
                f"the {pct(alpha)} level: report both p-values.")

    def _explain(self):
        k, n, r = self.k, self.n, self.average_ranks
        squares = " + ".join(f"{fmt(x)}^2" for x in r)
        formulas = [
            r"\chi^2_F = \frac{12N}{k(k+1)}\left[\sum_j R_j^2 - \frac{k(k+1)^2}{4}\right]",
            r"F_F = \frac{(N-1)\,\chi^2_F}{N(k-1) - \chi^2_F}",
        ]
        chi = (rf"\chi^2_F = \frac{{12 \cdot {n}}}{{{k} \cdot {k + 1}}}\left[{squares} - "
               rf"\frac{{{k} \cdot {k + 1}^2}}{{4}}\right]")
        if self.tie_correction and self.tie_factor != 1.0:
            chi += rf" \Big/ {fmt(self.tie_factor)}\ \text{{(ties)}}"
        steps = [
            chi + rf" = {fmt(self.statistic)},\quad p = {fmt(self.p_value)}\ (\chi^2,\ {self.df}\ \text{{df}})",
            rf"F_F = \frac{{{n - 1} \cdot {fmt(self.statistic)}}}{{{n} \cdot {k - 1} - {fmt(self.statistic)}}}"
            rf" = {fmt(self.iman_davenport)},\quad p = {fmt(self.iman_davenport_p_value)}"
            rf"\ (F_{{{k - 1},\,{(k - 1) * (n - 1)}}})",
        ]
        verdict = self._two_tests()
        if self.tie_factor != 1.0:
            if self.tie_correction:
                verdict += (f" Without the tie correction (Demšar's textbook formula) "
                            f"χ²_F would be {plain(self.other_statistic)}.")
            else:
                verdict += (f" Some data sets have ties; dividing by the tie correction "
                            f"{plain(self.tie_factor)} (as scipy does) gives χ²_F = {plain(self.other_statistic)}.")
        return Explanation("Friedman test (χ²_F) and Iman-Davenport's F_F", formulas, steps, verdict)

    @draws("multiple", "friedman")
    def plot(self, ax=None, names=None, alpha=0.05):
        """Draw the critical-difference diagram: the average ranks and the Nemenyi critical difference.

        The algorithms' average ranks on a line (1 = best), each name at the end of its
        leader; the critical difference CD as a bar above, and thick bars joining the
        algorithms whose ranks differ by less than CD (``groups(alpha)``): those the
        Nemenyi test cannot tell apart. The title gives Friedman's and Iman-Davenport's p.

        Parameters
        ----------
        names : sequence of str, optional
            The algorithms' names, in the columns' order (default A1, A2, ...).
        alpha : float
            The level of the Nemenyi test.

        References
        ----------
        Demšar (2006), "Statistical comparisons of classifiers over multiple data sets",
        JMLR 7, section 3.2.2 and Fig. 1.

        Examples
        --------
        >>> from evalteach.example_scores import DEMSAR_ALGORITHMS, DEMSAR_AUC
        >>> friedman_test(DEMSAR_AUC).plot(names=DEMSAR_ALGORITHMS)  # doctest: +SKIP
        """


def _runs_not_apart(ranks, apart):
    """Maximal runs of algorithms in rank order (best first) no two of which ``apart(i, j)``
    tells apart; runs of one are left out."""
    order = [int(i) for i in np.argsort(ranks, kind="stable")]
    runs, reach = [], -1
    for start in range(len(order)):
        stop = start
        while stop + 1 < len(order) and not any(apart(order[i], order[stop + 1]) for i in range(start, stop + 1)):
            stop += 1
        if stop > start and stop > reach:
            runs.append(tuple(order[start:stop + 1]))
            reach = stop
    return tuple(runs)


def _friedman_ranks(scores, higher_is_better):
    """Validated (N, k) scores ranked within each row: 1 = best, ties share the average rank."""
    v.boolean("higher_is_better", higher_is_better)
    x = v.array("scores", scores, ndim=2)
    n, k = x.shape
    if n < 2 or k < 2:
        raise ValueError("scores must have at least 2 rows (data sets) and 2 columns (algorithms), "
                         f"got shape {x.shape}")
    return _st.rankdata(-x if higher_is_better else x, axis=1)


def friedman_test(scores, higher_is_better=True, tie_correction=False):
    """Friedman test of k algorithms over N data sets (Demsar 2006, section 3.2.2).

    Within each data set (row) the algorithms are ranked, the best getting rank 1 and
    ties sharing the average rank. The average ranks ``R_j`` give Friedman's
    ``chi2_F`` and Iman and Davenport's less conservative ``F_F`` with
    ``(k-1, (k-1)(N-1))`` degrees of freedom.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        Rows are data sets, columns algorithms; N >= 2, k >= 2.
    higher_is_better : bool
        True for accuracies/AUCs, False for error rates (only the ranks shown change).
    tie_correction : bool
        False (default): the textbook formula, as Demsar (2006) and the slides use it.
        True: divide ``chi2_F`` by ``1 - sum(t^3 - t) / (N k (k^2 - 1))`` over the
        groups of ``t`` tied ranks within rows, which equals
        ``scipy.stats.friedmanchisquare``. Without ties both agree; with ties the
        display gives the other value too.

    Returns
    -------
    FriedmanResult
        ``average_ranks, statistic, p_value, iman_davenport, iman_davenport_p_value, df, k, n,
        tie_correction, tie_factor`` and ``other_statistic``.

    Examples
    --------
    >>> r = friedman_test([[0.9, 0.8, 0.7], [0.85, 0.8, 0.6], [0.7, 0.75, 0.6]])
    >>> r.average_ranks.tolist()
    [1.3333333333333333, 1.6666666666666667, 3.0]
    """
    tie_correction = v.boolean("tie_correction", tie_correction)
    ranks = _friedman_ranks(scores, higher_is_better)
    n, k = ranks.shape
    average = ranks.mean(axis=0)
    _, counts = np.unique(np.column_stack([np.repeat(np.arange(n), k), ranks.ravel()]), axis=0,
                          return_counts=True)
    factor = 1.0 - float(np.sum(counts ** 3 - counts)) / (n * k * (k * k - 1))
    if factor <= 0:
        raise ValueError("scores must differ within at least one data set (row), got every row fully tied")
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(average ** 2) - k * (k + 1) ** 2 / 4.0)
    chi2 = float(chi2 / factor if tie_correction else chi2)
    p = float(_st.chi2.sf(chi2, k - 1))
    denominator = n * (k - 1) - chi2
    ff = (n - 1) * chi2 / denominator if denominator > 0 else float("inf")
    p_ff = float(_st.f.sf(ff, k - 1, (k - 1) * (n - 1)))
    return FriedmanResult(average, chi2, p, float(ff), p_ff, k - 1, k, n, bool(tie_correction), float(factor))


# --------------------------------------------------------------------------- Nemenyi


@result
class NemenyiCD(Result):
    """The Nemenyi critical difference of average ranks.

    Attributes
    ----------
    cd : float
        The critical difference of average ranks.
    q_alpha : float
        The studentized range quantile over sqrt(2).
    k, n : int
        The numbers of algorithms and of data sets.
    alpha : float
        The significance level.
    """

    cd: float
    q_alpha: float
    k: int
    n: int
    alpha: float

    def _explain(self):
        k, n = self.k, self.n
        formulas = [r"CD = q_\alpha \sqrt{\frac{k(k+1)}{6N}},\quad "
                    r"q_\alpha = \frac{q_{\text{range}}(1-\alpha;\,k,\,\infty)}{\sqrt 2}"]
        steps = [rf"CD = {fmt(self.q_alpha)} \sqrt{{\frac{{{k} \cdot {k + 1}}}{{6 \cdot {n}}}}} = {fmt(self.cd)}"]
        verdict = (f"Two of the {k} algorithms differ significantly at the {pct(self.alpha)} level "
                   f"when their average ranks differ by at least {plain(self.cd)}.")
        return Explanation("Nemenyi critical difference", formulas, steps, verdict)


def nemenyi_cd(k, n_datasets, alpha=0.05):
    """Critical difference of the Nemenyi post-hoc test (Demsar 2006, section 3.2.2).

    ``q_alpha`` is the studentized range quantile with infinite degrees of freedom
    divided by sqrt(2); for alpha = 0.05 and k = 2..10 it is Demsar's table
    1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164.

    Examples
    --------
    >>> round(nemenyi_cd(4, 14).cd, 3)
    1.254
    """
    k = v.integer("k", k, low=2)
    n = v.integer("n_datasets", n_datasets, low=1)
    a = v.probability("alpha", alpha, open_low=True, open_high=True)
    q = float(_st.studentized_range.ppf(1 - a, k, np.inf) / np.sqrt(2))
    return NemenyiCD(q * float(np.sqrt(k * (k + 1) / (6.0 * n))), q, k, n, a)


# --------------------------------------------------------------------------- post-hoc tests

POSTHOC_METHODS = ("nemenyi", "bonferroni-dunn", "holm", "hochberg")


def _adjust(p, method):
    """Family-wise adjusted p-values of the ``m = len(p)`` comparisons (Demsar 2006, section 3.2.2)."""
    m = p.size
    if method == "bonferroni-dunn":
        return np.minimum(p * m, 1.0)
    order = np.argsort(p, kind="stable")
    scaled = p[order] * (m - np.arange(m))  # the i-th smallest p (from 0) is compared with alpha/(m - i)
    if method == "holm":  # step down: stop at the first hypothesis not rejected
        adjusted = np.minimum(np.maximum.accumulate(scaled), 1.0)
    else:  # hochberg, step up: reject all up to the largest p_(i) <= alpha/(m - i)
        adjusted = np.minimum(np.minimum.accumulate(scaled[::-1])[::-1], 1.0)
    out = np.empty(m)
    out[order] = adjusted
    return out


@result
class FriedmanPosthoc(WithPValue, Result):
    """Post-hoc comparisons of average ranks after a Friedman test.

    Attributes
    ----------
    method : str
        "nemenyi", "bonferroni-dunn", "holm" or "hochberg".
    control : int or None
        The control's column, or None for all pairs.
    pairs : tuple of (int, int)
        The compared columns (the control second).
    average_ranks : ndarray, shape (k,)
        The average ranks (1 = best).
    statistic : ndarray
        Each pair's z.
    p_value : ndarray
        Each pair's unadjusted p-value; ``pvalue`` is the same.
    adjusted_p_value : ndarray
        Each pair's family-wise adjusted p-value.
    significant : ndarray of bool
        ``adjusted_p_value < alpha``.
    alpha : float
        The family-wise level.
    se : float
        ``sqrt(k (k + 1) / (6 N))``.
    k, n : int
        The numbers of algorithms and of data sets.
    names : tuple of str
        The algorithms' names.
    """

    method: str
    control: int | None
    pairs: tuple
    average_ranks: np.ndarray
    statistic: np.ndarray
    p_value: np.ndarray
    adjusted_p_value: np.ndarray
    significant: np.ndarray
    alpha: float
    se: float
    k: int
    n: int
    names: tuple = ()

    def groups(self):
        """The algorithms these post-hoc tests cannot tell apart, as tuples of column indices in
        rank order (best first). All pairs: maximal runs in which no pair differs significantly.
        Against a control: the control with every algorithm not significantly different from it
        (the others were not compared with each other)."""
        found = {frozenset(pair) for pair, sig in zip(self.pairs, self.significant) if sig}
        if self.control is None:
            return _runs_not_apart(self.average_ranks, lambda i, j: frozenset((i, j)) in found)
        order = np.argsort(self.average_ranks, kind="stable")
        group = tuple(int(i) for i in order if i == self.control or frozenset((int(i), self.control)) not in found)
        return (group,) if len(group) > 1 else ()

    def _explain(self):
        k, n = self.k, self.n
        adjust = {"nemenyi": r"p_{adj} = P\left(q_{k,\infty} \ge \sqrt2\,|z|\right)\ "
                             r"(q_{k,\infty}\text{: studentized range of } k \text{ means, infinite df})",
                  "bonferroni-dunn": r"p_{adj} = \min(1,\ m\,p)",
                  "holm": r"p_{(i)} \text{ against } \alpha/(m - i + 1),\ \text{step down}",
                  "hochberg": r"p_{(i)} \text{ against } \alpha/(m - i + 1),\ \text{step up}"}[self.method]
        formulas = [r"z = \frac{R_i - R_j}{\sqrt{k(k+1)/(6N)}},\quad p = 2\,(1 - \Phi(|z|)),\quad " + adjust]
        steps = [rf"\sqrt{{\frac{{{k} \cdot {k + 1}}}{{6 \cdot {n}}}}} = {fmt(self.se)},\quad m = {len(self.pairs)}"]
        for (i, j), z, p, q in zip(self.pairs, self.statistic, self.p_value, self.adjusted_p_value):
            steps.append(rf"\text{{{self.names[i]} vs {self.names[j]}}}:\ z = \frac{{{fmt(self.average_ranks[i])} - "
                         rf"{fmt(self.average_ranks[j])}}}{{{fmt(self.se)}}} = {fmt(z)},\ p = {fmt(p)},\ "
                         rf"p_{{adj}} = {fmt(q)}")
        found = [f"{self.names[i]} and {self.names[j]}" for (i, j), sig in zip(self.pairs, self.significant) if sig]
        level = f"at the {pct(self.alpha)} family-wise level ({self.method})"
        rest = len(self.pairs) - len(found)
        if found:
            verdict = f"The average ranks differ significantly {level} for " + "; ".join(found)
            if rest:
                others = "other comparison" if rest == 1 else f"other {rest} comparisons"
                verdict += f"; for the {others} the data do not rule out equal performance"
            verdict += "."
        else:
            verdict = (f"No difference is significant {level}: the data do not rule out that the compared "
                       f"algorithms perform equally well.")
        title = "Post-hoc tests after Friedman" + (f" (control: {self.names[self.control]})"
                                                   if self.control is not None else " (all pairs)")
        return Explanation(title, formulas, steps, verdict)

    @draws("multiple", "friedman_posthoc")
    def plot(self, ax=None):
        """Draw the critical-difference diagram with the algorithms the post-hoc tests cannot tell apart joined.

        As :meth:`FriedmanResult.plot`, with the bars given by these tests (``groups()``):
        for all pairs, the maximal runs in rank order with no significant pair; against a
        control (its name in bold), the control with every algorithm not significantly
        different from it.

        References
        ----------
        Demšar (2006), JMLR 7, section 3.2.2 and Fig. 1-2.

        Examples
        --------
        >>> from evalteach.example_scores import DEMSAR_ALGORITHMS, DEMSAR_AUC
        >>> friedman_posthoc(DEMSAR_AUC, control=0, names=DEMSAR_ALGORITHMS).plot()  # doctest: +SKIP
        """


def friedman_posthoc(scores, control=None, method="holm", alpha=0.05, higher_is_better=True, names=None):
    """Post-hoc comparisons of k algorithms over N data sets after a Friedman test (Demsar 2006, section 3.2.2).

    For algorithms i and j with average ranks ``R_i, R_j`` (1 = best),
    ``z = (R_i - R_j) / sqrt(k(k+1) / (6N))`` is compared with the normal distribution; the
    p-values of the ``m`` comparisons are then adjusted for multiple testing.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        Rows are data sets, columns algorithms.
    control : int or str, optional
        Column index (or name, with ``names``) of the control: compare every other algorithm
        with it (m = k - 1). None: all pairs (m = k(k-1)/2).
    method : {"holm", "hochberg", "bonferroni-dunn", "nemenyi"}
        "nemenyi" (all pairs only): the studentized range, the test behind the critical difference
        of :func:`nemenyi_cd`. "bonferroni-dunn": ``min(1, m p)``. "holm" (Holm 1979): step down,
        the i-th smallest p against ``alpha / (m - i + 1)``. "hochberg" (Hochberg 1988): step up with
        the same thresholds. Demsar recommends Holm for comparisons against a control.
    alpha : float
        Family-wise significance level.
    higher_is_better : bool
        True for accuracies/AUCs, False for error rates.
    names : sequence of str, optional
        Algorithm names for the display (default A1, A2, ...).

    Returns
    -------
    FriedmanPosthoc
        ``pairs`` ((i, j) column indices; j the control when there is one), ``statistic`` (z),
        ``p_value``, ``adjusted_p_value``, ``significant`` (adjusted p < alpha), ``se``.

    Examples
    --------
    Demsar's example, C4.5 (column 0) as the control on his Table 6:

    >>> from evalteach.example_scores import DEMSAR_AUC
    >>> r = friedman_posthoc(DEMSAR_AUC, control=0, method="holm")
    >>> r.p_value.round(3).tolist(), r.significant.tolist()
    ([0.019, 0.608, 0.016], [True, False, True])
    """
    ranks = _friedman_ranks(scores, higher_is_better)
    n, k = ranks.shape
    v.choice("method", method, POSTHOC_METHODS)
    a = v.probability("alpha", alpha, open_low=True, open_high=True)
    if names is None:
        names = tuple(f"A{i + 1}" for i in range(k))
    names = v.names("names", names, k, "one per column of scores")
    if control is not None:
        if isinstance(control, str):
            if control not in names:
                raise ValueError(f"control must be one of the names {names!r}, got {control!r}")
            control = names.index(control)
        else:
            control = v.integer("control", control, low=0, high=k - 1)
        if method == "nemenyi":
            raise ValueError("method 'nemenyi' compares all pairs (control=None); against a control use "
                             f"'holm', 'hochberg' or 'bonferroni-dunn', got control={control!r}")
        pairs = tuple((j, control) for j in range(k) if j != control)
    else:
        pairs = tuple((i, j) for i in range(k) for j in range(i + 1, k))
    average = ranks.mean(axis=0)
    se = float(np.sqrt(k * (k + 1) / (6.0 * n)))
    first, second = np.array(pairs).T
    z = (average[first] - average[second]) / se
    p = 2 * _st.norm.sf(np.abs(z))
    if method == "nemenyi":
        adjusted = _st.studentized_range.sf(np.sqrt(2) * np.abs(z), k, np.inf)
    else:
        adjusted = _adjust(p, method)
    return FriedmanPosthoc(method, control, pairs, average, z, p, adjusted, adjusted < a, a, se, k, n, names)


# --------------------------------------------------------------------------- ANOVA / Kruskal-Wallis


def _groups(groups):
    if len(groups) < 2:
        raise ValueError(f"groups must be at least 2 samples, got {len(groups)}")
    return [v.array(f"groups[{i}]", g) for i, g in enumerate(groups)]


@result
class AnovaResult(WithPValue, Result):
    """One-way analysis of variance.

    Attributes
    ----------
    statistic : float
        F.
    p_value : float
        Its p-value; ``pvalue`` is the same.
    df_between, df_within : int
        ``k - 1`` and ``n - k``.
    ss_between, ss_within : float
        The sums of squares between and within the groups.
    """

    statistic: float
    p_value: float
    df_between: int
    df_within: int
    ss_between: float
    ss_within: float

    def _explain(self):
        formulas = [r"F = \frac{SS_b/(k-1)}{SS_w/(n-k)},\quad SS_b = \sum_j n_j(\bar x_j - \bar x)^2,"
                    r"\quad SS_w = \sum_j\sum_i (x_{ij} - \bar x_j)^2"]
        steps = [rf"F = \frac{{{fmt(self.ss_between)}/{self.df_between}}}{{{fmt(self.ss_within)}/{self.df_within}}}"
                 rf" = {fmt(self.statistic)},\quad p = {fmt(self.p_value)}"]
        return Explanation("One-way ANOVA", formulas, steps,
                           _verdict(self.p_value, "the group means are not all equal",
                                    "the group means are all equal"))


def anova_test(*groups):
    """One-way ANOVA: do k groups (e.g. algorithms' fold errors) share one mean? (Alpaydin ch. 19).

    A wrapper over ``scipy.stats.f_oneway`` that also reports the sums of squares.

    Examples
    --------
    >>> round(anova_test([1, 2, 3], [2, 3, 4], [5, 6, 7]).statistic, 3)
    13.0
    """
    gs = _groups(groups)
    if sum(g.size for g in gs) <= len(gs):
        raise ValueError("groups must hold more values in total than there are groups, "
                         f"got sizes {[g.size for g in gs]}")
    grand = np.concatenate(gs).mean()
    ssb = float(sum(g.size * (g.mean() - grand) ** 2 for g in gs))
    ssw = float(sum(np.sum((g - g.mean()) ** 2) for g in gs))
    if ssw == 0:
        raise ValueError("groups must vary within at least one group, got every group constant")
    res = _st.f_oneway(*gs)
    n = sum(g.size for g in gs)
    return AnovaResult(float(res.statistic), float(res.pvalue), len(gs) - 1, n - len(gs), ssb, ssw)


@result
class KruskalWallisResult(WithPValue, Result):
    """Kruskal-Wallis H test on ranks.

    Attributes
    ----------
    statistic : float
        H (with the tie correction).
    p_value : float
        Its chi-square p-value; ``pvalue`` is the same.
    df : int
        ``k - 1``.
    mean_ranks : ndarray
        Each group's mean rank in the pooled sample.
    """

    statistic: float
    p_value: float
    df: int
    mean_ranks: np.ndarray

    def _explain(self):
        formulas = [r"H = \frac{\frac{12}{n(n+1)}\sum_j n_j \bar R_j^2 - 3(n+1)}"
                    r"{1 - \sum_t (t^3 - t)/(n^3 - n)}\ \sim\ \chi^2_{k-1}"]
        ranks = ", ".join(fmt(r) for r in self.mean_ranks)
        steps = [rf"\bar R = ({ranks}),\quad H = {fmt(self.statistic)},\quad p = {fmt(self.p_value)}"
                 rf"\ (\chi^2,\ {self.df}\ \text{{df}})"]
        return Explanation("Kruskal-Wallis test", formulas, steps,
                           _verdict(self.p_value, "the groups do not all come from one distribution",
                                    "the groups all come from one distribution",
                                    source=f"chi-square approximation, {self.df} df"))


def kruskal_wallis_test(*groups):
    """Kruskal-Wallis test, the rank-based ANOVA (Alpaydin ch. 19); wraps ``scipy.stats.kruskal``.

    Examples
    --------
    >>> round(kruskal_wallis_test([1, 2, 3], [4, 5, 6]).statistic, 3)
    3.857
    """
    gs = _groups(groups)
    ranks = _st.rankdata(np.concatenate(gs))
    if np.all(ranks == ranks[0]):
        raise ValueError("groups must not all hold the same single value (every rank would tie)")
    bounds = np.cumsum([0] + [g.size for g in gs])
    mean_ranks = np.array([ranks[a:b].mean() for a, b in zip(bounds[:-1], bounds[1:])])
    res = _st.kruskal(*gs)
    return KruskalWallisResult(float(res.statistic), float(res.pvalue), len(gs) - 1, mean_ranks)


# --------------------------------------------------------------------------- Wilcoxon


ZERO_METHODS = ("zsplit", "wilcox", "pratt")


@result
class WilcoxonResult(WithPValue, WithInterval, Result):
    """Wilcoxon signed-rank test on paired differences, with the Hodges-Lehmann estimate of the shift.

    Attributes
    ----------
    statistic : float
        ``min(R+, R-)`` two-sided, ``R+`` one-sided (as scipy).
    p_value : float
        The p-value; ``pvalue`` is the same; ``p_method`` says where it comes from.
    r_plus, r_minus : float
        The rank sums of the positive and the negative differences.
    n : int
        The number of differences ranked.
    alternative : {"two-sided", "greater", "less"}
        The alternative hypothesis.
    zero_method : {"zsplit", "wilcox", "pratt"}
        How zero differences count.
    n_zero : int
        The number of zero differences.
    hodges_lehmann : float
        The Hodges-Lehmann estimate of the shift.
    hl_low, hl_high : float
        Its interval; ``confidence_interval()`` gives both.
    confidence : float
        The interval's level; the verdict tests at ``1 - confidence``.
    hl_rank, n_walsh : int
        k and M of the interval ``[W_(k), W_(M+1-k)]`` of Walsh averages.
    p_method : {"exact", "conditional", "normal"}
        The p-value's distribution: the exact distribution of R+, the exact conditional one
        over all sign patterns of tied ranks, or the normal approximation (``p_distribution``
        says it in words).
    differences : ndarray
        All the differences ``a - b`` (rounded to 12 decimals), zeros included.
    ranks : ndarray
        Each difference's rank of ``|a - b|``; NaN where a zero was dropped.
    """

    _interval = ("hl_low", "hl_high")  # confidence_interval(): the Hodges-Lehmann interval for the shift

    statistic: float
    p_value: float
    r_plus: float
    r_minus: float
    n: int
    alternative: str
    zero_method: str = "zsplit"
    n_zero: int = 0
    hodges_lehmann: float = np.nan
    hl_low: float = np.nan
    hl_high: float = np.nan
    confidence: float = field(default=0.95, repr=False)
    hl_rank: int = field(default=0, repr=False)
    n_walsh: int = field(default=0, repr=False)
    p_method: str = "normal"
    differences: np.ndarray | None = field(default=None, repr=False)
    ranks: np.ndarray | None = field(default=None, repr=False)

    @property
    def p_distribution(self):
        """Where the p-value comes from, in words (``p_method`` is "exact", "conditional" or "normal")."""
        return {"exact": f"exact distribution of R+ over all 2^{self.n} sign patterns",
                "conditional": f"exact conditional distribution over all 2^{self.n} sign patterns of these tied ranks",
                "normal": "normal approximation of R+, variance corrected for ties, no continuity correction"
                }[self.p_method]

    def _explain(self):
        zeros = {"zsplit": r" + \tfrac12 \sum_{d_i = 0} \operatorname{rank}(|d_i|)",
                 "wilcox": "", "pratt": ""}[self.zero_method]
        formulas = [rf"R^+ = \sum_{{d_i > 0}} \operatorname{{rank}}(|d_i|){zeros},\quad "
                    rf"R^- = \sum_{{d_i < 0}} \operatorname{{rank}}(|d_i|){zeros}",
                    r"\hat\theta_{HL} = \operatorname{median}_{i \le j} \frac{d_i + d_j}{2},\quad "
                    r"W_{(1)} \le \dots \le W_{(M)}\ \text{the } M = \tfrac{n(n+1)}{2} \text{ Walsh averages}"]
        stat = r"T = \min(R^+, R^-)" if self.alternative == "two-sided" else r"T = R^+"
        handled = {"zsplit": "ranked, rank split evenly between R+ and R-",
                   "wilcox": "dropped before ranking",
                   "pratt": "ranked, then left out of both sums"}[self.zero_method]
        k, m = self.hl_rank, self.n_walsh
        bound = {"two-sided": rf"[W_{{({k})}},\ W_{{({m + 1 - k})}}]", "greater": rf"[W_{{({k})}},\ \infty)",
                 "less": rf"(-\infty,\ W_{{({m + 1 - k})}}]"}[self.alternative]
        steps = [rf"R^+ = {fmt(self.r_plus)},\ R^- = {fmt(self.r_minus)},\ N = {self.n}"
                 rf"\ ({self.n_zero}\ \text{{zero differences {handled}}}),\quad "
                 rf"{stat} = {fmt(self.statistic)},\quad p = {fmt(self.p_value)}",
                 {"exact": rf"p:\ \text{{the exact distribution of }} R^+ \text{{ (all }} 2^{{{self.n}}}"
                           r"\text{ sign patterns)}",
                  "conditional": rf"p:\ \text{{the exact conditional distribution (all }} 2^{{{self.n}}}"
                                 r"\text{ sign patterns of these tied ranks)}",
                  "normal": r"p:\ \text{the normal approximation of } R^+ \text{ (variance corrected for ties, "
                            r"no continuity correction)}"}[self.p_method],
                 rf"\hat\theta_{{HL}} = {fmt(self.hodges_lehmann)},\quad M = {m},\ k = {k}:\ "
                 + (rf"{bound} = [{fmt(self.hl_low)},\ {fmt(self.hl_high)}]" if k else
                    r"\text{too few differences for a bound at this level}")]
        return Explanation("Wilcoxon signed-rank test", formulas, steps, self._verdict())

    def _verdict(self):
        alpha = 1 - self.confidence
        sums = f"R+ = {plain(self.r_plus)}, R- = {plain(self.r_minus)}"
        tendency = ("a - b tends to be positive" if self.r_plus > self.r_minus else
                    "a - b tends to be negative" if self.r_plus < self.r_minus else "neither sign dominates")
        side = "two-sided" if self.alternative == "two-sided" else "one-sided, direction fixed in advance"
        size = (f"the Hodges-Lehmann estimate of the shift is {plain(self.hodges_lehmann)}, and "
                + interval_text(self.hl_low, self.hl_high, self.confidence, "it"))
        if self.p_value < alpha:
            where = "in these data " if self.alternative == "two-sided" else "as H1 fixed in advance says, "
            return (f"{p_text(self.p_value)} ({self.p_distribution}), below {plain(alpha)}: rank sums this "
                    f"lopsided ({sums}) are unlikely if "
                    f"the differences were symmetric around 0 (significant at the {pct(alpha)} level, {side}); "
                    f"{where}{tendency}; {size} gives its size.")
        return (f"{p_text(self.p_value)} ({self.p_distribution}), not below {plain(alpha)}: not significant "
                f"at the {pct(alpha)} level "
                f"({side}, {sums}); the data do not rule out differences symmetric around 0. In these data "
                f"{tendency}; {size} shows the shifts they allow.")


#: Up to this many differences the Hodges-Lehmann interval uses the exact null distribution of R+.

    @draws("multiple", "wilcoxon")
    def plot(self, ax=None, show_p=True):
        """Draw the signed differences sorted by size with their ranks, and the Hodges-Lehmann estimate.

        One bar per difference a - b, sorted by its absolute value (the order in which the
        test ranks them; each bar's rank under it), positive ones adding to R+, negative
        ones to R-; zero differences as diamonds, handled as ``zero_method`` says (split
        half to each sum, dropped, or ranked and left out). The Hodges-Lehmann estimate of
        the shift as a line, its interval for the shift as a band. The title gives p and the
        distribution it comes from (``p_method``), unless ``show_p`` is False.

        Parameters
        ----------
        show_p : bool
            Whether the title gives the p-value (False, for instance, to show the picture
            before a prediction about p).

        References
        ----------
        Wilcoxon (1945), Biometrics Bulletin 1(6); Demšar (2006), JMLR 7, section 3.1.3;
        Hollander & Wolfe (1999), *Nonparametric Statistical Methods*, section 3.2.

        Examples
        --------
        >>> from evalteach.example_scores import DEMSAR_AUC
        >>> wilcoxon_test(DEMSAR_AUC[:, 1], DEMSAR_AUC[:, 0]).plot()  # doctest: +SKIP
        """


HL_EXACT_MAX = 200


def _walsh_rank(n, tail):
    """k such that [W_(k), W_(M+1-k)] needs P(R+ <= k - 1) <= tail (0: no bound), Hollander & Wolfe (1999) 3.2."""
    m = n * (n + 1) // 2
    if n <= HL_EXACT_MAX:
        probability = np.ones(1)  # the exact null distribution of R+ for n untied non-zero differences
        for i in range(1, n + 1):
            probability = (np.concatenate([probability, np.zeros(i)]) + np.concatenate([np.zeros(i), probability])) / 2
        return int(np.sum(np.cumsum(probability) <= tail * (1 + 1e-9)))
    sd = np.sqrt(n * (n + 1) * (2 * n + 1) / 24)  # normal approximation with continuity correction
    return int(min(max(np.floor(m / 2 + 0.5 + _st.norm.ppf(tail) * sd), 0), m // 2))


def _hodges_lehmann(d, alternative, confidence):
    """The median of the Walsh averages and its distribution-free interval (or one-sided bound)."""
    n = d.size
    i, j = np.triu_indices(n)
    walsh = np.sort((d[i] + d[j]) / 2)
    m = walsh.size
    alpha = 1 - confidence
    k = _walsh_rank(n, alpha / 2 if alternative == "two-sided" else alpha)
    low = float(walsh[k - 1]) if k and alternative != "less" else -np.inf
    high = float(walsh[m - k]) if k and alternative != "greater" else np.inf
    return float(np.median(walsh)), low, high, k, m


def wilcoxon_test(a, b=None, alternative="two-sided", zero_method="zsplit", confidence=0.95):
    """Wilcoxon signed-rank test of paired scores (Demsar 2006, section 3.1.3), with the
    Hodges-Lehmann estimate (Hodges & Lehmann 1963; Hollander & Wolfe 1999, section 3.2).

    ``a`` and ``b`` are the two algorithms' scores per data set (or ``a`` alone holds
    the differences ``a - b``). Differences are rounded to 12 decimals so that equal
    scores written with float noise tie. Wraps ``scipy.stats.wilcoxon`` with the same
    ``zero_method``: the statistic is ``min(R+, R-)`` two-sided and ``R+`` one-sided.
    The test asks whether the differences could be symmetric around 0; rank sums far
    from ``N(N+1)/4`` say they are not.

    Beside the test, the size of the shift: the Hodges-Lehmann estimate is the median of
    the ``M = N(N+1)/2`` Walsh averages ``(d_i + d_j)/2, i <= j`` of all N differences
    (zeros included), and ``[W_(k), W_(M+1-k)]`` is the distribution-free interval that
    inverts the test: ``k - 1`` is the largest ``t`` with ``P(R+ <= t) <= alpha/2`` under
    the exact null distribution for N untied differences (the tabled critical values;
    a normal approximation for N > ``HL_EXACT_MAX``). With ties the level is approximate.
    One-sided alternatives get the matching one-sided bound.

    Parameters
    ----------
    alternative : {"two-sided", "greater", "less"}
        "greater": the differences ``a - b`` tend to be positive (fixed in advance).
    zero_method : {"zsplit", "wilcox", "pratt"}
        How zero differences (ties between the algorithms) count. "zsplit" (default,
        Demsar's rule): they are ranked with the others and each zero's rank goes half
        to R+ and half to R-. (Demsar also ignores one zero when their number is odd; like
        scipy, this function keeps them all.) "wilcox": zeros are dropped before ranking
        (Wilcoxon 1945). "pratt": zeros are ranked, then left out of both sums (Pratt 1959).
    confidence : float
        Level of the Hodges-Lehmann interval; the verdict tests at ``alpha = 1 - confidence``.

    Returns
    -------
    WilcoxonResult
        ``statistic, p_value, r_plus, r_minus, n, alternative, zero_method, n_zero``, and
        ``hodges_lehmann, hl_low, hl_high`` (infinite on the open side of a one-sided bound,
        and both infinite when N is too small for any bound), ``hl_rank`` (k), ``n_walsh`` (M).

    Examples
    --------
    Demsar's (2006) Table 2, C4.5+m against C4.5 (two ties, split):

    >>> from evalteach.example_scores import DEMSAR_AUC
    >>> r = wilcoxon_test(DEMSAR_AUC[:, 1], DEMSAR_AUC[:, 0])
    >>> r.r_plus, r.r_minus, r.statistic
    (93.0, 12.0, 12.0)
    >>> round(r.hl_low, 3), round(r.hl_high, 3)
    (0.003, 0.028)
    """
    v.choice("alternative", alternative, ALTERNATIVES)
    v.choice("zero_method", zero_method, ZERO_METHODS)
    conf = v.confidence("confidence", confidence)
    x = v.array("a", a)
    if b is not None:
        y = v.array("b", b)
        v.same_length(a=x, b=y)
        x = x - y
    d = np.round(x, 12)
    zero = d == 0
    n_zero = int(zero.sum())
    if np.all(zero):
        raise ValueError("a must hold at least one non-zero difference, got all differences zero")
    hl = _hodges_lehmann(d, alternative, conf)
    all_d, kept = d, ~zero if zero_method == "wilcox" else np.ones(d.size, bool)
    d, zero = d[kept], zero[kept]
    ranks = _st.rankdata(np.abs(d))
    split = ranks[zero].sum() / 2 if zero_method == "zsplit" else 0.0
    r_plus, r_minus = float(ranks[d > 0].sum() + split), float(ranks[d < 0].sum() + split)
    p_method = _wilcoxon_p_method(d, ranks)
    method = {"exact": "exact", "conditional": _st.PermutationMethod(), "normal": "asymptotic"}[p_method]
    res = _st.wilcoxon(d, alternative=alternative, zero_method=zero_method, method=method)
    all_ranks = np.full(all_d.size, np.nan)
    all_ranks[kept] = ranks
    return WilcoxonResult(float(res.statistic), float(res.pvalue), r_plus, r_minus, int(d.size), alternative,
                          zero_method, n_zero, *hl[:3], conf, *hl[3:], p_method, all_d, all_ranks)


def _wilcoxon_p_method(d, ranks):
    """Which null distribution gives the p-value (scipy 1.13+'s rule for method="auto", chosen
    here and passed on so that the display can name it): the exact distribution of R+ for up
    to 50 differences without ties or zeros; with ties or zeros, the exact conditional
    distribution over all 2^N sign patterns (a permutation test) for N <= 13, else the
    normal approximation; the normal approximation for N > 50."""
    if d.size > 50:
        return "normal"
    if np.unique(ranks).size == ranks.size and not np.any(d == 0):
        return "exact"
    return "conditional" if d.size <= 13 else "normal"


# --------------------------------------------------------------------------- Hotelling


@result
class HotellingResult(WithPValue, Result):
    """Hotelling's one-sample T^2 test that paired multivariate differences have mean zero.

    Attributes
    ----------
    statistic : float
        T^2.
    f_statistic : float
        ``(n - p) / (p (n - 1)) T^2``.
    p_value : float
        Its F p-value; ``pvalue`` is the same.
    df : tuple of int
        ``(p, n - p)``.
    mean_difference : ndarray, shape (p,)
        The mean difference vector.
    n, p : int
        The numbers of runs and of measures.
    """

    statistic: float
    f_statistic: float
    p_value: float
    df: tuple
    mean_difference: np.ndarray
    n: int
    p: int

    def _explain(self):
        n, p = self.n, self.p
        formulas = [r"T^2 = n\,\bar d^{\top} S^{-1} \bar d,\quad F = \frac{n-p}{p(n-1)}\,T^2 \sim F_{p,\,n-p}"]
        steps = [rf"T^2 = {fmt(self.statistic)},\quad F = \frac{{{n} - {p}}}{{{p} \cdot {n - 1}}} \times "
                 rf"{fmt(self.statistic)} = {fmt(self.f_statistic)},\quad p = {fmt(self.p_value)}"]
        mean = f" The mean differences are ({', '.join(plain(m) for m in self.mean_difference)})."
        return Explanation("Hotelling's T² test (paired, multivariate)", formulas, steps,
                           _verdict(self.p_value, "the mean difference vector is not zero",
                                    "the mean difference vector is zero") + mean)


def hotelling_t2_test(differences):
    """Hotelling's T^2 on paired multivariate differences (Alpaydin ch. 19, multivariate tests).

    Each row of ``differences`` is one paired run (e.g. a fold), each column one
    measure (e.g. the error on each class) as algorithm A minus algorithm B.

    Parameters
    ----------
    differences : array_like, shape (n, p)
        Needs ``n > p`` and a non-singular covariance.

    Examples
    --------
    >>> d = [[0.1, 0.2], [0.0, 0.1], [0.2, 0.1], [0.1, 0.3], [0.15, 0.2]]
    >>> r = hotelling_t2_test(d)
    >>> r.df
    (2, 3)
    """
    d = v.array("differences", differences, ndim=2)
    n, p = d.shape
    if n <= p:
        raise ValueError(f"differences must have more rows than columns (n > p), got shape {d.shape}")
    mean = d.mean(axis=0)
    cov = np.cov(d, rowvar=False, ddof=1).reshape(p, p)
    if np.linalg.matrix_rank(cov) < p:
        raise ValueError(f"differences must have a non-singular covariance matrix, got rank "
                         f"{np.linalg.matrix_rank(cov)} < {p}")
    t2 = float(n * mean @ np.linalg.solve(cov, mean))
    f = (n - p) / (p * (n - 1)) * t2
    return HotellingResult(t2, float(f), float(_st.f.sf(f, p, n - p)), (p, n - p), mean, n, p)


# --------------------------------------------------------------------------- Cochran's Q


@result
class CochranQResult(WithPValue, Result):
    """Cochran's Q test that k classifiers have the same accuracy on one test set.

    Attributes
    ----------
    statistic : float
        Q.
    p_value : float
        Its chi-square p-value; ``pvalue`` is the same.
    df : int
        ``k - 1``.
    accuracies : ndarray, shape (k,)
        Each classifier's accuracy.
    column_totals : ndarray of int, shape (k,)
        Each classifier's count of right answers ``C_j``.
    row_sum_squares : float
        ``sum_i R_i^2``.
    total : int
        ``T = sum_j C_j``.
    k, n : int
        The numbers of classifiers and of examples.
    """

    statistic: float
    p_value: float
    df: int
    accuracies: np.ndarray
    column_totals: np.ndarray
    row_sum_squares: float
    total: int
    k: int
    n: int

    def _explain(self):
        k, C, T = self.k, self.column_totals, self.total
        formulas = [r"Q = \frac{(k-1)\left[k \sum_j C_j^2 - T^2\right]}{k\,T - \sum_i R_i^2}\ \sim\ \chi^2_{k-1},"
                    r"\quad C_j = \text{correct of classifier } j,\ R_i = \text{classifiers right on example } i"]
        squares = " + ".join(f"{int(c)}^2" for c in C)
        steps = [rf"Q = \frac{{{k - 1}\left[{k}({squares}) - {T}^2\right]}}{{{k} \cdot {T} - "
                 rf"{fmt(self.row_sum_squares)}}} = {fmt(self.statistic)},\quad p = {fmt(self.p_value)}"
                 rf"\ (\chi^2,\ {self.df}\ \text{{df}})"]
        accuracies = ", ".join(plain(a) for a in self.accuracies)
        verdict = _verdict(self.p_value, "the classifiers do not all have the same accuracy",
                           "the classifiers all have the same accuracy",
                           source=f"chi-square approximation, {self.df} df") + (
            f" (Accuracies {accuracies} on the same {self.n} examples.)")
        return Explanation("Cochran's Q test", formulas, steps, verdict)


def cochran_q_test(y_true, *predictions):
    """Cochran's Q test of k >= 2 classifiers' accuracies on one shared test set (Cochran 1950).

    The extension of McNemar's test to k classifiers: with ``X[i, j] = 1`` when classifier
    j is right on example i, ``C_j`` the column totals, ``R_i`` the row totals and ``T``
    their sum, ``Q = (k-1)[k sum C_j^2 - T^2] / (k T - sum R_i^2)`` is approximately
    chi-square with k-1 degrees of freedom under the null hypothesis that all
    classifiers have the same accuracy. For k = 2 it is McNemar's chi-square without
    continuity correction. Like McNemar it sees one test set, not the variation due
    to the training set. Equals ``statsmodels.stats.contingency_tables.cochrans_q``.

    Parameters
    ----------
    y_true : array_like
        True class labels (any labels, compared with ``==``).
    *predictions : array_like
        Each classifier's predicted labels, same length as ``y_true``.

    Returns
    -------
    CochranQResult
        ``statistic, p_value, df, accuracies, column_totals, row_sum_squares, total, k, n``.

    Examples
    --------
    >>> y = [1, 0, 1, 1, 0, 1, 0, 0]
    >>> r = cochran_q_test(y, [1, 0, 1, 1, 0, 1, 0, 0], [1, 1, 0, 1, 0, 1, 1, 0], [0, 1, 0, 1, 1, 1, 0, 0])
    >>> r.column_totals.tolist(), round(r.statistic, 3)
    ([8, 5, 4], 5.2)
    """
    if len(predictions) < 2:
        raise ValueError(f"predictions must be at least 2 arrays (one per classifier), got {len(predictions)}")
    y = _labels("y_true", y_true)
    columns = []
    for i, p in enumerate(predictions):
        p = _labels(f"predictions[{i}]", p)
        if p.size != y.size:
            raise ValueError(f"arrays must have the same length: y_true has {y.size}, predictions[{i}] has {p.size}")
        columns.append(p == y)
    x = np.column_stack(columns).astype(int)
    n, k = x.shape
    C, R = x.sum(axis=0), x.sum(axis=1)
    T = int(C.sum())
    denominator = k * T - float(np.sum(R ** 2))
    if denominator == 0:
        raise ValueError("predictions must disagree on at least one example (every classifier is right, or every "
                         "one wrong, on every example), so Q is undefined")
    q = (k - 1) * (k * float(np.sum(C ** 2)) - T ** 2) / denominator
    return CochranQResult(float(q), float(_st.chi2.sf(q, k - 1)), k - 1, C / n, C, float(np.sum(R ** 2)), T, k, n)


def _labels(name, value):
    """A non-empty 1-d array of class labels (numbers, strings or booleans)."""
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be array-like of class labels, got {value!r}")
    arr = np.asarray(value)
    if arr.ndim != 1 or arr.size < 1:
        raise ValueError(f"{name} must be a non-empty 1-dimensional array of labels, got shape {arr.shape}")
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not hold NaN or inf, got {arr.tolist()[:10]}")
    if arr.dtype.kind == "O":
        raise TypeError(f"{name} must hold labels of one simple type (numbers or strings), got {arr.tolist()[:10]}")
    return arr
