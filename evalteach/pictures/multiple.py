"""Pictures of comparisons over several data sets: the signed ranks of Wilcoxon's test, and
the critical-difference diagram of Friedman's test and its post-hoc tests (Demšar 2006, Fig. 1)."""
from __future__ import annotations

import numpy as np
from matplotlib.ticker import MaxNLocator

from .. import _validate as v
from .._format import p_text, pct, plain, same_decimals
from ..plotting import COLORS, points
from ._canvas import ESTIMATE, INTERVAL, panels
from ._marks import bars, legend_beside

#: Up to this many differences, each bar's rank is written under it.
RANKS_WRITTEN = 25


def _rank_text(rank):
    return "–" if np.isnan(rank) else f"{rank:g}"


def wilcoxon(r, ax=None, show_p=True):
    """The picture of a :class:`~evalteach.stats.WilcoxonResult`."""
    show_p = v.boolean("show_p", show_p)
    with panels(r, ax, figsize=(9.0, 3.8)) as (ax,):
        d, ranks = r.differences, r.ranks
        order = np.lexsort((d, np.abs(d)))  # by size, as ranked
        d, ranks = d[order], ranks[order]
        x = np.arange(1, d.size + 1)
        zero = d == 0
        split = {"zsplit": ": rank split, half to R+ and half to R−",
                 "wilcox": ": dropped before ranking", "pratt": ": ranked, then counted in neither sum"}
        for mask, color, gid, label in (
                (d > 0, COLORS["data"], "positive", f"a − b > 0: R+ = {plain(r.r_plus)}"),
                (d < 0, COLORS["theory"], "negative", f"a − b < 0: R− = {plain(r.r_minus)}")):
            bars(ax, x[mask], d[mask], 0.7, color=color, gid=gid, label=label)
        if zero.any():
            ax.plot(x[zero], d[zero], "D", color=COLORS["muted"], ms=points(6), gid="zero",
                    label=f"{int(zero.sum())} zero difference{'s' if zero.sum() != 1 else ''}{split[r.zero_method]}")
        ax.axhline(0, color=COLORS["truth"], lw=points(0.8), gid="zero-line")
        if np.isfinite(r.hodges_lehmann):
            ax.axhspan(*(np.clip([r.hl_low, r.hl_high], *_span(d, r))), color=COLORS["good"], alpha=0.18,
                       lw=0, gid=INTERVAL, label=_shift_interval(r))
            ax.axhline(r.hodges_lehmann, color=COLORS["good"], lw=points(2), gid=ESTIMATE,
                       label=f"Hodges-Lehmann estimate\nof the shift {plain(r.hodges_lehmann)}")
        ax.set_ylim(*_span(d, r))
        ax.set_xlim(0.3, d.size + 0.7)
        if d.size <= RANKS_WRITTEN:
            ax.set_xticks(x, [_rank_text(rank) for rank in ranks], fontsize="small")
            ax.set_xlabel("rank of |a − b| (the differences sorted by size)")
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_xlabel("the differences sorted by size")
        ax.set_ylabel("a − b")
        side = "two-sided" if r.alternative == "two-sided" else "one-sided"
        ax.set_title(f"Wilcoxon signed-rank test: {p_text(r.p_value)} ({side}, {_P_SHORT[r.p_method]})"
                     if show_p else "Wilcoxon signed-rank test: the differences and their ranks")
        legend_beside(ax)
    return ax


def _shift_interval(r):
    """The legend's words for the Hodges-Lehmann interval, both ends with the same decimals."""
    level = pct(r.confidence)
    if np.isinf(r.hl_high):
        return f"{level} lower bound for the shift\n{plain(r.hl_low)}"
    if np.isinf(r.hl_low):
        return f"{level} upper bound for the shift\n{plain(r.hl_high)}"
    low, high = same_decimals(r.hl_low, r.hl_high)
    return f"{level} interval for the shift\n[{low}, {high}]"


_P_SHORT = {"exact": "exact", "conditional": "exact conditional", "normal": "normal approximation"}


def _span(d, r):
    ends = [v for v in (*d, 0.0, r.hl_low, r.hl_high) if np.isfinite(v)]
    low, high = min(ends), max(ends)
    margin = 0.08 * (high - low) or 1.0
    return low - margin, high + margin


