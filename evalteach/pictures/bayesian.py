"""Pictures of the Bayesian comparisons: the posterior of the mean difference against the rope,
and the posterior draws of the signed-rank test on the simplex of (left, rope, right)."""
from __future__ import annotations

import numpy as np

from .._format import interval_words, pct, plain
from ..plotting import COLORS, area, points
from ._canvas import NULL, panels
from ._marks import curve_grid, interval_above, legend_beside, no_y_ticks, shade_between

#: The three regions, each in its colour in both pictures: B better, practically equivalent, A better.
REGIONS = (("left", COLORS["theory"]), ("rope", COLORS["muted"]), ("right", COLORS["data"]))
#: The signed-rank picture draws at most this many posterior draws (the shares count them all).
DRAWN = 3000


def _names(rope):
    r = plain(rope)
    return {"left": f"a − b < −{r}" if rope else "a − b < 0", "rope": f"|a − b| ≤ {r}",
            "right": f"a − b > {r}" if rope else "a − b > 0"}


def correlated_t(r, ax=None):
    """The picture of a :class:`~evalteach.stats.BayesianCorrelatedTTest`."""
    with panels(r, ax, figsize=(8.6, 3.6)) as (ax,):
        names, shares = _names(r.rope), {"left": r.p_left, "rope": r.p_rope, "right": r.p_right}
        posterior = r.posterior()
        if posterior is None:  # no spread: a point mass
            top = 1.0
            ax.plot([r.mean_difference] * 2, [0, top], color=COLORS["truth"], lw=points(2), gid=NULL,
                    label=f"posterior: all its mass at {plain(r.mean_difference)}")
            limits = (min(r.mean_difference, -r.rope) - 1e-3, max(r.mean_difference, r.rope) + 1e-3)
        else:
            x = curve_grid(posterior)
            top = float(posterior.pdf(r.mean_difference))
            ax.plot(x, posterior.pdf(x), color=COLORS["truth"], lw=points(1.4), gid=NULL,
                    label=f"posterior of μ: t with {r.df} df, scale {plain(r.scale)}")
            bounds = {"left": (-np.inf, -r.rope), "rope": (-r.rope, r.rope), "right": (r.rope, np.inf)}
            for name, color in REGIONS:
                if name == "rope" and r.rope == 0:
                    continue
                shade_between(ax, posterior, *bounds[name], x, color=color, alpha=0.6, gid=name,
                              label=f"P({names[name]}) = {plain(shares[name])}")
            low, high = posterior.ppf(5e-4), posterior.isf(5e-4)
            limits = (min(low, -1.5 * r.rope), max(high, 1.5 * r.rope))
        if r.rope > 0:  # the edges stop below the interval's band: nothing is drawn across it
            for edge in (-r.rope, r.rope):
                ax.plot([edge, edge], [0, 1.1 * top], color=COLORS["muted"], linestyle=":", lw=points(1.2),
                        gid="rope-edge")
        ax.set_xlim(*limits)
        interval_above(ax, r.low, r.high, r.mean_difference, top, limits=limits,
                       label=interval_words(r.low, r.high, r.credibility).replace("interval", "credible interval"),
                       estimate_label=f"posterior mean {plain(r.mean_difference)}")
        ax.set_title("Bayesian correlated t-test: the posterior of the mean difference μ")
        ax.set_xlabel("μ, the mean difference a − b")
        no_y_ticks(ax)
        legend_beside(ax)
    return ax


#: The simplex's corners in the plane: theta_left, theta_rope, theta_right.
CORNERS = np.array([[0.0, 0.0], [0.5, np.sqrt(3) / 2], [1.0, 0.0]])


def simplex_points(theta):
    """Posterior draws (left, rope, right) as points of the triangle with corners ``CORNERS``."""
    return np.asarray(theta) @ CORNERS


def signed_rank(r, ax=None):
    """The picture of a :class:`~evalteach.stats.BayesianSignedRankTest`."""
    with panels(r, ax, figsize=(8.6, 4.4)) as (ax,):
        names = _names(r.rope)
        shown = r.samples[:DRAWN]
        winner = np.argmax(shown, axis=1)
        xy = simplex_points(shown)
        shares = {"left": r.p_left, "rope": r.p_rope, "right": r.p_right}
        corner_names = {"left": "B better", "rope": "equivalent", "right": "A better"}
        ax.plot(*np.r_[CORNERS, CORNERS[:1]].T, color=COLORS["truth"], lw=points(1.2), gid="simplex")
        centre = CORNERS.mean(axis=0)
        for i, j in ((0, 1), (1, 2), (0, 2)):  # where two regions are equally probable
            middle = (CORNERS[i] + CORNERS[j]) / 2
            ax.plot([centre[0], middle[0]], [centre[1], middle[1]], color=COLORS["muted"], lw=points(1),
                    linestyle="--", gid="boundary")
        for index, (name, color) in enumerate(REGIONS):
            mine = winner == index
            ax.scatter(xy[mine, 0], xy[mine, 1], s=area(4), color=color, alpha=0.6, linewidths=0, gid=name,
                       label=f"{names[name]} most probable: {pct(shares[name])}")
        places = {"left": ("right", "top"), "rope": ("center", "bottom"), "right": ("left", "top")}
        for corner, (name, _) in zip(CORNERS, REGIONS):
            ha, va = places[name]
            ax.annotate(f"{name}\n({corner_names[name]})", corner, xytext=({"left": -6, "right": 6}.get(name, 0),
                        6 if name == "rope" else -6), textcoords="offset points", ha=ha, va=va, fontsize="small",
                        gid=f"corner-{name}")
        ax.set(xlim=(-0.3, 1.3), ylim=(-0.25, np.sqrt(3) / 2 + 0.2))  # room for the corners' names
        ax.axis("off")
        ax.set_title("Bayesian signed-rank test: posterior draws")
        legend_beside(ax, markerscale=3, title=f"share of the {r.n_samples} draws\n(the first {len(shown)} shown)")
    return ax
