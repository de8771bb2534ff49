"""The marks pictures of results share, so a colour means one thing in every picture.

* a reference (null or sampling) distribution: a black curve or bars in the data colour;
* the share of it that stands for a p-value: filled in vermillion (the explorers' colour
  for "as extreme as observed");
* the observed statistic: a vermillion line; an estimate: a blue dot;
* an interval: a thick black segment, with an arrow where it is unbounded.
"""
from __future__ import annotations

import numpy as np
from matplotlib.collections import PolyCollection

from ..plotting import COLORS, points
from ._canvas import ESTIMATE, INTERVAL, NULL, P_VALUE, STATISTIC

SHADE_ALPHA = 0.75  # opaque enough to read as data; the curve stays visible through it


def legend_beside(ax, **kwargs):
    """The legend to the right of the panel, where it covers no data."""
    return ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, frameon=False, **kwargs)


def shade(ax, x, y, *, color=COLORS["bad"], label=None, gid=P_VALUE, alpha=SHADE_ALPHA):
    """Fill under the curve ``(x, y)`` down to 0 (an area that stands for a probability)."""
    return ax.fill_between(x, 0, y, color=color, alpha=alpha, linewidth=0, label=label, gid=gid)


def mark_statistic(ax, x, top, *, label=None, color=COLORS["bad"], gid=STATISTIC, linestyle="-", zorder=2):
    """A vertical line at the observed statistic, from 0 to ``top`` (``zorder=0.5`` draws it behind bars)."""
    return ax.plot([x, x], [0, top], color=color, lw=points(2.2), label=label, gid=gid, linestyle=linestyle,
                   zorder=zorder)[0]


def mark_estimate(ax, x, y, *, label=None, color=COLORS["data"], gid=ESTIMATE):
    """A dot at an estimate."""
    return ax.plot([x], [y], "o", color=color, ms=points(7), label=label, gid=gid, zorder=4)[0]


def draw_interval(ax, low, high, at, *, label=None, color=COLORS["truth"], gid=INTERVAL, limits=None,
                  vertical=False):
    """A thick segment from ``low`` to ``high`` at ``at`` (a height, or an x when ``vertical``);
    an unbounded end runs to the edge of ``limits`` (the range shown) and ends in an arrowhead."""
    first, last = limits if limits is not None else (ax.get_ylim() if vertical else ax.get_xlim())
    start, stop = (first if np.isinf(low) else low), (last if np.isinf(high) else high)
    ends = ([at, at], [start, stop]) if vertical else ([start, stop], [at, at])
    line = ax.plot(*ends, color=color, lw=points(4), solid_capstyle="butt", label=label, gid=gid)[0]
    for end, edge, head in ((low, first, "v" if vertical else "<"), (high, last, "^" if vertical else ">")):
        if np.isinf(end):
            ax.plot(*((at, edge) if vertical else (edge, at)), marker=head, color=color, ms=points(9),
                    gid=f"{gid}-unbounded")
    return line


def interval_above(ax, low, high, estimate, top, *, label, estimate_label=None, limits=None):
    """The interval and the estimate in a band above a distribution whose top is ``top``;
    returns the band's height."""
    level = 1.25 * top
    draw_interval(ax, low, high, level, limits=limits, label=label)
    mark_estimate(ax, estimate, level, label=estimate_label)
    ax.set_ylim(0, 1.45 * top)
    return level


def no_y_ticks(ax, label="density"):
    """A density's scale carries no meaning a reader needs: no ticks, only its name."""
    ax.set_yticks([])
    ax.set_ylabel(label)


