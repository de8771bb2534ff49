"""Bayesian comparison of two learners with a region of practical equivalence (rope).

Instead of a p-value these tests give posterior, Bayesian statements about the
difference ``a - b`` against the rope ``[-rope, rope]``, each under its stated model
and prior. On one data set the folds' differences are correlated:
:func:`bayesian_correlated_t_test` gives the posterior probabilities that the mean
difference ``mu`` lies below ``-rope``, inside the rope (the learners are practically
equivalent) or above ``rope``. Over several data sets,
:func:`bayesian_signed_rank_test` gives, for each of the three regions, the posterior
probability that it is the *most probable* one (the share of posterior draws in which
its probability is the largest, as ``baycomp`` reports), and the posterior means of the
three regions' probabilities: different quantities from the correlated t-test's.

References
----------
Benavoli, Corani, Demšar & Zaffalon (2017), "Time for a change: a tutorial for comparing
multiple classifiers through Bayesian analysis", JMLR 18(77).
"""
from __future__ import annotations

from dataclasses import field

import numpy as np
from scipy import stats as _st

from .. import _validate as v
from .._format import fmt, plain
from .._result import Explanation, Result, draws, result

__all__ = [
    "bayesian_correlated_t_test", "BayesianCorrelatedTTest",
    "bayesian_signed_rank_test", "BayesianSignedRankTest",
]


def _pairs(a, b):
    d = v.differences(a, b, -1)
    if d.ndim != 1:
        raise ValueError(f"a must be 1-dimensional (one value per fold or data set), got shape {d.shape}")
    return d


def _rope(rope):
    return v.real("rope", rope, low=0.0)


def _listing(items):
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _three_way(p_left, p_rope, p_right, rope, most_probable=False):
    """The verdict: the posterior probabilities of the regions, the most probable first."""
    r = plain(rope)
    if rope > 0:
        regions = [(p_rope, f"the rope |a - b| <= {r}" if most_probable else
                    f"A and B are practically equivalent (|a - b| <= {r})"),
                   (p_right, f"a - b > {r}"), (p_left, f"a - b < -{r}")]
    else:
        regions = [(p_right, "a - b > 0"), (p_left, "a - b < 0")]
    regions.sort(key=lambda item: -item[0])
    if most_probable:  # the signed-rank test's probabilities say which region is largest
        return ("Among the posterior draws, the most probable region is "
                + _listing([f"{region} in {100 * p:.3g}%" for p, region in regions])
                + " of them (Monte Carlo shares; a Bayesian statement, not a p-value).")
    return ("The posterior probability is " + _listing([f"{p:.3g} that {region}" for p, region in regions])
            + " (probabilities of the statements themselves, given the data, the model and the prior; not p-values).")


def _probability_steps(p_left, p_rope, p_right, rope):
    r = fmt(rope)
    return (rf"P(\mu < -{r}) = {fmt(p_left)},\quad P(|\mu| \le {r}) = {fmt(p_rope)},\quad "
            rf"P(\mu > {r}) = {fmt(p_right)}")


# --- one data set: correlated folds -----------------------------------------------------

