"""Pictures of ROC analysis: the ROC curve, precision-recall, cost curves, the lift chart, and DeLong's test."""
from __future__ import annotations

import numpy as np

from .._format import pct, plain
from ..plotting import COLORS, points
from ._canvas import ESTIMATE, panels
from ._marks import legend_beside
from .tests import difference_under_null


def lift_chart(r, ax=None):
    """The picture of a :class:`~evalteach.stats.LiftChart`."""
    with panels(r, ax, figsize=(7.6, 3.8)) as (ax,):
        ax.plot(np.r_[0, r.sample_size], np.r_[0, r.true_positives], color=COLORS["data"], gid="curve",
                label="examples taken by decreasing score")
        ax.plot([0, r.n], [0, r.n_pos], linestyle="--", color=COLORS["muted"], gid="random", label="random sample")
        i = r._reported()
        k = int(r.sample_size[i])
        ax.plot([k], [r.true_positives[i]], "o", color=COLORS["theory"], gid=ESTIMATE,
                label=f"top {k} ({pct(k / r.n)}): lift {plain(r.lift[i])}")
        ax.set(xlim=(0, r.n), ylim=(0, 1.05 * r.n_pos), title="Lift chart",
               xlabel="sample size (examples selected)", ylabel="positives in the sample (TP)")
        legend_beside(ax)
    return ax


def _unit_square(ax, xlabel, ylabel):
    ax.set(xlim=(-0.01, 1.01), ylim=(-0.01, 1.03), xlabel=xlabel, ylabel=ylabel)
    ax.set_aspect("equal", adjustable="box")


def _curve(ax, fpr, tpr, *, color, label, gid, markers):
    ax.plot(fpr, tpr, color=color, lw=points(2), marker="o" if markers else None, ms=points(4), label=label, gid=gid)


def _checked_costs(costs):
    if costs is None:
        return None
    try:
        cost_fp, cost_fn = costs
    except (TypeError, ValueError):
        raise TypeError(f"costs must be a pair (cost_fp, cost_fn), got {costs!r}") from None
    return cost_fp, cost_fn


def roc_curve(r, ax=None, costs=None):
    """The picture of a :class:`~evalteach.stats.RocCurve`."""
    costs = _checked_costs(costs)
    point = r.operating_point(*costs) if costs is not None else None  # checks the costs before drawing
    with panels(r, ax, figsize=(7.2, 4.2)) as (ax,):
        ax.plot([0, 1], [0, 1], linestyle="--", color=COLORS["muted"], lw=points(1.2), gid="chance",
                label="random scores (AUC 0.5)")
        few = len(r.fpr) <= 30
        if not r.hull:
            hull = r.convex_hull()
            ax.plot(hull.fpr, hull.tpr, color=COLORS["good"], lw=points(1.6), linestyle="-.", gid="hull",
                    label=f"convex hull (area {plain(hull.auc)})")
        _curve(ax, r.fpr, r.tpr, color=COLORS["data"], gid="curve", markers=few,
               label=f"{'ROC convex hull' if r.hull else 'ROC curve'}: AUC = {plain(r.auc)}")
        if point is not None:
            # the iso-cost line through the point: TPR = tpr + m (FPR - fpr), inside the square
            x = np.linspace(0, 1, 201)
            y = point.tpr + point.slope * (x - point.fpr)
            inside = (y >= 0) & (y <= 1)
            ax.plot(x[inside], y[inside], color=COLORS["theory"], lw=points(1.6), gid="iso-cost",
                    label=f"iso-cost line, slope {plain(point.slope)}")
            ax.plot([point.fpr], [point.tpr], "D", color=COLORS["theory"], ms=points(8), gid=ESTIMATE, zorder=4,
                    label=f"least cost: ({plain(point.fpr)}, {plain(point.tpr)})")
        _unit_square(ax, "false-positive rate", "true-positive rate")
        ax.set_title(f"ROC: {r.n_pos} positives, {r.n_neg} negatives")
        legend_beside(ax)
    return ax