def curve_grid(dist, count=400, tail=1e-7):
    """Points to draw a continuous distribution (a frozen scipy one) on: even in x, even in
    probability (dense where its mass is) and ever closer to its ends, so areas under the
    drawn curve are its probabilities to within about 1e-5."""
    low, high = dist.ppf(tail), dist.isf(tail)
    ends = np.geomspace(tail, 0.01, count // 4)  # a density infinite at an end needs points ever closer to it
    return np.unique(np.r_[np.linspace(low, high, count), dist.ppf(np.linspace(tail, 1 - tail, count)),
                           dist.ppf(ends), dist.isf(ends)])


def shade_between(ax, dist, start, stop, x, **kwargs):
    """Shade the area under ``dist``'s density from ``start`` to ``stop`` (clipped to the
    drawn grid ``x``), with the grid's points inside; returns the fill."""
    start, stop = max(start, x[0]), min(stop, x[-1])
    xs = np.r_[start, x[(x > start) & (x < stop)], stop]
    return shade(ax, xs, dist.pdf(xs), **kwargs)


def view(dist, tail=1e-4):
    """The x range worth showing of a continuous distribution: all but ``tail`` at each end."""
    return float(dist.ppf(tail)), float(dist.isf(tail))


def bars(ax, x, heights, width, *, bottom=0.0, **kwargs):
    """Bars of ``heights`` centred on ``x`` (standing on ``bottom``), as one collection:
    thousands of bars draw fast."""
    x, heights = np.asarray(x, float), np.asarray(heights, float)
    base = np.broadcast_to(np.asarray(bottom, float), x.shape)
    left, right = x - width / 2, x + width / 2
    boxes = np.stack([np.c_[left, base], np.c_[left, base + heights], np.c_[right, base + heights],
                      np.c_[right, base]], axis=1)
    collection = PolyCollection(boxes, linewidths=0, **kwargs)
    ax.add_collection(collection)
    if x.size:
        ax.update_datalim(boxes.reshape(-1, 2))
    ax.autoscale_view()
    return collection


def histogram(ax, values, marked, *, max_bars=60, **kwargs):
    """The distribution of ``values`` as shares: a bar per distinct value when there are
    few (an exact null distribution), else even bins; in each bar the share of the
    ``marked`` values is stacked on top in vermillion. Returns (unmarked, marked) bars
    and the tallest bar's height."""
    values, marked = np.asarray(values, float), np.asarray(marked, bool)
    distinct = np.unique(np.round(values, 12))
    if distinct.size <= max_bars:
        centres = distinct
        gaps = np.diff(distinct)
        width = 0.7 * (gaps.min() if gaps.size else 1.0)
        where = np.searchsorted(distinct, np.round(values, 12))
    else:
        edges = np.histogram_bin_edges(values, bins=40)
        centres, width = (edges[:-1] + edges[1:]) / 2, np.diff(edges)[0]
        where = np.clip(np.searchsorted(edges, values, side="right") - 1, 0, centres.size - 1)
    plain_share = np.bincount(where[~marked], minlength=centres.size) / values.size
    marked_share = np.bincount(where[marked], minlength=centres.size) / values.size
    kwargs.setdefault("color", COLORS["data"])
    drawn = plain_share > 0
    under = bars(ax, centres[drawn], plain_share[drawn], width, alpha=0.45, gid=NULL, **kwargs)
    hot = marked_share > 0
    over = bars(ax, centres[hot], marked_share[hot], width, bottom=plain_share[hot], color=COLORS["bad"],
                alpha=0.85, gid=P_VALUE)
    return under, over, float((plain_share + marked_share).max())


def shade_tails(ax, dist, x, statistic, alternative, *, centre=0.0, **kwargs):
    """Shade the share of a reference distribution at least as extreme as ``statistic``:
    beyond it in the direction of a one-sided ``alternative`` ("greater", "less"), as far
    from ``centre`` or farther on both sides for "two-sided" (a distribution symmetric
    about ``centre``), or above it for "upper" (an F statistic). Returns that share."""
    if alternative == "two-sided":
        edge = abs(statistic - centre)
        regions = [(-np.inf, centre - edge), (centre + edge, np.inf)]
    elif alternative == "less":
        regions = [(-np.inf, statistic)]
    else:  # "greater", "upper"
        regions = [(statistic, np.inf)]
    share = 0.0
    for start, stop in regions:
        if np.isfinite(start) or np.isfinite(stop):
            shade_between(ax, dist, start, stop, x, **kwargs)
            kwargs["label"] = None  # one legend entry for both tails
        share += dist.cdf(stop) - dist.cdf(start)
    return min(share, 1.0)
