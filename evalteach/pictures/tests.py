"""Pictures of the tests of two hypotheses or two learners: each statistic on the distribution
it is referred to, the share at least as extreme shaded (the p-value), beside the data."""
from __future__ import annotations

import numpy as np
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator
from scipy import stats as _st

from .. import _validate as v

from .._format import interval_words, p_text, plain
from ..plotting import COLORS, points
from ._canvas import ESTIMATE, NULL, P_VALUE, STATISTIC, panels, single
from ._marks import (bars, curve_grid, draw_interval, interval_above, legend_beside, mark_estimate, mark_statistic,
                     no_y_ticks, shade_tails, view)

_SIDES = {"two-sided": "two-sided", "greater": "one-sided, H1: > 0", "less": "one-sided, H1: < 0"}


def _limits(*values, spread=0.0):
    """An x range holding ``values`` (infinite ones left out) with a margin."""
    finite = [v for v in values if np.isfinite(v)]
    low, high = min(finite), max(finite)
    margin = 0.06 * (high - low) or spread or 1.0
    return low - margin, high + margin


def _at_edge(value, limits):
    """An infinite statistic is drawn at the edge of the range shown."""
    return float(np.clip(value, *limits)) if np.isfinite(value) else (limits[1] if value > 0 else limits[0])


def _reference(ax, dist, statistic, alternative, p_value, *, name, symbol, shown=None):
    """The statistic on its reference distribution, the share at least as extreme shaded."""
    shown = shown or view(dist, 1e-3)
    limits = _limits(*shown, statistic)
    x = curve_grid(dist)
    ax.plot(x, dist.pdf(x), color=COLORS["truth"], lw=points(1.4), gid=NULL, label=name)
    shade_tails(ax, dist, x, statistic, alternative, gid=P_VALUE,
                label=f"as extreme: {p_text(p_value)}" + (f" ({_SIDES[alternative]})" if alternative in _SIDES else ""))
    top = float(dist.pdf(x).max())
    mark_statistic(ax, _at_edge(statistic, limits), 1.1 * top, label=f"observed {symbol} = {plain(statistic, 4)}")
    ax.set_xlim(*limits)
    ax.set_ylim(0, 1.25 * top)
    ax.set_xlabel(symbol)
    no_y_ticks(ax)
    legend_beside(ax)


# --- two hypotheses on independent test sets ---------------------------------------------

def difference_under_null(ax, d, se, low, high, *, alternative, p_value, confidence, symbol, statistic):
    """A difference ``d`` on the normal distribution ``N(0, se)`` it follows if the true
    difference is 0, the share at least as extreme shaded (its area is ``p_value``), and the
    interval ``[low, high]`` for the true difference above them. Returns the x range shown."""
    limits = _limits(-4 * se, 4 * se, d, low, high, spread=0.05)
    if se > 0:
        null = _st.norm(0, se)
        x = curve_grid(null)
        top = float(null.pdf(0))
        ax.plot(x, null.pdf(x), color=COLORS["truth"], lw=points(1.4), gid=NULL,
                label=f"if the true {symbol} = 0: N(0, se = {plain(se)})")
        shade_tails(ax, null, x, d, alternative, gid=P_VALUE,
                    label=f"as extreme: {p_text(p_value)} ({_SIDES[alternative]})")
    else:  # no spread: nothing to shade
        top = 1.0
        ax.plot([0, 0], [0, top], color=COLORS["truth"], gid=NULL, label="no spread: se = 0")
    mark_statistic(ax, d, 1.1 * top, label=f"observed {symbol} = {plain(d)} (z = {plain(statistic, 4)})")
    ax.set_xlim(*limits)
    interval_above(ax, low, high, d, 1.04 * top, limits=limits,
                   label=interval_words(low, high, confidence) + f" for {symbol}")
    no_y_ticks(ax)
    legend_beside(ax)
    return limits