def precision_recall_curve(r, ax=None):
    """The picture of a :class:`~evalteach.stats.PrecisionRecallCurve`."""
    with panels(r, ax, figsize=(7.2, 4.2)) as (ax,):
        base = float(r.precision[-1])  # everything predicted positive: the share of positives
        ax.plot([0, 1], [base, base], linestyle="--", color=COLORS["muted"], lw=points(1.2), gid="chance",
                label=f"random scores: precision {plain(base)}")
        recall, precision = r.achievable("steps")
        ax.plot(recall, precision, color=COLORS["data"], lw=points(2), gid="curve",
                label=f"steps: average precision {plain(r.average_precision)}")
        if len(r.recall) <= 30:
            ax.plot(r.recall, r.precision, "o", color=COLORS["data"], ms=points(4), gid="points",
                    label="the thresholds' (recall, precision)")
        _unit_square(ax, "recall (true-positive rate)", "precision")
        ax.set_title(f"Precision and recall: {r.n_pos} positives")
        legend_beside(ax)
    return ax


def cost_curve(r, ax=None):
    """The picture of a :class:`~evalteach.stats.CostCurve`."""
    with panels(r, ax, figsize=(7.6, 4.2)) as (ax,):
        pc = r.probability_cost
        lines = r.lines()
        for i, line in enumerate(lines):
            ax.plot(pc, line, color=COLORS["muted"], lw=points(0.8), alpha=0.6, gid="line",
                    label="one line per ROC point" if i == 0 else None)
        ax.plot(pc, pc, linestyle="--", color=COLORS["truth"], lw=points(1.4), gid="always-negative",
                label="always negative")
        ax.plot(pc, 1 - pc, linestyle=":", color=COLORS["truth"], lw=points(1.6), gid="always-positive",
                label="always positive")
        ax.fill_between(pc, r.envelope, np.minimum(pc, 1 - pc), where=r.useful, color=COLORS["good"], alpha=0.3,
                        lw=0, gid="useful", label="where it beats both")
        ax.plot(pc, r.envelope, color=COLORS["data"], lw=points(2.4), gid="envelope",
                label=f"lower envelope (worst {plain(r.envelope.max())})")
        ax.set(xlim=(0, 1), ylim=(0, max(0.55, float(lines.max()) * 1.02)),
               xlabel="probability cost PC(+)", ylabel="normalised expected cost")
        ax.set_title("Cost curve")
        legend_beside(ax)
    return ax


def delong(r, ax=None):
    """The picture of a :class:`~evalteach.stats.DelongResult`."""
    with panels(r, ax, count=2, figsize=(12.0, 4.2), ratios=(1, 1.1)) as (left, right):
        left.plot([0, 1], [0, 1], linestyle="--", color=COLORS["muted"], lw=points(1.2), gid="chance")
        few = max(len(r.roc_a.fpr), len(r.roc_b.fpr)) <= 30
        _curve(left, r.roc_a.fpr, r.roc_a.tpr, color=COLORS["data"], gid="curve-a", markers=few,
               label=f"a: AUC = {plain(r.auc_a)}")
        _curve(left, r.roc_b.fpr, r.roc_b.tpr, color=COLORS["theory"], gid="curve-b", markers=few,
               label=f"b: AUC = {plain(r.auc_b)}")
        _unit_square(left, "false-positive rate", "true-positive rate")
        left.set_title(f"Two classifiers on the same {r.n_pos + r.n_neg} examples")
        legend_beside(left)
        difference_under_null(right, r.difference, r.se, r.low, r.high, alternative="two-sided", p_value=r.p_value,
                              confidence=r.confidence, symbol="AUC(a) − AUC(b)", statistic=r.statistic)
        right.set_title("DeLong's test")
        right.set_xlabel("AUC(a) − AUC(b)")
    return left