@result
class BayesianCorrelatedTTest(Result):
    """Posterior of the mean difference over correlated cross-validation folds.

    The posterior of the mean difference ``mu`` is Student's t with ``df`` degrees of
    freedom, location ``mean_difference`` and scale ``scale`` (a point mass at
    ``mean_difference`` when ``scale`` is 0); :meth:`posterior` returns it as a scipy
    distribution, e.g. to draw its density.

    Attributes
    ----------
    p_left, p_rope, p_right : float
        The posterior probabilities that mu is below ``-rope``, inside the rope, above ``rope``.
    rope : float
        The rope's half-width.
    mean_difference : float
        The posterior's location (the mean of the differences).
    scale : float
        The posterior's scale (0: a point mass).
    df : int
        The posterior's degrees of freedom, ``n - 1``.
    low, high : float
        The central credible interval (not a confidence interval: no ``confidence_interval()``).
    credibility : float
        Its posterior probability.
    n : int
        The number of folds.
    rho : float
        The correlation assumed between folds.
    test_train_ratio : float
        ``n_test / n_train``.
    sd : float
        The differences' standard deviation.
    """

    p_left: float
    p_rope: float
    p_right: float
    rope: float
    mean_difference: float
    scale: float
    df: int
    low: float
    high: float
    credibility: float
    n: int
    rho: float = field(repr=False)
    test_train_ratio: float = field(repr=False)
    sd: float = field(repr=False)

    def posterior(self):
        """The posterior of the mean difference (a frozen ``scipy.stats.t``; ``None`` if degenerate)."""
        return _st.t(self.df, loc=self.mean_difference, scale=self.scale) if self.scale > 0 else None

    def _explain(self):
        formulas = [
            r"\delta_i = a_i - b_i,\quad \bar\delta = \frac1n\sum_i \delta_i,\quad "
            r"s^2 = \frac{1}{n-1}\sum_i(\delta_i - \bar\delta)^2,\quad \rho = \frac{n_{test}}{n_{test} + n_{train}}",
            r"\mu \mid \delta \ \sim\ t_{n-1}\!\left(\bar\delta,\ "
            r"\sqrt{\left(\frac1n + \frac{\rho}{1-\rho}\right)s^2}\right)",
        ]
        steps = [
            rf"n = {self.n},\quad \bar\delta = {fmt(self.mean_difference)},\quad s = {fmt(self.sd)},\quad "
            rf"\rho = {fmt(self.rho)}",
            rf"\text{{scale}} = \sqrt{{\left(\frac{{1}}{{{self.n}}} + \frac{{{fmt(self.rho)}}}{{1 - {fmt(self.rho)}}}"
            rf"\right) \times {fmt(self.sd)}^2}} = {fmt(self.scale)},\quad df = {self.df}",
            _probability_steps(self.p_left, self.p_rope, self.p_right, self.rope),
            rf"{fmt(100 * self.credibility)}\%\ \text{{credible interval for }} \mu:\ "
            rf"[{fmt(self.low)},\ {fmt(self.high)}]",
        ]
        return Explanation("Bayesian correlated t-test (Corani & Benavoli 2015)", formulas, steps,
                           _three_way(self.p_left, self.p_rope, self.p_right, self.rope))

    @draws("bayesian", "correlated_t")
    def plot(self, ax=None):
        """Draw the posterior of the mean difference with the rope and the three probabilities.

        The Student t posterior of mu; its area below ``-rope``, inside the rope and above
        ``rope`` filled in the three regions' colours (their areas are ``p_left``,
        ``p_rope``, ``p_right``); the rope's edges dotted; above, the credible interval and
        the posterior mean.

        References
        ----------
        Corani & Benavoli (2015), Machine Learning 100; Benavoli, Corani, Demšar & Zaffalon
        (2017), JMLR 18(77), section 3 and Fig. 3.

        Examples
        --------
        >>> d = [0.02, 0.01, 0.03, 0.00, 0.02]
        >>> bayesian_correlated_t_test(d, test_train_ratio=0.25, rope=0.01).plot()  # doctest: +SKIP
        """


def bayesian_correlated_t_test(a, b=None, *, test_train_ratio, rope=0.0, credibility=0.95):
    """Bayesian correlated t-test for two learners on the same cross-validation folds.

    Parameters
    ----------
    a, b : array, shape (n,)
        Per-fold scores (errors or accuracies) of learners A and B on the same folds;
        omit ``b`` when ``a`` already holds the differences ``a - b``.
    test_train_ratio : float
        ``n_test / n_train`` of each fold, e.g. ``1 / 9`` for 10-fold cross-validation.
        The correlation between folds is taken as ``rho = n_test / (n_test + n_train)``.
    rope : float
        Half-width of the region of practical equivalence, in the units of the scores
        (e.g. 0.01 for one percentage point). 0 gives no rope.
    credibility : float
        Mass of the central credible interval ``low``/``high`` for the mean difference.

    Returns
    -------
    BayesianCorrelatedTTest
        ``p_left, p_rope, p_right``: posterior probabilities that the mean difference
        ``mu`` is below ``-rope``, inside ``[-rope, rope]``, above ``rope``; the posterior
        Student t parameters ``mean_difference`` (location), ``scale``, ``df = n - 1``;
        the credible interval ``low, high, credibility``; ``n``, ``rho``,
        ``test_train_ratio`` and the differences' ``sd``.

    Notes
    -----
    The model assumes normally distributed fold differences with a common correlation
    ``rho`` between folds; ``rho = n_test / n`` is Nadeau & Bengio's heuristic, not an
    estimate (the correlation cannot be estimated from the folds themselves). The prior
    is non-informative: flat (improper) on ``mu`` and ``p(sigma^2) ~ 1 / sigma^2`` on the
    variance, the limit of Corani & Benavoli's Normal-Gamma prior. The posterior of
    ``mu`` is then the t distribution behind the frequentist corrected t-test (same
    interval): a teaching point, since here it is read as probabilities of statements
    about ``mu``. ``mu`` is the expected difference of the two learners trained on about
    ``n_train`` examples drawn from the population the data set was sampled from, not the
    average over all partitions of this one data set (more runs would pin that down).
    Same arithmetic as ``baycomp.two_on_single(b, a, rope)`` (whose ``runs=1`` fixes
    ``rho = 1 / n_folds``). With zero spread the posterior is a point mass at the mean
    difference.

    References
    ----------
    Corani & Benavoli (2015), "A Bayesian approach for comparing cross-validated
    algorithms on multiple data sets", Machine Learning 100; Benavoli, Corani, Demšar &
    Zaffalon (2017), JMLR 18(77), section 3.

    Examples
    --------
    >>> r = bayesian_correlated_t_test([0.02, 0.01, 0.03, 0.00, 0.02], test_train_ratio=0.25, rope=0.01)
    >>> round(r.p_right, 3), r.df
    (0.762, 4)
    """
    d = _pairs(a, b)
    ratio = v.real("test_train_ratio", test_train_ratio, low=0.0, low_open=True)
    rope = _rope(rope)
    cred = v.confidence("credibility", credibility)
    n = d.size
    mean = float(d.mean())
    sd = float(d.std(ddof=1))
    if sd <= 1e-12 * float(np.abs(d).max()):  # identical differences up to rounding
        sd = 0.0
    rho = ratio / (1 + ratio)
    scale = float(np.sqrt((1 / n + rho / (1 - rho)) * sd * sd))
    if scale > 0:
        # standardised, without a frozen distribution: the simulations call this thousands of times
        p_left = float(_st.t.cdf((-rope - mean) / scale, n - 1))
        p_right = float(_st.t.sf((rope - mean) / scale, n - 1))
        half = float(_st.t.isf((1 - cred) / 2, n - 1)) * scale
        low, high = mean - half, mean + half
    else:
        at_zero = 0.5 if rope == 0 and mean == 0 else 0.0
        p_left, p_right = float(mean < -rope) + at_zero, float(mean > rope) + at_zero
        low = high = mean
    p_rope = max(0.0, 1.0 - p_left - p_right) if rope > 0 else 0.0
    return BayesianCorrelatedTTest(p_left, p_rope, p_right, rope, mean, scale, n - 1, low, high, cred, n,
                                   rho, ratio, sd)


