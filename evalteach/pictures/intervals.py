"""The picture of a confidence interval for an error rate: the sampling distribution it comes from."""
from __future__ import annotations

import numpy as np
from scipy import stats as _st

from .._format import interval_words, pct, plain
from ..plotting import COLORS, points
from ._canvas import ESTIMATE, NULL, P_VALUE, panels
from ._marks import bars, curve_grid, interval_above, legend_beside, no_y_ticks, shade_between, view

_NAMES = {"wald": "Wald", "wilson": "Wilson", "clopper-pearson": "Clopper-Pearson", "agresti-coull": "Agresti-Coull",
          "jeffreys": "Jeffreys"}


def _centred_normal(ax, r):
    """Wald and Agresti-Coull: one normal curve around the centre, the share inside the bounds shaded."""
    if r.method == "wald":
        centre, sd, name = r.estimate, r.se, r"$N(\hat p,\ \hat p(1-\hat p)/n)$"
    else:
        n_tilde = r.n + r.z * r.z
        centre = (r.k + r.z * r.z / 2) / n_tilde
        sd, name = np.sqrt(centre * (1 - centre) / n_tilde), r"$N(\tilde p,\ \tilde p(1-\tilde p)/\tilde n)$"
    if r.method == "agresti-coull":
        ax.plot([centre], [0], "D", color=COLORS["theory"], ms=points(6), gid="centre", clip_on=False, zorder=4,
                label=rf"$\tilde p$ = (k + z²/2)/(n + z²) = {plain(centre)}")
    if sd == 0:  # k = 0 or k = n: Wald's estimated spread is 0
        ax.plot([centre, centre], [0, 1], color=COLORS["truth"], gid=NULL, label=f"{name}: no spread (se = 0)")
        return 1.0, (centre - 0.05, centre + 0.05)
    dist = _st.norm(centre, sd)
    x = curve_grid(dist)
    ax.plot(x, dist.pdf(x), color=COLORS["truth"], lw=points(1.4), gid=NULL, label=name)
    # the shaded ends are centre -+ z sd, before the interval is clipped to [0, 1]
    start = centre - r.z * sd if r.sided != "upper" else -np.inf
    stop = centre + r.z * sd if r.sided != "lower" else np.inf
    shade_between(ax, dist, start, stop, x, color=COLORS["shade"], gid=P_VALUE,
                  label=f"shaded: {pct(dist.cdf(stop) - dist.cdf(start))} (z = {plain(r.z, 4)})")
    return float(dist.pdf(centre)), view(dist)


def _inverted_bound(ax, r, bound, lower, color):
    """Wilson or Clopper-Pearson at one bound: the estimate's distribution if the true rate
    were the bound, with the observed estimate exactly in its far tail (its share shaded)."""
    tail = (1 - r.confidence) / 2 if r.sided == "two" else 1 - r.confidence
    which = "lower" if lower else "upper"
    if r.method == "wilson":
        dist = _st.norm(bound, np.sqrt(bound * (1 - bound) / r.n))
        x = curve_grid(dist)
        ax.plot(x, dist.pdf(x), color=color, lw=points(1.4), gid=NULL, label=f"p = {plain(bound)} ({which} bound)")
        start, stop = (r.estimate, np.inf) if lower else (-np.inf, r.estimate)
        shade_between(ax, dist, start, stop, x, color=color, gid=f"{P_VALUE}-{which}",
                      label=f"estimates this far: {pct(tail)}")
        return float(dist.pdf(bound)), view(dist)
    j = np.arange(r.n + 1)
    pmf = _st.binom.pmf(j, r.n, bound)
    far = (j >= r.k) if lower else (j <= r.k)
    width = 0.4 / r.n  # the two bounds' bars side by side at each count
    x = j / r.n + (-width / 2 if lower else width / 2)
    visible = pmf > 1e-6 * pmf.max()
    bars(ax, x[~far & visible], pmf[~far & visible], width, color=color, alpha=0.35, gid=NULL,
         label=f"Bin(n, {plain(bound)}) ({which} bound)")
    bars(ax, x[far], pmf[far], width, color=color, gid=f"{P_VALUE}-{which}",
         label=f"{'k or more' if lower else 'k or fewer'}: {pct(tail)}")
    shown = x[pmf > 1e-4 * pmf.max()]
    return float(pmf.max()), (shown[0] - width, shown[-1] + width)


def _inverted(ax, r):
    peak, span = 0.0, [r.estimate, r.estimate]
    for bound, lower, color in ((r.low, True, COLORS["data"]), (r.high, False, COLORS["theory"])):
        if (lower and r.sided == "upper") or (not lower and r.sided == "lower") or bound in (0.0, 1.0):
            continue  # no bound on this side, or k = 0 (n): the bound is the end itself, nothing lies beyond
        top, (left, right) = _inverted_bound(ax, r, bound, lower, color)
        peak, span = max(peak, top), [min(span[0], left), max(span[1], right)]
    return peak or 1.0, tuple(span)


def _posterior(ax, r):
    """Jeffreys: the Beta(k + 1/2, n - k + 1/2) posterior, the share between the bounds shaded."""
    dist = _st.beta(r.k + 0.5, r.n - r.k + 0.5)
    x = curve_grid(dist)
    ax.plot(x, dist.pdf(x), color=COLORS["truth"], lw=points(1.4), gid=NULL, label="Beta(k + ½, n − k + ½)")
    shade_between(ax, dist, r.low, r.high, x, color=COLORS["shade"], gid=P_VALUE,
                  label=f"shaded: {pct(dist.cdf(r.high) - dist.cdf(r.low))}")
    # at k = 0 or n the density is infinite at its end: scale to the bulk, not the spike
    return float(dist.pdf(dist.median()) * (3 if min(r.k, r.n - r.k) == 0 else 1.1)), view(dist)


def proportion_interval(r, ax=None):
    """The picture of a :class:`~evalteach.stats.ProportionInterval`."""
    with panels(r, ax, figsize=(8.0, 3.4)) as (ax,):
        if r.method in ("wald", "agresti-coull"):
            peak, span = _centred_normal(ax, r)
        elif r.method == "jeffreys":
            peak, span = _posterior(ax, r)
        else:
            peak, span = _inverted(ax, r)
        left, right = min(max(span[0], -0.02), r.low), max(min(span[1], 1.02), r.high)
        margin = 0.04 * (right - left) or 0.05
        limits = (left - margin, right + margin)
        ax.set_xlim(*limits)
        level = interval_above(ax, r.low, r.high, r.estimate, peak, limits=limits,
                               label=interval_words(r.low, r.high, r.confidence),
                               estimate_label=rf"$\hat p$ = k/n = {r.k}/{r.n} = {plain(r.estimate)}")
        ax.plot([r.estimate, r.estimate], [0, level], color=COLORS["data"], lw=points(1), linestyle=":",
                gid=f"{ESTIMATE}-line")
        sided = {"two": "", "lower": ", lower bound", "upper": ", upper bound"}[r.sided]
        ax.set_title(f"{_NAMES[r.method]} interval for the true error rate{sided}")
        ax.set_xlabel("error rate")
        no_y_ticks(ax, "probability" if r.method == "clopper-pearson" else "density")
        legend_beside(ax)
    return ax
