"""Losses of probabilistic predictions: quadratic (Brier) and informational (log) loss.

Witten & Frank (ch. 5) score a predicted class distribution ``p_1..p_k`` against the
actual class ``i`` (as the one-hot vector ``a``) by the quadratic loss
``sum_j (p_j - a_j)^2`` or by the informational loss ``-log2 p_i``; both are averaged
over the test instances here.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from .. import _validate as v
from .._format import fmt, plain
from .._result import Explanation, Result, result

__all__ = ["quadratic_loss", "informational_loss", "Loss", "ZeroFrequencyWarning"]


class ZeroFrequencyWarning(RuntimeWarning):
    """A probability of zero was given to the class that occurred: informational loss is infinite."""


def _distributions(probabilities, y):
    """Validated (n, k) probability rows and integer classes."""
    p = v.array("probabilities", probabilities, ndim=None)
    if p.ndim == 1:
        p = np.column_stack([1 - p, p])  # binary: the column holds P(class 1)
    elif p.ndim != 2 or p.shape[1] < 2:
        raise ValueError(f"probabilities must have shape (n,) or (n, n_classes >= 2), got shape {p.shape}")
    if np.any(p < 0) or np.any(p > 1):
        raise ValueError(f"probabilities must lie in [0, 1], got values from {p.min():.4g} to {p.max():.4g}")
    sums = p.sum(axis=1)
    bad = np.flatnonzero(np.abs(sums - 1) > 1e-6)
    if bad.size:
        raise ValueError(f"probabilities rows must sum to 1, got row {bad[0]} summing to {sums[bad[0]]:.6g}")
    labels = v.array("y", y, dtype=None)
    if labels.dtype.kind == "b":
        labels = labels.astype(int)
    k = p.shape[1]
    if labels.dtype.kind not in "iuf" or not np.all(np.isin(labels, np.arange(k))):
        raise ValueError(f"y must hold class indices 0..{k - 1}, got values {np.unique(labels).tolist()[:10]}")
    v.same_length(probabilities=p, y=labels)
    return p, labels.astype(int)


@result
class Loss(Result):
    """Per-instance losses and their mean.

    Attributes
    ----------
    mean : float
        The mean loss.
    losses : ndarray
        Each instance's loss.
    kind : {"quadratic", "informational"}
        The loss.
    base : float or None
        The logarithm's base of the informational loss.
    """

    mean: float
    losses: np.ndarray
    kind: str
    base: float | None = None

    def _explain(self):
        n = len(self.losses)
        if self.kind == "quadratic":
            title = "Quadratic loss (Brier score)"
            formulas = [r"L = \frac{1}{n}\sum_{i=1}^{n} \sum_j (p_{ij} - a_{ij})^2"]
        else:
            title = "Informational loss"
            formulas = [rf"L = \frac{{1}}{{n}}\sum_{{i=1}}^{{n}} -\log_{{{fmt(self.base)}}} p_{{i,\,\text{{true}}}}"]
        shown = " + ".join(fmt(x) for x in self.losses[:5]) + (r" + \dots" if n > 5 else "")
        steps = [rf"L = \frac{{1}}{{{n}}}\left({shown}\right) = {fmt(self.mean)}"]
        if math.isinf(self.mean):
            verdict = ("The loss is infinite: some instance's true class was given probability 0 "
                       "(the zero-frequency problem; smooth the estimates, e.g. with a Laplace correction).")
        elif self.kind == "quadratic":
            verdict = f"Mean quadratic loss {plain(self.mean)} (0 is perfect, 2 is the worst possible)."
        else:
            verdict = (f"On average the true class cost {plain(self.mean)} "
                       f"{'bits' if self.base == 2 else 'units'} of information (0 is perfect).")
        return Explanation(title, formulas, steps, verdict)


def quadratic_loss(probabilities, y):
    """Mean quadratic loss ``sum_j (p_j - a_j)^2`` (Witten & Frank's multi-class Brier score).

    Parameters
    ----------
    probabilities : array_like, shape (n, n_classes) or (n,)
        Predicted class distributions (rows sum to 1); a 1-d array holds P(class 1) of a
        binary problem. Summing over both classes, the binary loss is
        ``2 (p - y)^2``: twice scikit-learn's binary ``brier_score_loss``.
    y : array_like of int
        The actual class index of each instance.

    Returns
    -------
    Loss
        ``mean``, per-instance ``losses``.

    Examples
    --------
    >>> quadratic_loss([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1]], [0, 2]).losses.round(4).tolist()
    [0.14, 1.46]
    """
    p, labels = _distributions(probabilities, y)
    a = np.eye(p.shape[1])[labels]
    losses = np.sum((p - a) ** 2, axis=1)
    return Loss(float(losses.mean()), losses, "quadratic")


def informational_loss(probabilities, y, base=2):
    """Mean informational loss ``-log_base p_true`` (log loss; bits when base = 2).

    A probability of 0 on the class that occurred gives an infinite loss; this is
    reported with a :class:`ZeroFrequencyWarning`, not an exception.

    Examples
    --------
    >>> informational_loss([[0.5, 0.25, 0.25], [0.25, 0.25, 0.5]], [0, 1]).losses.tolist()
    [1.0, 2.0]
    """
    b = v.real("base", base, low=0, low_open=True)
    if b == 1:
        raise ValueError(f"base must not be 1, got {base!r}")
    p, labels = _distributions(probabilities, y)
    p_true = p[np.arange(labels.size), labels]
    zero = np.flatnonzero(p_true == 0)
    if zero.size:
        warnings.warn(f"{zero.size} instance(s) (first: index {zero[0]}) gave probability 0 to the true class; "
                      "their informational loss is infinite", ZeroFrequencyWarning, stacklevel=2)
    with np.errstate(divide="ignore"):
        losses = -np.log(p_true) / math.log(b)
    return Loss(float(losses.mean()), losses + 0.0, "informational", b)
