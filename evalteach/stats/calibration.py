"""Calibration of probability forecasts: the reliability diagram and Murphy's decomposition of the Brier score.

A forecaster who says "70%" is calibrated when it happens 70% of the time it says so.
Binning the forecasts into equal-width bins of [0, 1] gives, per bin, the mean forecast
and the observed frequency: the reliability diagram plots one against the other. The
Brier score, the mean of ``(p - y)^2``, then splits into reliability (how far the
observed frequencies are from the forecasts), resolution (how far they are from the
base rate) and uncertainty (the base rate's own variance), plus what the binning leaves
over.

References
----------
Murphy (1973), "A new vector partition of the probability score", Journal of Applied
Meteorology 12; Stephenson, Coelho & Jolliffe (2008), "Two extra components in the Brier
score decomposition", Weather and Forecasting 23; Niculescu-Mizil & Caruana (2005),
"Predicting good probabilities with supervised learning", ICML.
"""
from __future__ import annotations

import numpy as np

from .. import _validate as v
from .._format import fmt, plain
from .._result import Explanation, Result, draws, result

__all__ = ["reliability_diagram", "ReliabilityDiagram"]


@result
class ReliabilityDiagram(Result):
    """The calibration table of binary probability forecasts over equal-width bins, and the
    Brier score with Murphy's decomposition.

    Attributes
    ----------
    bin_edges : ndarray, shape (n_bins + 1,)
        The bins' edges, from 0 to 1.
    counts : ndarray of int, shape (n_bins,)
        How many forecasts fall in each bin.
    mean_forecast : ndarray, shape (n_bins,)
        The mean forecast in each bin; NaN where a bin is empty.
    observed_frequency : ndarray, shape (n_bins,)
        The share of positives (y = 1) among the examples of each bin; NaN where empty.
    brier : float
        The Brier score, the mean of ``(p - y)^2``.
    reliability, resolution, uncertainty : float
        Murphy's terms: ``sum_k n_k (f_k - o_k)^2 / N``, ``sum_k n_k (o_k - o)^2 / N`` and
        ``o (1 - o)`` for bin sizes ``n_k``, mean forecasts ``f_k``, observed frequencies
        ``o_k`` and base rate ``o``.
    within_bin : float
        What the binning leaves over: ``brier - (reliability - resolution + uncertainty)``,
        the forecasts' variance within the bins minus twice their covariance with the
        outcomes there (Stephenson et al. 2008); 0 when each bin holds one forecast value.
    base_rate : float
        The share of positives, ``o``.
    n : int
        The number of forecasts.
    """

    bin_edges: np.ndarray
    counts: np.ndarray
    mean_forecast: np.ndarray
    observed_frequency: np.ndarray
    brier: float
    reliability: float
    resolution: float
    uncertainty: float
    within_bin: float
    base_rate: float
    n: int

    def _explain(self):
        formulas = [r"BS = \frac1N\sum_{i=1}^N (p_i - y_i)^2 = \underbrace{\frac1N\sum_k n_k (\bar f_k - \bar o_k)^2}"
                    r"_{\text{reliability}} - \underbrace{\frac1N\sum_k n_k (\bar o_k - \bar o)^2}_{\text{resolution}}"
                    r" + \underbrace{\bar o(1 - \bar o)}_{\text{uncertainty}} + \text{within bins}"]
        steps = [rf"N = {self.n},\quad \bar o = {fmt(self.base_rate)},\quad {self.counts.size}\ \text{{bins}}",
                 rf"BS = {fmt(self.brier)} = {fmt(self.reliability)} - {fmt(self.resolution)} + "
                 rf"{fmt(self.uncertainty)} + {fmt(self.within_bin)}"]
        verdict = (f"The Brier score is {plain(self.brier)} (0 is perfect): reliability {plain(self.reliability)} "
                   f"(how far the observed frequencies lie from the forecasts; 0 is perfectly calibrated) minus "
                   f"resolution {plain(self.resolution)} (how far they lie from the base rate {plain(self.base_rate)}) "
                   f"plus uncertainty {plain(self.uncertainty)}, and {plain(self.within_bin)} left over by the "
                   f"{self.counts.size} bins (the forecasts' spread within them).")
        return Explanation("Reliability diagram and the Brier score", formulas, steps, verdict)

    @draws("calibration", "reliability_diagram")
    def plot(self, ax=None):
        """Draw the reliability curve against the diagonal, with the forecasts' histogram beneath.

        Above: each non-empty bin's observed frequency against its mean forecast; a
        calibrated forecaster's points lie on the dashed diagonal. Below: how many
        forecasts fall in each bin. The legend's title gives the Brier score's terms.

        References
        ----------
        Murphy & Winkler (1977), "Reliability of subjective probability forecasts of
        precipitation and temperature", Applied Statistics 26; Niculescu-Mizil & Caruana (2005).

        Examples
        --------
        >>> reliability_diagram([0, 1, 1, 0, 1], [0.1, 0.8, 0.6, 0.3, 0.9], n_bins=5).plot()  # doctest: +SKIP
        """


