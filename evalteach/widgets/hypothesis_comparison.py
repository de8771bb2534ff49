"""Is h1 really better than h2? The z test for two hypotheses, on independent or shared test sets."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.patches import Polygon
from scipy import stats as _st

from .._result import p_text, pct
from ..plotting import COLORS, points
from ..stats import compare_hypotheses, confidence_for_z, mcnemar_test, table_confidence
from ._base import Explorer, buttons, dropdown, slider
from ._cached_layer import CachedAxis, CachedText

_Z = np.linspace(-4.5, 4.5, 361)
_PHI = np.exp(-_Z ** 2 / 2) / np.sqrt(2 * np.pi)
#: The error panel reaches a little past 0 and 1, so a spike at 0 or 1 stands clear of the axis
#: (and the normal approximation shows the mass it puts outside [0, 1]).
ERR_LIMITS = (-0.03, 1.03)
_ERR = np.linspace(*ERR_LIMITS, 849)
_D = np.linspace(-1.0, 1.0, 801)
#: Half-widths the difference panel zooms to, with the spacing of their tick labels.
D_RANGES = {0.3: 0.1, 0.5: 0.25, 0.75: 0.25, 1.0: 0.5}
#: The alternative hypotheses, fixed before the data are seen.
ALTERNATIVES = {"two": "alternative: the errors differ", "less": "alternative: h1 has the lower error",
                "greater": "alternative: h2 has the lower error"}
#: The alternatives as evalteach.stats names them.
_STATS_ALTERNATIVE = {"two": "two-sided", "less": "less", "greater": "greater"}


def d_range(se, low, high, margin=0.05, d=0.0):
    """Half-width of the difference panel: the null curve (4 sigma), the observed d and the
    interval's finite ends fit (a one-sided interval runs out of the panel on its open side)."""
    ends = [abs(x) + margin for x in (low, high, d) if np.isfinite(x)]
    need = max(4 * se, *ends)
    return next((w for w in D_RANGES if w >= need), 1.0)


def _one_sided(low, high, alternative):
    """The half-infinite interval of a one-sided test from the two-sided interval at level
    2c - 1, whose ends are the one-sided bounds at level c."""
    return (-np.inf, high) if alternative == "less" else (low, np.inf)


@dataclass(frozen=True)
class HypothesisComparisonView:
    """The numbers the explorer shows.

    ``comparison`` is the independent-test-set z test (:func:`compare_hypotheses`);
    on a shared test set ``mcnemar`` holds McNemar's test on the disagreements and
    ``statistic``/``p_value`` come from it (z = sign(d) sqrt(chi^2)). ``p_value`` is
    two-sided; ``test_p_value`` is the p-value for the chosen ``alternative``
    ("two", "less": error1 < error2, "greater": error1 > error2) and ``rejects`` says
    whether it is below 1 - ``confidence``. ``low`` and ``high`` are the interval for d
    that matches the test: two-sided, or half-infinite for a one-sided alternative
    (``high`` for "less", ``low`` for "greater"), so it excludes 0 exactly when the test
    rejects.
    """

    mode: str
    error1: float
    n1: int
    error2: float
    n2: int
    comparison: object
    mcnemar: object
    only1: int | None
    only2: int | None
    both: int | None
    difference: float
    se: float
    statistic: float
    p_value: float
    one_sided_p_value: float
    two_sided_confidence: float
    one_sided_confidence: float
    table_confidence: float
    table_one_sided_confidence: float
    confidence: float
    alternative: str
    test_p_value: float
    low: float
    high: float

    @property
    def rejects(self):
        """Whether the test at the chosen level rejects "no difference"."""
        return self.test_p_value < 1 - self.confidence

    @property
    def sd1(self):
        """Estimated standard deviation sqrt(e(1 - e)/n) of h1's sample error (0 at e = 0 or 1)."""
        return float(np.sqrt(self.error1 * (1 - self.error1) / self.n1))

    @property
    def sd2(self):
        """Estimated standard deviation sqrt(e(1 - e)/n) of h2's sample error (0 at e = 0 or 1)."""
        return float(np.sqrt(self.error2 * (1 - self.error2) / self.n2))

    @property
    def spikes(self):
        """(name, sample error) of each hypothesis whose estimated sd is 0 (sample error 0 or 1)."""
        return [(name, e) for name, e, sd in (("h1", self.error1, self.sd1), ("h2", self.error2, self.sd2))
                if sd == 0]