# --------------------------------------------------------------------------- critical differences

_REACH = 0.3  # how far (in ranks) the leader lines run beyond the axis


def _diagram(ax, ranks, names, groups, *, cd=None, control=None):
    """Demšar's critical-difference diagram in data coordinates: ranks on x (1 = best, left),
    y growing downwards; each algorithm's leader drops from its rank and turns outwards (the
    better half to the left, the worse to the right) to its name; thick bars join the groups."""
    k = len(ranks)
    order = np.argsort(ranks, kind="stable")
    rows = (k + 1) // 2
    top = -1.6 if cd is not None else -0.8
    ax.set(xlim=(1 - _REACH, k + _REACH), ylim=(rows + 0.8, top))
    ax.axis("off")
    ax.plot([1, k], [0, 0], color=COLORS["truth"], lw=points(1.2), gid="rank-axis")
    for rank in range(1, k + 1):
        ax.plot([rank, rank], [0, -0.12], color=COLORS["truth"], lw=points(1.2))
        ax.text(rank, -0.2, str(rank), ha="center", va="bottom", fontsize="small")
    if cd is not None:
        ax.plot([1, 1 + cd], [-1.1, -1.1], color=COLORS["data"], lw=points(2.5), solid_capstyle="butt", gid="cd")
        ax.annotate(f"CD = {plain(cd)}", (1 + cd, -1.1), xytext=(6, 0), textcoords="offset points", va="center",
                    fontsize="small", color=COLORS["data"], annotation_clip=False)
    for place, j in enumerate(order):
        left = place < rows
        row = place + 1 if left else k - place
        end = 1 - _REACH if left else k + _REACH
        ax.plot([ranks[j], ranks[j], end], [0, row, row], color=COLORS["muted"], lw=points(1), gid=f"leader-{j}")
        text = f"{names[j]} ({ranks[j]:.2f})" if left else f"({ranks[j]:.2f}) {names[j]}"
        ax.annotate(text, (end, row), xytext=(-4 if left else 4, 0), textcoords="offset points",
                    ha="right" if left else "left", va="center", annotation_clip=False, gid=f"name-{j}",
                    weight="bold" if j == control else "normal")
    for g, group in enumerate(groups):
        low, high = min(ranks[list(group)]), max(ranks[list(group)])
        y = 0.35 + 0.25 * g
        ax.plot([low - 0.03, high + 0.03], [y, y], color=COLORS["truth"], lw=points(4), solid_capstyle="butt",
                gid=f"group-{g}")


def _size(k):
    return 9.0, 1.6 + 0.45 * ((k + 1) // 2)


def friedman(r, ax=None, names=None, alpha=0.05):
    """The picture of a :class:`~evalteach.stats.FriedmanResult`."""
    names = tuple(names) if names is not None else tuple(f"A{i + 1}" for i in range(r.k))
    if len(names) != r.k or not all(isinstance(name, str) for name in names):
        raise ValueError(f"names must be {r.k} strings (one per algorithm), got {names!r}")
    cd = r.critical_difference(alpha)
    with panels(r, ax, figsize=_size(r.k)) as (ax,):
        _diagram(ax, r.average_ranks, names, r.groups(alpha), cd=cd.cd)
        ax.set_title(f"Friedman's $\\chi^2_F$ = {plain(r.statistic)}, {p_text(r.p_value)}; Iman-Davenport's $F_F$ = "
                     f"{plain(r.iman_davenport)}, {p_text(r.iman_davenport_p_value)}\n"
                     f"bars: Nemenyi cannot tell them apart at α = {plain(alpha)}", fontsize="medium")
    return ax


def friedman_posthoc(r, ax=None):
    """The picture of a :class:`~evalteach.stats.FriedmanPosthoc`."""
    with panels(r, ax, figsize=_size(r.k)) as (ax,):
        _diagram(ax, r.average_ranks, r.names, r.groups(), control=r.control)
        against = f"against {r.names[r.control]}" if r.control is not None else "all pairs"
        ax.set_title(f"Post-hoc tests ({r.method}, {against}) at α = {plain(r.alpha)}: "
                     f"bars join what they cannot tell apart", fontsize="medium")
    return ax
