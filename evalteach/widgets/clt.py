"""CLTExplorer: the distribution of a sample mean approaches a normal as n grows."""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import matplotlib as mpl
import numpy as np
from matplotlib.transforms import Bbox
from scipy import stats as _st

from .. import simulate
from ..plotting import COLORS, fast_x_axis, points
from ._base import Explorer, dropdown, slider, text
from ._cached_layer import CachedLayer
from .sampling_error import headroom

#: The mean counts as "near normal" once |skewness| and |excess kurtosis| of its
#: distribution are both below this. 0.4 turns the Bernoulli(p) condition into
#: n p >= (1 - 2p)^2 / (0.16 (1 - p)), between 4.4 and 6.25 for p <= 0.1, near the
#: textbook n p >= 5, and lets the exponential pass at n = 30 (it needs 25).
SHAPE_TOLERANCE = 0.4
RULE_N = 30
MAX_N = 400  # the log-normal's mean is near normal only from n = 278

_CHOICES = [("uniform", "uniform"), ("exponential", "exponential"), ("Bernoulli(p)", "bernoulli"),
            ("bimodal", "bimodal"), ("log-normal", "lognormal"), ("your own (typed)", "discrete")]


def zoom(ax, lo, hi, fill=0.35, pad=0.25):
    """Fit the x axis to [lo, hi] with hysteresis; True if the limits changed.

    The limits stay while they hold [lo, hi] and it fills at least ``fill`` of them,
    so small moves keep the tick labels (a new zoom draws them once); a new range gets
    ``pad`` times its width as room on either side.
    """
    a, b = ax.get_xlim()
    if a <= lo and hi <= b and hi - lo >= fill * (b - a):
        return False
    pad = pad * (hi - lo)
    ax.set_xlim(lo - pad, hi + pad)
    return True


def _x_label(ax, label):
    """A static x label at a fixed place under an x axis that is redrawn with the data."""
    below = fast_x_axis(ax)
    ax.text(0.5, 0, label, transform=below, ha="center", va="top", fontsize=mpl.rcParams["axes.labelsize"])


def needed_n(distribution, tolerance=SHAPE_TOLERANCE):
    """Smallest n whose mean has |skewness| and |excess kurtosis| <= ``tolerance``."""
    from_skew = (distribution.skewness / tolerance) ** 2
    from_kurt = abs(distribution.kurtosis) / tolerance
    return max(1, math.ceil(max(from_skew, from_kurt) - 1e-9))


@dataclass(frozen=True)
class CLTView:
    """The numbers the explorer shows.

    ``means`` are the simulated sample means; ``edges``/``density`` their histogram;
    ``sd_theory`` is sigma / sqrt(n); ``skewness``/``kurtosis`` the exact shape of the
    mean's distribution at this n and ``observed_skewness`` that of the simulated means;
    ``n_needed`` the smallest n within ``SHAPE_TOLERANCE`` of normal.
    """

    distribution: simulate.Distribution
    n: int
    n_samples: int
    means: np.ndarray
    mean: float
    sd: float
    sd_theory: float
    edges: np.ndarray
    density: np.ndarray
    skewness: float
    kurtosis: float
    observed_skewness: float
    n_needed: int

    @property
    def rule_holds(self):
        """Whether n >= 30 is enough for this parent."""
        return self.n_needed <= RULE_N


def _edges(means, discrete, max_bins=40):
    """Histogram edges; for a discrete parent, bins centred on the lattice the means lie on."""
    if discrete:
        u = np.unique(np.round(means, 9))
        if len(u) == 1:
            return np.array([u[0] - 0.5, u[0] + 0.5])
        step = np.diff(u).min()
        k = (u - u[0]) / step
        if np.allclose(k, np.rint(k), atol=1e-6):
            width = step * max(1, math.ceil(k[-1] / max_bins))
            return u[0] - width / 2 + width * np.arange(math.floor(k[-1] * step / width) + 2)
    return np.histogram_bin_edges(means, bins=max_bins)