# --- several data sets: Bayesian signed-rank test ---------------------------------------

@result
class BayesianSignedRankTest(Result):
    """Monte Carlo posterior of the Bayesian signed-rank test.

    ``samples`` holds one row ``(theta_left, theta_rope, theta_right)`` per posterior
    draw: the probabilities that the average of two data sets' differences falls below,
    inside or above the rope. ``p_left, p_rope, p_right`` are the shares of draws in
    which that region is the most probable one (as in ``baycomp``).

    Attributes
    ----------
    p_left, p_rope, p_right : float
        The shares of draws in which each region is the most probable.
    rope : float
        The rope's half-width.
    n : int
        The number of data sets.
    n_samples : int
        The number of posterior draws.
    seed : int
        Their seed.
    prior_strength : float
        The prior pseudo-observation's weight s.
    mean_theta : tuple of float
        The posterior means of (theta_left, theta_rope, theta_right).
    samples : ndarray, shape (n_samples, 3)
        The draws of (theta_left, theta_rope, theta_right).
    """

    p_left: float
    p_rope: float
    p_right: float
    rope: float
    n: int
    n_samples: int
    seed: int
    prior_strength: float = field(repr=False)
    mean_theta: tuple = field(repr=False)
    samples: np.ndarray = field(repr=False)

    def _explain(self):
        formulas = [
            r"z = (0, \delta_1, \ldots, \delta_n),\qquad w \sim \mathrm{Dir}(s, 1, \ldots, 1)",
            r"\theta_{right} = \sum_{i,j} w_i w_j\, H(z_i + z_j - 2r),\quad "
            r"\theta_{left} = \sum_{i,j} w_i w_j\, H(-z_i - z_j - 2r),\quad "
            r"\theta_{rope} = 1 - \theta_{left} - \theta_{right}",
            r"p_{right} = P\left(\theta_{right} = \max(\theta_{left}, \theta_{rope}, \theta_{right})\right)"
            r"\ \text{ (likewise } p_{left}, p_{rope})",
        ]
        steps = [
            rf"n = {self.n}\ \text{{data sets}},\quad s = {fmt(self.prior_strength)},\quad r = {fmt(self.rope)},"
            rf"\quad {self.n_samples}\ \text{{Monte Carlo draws (seed {self.seed})}}",
            rf"\text{{posterior mean of}}\ (\theta_{{left}}, \theta_{{rope}}, \theta_{{right}}) = "
            rf"({fmt(self.mean_theta[0])},\ {fmt(self.mean_theta[1])},\ {fmt(self.mean_theta[2])})",
            rf"\text{{share of draws in which the region is the most probable:}}\ "
            rf"p_{{left}} = {fmt(self.p_left)},\quad p_{{rope}} = {fmt(self.p_rope)},\quad "
            rf"p_{{right}} = {fmt(self.p_right)}",
        ]
        return Explanation("Bayesian signed-rank test (Benavoli et al. 2014)", formulas, steps,
                           _three_way(self.p_left, self.p_rope, self.p_right, self.rope, most_probable=True))

    @draws("bayesian", "signed_rank")
    def plot(self, ax=None):
        """Draw the posterior draws on the simplex of (left, rope, right), each region in its colour.

        Each draw's probabilities (theta_left, theta_rope, theta_right) are a point of the
        triangle whose corners are certainty of one region; the dashed lines split it
        where two regions are equally probable, and each draw takes the colour of its most
        probable region. The legend gives ``p_left``, ``p_rope``, ``p_right``: the shares
        of all draws (the picture shows at most the first 3000).

        References
        ----------
        Benavoli, Corani, Demšar & Zaffalon (2017), JMLR 18(77), section 5 and Fig. 8.

        Examples
        --------
        >>> d = [0.02, 0.01, 0.03, -0.01, 0.02, 0.04]
        >>> bayesian_signed_rank_test(d, rope=0.01).plot()  # doctest: +SKIP
        """