def _p_for(z, p_two_sided, alternative):
    if alternative == "two":
        return p_two_sided
    return float(_st.norm.cdf(z) if alternative == "less" else _st.norm.sf(z))


def _compare(state):
    e1, n1, e2, n2, c = state["error1"], state["n1"], state["error2"], state["n2"], state["confidence"]
    alternative = state["alternative"]
    if state["test_sets"] == "independent":
        r = compare_hypotheses(e1, n1, e2, n2, confidence=c)
        z, mcnemar, counts = r.statistic, None, (None, None, None)
        d, se, p = r.difference, r.se, r.p_value
        matching = compare_hypotheses(e1, n1, e2, n2, confidence=c, alternative=_STATS_ALTERNATIVE[alternative])
        low, high = matching.low, matching.high
    else:
        # One test set of n1 instances: round to whole error counts, then split them.
        n2 = n1
        k1, k2 = round(e1 * n1), round(e2 * n1)
        both = int(np.clip(round(state["both_wrong"] * n1), max(0, k1 + k2 - n1), min(k1, k2)))
        only1, only2 = k1 - both, k2 - both
        e1, e2 = k1 / n1, k2 / n1
        r = compare_hypotheses(e1, n1, e2, n1, confidence=c)
        mcnemar = mcnemar_test(only2, only1, correction=False, confidence=c, n=n1)
        d = e1 - e2
        z = float(np.sign(d) * np.sqrt(mcnemar.statistic))
        se = np.sqrt(only1 + only2) / n1  # = |d / z|: the spread d has if d = 0, from the disagreements
        p, counts = mcnemar.p_value, (only1, only2, both)
        # Tango's score interval (mcnemar_test): d +- z se would use the spread d has if d = 0,
        # which can reach past +-1 or have zero width. One-sided: the end of the two-sided
        # interval at level 2c - 1 (the score test it inverts puts (1 - c) in each tail).
        low, high = mcnemar.low, mcnemar.high
        if alternative != "two":
            bounds = mcnemar_test(only2, only1, correction=False, confidence=2 * c - 1, n=n1)
            low, high = _one_sided(bounds.low, bounds.high, alternative)
    return HypothesisComparisonView(
        mode=state["test_sets"], error1=e1, n1=n1, error2=e2, n2=n2, comparison=r, mcnemar=mcnemar,
        only1=counts[0], only2=counts[1], both=counts[2], difference=d, se=se, statistic=z,
        p_value=p, one_sided_p_value=p / 2,
        two_sided_confidence=confidence_for_z(z), one_sided_confidence=confidence_for_z(z, "one"),
        table_confidence=table_confidence(z), table_one_sided_confidence=table_confidence(z, "one"),
        confidence=c, alternative=alternative, test_p_value=_p_for(z, p, alternative),
        low=low, high=high,
    )