def hypothesis_comparison(r, ax=None):
    """The picture of a :class:`~evalteach.stats.HypothesisComparison`."""
    single(r, "statistic")
    with panels(r, ax, figsize=(8.4, 3.6)) as (ax,):
        difference_under_null(ax, r.difference, r.se, r.low, r.high, alternative=r.alternative, p_value=r.p_value,
                              confidence=r.confidence, symbol="d", statistic=r.statistic)
        ax.set_title("z test of two error rates, independent test sets")
        ax.set_xlabel("d = error₁ − error₂")
    return ax


# --- paired tests --------------------------------------------------------------------------

#: Up to this many pairs, each gets its own tick; beyond, a few integer ticks keep them readable.
PAIR_TICKS = 12


def _differences_panel(ax, d, low, high, mean, *, names=None, interval_name=None):
    """The paired differences as dots, the zero line, and the mean with its interval beside them;
    the legend inside the panel (a legend beside it left a blank column)."""
    positions = np.arange(1, d.size + 1)
    at = d.size + max(1.8, 0.12 * d.size)
    ax.axhline(0, color=COLORS["muted"], lw=points(1), gid="zero")
    difference = f"{names[0]} − {names[1]}" if names else "a − b"
    ax.plot(positions, d, "o", color=COLORS["data"], ms=points(6), gid="differences",
            label=f"differences {difference}")
    span = _limits(*d, mean, low, high, spread=float(np.ptp(d)) or abs(mean) or 1.0)
    ax.set_ylim(span[0], span[1] + 0.35 * (span[1] - span[0]))       # room for the legend above the data
    draw_interval(ax, low, high, at, vertical=True, limits=span, label=interval_name)
    mark_estimate(ax, at, mean, label=f"mean = {plain(mean)}")
    ax.set_xlim(0.3, at + 0.7)
    shown = positions if d.size <= PAIR_TICKS else \
        [int(t) for t in MaxNLocator(nbins=6, integer=True).tick_values(1, d.size) if 1 <= t <= d.size]
    ax.set_xticks([*shown, at], [*(str(i) for i in shown), "mean"])
    ax.set_xlabel("pair (one per test set, fold or holdout)")
    ax.set_ylabel(difference)
    ax.legend(loc="upper left", ncols=2, fontsize="small", frameon=False, columnspacing=1.0, handlelength=1.2,
              borderaxespad=0.3)


def paired_test(r, ax=None, names=None):
    """The picture of a :class:`~evalteach.stats.PairedTest`."""
    single(r, "statistic")
    names = None if names is None else v.names("names", names, 2, "the learners a and b")
    with panels(r, ax, count=2, figsize=(11.0, 3.6), ratios=(1, 1)) as (left, right):
        _differences_panel(left, r.differences, r.low, r.high, r.mean_difference, names=names,
                           interval_name=interval_words(r.low, r.high, r.confidence))
        left.set_title(f"{r.k} paired differences")
        symbol = "z" if r.df is None else "t"
        dist = _st.norm() if r.df is None else _st.t(r.df)
        _reference(right, dist, r.statistic, r.alternative, r.p_value, symbol=symbol,
                   name="N(0, 1)" if r.df is None else f"Student's t, {r.df} df")
        right.set_title(r.test[0].upper() + r.test[1:])
    return left


