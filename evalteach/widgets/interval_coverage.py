"""The interval dance: how often does a 95% interval contain the true error?"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.colors import to_rgba
from matplotlib.transforms import Bbox

from ..plotting import COLORS, area, dots, points
from ..simulate.intervals import exact_coverage, interval_coverage
from ..stats.intervals import test_set_size
from ._base import Explorer, buttons, dropdown, slider
from ._cached_layer import CachedLayer, Stamp, marker_clip_box
from .clt import _x_label

MAX_SETS = 200
#: True errors of the coverage curve.
GRID = np.round(np.arange(0.005, 1.0, 0.005), 3)
#: Half-widths of the planning curve.
HALF_WIDTHS = np.round(np.arange(0.01, 0.2001, 0.005), 3)
METHOD_LABELS = {"wald": "Wald", "wilson": "Wilson", "clopper-pearson": "Clopper-Pearson"}
METHOD_STYLE = {"wald": (COLORS["data"], "-"), "wilson": (COLORS["good"], "--"),
                "clopper-pearson": (COLORS["second"], "-.")}

#: y limits of the exact-coverage panel: coverage above 1 cannot happen, so the band
#: between 1 and the top holds the legend, clear of every curve.
CURVE_BOTTOM, CURVE_TOP = 0.45, 1.1

_HIT, _MISS = np.array(to_rgba(COLORS["data"])), np.array(to_rgba(COLORS["bad"]))


@dataclass(frozen=True)
class CoverageView:
    """The numbers shown: the simulated intervals, exact coverage curves, test-set planning."""

    simulation: object  # IntervalCoverage of the intervals shown
    running: np.ndarray  # coverage of the first 1, 2, ... intervals
    curves: dict  # method -> exact coverage over GRID at this n
    needed: object  # TestSetSize for the chosen half-width
    needed_curve: np.ndarray  # n needed for each of HALF_WIDTHS

    @property
    def coverage(self):
        return self.simulation.coverage


@lru_cache(maxsize=32)
def _curves(n, confidence, sided):
    return {m: exact_coverage(GRID, n, confidence, m, sided) for m in METHOD_LABELS}  # the methods drawn


@lru_cache(maxsize=32)
def _planning(error, confidence):
    return np.array([test_set_size(error, h, confidence).n for h in HALF_WIDTHS])


def _zoom(sim, margin=0.03):
    """x limits of the interval panel: the intervals and the truth, with a margin, on a 0.1 grid.

    The grid makes the limits (and so the tick labels) change rarely: most moves draw no
    tick labels.
    """
    finite_low = np.where(np.isfinite(sim.low), sim.low, 0.0)
    finite_high = np.where(np.isfinite(sim.high), sim.high, 1.0)
    low = min(finite_low.min(), sim.error) - margin
    high = max(finite_high.max(), sim.error) + margin
    low, high = max(0.0, np.floor(low * 10) / 10), min(1.0, np.ceil(high * 10) / 10)
    pad = 0.015 * (high - low)  # markers at 0 or 1 stay whole
    return (low - pad if low == 0 else low, high + pad if high == 1 else high)


class IntervalCoverageExplorer(Explorer):
    """Repeated test sets, one confidence interval each, and how many contain the truth.

    Each row of the top-left panel is one test set of size ``n`` drawn from a
    hypothesis whose true error is ``error``: its interval (misses drawn thick). Top right:
    the running share of intervals that cover, row by row beside them, against the nominal level and the exact
    coverage. Bottom left: the exact coverage of the Wald, Wilson and Clopper-Pearson
    intervals for every true error at this ``n`` (Brown, Cai & DasGupta 2001). Bottom
    right: planning, the test-set size needed for a chosen half-width (Mitchell ch. 5).

    Parameters
    ----------
    error : float, default 0.3
        True error rate.
    n : int, default 40
        Test-set size.
    method : {"wald", "wilson", "clopper-pearson"}
    confidence : float, default 0.95
    sided : {"two", "lower", "upper"}
    intervals : int, default 100
        How many test sets are shown (Play adds them one by one).
    half_width : float, default 0.05
        Wanted half-width for the planning panel.
    seed : int

    Examples
    --------
    >>> IntervalCoverageExplorer(n=40, method="wilson")  # doctest: +SKIP
    """

    title = "Interval coverage: the interval dance"
    figsize = (10.0, 6.6)
    resample_button = True
    play = {"intervals": 150}

    def _controls(self):
        return {
            "error": slider("true error", 0.3, 0.01, 0.99, 0.01),
            "n": slider("test-set size n", 40, 5, 500),
            "method": dropdown("interval", [(v, k) for k, v in METHOD_LABELS.items()], "wald"),
            "confidence": slider("confidence", 0.95, 0.8, 0.99, 0.01),
            "sided": buttons("sides", [("two-sided", "two"), ("lower bound", "lower"),
                                       ("upper bound", "upper")], "two"),
            "intervals": slider("test sets shown", 100, 1, MAX_SETS),
            "half_width": slider("planned half-width", 0.05, 0.01, 0.2, 0.005),
        }

    def _compute(self, s):
        sim = interval_coverage(s["error"], s["n"], s["confidence"], s["method"], s["sided"],
                                n_sets=s["intervals"], seed=s["seed"])
        running = np.cumsum(sim.covered) / np.arange(1, sim.covered.size + 1)
        return CoverageView(sim, running, _curves(s["n"], s["confidence"], s["sided"]),
                            test_set_size(s["error"], s["half_width"], s["confidence"]),
                            _planning(s["error"], s["confidence"]))

    # --- drawing -------------------------------------------------------------------------
    #
    # No control redraws the whole figure. Each panel is a cached layer, kept as the pixels
    # of its own quarter of the figure and keyed by what it shows, so an update draws only
    # the panels whose numbers changed (the planned half-width touches the planning panel
    # only; a mode switch back to a mode seen before is a paste). The tick labels of the
    # intervals' x axis are drawn once per zoom; the running panel's legend once per place
    # (where no line passes under it), every other legend is static.

    def _build(self, figure):
        (ax_dance, ax_run), (ax_curve, ax_plan) = figure.subplots(2, 2)
        self.axes = ax_dance, ax_run, ax_curve, ax_plan

        ax_dance.set_xlim(0, 1)
        ax_dance.set_ylim(101, 0)
        ax_dance.set_yticks([])  # no tick labels: the rows fill the panel without a full redraw
        _x_label(ax_dance, "error rate")
        ax_dance.set_ylabel("test sets, one per row")
        self.segments = LineCollection([], linewidths=points(1.2))
        ax_dance.add_collection(self.segments)
        self.estimates = dots(ax_dance, area(4), color=COLORS["truth"], zorder=3)
        # a miss of zero width (Wald's [0, 0] when no error is seen) has no line to draw
        self.point_misses = ax_dance.scatter([], [], s=area(9), marker="D", color=COLORS["bad"], zorder=4)
        for markers in (self.estimates, self.point_misses):  # not into the tick labels' layer below
            markers.set_clip_box(marker_clip_box(ax_dance))
        self.truth = ax_dance.axvline(0.3, color=COLORS["truth"], lw=points(1))
        self.dance_title = ax_dance.text(0.5, 1.02, "", transform=ax_dance.transAxes, ha="center")

        # the running share sits beside the intervals, row for row: same y axis, fixed x
        ax_run.set_xlim(0, 1.02)
        ax_run.set_ylim(101, 0)
        ax_run.set_yticks([])
        ax_run.set_xlabel("share covering so far")
        ax_run.set_ylabel("first k test sets (row k)")
        (self.running,) = ax_run.plot([], [], color=COLORS["data"], label="running coverage")
        self.nominal_run = ax_run.axvline(0.95, color=COLORS["truth"], ls=":", lw=points(1.2), label="nominal")
        self.exact_run = ax_run.axvline(0.95, color=COLORS["theory"], ls="--", lw=points(1.2), label="exact")
        self.run_legend = ax_run.legend(loc="lower left", fontsize="small")
        self._legend_size = (None, None)  # (layout and density, the legend's size in axes fractions)
        self.run_title = ax_run.text(0.5, 1.02, "", transform=ax_run.transAxes, ha="center")

        # coverage never exceeds 1: the band above it holds the legend, clear of every curve
        ax_curve.set_xlim(0, 1)
        ax_curve.set_ylim(CURVE_BOTTOM, CURVE_TOP)
        ax_curve.set_yticks(np.round(np.arange(0.5, 1.01, 0.1), 1))
        ax_curve.set_xlabel("true error")
        ax_curve.set_ylabel("exact coverage")
        self.curves = {}
        for m, (color, ls) in METHOD_STYLE.items():
            (self.curves[m],) = ax_curve.plot([], [], color=color, ls=ls, lw=points(1.2), label=METHOD_LABELS[m])
        self.nominal_curve = ax_curve.axhline(0.95, color=COLORS["truth"], ls=":", lw=points(1.2))
        self.truth_curve = ax_curve.axvline(0.3, ymax=(1 - CURVE_BOTTOM) / (CURVE_TOP - CURVE_BOTTOM),
                                            color=COLORS["muted"], lw=points(1))  # stops below the legend
        ax_curve.legend(loc="upper center", ncol=3, fontsize="small")
        self.curve_title = ax_curve.text(0.5, 1.02, "", transform=ax_curve.transAxes, ha="center")

        ax_plan.set_xlim(0, 0.2)
        ax_plan.set_xticks([0, 0.05, 0.1, 0.15, 0.2])
        ax_plan.set_yscale("log")
        ax_plan.set_ylim(1, 2e4)
        ax_plan.set_xlabel("planned half-width (two-sided Wald)")
        ax_plan.set_ylabel("test examples needed (log scale)")
        ax_plan.grid(True, alpha=0.3)
        (self.plan_curve,) = ax_plan.plot([], [], color=COLORS["theory"])
        (self.plan_point,) = ax_plan.plot([], [], "o", color=COLORS["truth"])
        self.current_n = ax_plan.axhline(40, color=COLORS["data"], ls="--", lw=points(1.2), label="current n")
        ax_plan.legend(loc="upper right", fontsize="small")
        self.plan_title = ax_plan.text(0.5, 1.02, "", transform=ax_plan.transAxes, ha="center")

        self.layers = {
            "dance": (CachedLayer(region=lambda _: self._quarter(0, 0, ticks=False)),
                      (self.segments, self.estimates, self.point_misses, self.truth, self.dance_title)),
            "ticks": (CachedLayer(region=lambda _: self._quarter(0, 0, ticks=True)),
                      (ax_dance.xaxis,)),
            "run": (CachedLayer(region=lambda _: self._quarter(0, 1)),
                    (self.running, self.nominal_run, self.exact_run, self.run_title)),
            # over the run panel, where no line passes as a rule: then a paste per place
            "run legend": (Stamp(), (self.run_legend,)),
            "curve": (CachedLayer(region=lambda _: self._quarter(1, 0)),
                      (*self.curves.values(), self.nominal_curve, self.curve_title)),
            "plan": (CachedLayer(region=lambda _: self._quarter(1, 1)),
                     (self.plan_curve, self.plan_point, self.plan_title)),
        }
        for _, artists in self.layers.values():
            for artist in artists:
                artist.set_animated(True)
        # the lines that move with the true error and n alone are drawn on every update
        self.dynamic(*(layer for layer, _ in self.layers.values()), self.truth_curve, self.current_n)

    def _quarter(self, row, column, ticks=None):
        """The part of the figure (display pixels) that belongs to one panel: halfway to its
        neighbours and out to the figure's edges. ``ticks``: only the part below (True) or
        above (False) the panel's bottom edge, where its x tick labels are."""
        box = self.axes[2 * row + column].bbox
        other = self.axes[2 * row + 1 - column].bbox
        below = self.axes[2 + column].bbox
        above = self.axes[column].bbox
        left = 0 if column == 0 else (other.x1 + box.x0) / 2
        right = self.figure.bbox.width if column == 1 else (box.x1 + other.x0) / 2
        split = (above.y0 + below.y1) / 2
        bottom, top = (0, split) if row == 1 else (split, self.figure.bbox.height)
        if ticks is not None:
            bottom, top = (bottom, box.y0) if ticks else (box.y0, top)
        return Bbox.from_extents(left, bottom, right, top)

    def _draw(self, r):
        sim = r.simulation
        m = sim.covered.size
        rows = np.arange(1, m + 1)
        dance = self.axes[0]
        self.segments.set_segments(np.stack([np.c_[sim.low, rows], np.c_[sim.high, rows]], axis=1))
        self.segments.set_color(np.where(sim.covered[:, None], _HIT, _MISS))
        self.segments.set_linewidth(np.where(sim.covered, points(1.0), points(2.2)))
        self.estimates.set_data(sim.errors / sim.n, rows)
        dots = ~sim.covered & (sim.high - sim.low < 2e-3)
        self.point_misses.set_offsets(np.c_[sim.low[dots], rows[dots]].reshape(-1, 2))
        self.truth.set_xdata([sim.error] * 2)
        dance.set_ylim(m + 0.5, 0.5)
        dance.set_xlim(*_zoom(sim))  # on a 0.1 grid: new tick labels are rare
        misses = "thick or ◆: misses" if dots.any() else "thick: misses"  # ◆: a miss of zero width
        self.dance_title.set_text(f"{int(sim.covered.sum())} of {m} cover the true error ({misses})")
        drawn = (sim.error, sim.n, sim.low.tobytes(), sim.high.tobytes(), sim.errors.tobytes())
        self._show("dance", (dance.get_xlim(), *drawn))
        self._show("ticks", dance.get_xlim())

        self.axes[1].set_ylim(m + 0.5, 0.5)
        self.running.set_data(r.running, rows)
        self.nominal_run.set_xdata([sim.confidence] * 2)
        self.exact_run.set_xdata([sim.exact] * 2)
        self.run_title.set_text(f"coverage {sim.coverage:.1%}, exact {sim.exact:.1%}")
        self._show("run", (sim.confidence, sim.exact, *drawn))
        x0, crossed = self._place_run_legend(r.running, sim)
        # the pixels under the legend are the background's unless a line passes under it
        self._show("run legend", (x0, *((sim.confidence, sim.exact, *drawn) if crossed else ())))

        for method, line in self.curves.items():
            line.set_data(GRID, r.curves[method])
            line.set_linewidth(points(2.4 if method == sim.method else 1.0))
        self.nominal_curve.set_ydata([sim.confidence] * 2)
        self.truth_curve.set_xdata([sim.error] * 2)
        self.curve_title.set_text(f"exact coverage for n = {sim.n}")
        self._show("curve", (sim.n, sim.confidence, sim.sided, sim.method))

        self.plan_curve.set_data(HALF_WIDTHS, r.needed_curve)
        self.plan_point.set_data([r.needed.half_width], [r.needed.n])
        self.current_n.set_ydata([sim.n] * 2)
        self.plan_title.set_text(f"±{r.needed.half_width:g} at {r.needed.confidence:.0%}, error {sim.error:g}: n = {r.needed.n}")
        self._show("plan", (sim.error, r.needed.half_width, r.needed.confidence))

    def _place_run_legend(self, running, sim):
        """Put the running panel's legend at the bottom where no line passes: at the left when
        coverage is high (the usual case), further right when it is low (Wald at an error
        near 0 or 1). Returns its place (x0, in axes fractions) and whether a line passes
        within 0.02 of its box (wider than the padding of its stamp)."""
        ax, legend = self.axes[1], self.run_legend
        pad_x, pad_y, width, height = self._run_legend_size()
        m, right = len(running), ax.get_xlim()[1]
        # the running line's segments beside the legend, from the row above it down; row k
        # is at (m + 0.5 - k) / m of the height
        first = max(int(np.floor(m * (1 - pad_y - height - 0.02) + 0.5)) - 2, 0)
        rows = running[first:] / right
        low = np.r_[rows[:1], np.minimum(rows[:-1], rows[1:]), sim.exact / right, sim.confidence / right]
        high = np.r_[rows[:1], np.maximum(rows[:-1], rows[1:]), sim.exact / right, sim.confidence / right]
        spots = np.linspace(0.0, 0.98 - width, 12)

        def crossings(x0):
            return int(np.sum((high > x0 + pad_x - 0.02) & (low < x0 + pad_x + width + 0.02)))
        x0 = min(spots, key=crossings)  # the leftmost free spot, else the least crowded
        legend.set_bbox_to_anchor((x0, 0.0, width, height), transform=ax.transAxes)
        return float(x0), crossings(x0) > 0

    def _run_legend_size(self):
        """The running panel's legend in axes fractions: its offset from its anchor (the
        legend's padding) and its width and height. Its words never change: measured once
        per layout and pixel density."""
        ax = self.axes[1]
        key = (self.figure.dpi, tuple(ax.bbox.bounds))
        if self._legend_size[0] != key:
            to_axes = ax.transAxes.inverted()
            box = self.run_legend.get_window_extent(self.figure.canvas.get_renderer()).transformed(to_axes)
            anchor = self.run_legend.get_bbox_to_anchor().transformed(to_axes)
            self._legend_size = (key, (box.x0 - anchor.x0, box.y0 - anchor.y0, box.width, box.height))
        return self._legend_size[1]

    def _show(self, panel, key):
        """Show the artists of ``panel`` through its layer, cached under ``key`` (what they show)."""
        layer, artists = self.layers[panel]
        layer.show(key, artists)

    def _summary(self, r):
        sim = r.simulation
        side = {"two": "two-sided", "lower": "lower", "upper": "upper"}[sim.sided]
        return (f"{int(sim.covered.sum())} of {sim.covered.size} {side} {METHOD_LABELS[sim.method]} intervals at "
                f"{sim.confidence:.0%} confidence contain the true error {sim.error:g} "
                f"(coverage {sim.coverage:.1%}); the exact coverage for n = {sim.n} is {sim.exact:.2%}. "
                f"A {r.needed.confidence:.0%} interval of half-width {r.needed.half_width:g} around an error of "
                f"{sim.error:g} needs n = {r.needed.n} test examples.")
