"""When may the binomial distribution of the error count be treated as normal?"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.patches import Polygon
from scipy import stats as _st

from ..plotting import COLORS, points
from ..simulate.intervals import normal_approximation_error
from ._base import Explorer, slider

_Z = np.linspace(-4.5, 4.5, 300)
#: The n values of the distance-against-n curve (log spaced, integers).
CURVE_N = np.unique(np.geomspace(1, 500, 90).round().astype(int))


@dataclass(frozen=True)
class BinomialNormalView:
    """The numbers shown: pmf and normal density, distances, rules of thumb."""

    n: int
    p: float
    counts: np.ndarray
    pmf: np.ndarray
    mean: float
    sd: float
    max_cdf: float
    total_variation: float
    rules: dict  # rule text -> does it hold?
    curve_n: np.ndarray
    curve_max_cdf: np.ndarray
    curve_total_variation: np.ndarray

    @property
    def below_zero(self):
        """Probability the normal approximation gives to fewer than 0 errors (continuity corrected)."""
        return float(_st.norm.cdf(-0.5, self.mean, self.sd))


def rules_of_thumb(n, p):
    """The usual conditions for the normal approximation, and whether they hold."""
    var = n * p * (1 - p)
    return {"n ≥ 30": n >= 30, "np(1-p) ≥ 5": var >= 5, "np(1-p) ≥ 10": var >= 10}


@lru_cache(maxsize=64)
def _curve(p):
    r = normal_approximation_error(CURVE_N, p)
    return r.max_cdf, r.total_variation


class BinomialNormalExplorer(Explorer):
    """Binomial(n, p) of the error count against its normal approximation.

    The left panel shows the probabilities of k errors in n test examples and the
    normal density with the same mean and variance; the right panel shows how far
    apart they are as n grows (largest CDF difference, continuity corrected, and total
    variation), with the rules of thumb n >= 30 and np(1-p) >= 5 or 10 marked.
    Small p shows that n >= 30 alone is not enough (Mitchell ch. 5).

    Parameters
    ----------
    n : int, default 40
        Test-set size (1 to 500).
    p : float, default 0.3
        True error rate (0.01 to 0.99).
    seed : int
        Unused (nothing is random here); kept for the common interface.

    Examples
    --------
    >>> BinomialNormalExplorer(n=30, p=0.05)  # doctest: +SKIP
    """

    title = "Binomial error count vs its normal approximation"
    figsize = (10.0, 4.0)
    play = {"n": 150}

    def _controls(self):
        return {"n": slider("test-set size n", 40, 1, 500),
                "p": slider("true error p", 0.3, 0.01, 0.99, 0.01)}

    def _compute(self, state):
        n, p = state["n"], state["p"]
        counts = np.arange(n + 1)
        d = normal_approximation_error(n, p)
        curve_max, curve_tv = _curve(p)
        return BinomialNormalView(n, p, counts, _st.binom.pmf(counts, n, p), n * p,
                                  float(np.sqrt(n * p * (1 - p))), d.max_cdf, d.total_variation,
                                  rules_of_thumb(n, p), CURVE_N, curve_max, curve_tv)

    def _build(self, figure):
        self.ax_pmf, self.ax_dist = figure.subplots(1, 2, width_ratios=(1.15, 1))
        ax = self.ax_pmf
        # Standardised axes stay fixed for every n and p (cheap redraws), and the
        # binomial visibly converges to one curve, the standard normal.
        ax.set_xlim(-4.5, 4.5)
        ax.set_ylim(0, 0.62)
        z = np.linspace(-4.5, 4.5, 300)
        ax.plot(z, _st.norm.pdf(z), color=COLORS["normal"], label="normal approximation", zorder=3)
        self.bars = ax.stairs([0], [0, 1], fill=True, color=COLORS["data"], alpha=0.55,
                              label="binomial P(k errors), per unit")
        # where the normal puts probability on fewer than 0 errors (below k = 0's bar)
        self.spill = Polygon(np.zeros((3, 2)), color=COLORS["bad"], alpha=0.6, lw=0,
                             label="normal below 0 errors")
        ax.add_patch(self.spill)
        ax.set_xlabel("standardised error count (k - np) / √(np(1-p))")
        ax.set_ylabel("probability density")
        ax.legend(loc="upper right", fontsize="small")
        self.pmf_title = ax.text(0.5, 1.02, "", transform=ax.transAxes, ha="center", va="bottom")
        # static rule names, only the yes/no beside them is redrawn
        ax.text(0.13, 0.97, "\n".join(rules_of_thumb(1, 0.5)), transform=ax.transAxes, va="top",
                fontsize="small")
        self.rules_text = ax.text(0.02, 0.97, "", transform=ax.transAxes, va="top", fontsize="small",
                                  fontweight="bold")
        self.dynamic(self.bars, self.spill, self.pmf_title, self.rules_text)

        ax = self.ax_dist
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(1, 500)
        ax.set_ylim(1e-4, 1)
        ax.set_xlabel("test-set size n (log scale)")
        ax.set_ylabel("distance (log scale)")
        ax.axvline(30, color=COLORS["muted"], ls=":", lw=points(1))  # the rule n >= 30, named by its tick
        ax.set_xticks([1, 3, 10, 30, 100, 500], ["1", "3", "10", "30", "100", "500"])
        ax.minorticks_off()
        ax.grid(True, which="major", alpha=0.3)
        (self.curve_cdf,) = ax.plot([], [], color=COLORS["data"], label="max |CDF difference|")
        (self.curve_tv,) = ax.plot([], [], color=COLORS["second"], ls="--", label="total variation")
        self.rule5 = ax.axvline(1, color=COLORS["good"], ls="-.", lw=points(1.2), label="np(1-p) = 5")
        self.rule10 = ax.axvline(1, color=COLORS["good"], ls=":", lw=points(1.6), label="np(1-p) = 10")
        (self.now,) = ax.plot([], [], "o", color=COLORS["truth"], label="current n")
        self._legend_rules = None  # which rule lines the legend lists (only those on the axis)
        self.dist_title = ax.text(0.5, 1.02, "", transform=ax.transAxes, ha="center", va="bottom")
        self.dynamic(self.curve_cdf, self.curve_tv, self.rule5, self.rule10, self.now, self.dist_title)

    def _draw(self, r):
        # bars of width 1/sd and height pmf*sd: the same area as the probabilities
        edges = (np.arange(r.n + 2) - 0.5 - r.mean) / r.sd
        self.bars.set_data(np.minimum(r.pmf * r.sd, 0.62), np.clip(edges, -5, 5))
        edge = (-0.5 - r.mean) / r.sd
        z = np.r_[_Z[_Z < edge], edge] if edge > _Z[0] else np.empty(0)
        self.spill.set_xy(np.column_stack([np.r_[z[:1], z, z[-1:]], np.r_[0, _st.norm.pdf(z), 0]])
                          if z.size else np.zeros((3, 2)))
        self.pmf_title.set_text(f"B({r.n}, {r.p:g}): np = {r.mean:.3g}, np(1-p) = {r.sd ** 2:.3g}; "
                                f"normal below 0 errors: {r.below_zero:.1%}")
        self.rules_text.set_text("\n".join("yes" if ok else "no" for ok in r.rules.values()))

        self.curve_cdf.set_data(r.curve_n, np.maximum(r.curve_max_cdf, 1e-5))
        self.curve_tv.set_data(r.curve_n, np.maximum(r.curve_total_variation, 1e-5))
        var_per_n = r.p * (1 - r.p)
        self.rule5.set_xdata([5 / var_per_n] * 2)
        self.rule10.set_xdata([10 / var_per_n] * 2)
        self.now.set_data([r.n], [max(r.max_cdf, 1e-5)])
        on_axis = tuple(rule.get_xdata()[0] <= self.ax_dist.get_xlim()[1] for rule in (self.rule5, self.rule10))
        if on_axis != self._legend_rules:  # rare: the legend is static, so redraw everything
            self._legend_rules = on_axis
            listed = [self.curve_cdf, self.curve_tv,
                      *(rule for rule, on in zip((self.rule5, self.rule10), on_axis) if on), self.now]
            self.ax_dist.legend(handles=listed, loc="lower left", fontsize="small")
            self.relayout()
        self.dist_title.set_text(f"max CDF diff {r.max_cdf:.3f}, total variation {r.total_variation:.3f}")

    def _summary(self, r):
        held = [rule for rule, ok in r.rules.items() if ok]
        failed = [rule for rule, ok in r.rules.items() if not ok]
        return (f"For n = {r.n} and p = {r.p:g} the error count has mean {r.mean:.4g} and standard deviation "
                f"{r.sd:.4g}. The largest difference between the binomial and normal CDFs is {r.max_cdf:.4f}, "
                f"the total variation distance {r.total_variation:.4f}. "
                f"Rules that hold: {', '.join(held) or 'none'}; rules that fail: {', '.join(failed) or 'none'}.")