def five_by_two(r, ax=None):
    """The picture of a :class:`~evalteach.stats.FiveByTwoTest`."""
    single(r, "statistic")
    is_t = r.test.endswith("t-test")
    with panels(r, ax, count=2, figsize=(11.0, 3.6)) as (left, right):
        p = r.differences
        left.axhline(0, color=COLORS["muted"], lw=points(1), gid="zero")
        replication = np.arange(1, 6)
        for fold, color in ((0, COLORS["data"]), (1, COLORS["theory"])):
            left.plot(replication + (fold - 0.5) * 0.2, p[:, fold], "o", color=color, ms=points(6),
                      gid=f"differences-fold-{fold + 1}", label=f"fold {fold + 1}")
        if is_t:  # Dietterich's numerator: the first fold of the first replication
            left.plot([0.9], [p[0, 0]], "o", mfc="none", mec=COLORS["bad"], ms=points(12), mew=points(2),
                      gid=ESTIMATE, label=f"numerator p₁⁽¹⁾ = {plain(p[0, 0])}")
        span = _limits(*p.ravel(), 0.0)
        left.set(xlim=(0.4, 5.6), ylim=span, xticks=replication, xlabel="replication", ylabel="a − b",
                 title="5×2 cross-validation: 10 differences")
        legend_beside(left)
        if is_t:
            _reference(right, _st.t(5), r.statistic, r.alternative, r.p_value, symbol="t", name="Student's t, 5 df")
        else:
            dist = _st.f(10, 5)
            _reference(right, dist, r.statistic, "upper", r.p_value, symbol="F", name="F(10, 5)",
                       shown=(0.0, dist.isf(0.01)))
        right.set_title(r.test.replace("5x2cv", "5×2cv"))
    return left


# --- counts: binomial, sign and McNemar ------------------------------------------------------

def _binomial_bars(ax, n, p0, extreme, observed, *, name, symbol):
    """Bin(n, p0) as bars, the outcomes in ``extreme`` filled, the observed count marked."""
    j = np.arange(n + 1)
    pmf = _st.binom.pmf(j, n, p0)
    width = 0.8 if n < 60 else 1.0
    visible = pmf > 1e-6 * pmf.max()
    bars(ax, j[~extreme & visible], pmf[~extreme & visible], width, color=COLORS["data"], alpha=0.4, gid=NULL,
         label=name)
    if extreme.any():
        bars(ax, j[extreme], pmf[extreme], width, color=COLORS["bad"], alpha=0.85, gid=P_VALUE,
             label=f"as extreme: {p_text(pmf[extreme].sum())}")
    top = float(pmf.max())
    ax.plot([observed], [pmf[observed] + 0.08 * top], "v", color=COLORS["bad"], ms=points(9), gid=STATISTIC,
            label=f"observed {symbol} = {observed}")
    shown = j[pmf > 1e-4 * pmf.max()]
    ax.set_xlim(min(shown[0], observed) - 1, max(shown[-1], observed) + 1)
    ax.set_ylim(0, 1.25 * top)
    ax.set_ylabel("probability")
    return pmf


def binomial_test(r, ax=None):
    """The picture of a :class:`~evalteach.stats.BinomialTest`."""
    with panels(r, ax, figsize=(8.0, 3.4)) as (ax,):
        j = np.arange(r.n + 1)
        pmf = _st.binom.pmf(j, r.n, r.p0)
        extreme = {"less": j <= r.k, "greater": j >= r.k,
                   # the outcomes no more probable than k (as the test counts them)
                   "two-sided": pmf <= pmf[r.k] * (1 + 1e-7)}[r.alternative]
        _binomial_bars(ax, r.n, r.p0, extreme, r.k, name=f"Bin({r.n}, {plain(r.p0)}) if p = p₀", symbol="k")
        side = ("two-sided" if r.alternative == "two-sided" else
                f"one-sided, H1: p {'<' if r.alternative == 'less' else '>'} p₀")
        ax.set_title(f"Binomial test of k = {r.k} in n = {r.n} against p₀ = {plain(r.p0)} ({side})")
        ax.set_xlabel("k")
        legend_beside(ax)
    return ax


