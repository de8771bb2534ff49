"""The reliability diagram: observed frequency against forecast, with the forecasts' histogram beneath."""
from __future__ import annotations

import numpy as np

from .._format import plain
from ..plotting import COLORS, points
from ._canvas import ESTIMATE, panels
from ._marks import bars, legend_beside


def reliability_diagram(r, ax=None):
    """The picture of a :class:`~evalteach.stats.ReliabilityDiagram`."""
    with panels(r, ax, count=2, figsize=(7.6, 5.2), vertical=True, ratios=(3, 1)) as (top, bottom):
        top.plot([0, 1], [0, 1], linestyle="--", color=COLORS["muted"], lw=points(1.2), gid="diagonal",
                 label="perfectly calibrated")
        # an empty bin is NaN in the table: the line breaks there instead of crossing bins with no forecasts
        top.plot(r.mean_forecast, r.observed_frequency, "o-", color=COLORS["data"], lw=points(2),
                 ms=points(6), gid=ESTIMATE, label="each bin: observed frequency\nagainst mean forecast\n"
                                                  "(lines join adjacent bins)")
        top.set(xlim=(0, 1), ylim=(-0.02, 1.02), ylabel="observed frequency")
        top.tick_params(labelbottom=False)
        top.set_title(f"Reliability diagram: {r.n} forecasts in {r.counts.size} bins")
        legend_beside(top, title=f"Brier score {plain(r.brier)}\n= {plain(r.reliability)} (reliability)\n"
                                 f"− {plain(r.resolution)} (resolution)\n+ {plain(r.uncertainty)} (uncertainty)\n"
                                 f"+ {plain(r.within_bin)} (within bins)")
        centres, width = (r.bin_edges[:-1] + r.bin_edges[1:]) / 2, np.diff(r.bin_edges)
        bars(bottom, centres, r.counts, 0.9 * width[0], color=COLORS["muted"], gid="counts")
        bottom.set(xlim=(0, 1), ylim=(0, 1.1 * max(r.counts.max(), 1)), xlabel="forecast probability",
                   ylabel="forecasts")
    return top
