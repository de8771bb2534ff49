"""Is h1 really better than h2? The z test for two hypotheses, on independent or shared test sets."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.patches import Polygon

from ..plotting import COLORS
from ..stats import compare_hypotheses, confidence_for_z, mcnemar_test, table_confidence, z_critical
from ._base import Explorer, buttons, dropdown, slider

_Z = np.linspace(-4.5, 4.5, 361)
_PHI = np.exp(-_Z ** 2 / 2) / np.sqrt(2 * np.pi)


@dataclass(frozen=True)
class HypothesisComparisonView:
    """The numbers the explorer shows.

    ``comparison`` is the independent-test-set z test (:func:`compare_hypotheses`);
    on a shared test set ``mcnemar`` holds McNemar's test on the disagreements and
    ``statistic``/``p_value`` come from it (z = sign(d) sqrt(chi^2)).
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


def _compare(state):
    e1, n1, e2, n2, c = state["error1"], state["n1"], state["error2"], state["n2"], state["confidence"]
    if state["test_sets"] == "independent":
        r = compare_hypotheses(e1, n1, e2, n2, confidence=c)
        z, mcnemar, counts = r.statistic, None, (None, None, None)
        d, se, p = r.difference, r.se, r.p_value
    else:
        # One test set of n1 instances: round to whole error counts, then split them.
        n2 = n1
        k1, k2 = round(e1 * n1), round(e2 * n1)
        both = int(np.clip(round(state["both_wrong"] * n1), max(0, k1 + k2 - n1), min(k1, k2)))
        only1, only2 = k1 - both, k2 - both
        e1, e2 = k1 / n1, k2 / n1
        r = compare_hypotheses(e1, n1, e2, n1, confidence=c)
        mcnemar = mcnemar_test(only2, only1, correction=False, confidence=c)
        d = e1 - e2
        z = float(np.sign(d) * np.sqrt(mcnemar.statistic))
        se = abs(d / z) if z else np.sqrt(only1 + only2) / n1
        p, counts = mcnemar.p_value, (only1, only2, both)
    return HypothesisComparisonView(
        mode=state["test_sets"], error1=e1, n1=n1, error2=e2, n2=n2, comparison=r, mcnemar=mcnemar,
        only1=counts[0], only2=counts[1], both=counts[2], difference=d, se=se, statistic=z,
        p_value=p, one_sided_p_value=p / 2,
        two_sided_confidence=confidence_for_z(z), one_sided_confidence=confidence_for_z(z, "one"),
        table_confidence=table_confidence(z), table_one_sided_confidence=table_confidence(z, "one"),
        confidence=c,
    )


