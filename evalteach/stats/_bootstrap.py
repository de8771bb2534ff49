"""The bias-corrected and accelerated (BCa) bootstrap's adjusted percentile levels.

Shared by :func:`evalteach.stats.bootstrap_interval` and the randomization explorer,
which grows the same interval one resample at a time.

References
----------
Efron (1987), "Better bootstrap confidence intervals", JASA 82; Efron & Tibshirani
(1993), *An Introduction to the Bootstrap*, ch. 14.
"""
from __future__ import annotations

import numpy as np
from scipy import special as _sp


def bca_levels(replicates, estimate, jackknife, alpha):
    """BCa's adjusted percentile levels (Efron & Tibshirani 1993, eq. 14.9-14.15).

    Parameters
    ----------
    replicates : ndarray
        The statistic on each bootstrap resample.
    estimate : float
        The statistic on the data as observed.
    jackknife : ndarray
        The statistic with each observation left out in turn (for the acceleration).
    alpha : float
        The tail each end leaves out, e.g. 0.025 for a 95% interval.

    Returns
    -------
    levels : ndarray, shape (2,)
        The percentile levels (fractions) of the lower and upper end.
    z0, acceleration : float
        The bias correction and the acceleration.

    Examples
    --------
    >>> levels, z0, a = bca_levels(np.array([0.1, 0.2, 0.3, 0.4]), 0.25, np.array([0.2, 0.3]), 0.25)
    >>> round(z0, 3), a
    (0.0, 0.0)
    """
    b = replicates.size
    # share of replicates below the estimate, ties counted half (as scipy); clipped off 0 and 1
    share = (np.sum(replicates < estimate) + np.sum(replicates <= estimate)) / (2 * b)
    z0 = float(_sp.ndtri(np.clip(share, 0.5 / b, 1 - 0.5 / b)))
    u = jackknife.mean() - jackknife
    spread = np.sum(u ** 2)
    acceleration = float(np.sum(u ** 3) / (6 * spread ** 1.5)) if spread > 0 else 0.0
    z = _sp.ndtri(np.array([alpha, 1 - alpha]))
    levels = _sp.ndtr(z0 + (z0 + z) / (1 - acceleration * (z0 + z)))
    return levels, z0, acceleration
