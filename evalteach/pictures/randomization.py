"""Pictures of inference by resampling: a permutation test's null distribution and a bootstrap distribution."""
from __future__ import annotations

import numpy as np

from .. import _validate as v
from .._format import p_text, pct, plain
from ..plotting import COLORS, points
from ._canvas import ESTIMATE, panels
from ._marks import draw_interval, histogram, legend_beside, mark_statistic


def permutation_test(r, ax=None, statistic=None):
    """The picture of a :class:`~evalteach.stats.PermutationTest`."""
    default = "mean difference a − b" if r.paired else "difference of means a − b"
    statistic = default if statistic is None else v.text("statistic", statistic)
    with panels(r, ax, figsize=(8.4, 3.6)) as (ax,):
        t, extreme = r.null_distribution, r.extreme
        count, total = int(extreme.sum()), t.size
        doubled = r.alternative == "two-sided" and not r.paired
        if r.exact:
            share = f"{count} of {total} rearrangements"
            formula = f"{count}/{total}"
        else:
            share = f"{count} of {total} random rearrangements"
            formula = f"({count} + 1)/({total} + 1)"
        if doubled:
            formula = f"2 × {formula}"
        _, marked, top = histogram(ax, t, extreme, label="every rearrangement" if r.exact else
                                   f"{total} random rearrangements (seed {r.seed})")
        marked.set_label(f"{'the smaller tail' if doubled else 'as extreme'}: {share}")
        # the lines run behind the bars, in black: the vermillion bars at +-observed stay visible
        mark_statistic(ax, r.statistic, 1.15 * top, color=COLORS["truth"], zorder=0.5,
                       label=f"observed {plain(r.statistic)}: {p_text(r.p_value)} = {formula}")
        if r.paired and r.alternative == "two-sided" and r.statistic != 0:
            mark_statistic(ax, -r.statistic, 1.15 * top, color=COLORS["truth"], zorder=0.5, linestyle="--",
                           gid="mirror", label=f"its mirror image {plain(-r.statistic)}")
        ax.set_ylim(0, 1.3 * top)
        spread = max(np.ptp(t), 2 * abs(r.statistic)) or 1.0
        ax.set_xlim(min(t.min(), -abs(r.statistic)) - 0.05 * spread, max(t.max(), abs(r.statistic)) + 0.05 * spread)
        what = "sign flips of the differences" if r.paired else "shuffles of the group labels"
        ax.set_title(f"Permutation test ({'exact' if r.exact else 'Monte Carlo'}): {what}")
        ax.set_xlabel(statistic)
        ax.set_ylabel("share of rearrangements")
        legend_beside(ax)
    return ax


def bootstrap_interval(r, ax=None):
    """The picture of a :class:`~evalteach.stats.BootstrapInterval`."""
    with panels(r, ax, figsize=(8.4, 3.6)) as (ax,):
        reps = r.replicates
        _, _, top = histogram(ax, reps, np.zeros(reps.size, bool), label=f"{reps.size} bootstrap replicates")
        for (low, high), name, color, style in ((r.percentile_ends, "percentile", COLORS["theory"], "--"),
                                                (r.bca_ends, "BCa", COLORS["good"], "-")):
            for end in (low, high):
                ax.plot([end, end], [0, 1.12 * top], color=color, linestyle=style, lw=points(2),
                        gid=f"{name}-end", label=f"{name} [{plain(low)}, {plain(high)}]" if end == low else None)
        level = 1.25 * top
        method = "percentile" if r.method == "percentile" else "BCa"
        draw_interval(ax, r.low, r.high, level, label=f"{pct(r.confidence)} {method} interval")
        ax.plot([r.estimate], [level], "o", color=COLORS["data"], ms=points(7), gid=ESTIMATE, zorder=4,
                label=f"on the whole test set: {plain(r.estimate)}")
        ax.set_ylim(0, 1.4 * top)
        spread = np.ptp(reps) or 1.0
        ax.set_xlim(min(reps.min(), r.low) - 0.08 * spread, max(reps.max(), r.high) + 0.08 * spread)
        name = {"error": "error rate", "accuracy": "accuracy", "auc": "AUC"}[r.metric]
        what = f"difference of {name}s A − B" if r.difference else name
        ax.set_title(f"Bootstrap distribution of the {what} (n = {r.n})")
        ax.set_xlabel(what)
        ax.set_ylabel("share of resamples")
        legend_beside(ax)
    return ax