class HypothesisComparisonExplorer(Explorer):
    """Compare two hypotheses' sample errors with the z test (Mitchell ch. 5.5, Mooney).

    Left: the sampling distributions of error_S1(h1) and error_S2(h2). Middle: the
    distribution of the difference d under "no true difference", with the observed d
    and its confidence interval. Right: z on the standard normal, with the one-sided
    tail (in the observed direction) and the second tail that makes it two-sided; the
    confidence read off the classic table and the exact one.

    With ``test_sets="same"`` both hypotheses are scored on one test set of ``n1``
    instances. Their errors are then paired: only the instances on which exactly one of
    them errs carry evidence, and McNemar's test (chi^2 = (b - c)^2 / (b + c), without
    continuity correction so that z = sqrt(chi^2)) replaces the independent z test.
    ``both_wrong`` sets the fraction of instances that both get wrong (clipped to what
    the two error counts allow); the more they agree, the smaller the variance of the
    difference and the stronger the conclusion.

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
            "confidence": dropdown("confidence", [("80%", 0.8), ("90%", 0.9), ("95%", 0.95), ("98%", 0.98),
                                                  ("99%", 0.99)], 0.95),
        }

    def _compute(self, state):
        return _compare(state)

    def _build(self, figure):
        figure.get_layout_engine().set(wspace=0.08)
        self.ax_err, self.ax_diff, self.ax_z = figure.subplots(1, 3)
        ax = self.ax_err
        ax.set_title("sampling distributions")
        ax.set_xlabel("sample error")
        ax.set_ylabel("density")
        (self.curve1,) = ax.plot([], [], color=COLORS["data"], label="error$_{S_1}(h_1)$")
        (self.curve2,) = ax.plot([], [], color=COLORS["theory"], label="error$_{S_2}(h_2)$")
        self.mark1 = ax.axvline(0, color=COLORS["data"], ls=":")
        self.mark2 = ax.axvline(0, color=COLORS["theory"], ls=":")
        ax.legend(loc="upper right")
        self._err_limits = None

        ax = self.ax_diff
        ax.set_title("difference if there were none")
        ax.set_xlabel(r"$\hat d$ = error$_1$ - error$_2$")
        ax.set_yticks([])
        (self.null_curve,) = ax.plot([], [], color=COLORS["muted"], label="H0: d = 0")
        self.d_mark = ax.axvline(0, color=COLORS["bad"], lw=2.2, label=r"observed $\hat d$")
        (self.d_interval,) = ax.plot([], [], color=COLORS["truth"], lw=4, solid_capstyle="butt",
                                     label="interval for d\n(chosen confidence)")
        ax.legend(loc="upper right")
        self.sigma_text = ax.text(0.02, 0.97, "", transform=ax.transAxes, va="top", fontsize="small")
        self._diff_limits = None

        ax = self.ax_z
        ax.set_title("z on the standard normal")
        ax.set_xlabel("z\nsolid tail: one-sided p; with hatched: two-sided p", fontsize="small")
        ax.set_yticks([])
        ax.set_xlim(-4.5, 4.5)
        ax.set_ylim(0, 0.72)
        ax.plot(_Z, _PHI, color=COLORS["truth"], lw=1.2)
        self.tail_near = Polygon(np.zeros((3, 2)), color=COLORS["bad"], alpha=0.75)
        self.tail_far = Polygon(np.zeros((3, 2)), facecolor="none", edgecolor=COLORS["bad"], hatch="///")
        ax.add_patch(self.tail_near)
        ax.add_patch(self.tail_far)
        self.z_mark = ax.axvline(0, color=COLORS["bad"], lw=2)
        self.z_text = ax.text(0.02, 0.98, "", transform=ax.transAxes, va="top", fontsize="small",
                              bbox=dict(facecolor="white", alpha=0.85, edgecolor="none"))
        self.dynamic(self.sigma_text, self.curve1, self.curve2, self.mark1, self.mark2, self.null_curve, self.d_mark,
                     self.d_interval, self.tail_near, self.tail_far, self.z_mark, self.z_text)

    @staticmethod
    def _grid_limits(low, high, step):
        return (np.floor(low / step) * step, np.ceil(high / step) * step)

    def _draw(self, r):
        sd1 = np.sqrt(r.error1 * (1 - r.error1) / r.n1)
        sd2 = np.sqrt(r.error2 * (1 - r.error2) / r.n2)
        limits = self._grid_limits(max(0.0, min(r.error1 - 4 * sd1, r.error2 - 4 * sd2)),
                                   min(1.0, max(r.error1 + 4 * sd1, r.error2 + 4 * sd2)), 0.1)
        x = np.linspace(*limits, 300)
        y1 = np.exp(-0.5 * ((x - r.error1) / sd1) ** 2) / (sd1 * np.sqrt(2 * np.pi))
        y2 = np.exp(-0.5 * ((x - r.error2) / sd2) ** 2) / (sd2 * np.sqrt(2 * np.pi))
        self.curve1.set_data(x, y1)
        self.curve2.set_data(x, y2)
        self.mark1.set_xdata([r.error1])
        self.mark2.set_xdata([r.error2])
        top = _nice(1.1 * max(y1.max(), y2.max()))
        if (limits, top) != self._err_limits:
            self._err_limits = (limits, top)
            self.ax_err.set_xlim(*limits)
            self.ax_err.set_ylim(0, top)
            self.relayout()

        half = z_critical(r.confidence) * r.se  # paired se on a shared test set
        low, high = r.difference - half, r.difference + half
        side = _nice(1.05 * max(4 * r.se, abs(low), abs(high), 0.01))
        reach = (-side, side)
        xd = np.linspace(*reach, 300)
        yd = np.exp(-0.5 * (xd / r.se) ** 2) if r.se > 0 else np.zeros_like(xd)
        self.null_curve.set_data(xd, yd)
        self.d_mark.set_xdata([r.difference])
        self.d_interval.set_data([low, high], [0.08, 0.08])
        if reach != self._diff_limits:
            self._diff_limits = reach
            self.ax_diff.set_xlim(*reach)
            self.ax_diff.set_ylim(0, 1.6)
            self.relayout()
        self.sigma_text.set_text(f"σ = {r.se:.4f}")

        z = float(np.clip(r.statistic, -4.5, 4.5))
        near = _Z >= abs(z) if z >= 0 else _Z <= -abs(z)
        far = _Z <= -abs(z) if z >= 0 else _Z >= abs(z)
        self.tail_near.set_xy(_area(_Z[near]))
        self.tail_far.set_xy(_area(_Z[far]))
        self.z_mark.set_xdata([z])
        table = [_pct(r.table_confidence), _pct(r.table_one_sided_confidence)] if r.table_confidence else ["<50%", "<75%"]
        self.z_text.set_text(f"z = {r.statistic:.3f}\n"
                             f"two-sided: table {table[0]}, exact {100 * r.two_sided_confidence:.1f}%\n"
                             f"one-sided: table {table[1]}, exact {100 * r.one_sided_confidence:.1f}%")

    def _summary(self, r):
        if r.mode == "independent":
            head = (f"Independent test sets: error of h1 {r.error1:.3f} on {r.n1}, error of h2 {r.error2:.3f} "
                    f"on {r.n2}; d = {r.difference:.3f}, sigma_d = {r.se:.4f}, z = {r.statistic:.3f}.")
        else:
            head = (f"One shared test set of {r.n1}: h1 errs on {r.only1 + r.both}, h2 on {r.only2 + r.both}, "
                    f"both on {r.both}. Only the {r.only1 + r.only2} disagreements count: McNemar's "
                    f"chi-square (b - c)^2/(b + c) = {r.mcnemar.statistic:.3f}, so z = {r.statistic:.3f} "
                    f"(the independent-sets formula would give z = {r.comparison.statistic:.3f}).")
        table = (f"The table gives {_pct(r.table_confidence)} two-sided, {_pct(r.table_one_sided_confidence)} "
                 f"one-sided confidence" if r.table_confidence else "z is below the table's 50% row")
        return (f"{head} {table}; the exact levels are {100 * r.two_sided_confidence:.1f}% two-sided and "
                f"{100 * r.one_sided_confidence:.1f}% one-sided (p = {r.p_value:.4f}).")


def _area(x):
    """Polygon under the standard normal density over the sorted points x."""
    if x.size == 0:
        return np.zeros((3, 2))
    y = np.exp(-x ** 2 / 2) / np.sqrt(2 * np.pi)
    return np.column_stack([np.r_[x[0], x, x[-1]], np.r_[0, y, 0]])


def _nice(x):
    """The smallest of 1, 2, 5 times a power of ten that is >= x (axis limits that rarely change)."""
    steps = 10.0 ** np.floor(np.log10(x)) * np.array([1, 1.5, 2, 3, 4, 5, 6, 8, 10])
    return float(steps[np.argmax(steps >= x * (1 - 1e-12))])


def _pct(level):
    return f"{100 * level:g}%"