def sign_test(r, ax=None):
    """The picture of a :class:`~evalteach.stats.SignTest`."""
    with panels(r, ax, figsize=(8.0, 3.4)) as (ax,):
        j = np.arange(r.n + 1)
        low = min(r.statistic, r.n - r.statistic)
        extreme = (j <= low) | (j >= r.n - low)
        _binomial_bars(ax, r.n, 0.5, extreme, r.statistic, name=f"Bin({r.n}, ½) if neither is better", symbol="wins")
        ties = f", {r.ties} tie{'s' if r.ties != 1 else ''} split" if r.ties else ""
        if r.names:
            ax.set_title(f"Sign test: {r.names[0]} wins {r.wins}, loses {r.losses}{ties} against {r.names[1]}: "
                         f"{r.statistic} of {r.n}")
        else:
            ax.set_title(f"Sign test: {r.wins} wins, {r.losses} losses{ties}: {r.statistic} of {r.n}")
        ax.set_xlabel(f"wins of {r.names[0]}" if r.names else "wins")
        legend_beside(ax)
    return ax


def _table(ax, r):
    """The 2 x 2 table of right and wrong, the discordant cells b and c marked."""
    ax.set_axis_off()
    ax.set_xlim(-1.2, 2)
    ax.set_ylim(0, 3.2)
    cells = (r.table if r.table is not None else
             np.array([[None, r.b], [r.c, None]], dtype=object))
    for i, row in enumerate(("A right", "A wrong")):
        ax.text(-0.1, 1.5 - i, row, ha="right", va="center")
        for j, column in enumerate(("B right", "B wrong")):
            if i == 0:
                ax.text(j + 0.5, 2.2, column, ha="center", va="bottom")
            discordant = i != j
            ax.add_patch(Rectangle((j, 1 - i), 1, 1, linewidth=0, alpha=0.3 if discordant else 0.12,
                                   color=COLORS["bad"] if discordant else COLORS["muted"], gid=f"cell-{i}{j}"))
            name = ("b" if i == 0 else "c") if discordant else ""
            value = cells[i, j]
            text = (f"{name} = {value}" if name else str(value)) if value is not None else "·"
            ax.text(j + 0.5, 1.5 - i, text, ha="center", va="center", gid=f"count-{i}{j}",
                    weight="bold" if discordant else "normal")
    if r.table is None:
        ax.text(0.5, 0.0, f"n = {r.n}" if r.n is not None else "only b and c given", ha="left", va="bottom",
                fontsize="small", color=COLORS["muted"])


def mcnemar_test(r, ax=None):
    """The picture of a :class:`~evalteach.stats.McNemarTest`."""
    single(r, "p_value")
    with panels(r, ax, count=2, figsize=(10.5, 3.4), ratios=(0.8, 1.6)) as (left, right):
        _table(left, r)
        left.set_title("one test set")
        m = r.b + r.c
        j = np.arange(m + 1)
        if r.exact:
            low = min(r.b, r.c)
            extreme = (j <= low) | (j >= m - low)
        else:
            extreme = np.zeros(m + 1, bool)
        _binomial_bars(right, m, 0.5, extreme, r.b, name=f"Bin(b + c = {m}, ½) if the error rates are equal",
                       symbol="b")
        if not r.exact and m > 0:
            # chi-square with 1 df is z squared, z = (|b - c| - correction) / sqrt(b + c): on the
            # scale of b, the tails beyond (b + c)/2 -+ (|b - c| - correction)/2 of N((b + c)/2, sqrt(b + c)/2)
            normal = _st.norm(m / 2, np.sqrt(m) / 2)
            x = curve_grid(normal)
            right.plot(x, normal.pdf(x), color=COLORS["truth"], lw=points(1.4), gid="normal approximation",
                       label="its normal approximation")
            gap = max(abs(r.b - r.c) - (1 if r.correction else 0), 0) / 2
            shade_tails(right, normal, x, m / 2 + gap, "two-sided", centre=m / 2, gid=P_VALUE,
                        label=f"as extreme: {p_text(r.p_value)} (χ², 1 df)")
        kind = "exact binomial" if r.exact else ("χ² with continuity correction" if r.correction else "χ²")
        right.set_title(f"McNemar's test ({kind})")
        right.set_xlabel("b: only A right")
        legend_beside(right)
    return left

