"""Pictures of ROC analysis: the ROC curve, precision-recall, cost curves, the lift chart, and DeLong's test."""
from __future__ import annotations

import numpy as np

from .._format import pct, plain
from ..plotting import COLORS
from ._canvas import ESTIMATE, panels
from ._marks import legend_beside


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