_BATCH = 8192  # draws per block: bounds memory at about batch x (n + 1) floats


def bayesian_signed_rank_test(a, b=None, *, rope=0.0, n_samples=50000, seed=0, prior_strength=0.5):
    """Bayesian signed-rank test for two learners compared on several data sets.

    The differences' distribution gets a Dirichlet process prior with one
    pseudo-observation at 0 of weight ``prior_strength``; its posterior is sampled by
    Dirichlet weights on ``(0, d_1, ..., d_n)``. Each draw gives the probabilities
    ``theta`` that the mean of two differences lies below, inside or above the rope.

    Parameters
    ----------
    a, b : array, shape (n,)
        One score per data set (e.g. mean cross-validated accuracy) for learners A and B;
        omit ``b`` when ``a`` holds the differences.
    rope : float
        Half-width of the region of practical equivalence; 0 gives no rope.
    n_samples : int
        Monte Carlo draws of the posterior.
    seed : int
        Seed of the draws (the result is reproducible).
    prior_strength : float
        Weight ``s`` of the prior pseudo-observation at 0 (baycomp's default 0.5).

    Returns
    -------
    BayesianSignedRankTest
        ``p_left, p_rope, p_right`` (share of draws in which the region below, inside
        or above the rope is the most probable), ``rope, n, n_samples, seed``,
        ``prior_strength``, ``mean_theta`` (posterior means of the three
        probabilities) and ``samples`` of shape ``(n_samples, 3)``.

    Notes
    -----
    Each data set contributes one difference, and the data sets are assumed
    independent; unlike the correlated t-test the model assumes no distribution shape
    (it is nonparametric, like Wilcoxon's signed-rank test).

    References
    ----------
    Benavoli, Corani, Mangili, Zaffalon & Ruggeri (2014), "A Bayesian Wilcoxon
    signed-rank test based on the Dirichlet process", ICML; Benavoli, Corani, Demšar &
    Zaffalon (2017), JMLR 18(77), section 5. Agrees with ``baycomp.two_on_multiple(b, a,
    rope)`` up to Monte Carlo error.

    Examples
    --------
    >>> r = bayesian_signed_rank_test([0.02, 0.01, 0.03, -0.01, 0.02, 0.04], rope=0.01, n_samples=20000)
    >>> r.p_right > r.p_left
    True
    """
    d = _pairs(a, b)
    rope = _rope(rope)
    n_samples = v.integer("n_samples", n_samples, low=1)
    seed = v.integer("seed", seed, low=0)
    s = v.real("prior_strength", prior_strength, low=0.0, low_open=True)
    z = np.concatenate(([0.0], d))
    pair = z[:, None] + z[None, :]

    def heaviside(x):
        return (x > 0) + 0.5 * (x == 0)

    above = heaviside(pair - 2 * rope)
    below = heaviside(-pair - 2 * rope)
    alpha = np.concatenate(([s], np.ones(d.size)))
    rng = np.random.default_rng(seed)
    theta = np.empty((n_samples, 3))
    for start in range(0, n_samples, _BATCH):
        w = rng.gamma(alpha, size=(min(_BATCH, n_samples - start), alpha.size))
        w /= w.sum(axis=1, keepdims=True)
        block = theta[start:start + len(w)]
        block[:, 0] = ((w @ below) * w).sum(axis=1)
        block[:, 2] = ((w @ above) * w).sum(axis=1)
    theta[:, 1] = np.clip(1.0 - theta[:, 0] - theta[:, 2], 0.0, 1.0) if rope > 0 else 0.0
    shares = np.bincount(np.argmax(theta, axis=1), minlength=3) / n_samples
    return BayesianSignedRankTest(float(shares[0]), float(shares[1]), float(shares[2]), rope, d.size,
                                  n_samples, seed, s, tuple(float(m) for m in theta.mean(axis=0)), theta)