class HypothesisComparisonExplorer(Explorer):
    """Compare two hypotheses' sample errors with the z test (Mitchell ch. 5.5, Mooney).

    Left: the sampling distributions of error_S1(h1) and error_S2(h2). Middle: the
    distribution the difference d would have if there were no true difference, the
    observed d and its confidence interval. Right: z on the standard normal with the
    p-value of the alternative hypothesis chosen in advance shaded (two-sided: both
    tails; one-sided: the tail the question names, whatever the data show). A sample
    error of 0 or 1 (on a small shared test set the errors are rounded to whole counts)
    has estimated spread sqrt(e(1 - e)/n) = 0, and so has d when the two never disagree:
    such a distribution is drawn as a spike, and the picture and summary say that the
    normal approximation fails there.

    With ``test_sets="same"`` both hypotheses are scored on one test set of ``n1``
    instances. Their errors are then paired: only the instances on which exactly one of
    them errs carry evidence, and McNemar's test (chi^2 = (b - c)^2 / (b + c), without
    continuity correction so that z = sqrt(chi^2)) replaces the independent z test, and
    the interval for d is Tango's score interval (:func:`evalteach.stats.mcnemar_test`),
    which excludes 0 exactly when that test rejects and stays within the possible
    differences. ``both_wrong`` sets the fraction of instances that both get wrong (clipped to what
    the two error counts allow); the more they agree, the smaller the variance of the
    difference and the stronger the conclusion.

    Parameters
    ----------
    error1, error2 : float
        Sample errors of h1 and h2.
    n1, n2 : int
        Test-set sizes (``n2`` is unused on a shared test set).
    test_sets : {"independent", "same"}
    both_wrong : float
        Share of the shared test set both misclassify (only with ``test_sets="same"``).
    alternative : {"two", "less", "greater"}
        The alternative hypothesis, chosen before looking at the data: the errors
        differ, h1's error is lower, or h2's error is lower.
    confidence : float
        Level of the test (alpha = 1 - confidence) and of the interval for d.
    seed : int
        Unused (nothing is random); accepted like every explorer's.

    Examples
    --------
    >>> HypothesisComparisonExplorer(error1=0.20, error2=0.25)  # Mooney's second example  # doctest: +SKIP
    """

    title = "Comparing two hypotheses: the z test"
    figsize = (11.0, 3.9)

    def _controls(self):
        return {
            "error1": slider("error of h1", 0.20, 0.01, 0.99, 0.01),
            "n1": slider("test set 1 size n1", 100, 10, 1000, 10),
            "error2": slider("error of h2", 0.30, 0.01, 0.99, 0.01),
            "n2": slider("test set 2 size n2", 100, 10, 1000, 10),
            "test_sets": buttons("test sets", [("independent", "independent"), ("same (paired)", "same")],
                                 "independent"),
            "both_wrong": slider("both wrong (same set)", 0.15, 0.0, 0.99, 0.01,
                                 tooltip="fraction of the shared test set that both hypotheses misclassify"),
            "alternative": dropdown("H1 (fixed in advance)",
                                    [("errors differ (two-sided)", "two"),
                                     ("h1 better (one-sided)", "less"),
                                     ("h2 better (one-sided)", "greater")], "two",
                                    tooltip="The question asked before seeing the data; "
                                            "a one-sided test never takes its direction from the data"),
            "confidence": dropdown("confidence", [("80%", 0.8), ("90%", 0.9), ("95%", 0.95), ("98%", 0.98),
                                                  ("99%", 0.99)], 0.95),
        }

    def _hidden(self, state):
        # a shared test set has one size (n1) and the overlap; independent sets have two sizes
        return {"both_wrong"} if state["test_sets"] == "independent" else {"n2"}

    def _compute(self, state):
        return _compare(state)

    def _build(self, figure):
        figure.get_layout_engine().set(wspace=0.06)
        self.ax_err, self.ax_diff, self.ax_z = figure.subplots(1, 3)
        # No y ticks, fixed x limits but in the middle panel, whose axis is cached per zoom:
        # no update redraws the whole figure.
        ax = self.ax_err
        ax.set_title("estimated sampling distributions")
        ax.set_xlabel("sample error")
        ax.set_ylabel("density")
        ax.set_xlim(*ERR_LIMITS)
        ax.set_yticks([])
        (self.curve1,) = ax.plot([], [], color=COLORS["data"])
        (self.curve2,) = ax.plot([], [], color=COLORS["theory"])
        (self.mark1,) = ax.plot([], [], color=COLORS["data"], ls=":")
        (self.mark2,) = ax.plot([], [], color=COLORS["theory"], ls=":")
        self.err_note = ax.text(0.98, 0.98, " ", transform=ax.transAxes, ha="right", va="top",
                                fontsize="x-small", color=COLORS["muted"])
        self.label1 = ax.text(0, 0, "h1", color=COLORS["data"], va="bottom", weight="bold")
        self.label2 = ax.text(0, 0, "h2", color=COLORS["theory"], va="bottom", weight="bold")

        ax = self.ax_diff
        ax.set_xlabel(r"$\hat d$ = error$_1$ - error$_2$")
        ax.set_xlim(-1, 1)
        ax.set_ylim(0, 1.6)
        ax.set_yticks([])
        # the x axis zooms in a few steps: drawn once per zoom and then pasted (no full redraw)
        self.d_axis = CachedAxis(ax.xaxis)
        self.d_width = None  # the zoom whose ticks are set: none yet, whatever the limits
        self.d_title = ax.set_title(" \n ")  # d and sigma_d, then what sigma_d is made of
        (self.null_curve,) = ax.plot([], [], color=COLORS["muted"])
        self.null_text = ax.text(0, 0.5, "if d = 0", color=COLORS["muted"], va="center", fontsize="small")
        (self.d_interval,) = ax.plot([], [], color=COLORS["truth"], lw=points(4), solid_capstyle="butt")
        # the open end of a one-sided interval: an arrowhead where it leaves the panel
        (self.d_open,) = ax.plot([], [], color=COLORS["truth"], ls="", ms=points(9))
        (self.d_dot,) = ax.plot([], [], "o", color=COLORS["bad"], ms=points(7))
        (self.d_tick,) = ax.plot([], [], color=COLORS["bad"], lw=points(2.5))
        self.interval_text = ax.text(0, 1.34, "", ha="center", va="bottom", fontsize="small")

        ax = self.ax_z
        ax.set_title("z on the standard normal")
        ax.set_xlabel("z")
        ax.set_yticks([])
        ax.set_xlim(-4.5, 4.5)
        ax.set_ylim(0, 0.72)
        ax.plot(_Z, _PHI, color=COLORS["truth"], lw=points(1.2))
        self.tail_low = Polygon(np.zeros((3, 2)), color=COLORS["bad"], alpha=0.75)
        self.tail_high = Polygon(np.zeros((3, 2)), color=COLORS["bad"], alpha=0.75)
        ax.add_patch(self.tail_low)
        ax.add_patch(self.tail_high)
        (self.z_mark,) = ax.plot([], [], color=COLORS["bad"], lw=points(2))
        # the alternative, fixed in advance, is drawn once per choice; the numbers below it every time
        self.z_alternative = ax.text(0.02, 0.98, " ", transform=ax.transAxes, va="top", fontsize="small")
        self.z_text = ax.annotate("", (0, 0), xycoords=self.z_alternative, xytext=(0, -2), textcoords="offset points",
                                  va="top", fontsize="small")
        self.dynamic(self.d_axis, CachedText(self.z_alternative), CachedText(self.err_note),
                     self.curve1, self.curve2, self.mark1, self.mark2, self.label1, self.label2,
                     self.d_title, self.null_curve, self.null_text, self.d_interval, self.d_open, self.d_dot, self.d_tick,
                     self.interval_text, self.tail_low, self.tail_high, self.z_mark, self.z_text)

    def _draw(self, r):
        sds = r.sd1, r.sd2
        tops = [_st.norm.pdf(0, 0, sd) if sd > 0 else 0.0 for sd in sds]
        peak = max(tops) or 1.0
        self.ax_err.set_ylim(0, 1.25 * peak)  # no ticks: no full redraw
        # a sample error of 0 or 1 has zero estimated spread: a spike as tall as the highest peak
        top1, top2 = (top or peak for top in tops)
        for curve, mark, e, sd, top in zip((self.curve1, self.curve2), (self.mark1, self.mark2),
                                           (r.error1, r.error2), sds, (top1, top2)):
            curve.set_data(*((_ERR, _st.norm.pdf(_ERR, e, sd)) if sd > 0 else ([e, e], [0, top])))
            mark.set_data([e, e], [0, top])
        self.err_note.set_text(_error_note(r))
        # each name on the outer side of its peak, so the two never collide
        gap = 0.01
        left = r.error1 <= r.error2
        self.label1.set_position((r.error1 + (-gap if left else gap), top1))
        self.label1.set_horizontalalignment("right" if left else "left")
        self.label2.set_position((r.error2 + (gap if left else -gap), top2))
        self.label2.set_horizontalalignment("left" if left else "right")

        d, se = r.difference, r.se
        self.d_title.set_text(f"d̂ = {d:.3f},  σ_d = {se:.4f}\n{_sigma_d_source(r)}")
        width = d_range(se, r.low, r.high, d=d)
        if width != self.d_width:
            self.d_width = width
            step = D_RANGES[width]
            ticks = step * np.arange(-round(width / step), round(width / step) + 1)
            self.ax_diff.set_xticks(ticks, [f"{x:g}".replace("-", "−") for x in ticks])
            self.ax_diff.set_xlim(-width, width)  # after the ticks, which may stretch it by a rounding
        grid = width * _D
        if se > 0:
            self.null_curve.set_data(grid, np.exp(-0.5 * (grid / se) ** 2))
        else:  # no disagreements on a shared test set: d is 0 without spread, a spike
            self.null_curve.set_data([0, 0], [0, 1])
        self.null_text.set_position((min(1.25 * se + 0.03 * width, 0.75 * width), 0.5))
        # a one-sided interval is drawn to the panel's edge on its open side, with an arrowhead
        edge = 0.97 * width
        self.d_interval.set_data([max(r.low, -edge), min(r.high, edge)], [1.25, 1.25])
        open_end = {"less": (-edge, "<"), "greater": (edge, ">")}.get(r.alternative)
        self.d_open.set_data(*(([open_end[0]], [1.25]) if open_end else ([], [])))
        self.d_open.set_marker(open_end[1] if open_end else "None")
        self.d_dot.set_data([d], [1.25])
        self.d_tick.set_data([d, d], [0, 0.12])
        self.interval_text.set_text(_interval_name(r))
        self.interval_text.set_x(float(np.clip(d, -0.55 * width, 0.55 * width)))

        z = float(np.clip(r.statistic, -4.5, 4.5))
        low = r.alternative == "less" or (r.alternative == "two")
        high = r.alternative == "greater" or (r.alternative == "two")
        edge = abs(z) if r.alternative == "two" else z
        self.tail_low.set_xy(_area(_Z[_Z <= (-edge if r.alternative == "two" else edge)]) if low else np.zeros((3, 2)))
        self.tail_high.set_xy(_area(_Z[_Z >= edge]) if high else np.zeros((3, 2)))
        self.z_mark.set_data([z, z], [0, np.exp(-z * z / 2) / np.sqrt(2 * np.pi) + 0.06])
        verdict = "significant" if r.rejects else "not significant"
        self.z_alternative.set_text(ALTERNATIVES[r.alternative])
        self.z_text.set_text(f"z = {r.statistic:.3f}\n"
                             f"shaded: {p_text(r.test_p_value)}\n"
                             f"{verdict} at α = {1 - r.confidence:.2g}")

    def _summary(self, r):
        if r.mode == "independent":
            head = (f"Independent test sets: error of h1 {r.error1:.3f} on {r.n1}, error of h2 {r.error2:.3f} "
                    f"on {r.n2}; d = {r.difference:.3f}, σ_d = {r.se:.4f}, z = {r.statistic:.3f}.")
        else:
            z_independent = r.comparison.statistic
            independent = (f"the independent-sets formula would give z = {z_independent:.3f}"
                           if np.isfinite(z_independent) else "the independent-sets formula would divide by 0")
            counts = (f"One shared test set of {r.n1} (the error rates rounded to whole errors): h1 errs on "
                      f"{r.only1 + r.both}, h2 on {r.only2 + r.both}, both on {r.both}.")
            disagreements = r.only1 + r.only2
            if disagreements:
                head = (f"{counts} Only the {disagreements} disagreements count: McNemar's "
                        f"chi-square (b - c)^2/(b + c) = {r.mcnemar.statistic:.3f}, so z = {r.statistic:.3f} "
                        f"({independent}); the spread of d if d = 0 is σ_d = √(b + c)/n = {r.se:.4f}.")
                if disagreements < 25:
                    exact = mcnemar_test(r.only2, r.only1, exact=True, confidence=r.confidence)
                    head += (f" With {disagreements} disagreements (< 25) the chi-square approximation is "
                             f"rough: the exact McNemar test gives {p_text(exact.p_value)} (two-sided), the safer "
                             f"number here; the picture and the verdict below use the chi-square p.")
            else:
                head = (f"{counts} They never disagree, so McNemar's statistic is 0/0, undefined: by convention "
                        f"z = 0 and p = 1, and the test has no evidence either way. That does not show the "
                        f"errors are equal: the interval for d below says how far apart they may still be.")
        spikes = (f" Since {_zero_spread(r)}, the estimated sigma sqrt(e(1 - e)/n) is 0, drawn as a spike: this "
                  f"normal approximation says nothing here (the true error need not equal the sample error)."
                  if r.spikes else "")
        side = "two-sided" if r.alternative == "two" else "one-sided"
        method = "" if r.mode == "independent" else " (Tango's score interval)"
        verdict = (f"{ALTERNATIVES[r.alternative]} ({side}, chosen in advance): {p_text(r.test_p_value)}, "
                   f"{'significant' if r.rejects else 'not significant'} at the {1 - r.confidence:.0%} level; "
                   f"the {side} {r.confidence:.0%} interval for the difference d is {_interval_text(r)}{method}.")
        if r.mode == "same" and not r.only1 + r.only2:
            table = ""
        elif r.table_confidence:
            table = (f" Read off the slides' z table, |z| reaches the {pct(r.table_confidence)} two-sided "
                     f"column ({pct(r.table_one_sided_confidence)} for a one-sided test, its direction fixed "
                     f"before seeing the data); the table rounds z to two decimals, and the exact two-sided "
                     f"level is {r.two_sided_confidence:.2%}"
                     f"{', just short of the column' if r.two_sided_confidence < r.table_confidence else ''}.")
        else:
            table = " |z| is below the z table's 50% column."
        return f"{head}{spikes} {verdict}{table}"