def reliability_diagram(y_true, probabilities, n_bins=10):
    """Reliability diagram of binary probability forecasts, with Murphy's decomposition of the Brier score.

    Parameters
    ----------
    y_true : array_like of 0/1
        The outcomes (1 = the event, the positive class).
    probabilities : array_like of float
        The forecasts ``P(y = 1)``, each in [0, 1].
    n_bins : int
        The number of equal-width bins of [0, 1]. A forecast on an edge belongs to the bin
        below it (bin ``k`` is ``(k/n, (k+1)/n]``, the first also holds 0), as in
        scikit-learn's ``calibration_curve(strategy="uniform")``.

    Returns
    -------
    ReliabilityDiagram
        ``bin_edges``, ``counts``, ``mean_forecast`` and ``observed_frequency`` (NaN where a
        bin is empty), ``brier``, ``reliability``, ``resolution``, ``uncertainty``,
        ``within_bin``, ``base_rate``, ``n``; ``plot()`` draws the diagram.

    Notes
    -----
    ``brier`` is scikit-learn's ``brier_score_loss``: half of
    :func:`quadratic_loss`, which sums over both classes.

    References
    ----------
    Murphy (1973), Journal of Applied Meteorology 12; Stephenson, Coelho & Jolliffe (2008),
    Weather and Forecasting 23.

    Examples
    --------
    >>> r = reliability_diagram([0, 0, 1, 1, 1, 0], [0.1, 0.3, 0.7, 0.9, 0.6, 0.65], n_bins=2)
    >>> r.counts.tolist(), r.observed_frequency.round(3).tolist(), round(r.brier, 4)
    ([2, 4], [0.0, 0.75], 0.1304)
    """
    y = v.binary_labels("y_true", y_true, need_both=False)
    p = v.array("probabilities", probabilities)
    outside = (p < 0) | (p > 1)
    if np.any(outside):
        raise ValueError(f"probabilities must lie in [0, 1], got {v.show(float(p[outside][0]))}")
    v.same_length(y_true=y, probabilities=p)
    n_bins = v.integer("n_bins", n_bins, low=1)
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    bins = np.searchsorted(edges[1:-1], p, side="left")
    counts = np.bincount(bins, minlength=n_bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_forecast = np.bincount(bins, weights=p, minlength=n_bins) / counts
        observed = np.bincount(bins, weights=y, minlength=n_bins) / counts
    n, base = y.size, float(y.mean())
    filled = counts > 0
    brier = float(np.mean((p - y) ** 2))
    reliability = float(np.sum(counts[filled] * (mean_forecast[filled] - observed[filled]) ** 2) / n)
    resolution = float(np.sum(counts[filled] * (observed[filled] - base) ** 2) / n)
    uncertainty = base * (1 - base)
    # the leftover, from its own terms: variance within bins minus twice the covariance there
    f_dev, o_dev = p - mean_forecast[bins], y - observed[bins]
    within = float(np.mean(f_dev ** 2) - 2 * np.mean(f_dev * o_dev))
    return ReliabilityDiagram(edges, counts, mean_forecast, observed, brier, reliability, resolution, uncertainty,
                              within, base, int(n))