@lru_cache(maxsize=16)
def _density_curve(distribution):
    """Points of the parent's density over its bulk (0.1% to 99.5% quantiles, padded)."""
    draws = distribution.draw(np.random.default_rng(0), 20000)
    lo, hi = np.quantile(draws, [0.001, 0.995])
    x = np.linspace(lo - 0.1 * (hi - lo), hi + 0.05 * (hi - lo), 400)
    return x, distribution.pdf(x)


class CLTExplorer(Explorer):
    """Sample means from a parent distribution of your choice, against Normal(mu, sigma^2/n).

    Whatever the parent (with finite variance), the mean of ``n`` independent draws has
    mean mu and SD sigma/sqrt(n), and its distribution approaches a normal as ``n`` grows
    (Mitchell ch. 5). How fast depends on the parent's skewness and kurtosis: the right
    panel shows the larger of the mean's exact |skewness| (gamma1/sqrt(n)) and |excess
    kurtosis| (gamma2/n) against ``n``, and whether the rule of thumb ``n >= 30`` is enough (it is
    not for a Bernoulli with small p, nor for the log-normal).

    Parameters
    ----------
    distribution : {"uniform", "exponential", "bernoulli", "bimodal", "lognormal", "discrete"}
    p : float
        Success probability of the Bernoulli parent.
    text : str
        The discrete parent, as ``"1:0.2, 5:0.8"`` (value:probability) or ``"1, 2, 2, 9"``
        (equally likely values); typing selects it.
    n : int
        Sample size, 1 to 200 (Play animates it).
    n_samples : int
        Number of simulated samples.
    seed : int

    Examples
    --------
    >>> CLTExplorer(distribution="bernoulli", p=0.05, n=30)   # doctest: +SKIP
    """

    title = "Central limit theorem: the distribution of the sample mean"
    figsize = (11.0, 4.0)
    resample_button = True
    play = {"n": 250}

    def _controls(self):
        return {
            "distribution": dropdown("parent distribution", _CHOICES, "exponential"),
            "p": slider("Bernoulli p", 0.1, 0.01, 0.99, 0.01),
            "text": text("typed distribution", "1:0.2, 5:0.8",
                          placeholder="1:0.2, 5:0.8  or  1, 2, 2, 9",
                          tooltip="value:probability pairs, or a list of equally likely values"),
            "n": slider("sample size n", 5, 1, MAX_N),
            "n_samples": slider("number of samples", 2000, 200, 10000, 200),
        }

    def __init__(self, **kwargs):
        if "text" in kwargs:  # a typed distribution is there to be seen
            kwargs.setdefault("distribution", "discrete")
        super().__init__(**kwargs)
        self.controls["text"].observe(self._typed, names="value")

    def _typed(self, change):
        # typing a distribution means wanting to see it
        if self.controls["distribution"].value != "discrete":
            self.controls["distribution"].value = "discrete"

    def _hidden(self, state):
        # p shapes only the Bernoulli parent, the text only the typed one
        kind = state["distribution"]
        return {name for name, used in (("p", kind == "bernoulli"), ("text", kind == "discrete")) if not used}

    def _compute(self, state):
        d = simulate.parent_distribution(state["distribution"], p=state["p"], text=state["text"])
        if d.sd == 0:
            raise ValueError(f"text must give a distribution with some spread, got one value only: {d.label}")
        n = state["n"]
        means = simulate.sample_means(d, n, state["n_samples"], seed=state["seed"])
        edges = _edges(means, d.discrete)
        counts, _ = np.histogram(means, edges)
        skew, kurt = d.shape_of_mean(n)
        spread = float(means.std(ddof=1))
        return CLTView(d, n, state["n_samples"], means, float(means.mean()), spread, d.sd / math.sqrt(n),
                       edges, counts / (len(means) * np.diff(edges)), float(skew), float(kurt),
                       float(_st.skew(means)) if spread > 0 else 0.0, needed_n(d))

    def _build(self, figure):
        ax_parent, ax_means, ax_shape = figure.subplots(1, 3, width_ratios=[1, 1.6, 1.3])
        self.ax_parent, self.ax_means, self.ax_shape = ax_parent, ax_means, ax_shape
        ax_parent.set_yticks([])
        ax_parent.set_ylabel("parent distribution")
        _x_label(ax_parent, "value of one draw")
        self.parent_title = ax_parent.set_title(" \n ", fontsize="medium", y=1.0)
        self._parent = None
        self._parent_artists = []

        _x_label(ax_means, r"sample mean $\bar{Y}$")
        ax_means.set_ylabel("density")
        ax_means.set_yticks([])  # the height follows the histogram without a full redraw
        self.bars = ax_means.stairs([0.0], [0.0, 1.0], fill=True, color=COLORS["data"], alpha=0.45,
                                    label="simulated means")
        (self.normal,) = ax_means.plot([], [], color=COLORS["normal"], label=r"Normal($\mu$, $\sigma^2/n$)")
        self.mu_line = ax_means.axvline(0, color=COLORS["truth"], ls="--", lw=points(1.2), label=r"$\mu$")
        ax_means.legend(loc="upper right", frameon=False)
        self.means_title = ax_means.set_title(" \n \n ", fontsize="medium", y=1.0)

        ns = np.arange(1, MAX_N + 1)
        # log n: the shape shrinks like 1/sqrt(n) and 1/n, and the small n are where it matters
        ax_shape.set_xscale("log")
        ax_shape.set_xlim(1, MAX_N)
        ax_shape.set_xticks([1, 3, 10, 30, 100, 400], ["1", "3", "10", "30", "100", "400"])
        ax_shape.minorticks_off()
        ax_shape.set_ylim(0, 1.5)
        ax_shape.set_xlabel("sample size n (log scale)")
        ax_shape.set_ylabel("larger of |skewness|,\n|excess kurtosis| of the mean")
        ax_shape.axhspan(0, SHAPE_TOLERANCE, color=COLORS["good"], alpha=0.12, lw=0)
        ax_shape.text(1.1, SHAPE_TOLERANCE * 0.3, "near normal", va="center", color=COLORS["good"],
                      fontsize="small")
        ax_shape.axvline(RULE_N, color=COLORS["muted"], ls=":", lw=points(1.5))  # the rule of thumb
        # one curve: the mean counts as near normal once both measures are small
        (self.shape_curve,) = ax_shape.plot(ns, np.zeros_like(ns, dtype=float), color=COLORS["data"])
        (self.here,) = ax_shape.plot([], [], "o", color=COLORS["truth"], ms=points(6), clip_on=False)
        self.verdict = ax_shape.set_title(" \n ", fontsize="medium", y=1.0)

        # No control redraws the whole figure (at 2x that costs 100-160 ms, mostly text).
        # What one parent shows is drawn once per parent: its picture, x axis and title in
        # the left column, the shape curve and verdict in the right one; the means' x axis
        # once per zoom. Each is kept as the pixels of its own part of the figure.
        self.parent_layer = CachedLayer(region=lambda _: self._column(0))
        self.shape_layer = CachedLayer(region=lambda _: self._column(2))
        self.zoom_layer = CachedLayer(region=lambda _: self._column(1, below=ax_means))
        for artist in (ax_parent.xaxis, self.parent_title, self.shape_curve, self.verdict, ax_means.xaxis):
            artist.set_animated(True)
        self.dynamic(self.parent_layer, self.shape_layer, self.zoom_layer,
                     self.bars, self.normal, self.mu_line, self.means_title, self.here)

    def _column(self, i, below=None):
        """The part of the figure (display pixels) that belongs to panel ``i``: from halfway
        to its neighbours, top to bottom (or up to the bottom of ``below``)."""
        boxes = [ax.bbox for ax in (self.ax_parent, self.ax_means, self.ax_shape)]
        width, height = self.figure.bbox.width, self.figure.bbox.height
        left = 0 if i == 0 else (boxes[i - 1].x1 + boxes[i].x0) / 2
        right = width if i == 2 else (boxes[i].x1 + boxes[i + 1].x0) / 2
        return Bbox.from_extents(left, 0, right, height if below is None else below.bbox.y0)

    def _draw_parent(self, d):
        """The parent distribution and its shape curves: drawn once per parent (a cached layer)."""
        for artist in self._parent_artists:
            artist.remove()
        ax = self.ax_parent
        if d.discrete:
            values, probs = np.asarray(d.values), np.asarray(d.probs)
            self._parent_artists = [ax.vlines(values, 0, probs, color=COLORS["data"], lw=points(3))]
            pad = 0.15 * max(values.max() - values.min(), 1.0)
            ax.set_xlim(values.min() - pad, values.max() + pad)
            ax.set_ylim(0, probs.max() * 1.15)
        else:
            x, y = _density_curve(d)
            self._parent_artists = [ax.fill_between(x, y, color=COLORS["data"], alpha=0.45, lw=0)]
            ax.set_xlim(x[0], x[-1])
            ax.set_ylim(0, y.max() * 1.15)
        self._parent_artists.append(ax.axvline(d.mean, color=COLORS["truth"], ls="--", lw=points(1.2)))
        for artist in self._parent_artists:
            artist.set_animated(True)
        self.parent_title.set_text(f"{d.label}\nμ = {d.mean:.3g}, σ = {d.sd:.3g}")  # no mathtext: 10 ms less
        ns = np.arange(1, MAX_N + 1)
        skew, kurt = d.shape_of_mean(ns)
        self.shape_curve.set_ydata(np.maximum(np.abs(skew), np.abs(kurt)))

    def _draw(self, r):
        d = r.distribution
        if d != self._parent:
            self._parent = d
            self._draw_parent(d)
            self.verdict.set_text(f"near normal (by this criterion)\nfrom n = {r.n_needed}")
            self.parent_layer.show(d, [self.ax_parent.xaxis, *self._parent_artists, self.parent_title])
            self.shape_layer.show(d, [self.shape_curve, self.verdict])
        self.bars.set_data(r.density, r.edges)
        lo, hi = np.quantile(r.means, [0.001, 0.999])
        lo, hi = min(lo, d.mean - 4 * r.sd_theory), max(hi, d.mean + 4 * r.sd_theory)
        x = np.linspace(lo, hi, 300)
        self.normal.set_data(x, _st.norm.pdf(x, d.mean, r.sd_theory))
        self.mu_line.set_xdata([d.mean, d.mean])
        self.means_title.set_text(
            f"{r.n_samples} sample means, n = {r.n}\n"
            f"mean {r.mean:.4g}  (μ = {d.mean:.4g})\nSD {r.sd:.4g}  (σ/√n = {r.sd_theory:.4g})")
        top = max(r.density.max(), 1 / (r.sd_theory * math.sqrt(2 * math.pi)))
        headroom(self.ax_means, top, grow=1.8)  # no y ticks: the background stays
        zoom(self.ax_means, lo, hi)  # the shape needs a close look: follow the means
        self.zoom_layer.show(self.ax_means.get_xlim(), [self.ax_means.xaxis])
        shape = max(abs(r.skewness), abs(r.kurtosis))
        # beyond the axis the dot becomes an arrowhead at its top: "higher than shown"
        self.here.set_data([r.n], [min(shape, 1.5)])
        self.here.set_marker("^" if shape > 1.5 else "o")

    def _summary(self, r):
        d = r.distribution
        return (f"Parent {d.label}: mean {d.mean:.4g}, SD {d.sd:.4g}, skewness {d.skewness:.3g}. "
                f"{r.n_samples} sample means of size n = {r.n} have mean {r.mean:.4g} and SD {r.sd:.4g}; "
                f"theory says {d.mean:.4g} and sigma/sqrt(n) = {r.sd_theory:.4g}. At this n the mean's "
                f"distribution has skewness {r.skewness:.3g} (observed {r.observed_skewness:.3g}) and excess "
                f"kurtosis {r.kurtosis:.3g}. The explorer calls the mean near normal once |skewness| and |excess "
                f"kurtosis| are both below {SHAPE_TOLERANCE}; that happens from n = {r.n_needed}, so by this "
                f"criterion the n >= 30 rule {'holds' if r.rule_holds else 'fails'} for this parent.")