def _sigma_d_source(r):
    """What σ_d is made of in the mode shown: the two errors' spreads on independent test
    sets, the disagreements b and c (McNemar) on a shared one."""
    if r.mode == "independent":
        return f"= √(σ1² + σ2²), σ1 = {r.sd1:.4f}, σ2 = {r.sd2:.4f}"
    return f"= √(b + c)/n, b = {r.only2}, c = {r.only1}, n = {r.n1}"


def _interval_name(r):
    """The caption of the interval for d: two-sided, or the one-sided bound of the test."""
    if r.alternative == "two":
        return f"{r.confidence:.0%} interval for d"
    return f"{r.confidence:.0%} {'upper' if r.alternative == 'less' else 'lower'} bound for d (one-sided)"


def _interval_text(r):
    """The interval for d in words: [low, high], or half-infinite for a one-sided test."""
    if r.alternative == "less":
        return f"(−∞, {r.high:.3f}]"
    if r.alternative == "greater":
        return f"[{r.low:.3f}, ∞)"
    return f"[{r.low:.3f}, {r.high:.3f}]"


def _zero_spread(r):
    """Which sample errors are 0 or 1 (zero estimated spread), in words."""
    if len(r.spikes) == 1:
        (name, e), = r.spikes
        return f"{name}'s sample error is {e:g}"
    (_, e1), (_, e2) = r.spikes
    return f"both sample errors are {e1:g}" if e1 == e2 else f"the sample errors are {e1:g} and {e2:g}"


def _error_note(r):
    """The note on the error panel: what the curves show, or which are spikes and why."""
    if not r.spikes:
        return "centred on the\nobserved errors"
    drawn = "a spike" if len(r.spikes) == 1 else "spikes"
    return f"{_zero_spread(r)}, so\nσ = 0: the normal approximation\nfails, drawn as {drawn}"


def _area(x):
    """Polygon under the standard normal density over the sorted points x."""
    if x.size == 0:
        return np.zeros((3, 2))
    y = np.exp(-x ** 2 / 2) / np.sqrt(2 * np.pi)
    return np.column_stack([np.r_[x[0], x, x[-1]], np.r_[0, y, 0]])
