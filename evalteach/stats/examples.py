"""Small example data sets from the lecture sources, as ``(y_true, scores)`` pairs.

Class 1 is positive. Use them to reproduce the worked ROC examples::

    >>> from evalteach.stats.examples import scott_roc_example
    >>> from evalteach.stats import roc_curve
    >>> roc_curve(*scott_roc_example()).auc
    0.76
"""
from __future__ import annotations

import numpy as np

__all__ = ["scott_roc_example", "fawcett_roc_example"]

_SCOTT_SCORES = (169.752, 109.200, 19.210, 1.905, -2.75, -12.640, -29.124, -83.222, -91.554, -128.212)
_SCOTT_LABELS = "++-++---+-"

_FAWCETT_SCORES = (.9, .8, .7, .6, .55, .54, .53, .52, .51, .505,
                   .4, .39, .38, .37, .36, .35, .34, .33, .30, .1)
_FAWCETT_LABELS = "ppnpppnnpnpnpnnnpnpn"


def _pair(labels, scores, positive):
    return np.array([int(c == positive) for c in labels]), np.array(scores, dtype=float)


def scott_roc_example():
    """Ten test examples x1..x10 with an SVM's weighted sums w.x (Scott, after Mitchell).

    Five positives (x1, x2, x4, x5, x9) and five negatives; AUC 0.76.

    Returns
    -------
    y_true : ndarray of int, scores : ndarray of float
    """
    return _pair(_SCOTT_LABELS, _SCOTT_SCORES, "+")


def fawcett_roc_example():
    """The 20 scored instances of Fawcett (2006), "An introduction to ROC analysis", Fig. 3.

    Ten positives and ten negatives; AUC 0.68.

    Returns
    -------
    y_true : ndarray of int, scores : ndarray of float
    """
    return _pair(_FAWCETT_LABELS, _FAWCETT_SCORES, "p")
