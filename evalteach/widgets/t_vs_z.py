"""Why the paired test over k folds uses t(k-1) and not the normal distribution."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.lines import Line2D
from matplotlib.ticker import FormatStrFormatter
from scipy import stats as _st

from ..plotting import COLORS, points
from ..simulate.experiments import paired_experiments, t_vs_z_coverage
from ..stats.intervals import t_critical, z_critical
from ..stats.tests import paired_t_test, paired_z_test
from ._base import Explorer, slider
from ._cached_layer import CachedAxis, CachedText

KS = np.arange(2, 31)
N_EXPERIMENTS = 2000
SHOWN = 25  # experiments drawn as intervals
#: Half-widths of the interval panel's axis (symmetric about 0) -> its tick step: labels
#: inside the ends only, so that no limits push a label past the frozen layout.
HALF_RANGES = {0.5: 0.1, 1: 0.2, 2: 0.5, 4: 1, 8: 2, 16: 4}
_T_COLOR, _Z_COLOR = COLORS["data"], COLORS["second"]
#: Line widths (points) of an interval that covers the true difference and of one that misses it:
#: a miss keeps its test's colour (t or z) and is drawn thick.
_HIT_WIDTH, _MISS_WIDTH = 1.0, 2.6


@dataclass(frozen=True)
class TvsZView:
    """The numbers shown for the chosen k and the curves over all k."""

    k: int
    t_critical: float
    z_critical: float
    t_test: object  # PairedTest over all simulated experiments at this k
    z_test: object
    t_coverage: float  # share of t intervals containing the true difference, at this k
    z_coverage: float
    curve: object  # TvsZCoverage over KS


@lru_cache(maxsize=16)
def _curve(difference, noise, confidence, seed):
    return t_vs_z_coverage(KS, difference, noise, confidence, N_EXPERIMENTS, seed)


class TvsZExplorer(Explorer):
    """Intervals for a mean of k differences built with t(k-1) and with z critical values.

    Many paired experiments (k folds each, fold differences Normal(difference, noise²))
    are simulated; each gets ``mean ± c s / sqrt(k)`` with ``c`` from t(k-1) or from the
    normal distribution. Top left: the two densities and critical values. Top right:
    the intervals of 25 experiments (misses thick, in their test's colour). Bottom: their actual coverage and
    the rejection rate of "no difference" (type-I error when the true difference is 0)
    against k. For small k the sample SD is noisy and z is too liberal
    (Mitchell ch. 5.6; Dietterich 1998).

    Parameters
    ----------
    k : int, default 5
        Folds or trials per experiment (2 to 30).
    difference : float, default 0
        True mean difference between the two learners.
    noise : float, default 1
        Standard deviation of a fold difference.
    confidence : float, default 0.95
    seed : int

    Examples
    --------
    >>> TvsZExplorer(k=3)  # doctest: +SKIP
    """

    title = "t or z for k folds?"
    figsize = (10.0, 6.6)
    resample_button = True
    play = {"k": 400}

    def _controls(self):
        return {"k": slider("folds k", 5, 2, 30),
                "difference": slider("true difference", 0.0, -1.0, 1.0, 0.05),
                "noise": slider("noise (SD)", 1.0, 0.1, 3.0, 0.1),
                "confidence": slider("confidence", 0.95, 0.8, 0.99, 0.01)}

    def _compute(self, s):
        k, c = s["k"], s["confidence"]
        curve = _curve(s["difference"], s["noise"], c, s["seed"])
        # the same draws as the curve's at this k (its seed for k is seed + k)
        d = paired_experiments(k, s["difference"], s["noise"], N_EXPERIMENTS, s["seed"] + k)
        t, z = paired_t_test(d, confidence=c), paired_z_test(d, confidence=c)
        i = k - KS[0]
        return TvsZView(k, t_critical(c, k - 1), z_critical(c), t, z, float(curve.t_coverage[i]),
                        float(curve.z_coverage[i]), curve)

    def _build(self, figure):
        (ax_pdf, ax_int), (ax_cov, ax_rej) = figure.subplots(2, 2)
        self.ax_int = ax_int
        # Three axes follow the data in coarse steps; each is drawn once per limits and
        # pasted back after that, so that no control forces a full redraw of the figure.
        # Fixed-width tick labels ("0.05", "0.60"): every limits fit the frozen layout.
        for axis in (ax_cov.yaxis, ax_rej.yaxis):
            axis.set_major_formatter(FormatStrFormatter("%.2f"))
        self.dynamic(*(CachedAxis(axis) for axis in (ax_int.xaxis, ax_cov.yaxis, ax_rej.yaxis)))
        x = np.linspace(-6, 6, 400)
        self.x = x
        ax_pdf.set_xlim(-6, 6)
        ax_pdf.set_ylim(0, 0.43)
        ax_pdf.set_xlabel("standardised mean difference")
        ax_pdf.set_ylabel("density")
        ax_pdf.plot(x, _st.norm.pdf(x), color=_Z_COLOR)
        (self.t_pdf,) = ax_pdf.plot([], [], color=_T_COLOR)
        self.t_crit = LineCollection([], colors=_T_COLOR, linestyles="--", linewidths=points(1.2))
        self.z_crit = LineCollection([], colors=_Z_COLOR, linestyles=":", linewidths=points(1.6))
        ax_pdf.add_collection(self.t_crit)
        ax_pdf.add_collection(self.z_crit)
        self.pdf_title = ax_pdf.text(0.5, 1.02, "", transform=ax_pdf.transAxes, ha="center")
        self.dynamic(CachedText(self.pdf_title), self.t_pdf, self.t_crit, self.z_crit)

        ax_int.set_ylim(SHOWN + 0.8, 0.2)
        ax_int.set_ylabel("experiment")
        ax_int.set_xlabel("mean difference with its interval")
        self.t_segments = LineCollection([], linewidths=points(1.4))
        self.z_segments = LineCollection([], linewidths=points(1.4))
        ax_int.add_collection(self.t_segments)
        ax_int.add_collection(self.z_segments)
        ax_int.axvline(0, color=COLORS["muted"], ls=":", lw=points(1))  # "no difference"
        self.truth = ax_int.axvline(0, color=COLORS["truth"], lw=points(1))
        # the words of a title stay in the background, only its numbers are redrawn
        ax_int.text(0.5, 1.02, f"coverage over {N_EXPERIMENTS}: ", transform=ax_int.transAxes, ha="right")
        self.int_title = ax_int.text(0.5, 1.02, "", transform=ax_int.transAxes, ha="left")
        self.dynamic(self.t_segments, self.z_segments, self.truth, self.int_title)
        self.half_range = None
        self.ax_rej = ax_rej

        self.cov_lines, self.rej_lines = {}, {}
        for ax, lines, label in ((ax_cov, self.cov_lines, "actual coverage"),
                                 (ax_rej, self.rej_lines, "rejects 'no difference'")):
            ax.set_xlim(1.5, 30.5)
            ax.set_xlabel("folds k")
            ax.set_ylabel(label)
            ax.grid(True, alpha=0.3)
            (lines["t"],) = ax.plot([], [], "o-", ms=points(3), color=_T_COLOR)
            (lines["z"],) = ax.plot([], [], "s-", ms=points(3), color=_Z_COLOR)
            lines["nominal"] = ax.axhline(0.95, color=COLORS["truth"], ls=":", lw=points(1.2))
            lines["now"] = ax.axvline(5, color=COLORS["muted"], lw=points(1))
            self.dynamic(*lines.values())
        # One key for all four panels (t and z keep their colours everywhere), under them:
        # inside a panel a legend covered lines that move with the controls.
        key = [Line2D([], [], marker="o", ms=points(3), color=_T_COLOR, label="t(k-1)"),
               Line2D([], [], marker="s", ms=points(3), color=_Z_COLOR, label="z (normal)"),
               Line2D([], [], color=COLORS["muted"], lw=points(_MISS_WIDTH), label="thick: misses the true difference"),
               Line2D([], [], color=COLORS["truth"], label="true difference"),
               Line2D([], [], color=COLORS["truth"], ls=":", label="nominal coverage, α")]
        figure.legend(handles=key, loc="outside lower center", ncol=len(key), fontsize="small",
                      frameon=False)
        self.ax_cov, self.cov_bottom = ax_cov, None  # its y limits follow the lowest coverage
        ax_rej.set_ylim(0, 1.0)
        self.band = ax_cov.fill_between(KS, 0, 0, color=COLORS["shade"], alpha=0.35, lw=0)
        # the grey line marks k, the titles above and beside say it
        ax_cov.text(0.5, 1.02, "coverage vs k (band: ±2 MC errors)", transform=ax_cov.transAxes, ha="center")
        self.rej_what = ax_rej.text(0.5, 1.02, "", transform=ax_rej.transAxes, ha="right")
        self.rej_title = ax_rej.text(0.5, 1.02, "", transform=ax_rej.transAxes, ha="left")
        self.dynamic(CachedText(self.rej_what), self.band, self.rej_title)

    def _draw(self, r):
        c, k = r.curve, r.k
        self.t_pdf.set_data(self.x, _st.t.pdf(self.x, k - 1))
        self.t_crit.set_segments([[(s * r.t_critical, 0), (s * r.t_critical, 0.42)] for s in (-1, 1)])
        self.z_crit.set_segments([[(s * r.z_critical, 0), (s * r.z_critical, 0.42)] for s in (-1, 1)])
        self.pdf_title.set_text(f"k = {k}: t = {r.t_critical:.3g} vs z = {r.z_critical:.3g}")

        rows = np.arange(1, SHOWN + 1)
        for test, segments, color, shift in ((r.t_test, self.t_segments, _T_COLOR, -0.18),
                                             (r.z_test, self.z_segments, _Z_COLOR, 0.18)):
            low, high = test.low[:SHOWN], test.high[:SHOWN]
            y = rows + shift
            segments.set_segments(np.stack([np.c_[low, y], np.c_[high, y]], axis=1))
            miss = (low > c.difference) | (high < c.difference)
            segments.set_color(color)
            segments.set_linewidth(np.where(miss, points(_MISS_WIDTH), points(_HIT_WIDTH)))
        self.truth.set_xdata([c.difference] * 2)
        self.int_title.set_text(f"t {r.t_coverage:.1%}, z {r.z_coverage:.1%}")
        # symmetric about 0 (does an interval exclude 0?), in coarse steps so that moving the
        # difference or the noise rarely changes the axis
        half_range = next(h for h in HALF_RANGES if h >= abs(c.difference) + 3 * c.noise)
        if half_range != self.half_range:
            self.ax_int.set_xlim(-half_range, half_range)
            step = HALF_RANGES[half_range]
            self.ax_int.set_xticks(np.round(np.arange(-half_range + step, half_range - step / 2, step), 6))
            self.half_range = half_range

        for lines, t, z, nominal in ((self.cov_lines, c.t_coverage, c.z_coverage, c.confidence),
                                     (self.rej_lines, c.t_reject, c.z_reject, 1 - c.confidence)):
            lines["t"].set_data(c.ks, t)
            lines["z"].set_data(c.ks, z)
            lines["now"].set_xdata([k] * 2)
            lines["nominal"].set_ydata([nominal] * 2)
        # +-2 Monte Carlo standard errors around the nominal level
        band = np.array([[1.5, c.confidence - 2 * c.mc_error], [30.5, c.confidence - 2 * c.mc_error],
                         [30.5, c.confidence + 2 * c.mc_error], [1.5, c.confidence + 2 * c.mc_error]])
        self.band.set_verts([band])
        # z covers far less than nominal for few folds and a low confidence: show all of it
        low = min(c.z_coverage.min(), c.t_coverage.min(), c.confidence - 2 * c.mc_error)
        bottom = next(b for b in (0.6, 0.4, 0.2, 0.0) if b <= low - 0.02 or b == 0.0)
        if bottom != self.cov_bottom:
            self.ax_cov.set_ylim(bottom, 1.0)
            self.cov_bottom = bottom
        # fit the rejection rates (a few per cent under no difference), in coarse steps
        top = next(h for h in (0.35, 0.6, 1.0)
                   if h >= 1.1 * max(c.t_reject.max(), c.z_reject.max(), 1 - c.confidence) or h == 1.0)
        if self.ax_rej.get_ylim()[1] != top:
            self.ax_rej.set_ylim(0, top)
        what = "type-I error" if c.difference == 0 else "power"
        i = k - KS[0]
        self.rej_what.set_text(f"{what} at k = {k}: ")
        self.rej_title.set_text(f"t {c.t_reject[i]:.1%}, z {c.z_reject[i]:.1%}")

    def _summary(self, r):
        c, i = r.curve, r.k - KS[0]
        what = "type-I error" if c.difference == 0 else "power"
        return (f"With k = {r.k} folds the {c.confidence:.0%} t interval uses {r.t_critical:.3f}, the z interval "
                f"{r.z_critical:.3f}. Over {c.n_experiments} simulated experiments the t interval covers the true "
                f"difference {r.t_coverage:.1%} of the time and the z interval {r.z_coverage:.1%} "
                f"(Monte Carlo error about {c.mc_error:.1%}). The {what} of the test of no difference is "
                f"{c.t_reject[i]:.1%} with t and {c.z_reject[i]:.1%} with z.")
