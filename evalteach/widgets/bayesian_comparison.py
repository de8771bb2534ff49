"""BayesianComparisonExplorer: posterior probabilities with a region of practical equivalence."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import matplotlib as mpl
import numpy as np
from matplotlib.transforms import ScaledTranslation

from .._result import p_text
from ..example_scores import DEMSAR_ALGORITHMS, DEMSAR_AUC, DEMSAR_DATASETS
from ..learners import LEARNER_LABELS, LEARNERS
from ..plotting import COLORS, fast_x_axis, points
from ..simulate.bundled_scores import DATASETS, LEARNERS as FAST_LEARNERS
from ..simulate.learner_scores import repeated_cv_errors
from ..stats import (bayesian_correlated_t_test, bayesian_signed_rank_test, corrected_resampled_t_test,
                     wilcoxon_test)
from ._base import Explorer, buttons, dropdown, slider
from ._cached_layer import CachedLayer

K = 10
#: Monte Carlo draws of the signed-rank posterior.
N_SAMPLES = 20_000
#: Pairs of Demšar's C4.5 variants (columns of DEMSAR_AUC), tuned against default first.
DEMSAR_PAIRS = {f"{DEMSAR_ALGORITHMS[i]} vs {DEMSAR_ALGORITHMS[j]}": (i, j)
                for i, j in ((3, 0), (1, 0), (2, 0), (3, 1))}
#: Colours of the three regions, by what they say: A better, practically equivalent, B better.
#: Errors put "A better" below the rope, AUCs above it; the colours follow the learner.
A_BETTER, EQUIVALENT, B_BETTER = COLORS["data"], COLORS["muted"], COLORS["theory"]
REGION_COLORS = {"single": (A_BETTER, EQUIVALENT, B_BETTER), "multiple": (B_BETTER, EQUIVALENT, A_BETTER)}


@lru_cache(maxsize=1)
def _blas():
    """numpy's BLAS thread pools, found without importing scikit-learn (that takes seconds;
    :func:`evalteach.learners.one_thread` imports it to limit its OpenMP pools too)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


@lru_cache(maxsize=512)
def _signed_rank(pair, rope, seed):
    """The signed-rank test on Demšar's differences for this pair (cached: the rope
    slider revisits its 21 values) and Wilcoxon's test beside it."""
    i, j = DEMSAR_PAIRS[pair]
    d = DEMSAR_AUC[:, i] - DEMSAR_AUC[:, j]
    d.setflags(write=False)
    with _blas().limit(limits=1, user_api="blas"):  # 20,000 small matrix products: threads only add overhead
        bayes = bayesian_signed_rank_test(d, rope=rope, n_samples=N_SAMPLES, seed=seed)
    return d, bayes, wilcoxon_test(d)


@dataclass(frozen=True)
class ComparisonView:
    """What the explorer shows: a Bayesian test with a rope and, in one-data-set mode,
    the corrected resampled t-test on the same folds (in many-data-sets mode Wilcoxon's)."""

    mode: str
    label: str
    differences: np.ndarray
    bayes: object
    frequentist: object
    names: tuple
    setting: str = ""  # one data set: the data set and the cross-validation


class BayesianComparisonExplorer(Explorer):
    """Compare two learners by the posterior of their difference, with a rope.

    One data set: two learners are run through ``runs`` repetitions of 10-fold
    cross-validation on the same folds. The Bayesian correlated t-test turns the fold
    differences of error into a posterior (Student t) of the mean difference ``mu``,
    allowing for the correlation between folds that share training data
    (``rho = 1/10``). The region of practical equivalence (rope) ``[-r, r]`` holds the
    differences too small to matter; the three posterior probabilities say how much
    of the posterior lies below, inside and above it. Beside it the corrected resampled
    t-test's p-value and 95% interval on the same folds (the same t distribution read
    as a test): "significant" and "practically equivalent" can both hold, or neither.

    Many data sets: the Bayesian signed-rank test on Demšar's (2006) AUCs of C4.5
    variants on 14 data sets, with Wilcoxon's signed-rank test beside it.

    The probabilities are statements about ``mu`` under the model (normal, equally
    correlated fold differences; a flat prior on ``mu`` with the usual ``1/sigma^2`` on the
    variance), not about the learners in general, and not p-values. The signed-rank
    test's bars are shares of posterior draws in which a region is the most probable
    (Dirichlet process prior), not probabilities of the regions.

    With seed 0 every offered comparison's fold errors come with the package
    (:mod:`evalteach.simulate.bundled_scores`); with another seed the first draw of a
    learner fits it ``runs x 10`` times (progress is shown). Either way they are cached
    per data set, learner, run and seed: the rope and the runs buttons only re-read
    them, and the signed-rank test is cached per pair and rope.

    Parameters
    ----------
    seed : int
        Seeds the cross-validation folds and the signed-rank test's Monte Carlo draws.
    **values
        Control values: ``mode``, ``dataset``, ``learner_a``, ``learner_b``, ``runs``,
        ``pair``, ``rope``.

    References
    ----------
    Benavoli, Corani, Demšar & Zaffalon (2017), "Time for a change: a tutorial for
    comparing multiple classifiers through Bayesian analysis", JMLR 18(77). Corani &
    Benavoli (2015), Machine Learning 100. Nadeau & Bengio (2003). Demšar (2006), JMLR 7.
    """

    title = "Bayesian comparison of two learners, with a region of practical equivalence"
    figsize = (10.0, 4.4)

    def _controls(self):
        learners = [(f"{name}: {LEARNERS[name]}", name) for name in FAST_LEARNERS]
        return {
            "rope": slider("rope ±", 0.01, 0.0, 0.05, 0.0025, readout_format=".4f",
                           tooltip="half-width of the region of practical equivalence"),
            "dataset": dropdown("data set", list(DATASETS), "breast_cancer"),
            "learner_a": dropdown("learner A", learners, "naive_bayes"),
            "learner_b": dropdown("learner B", learners, "1nn"),
            "runs": buttons("runs of 10-fold CV", [1, 5, 10], 10),
            "mode": buttons("mode", [("one data set (correlated t)", "single"),
                                     ("14 data sets (signed-rank)", "multiple")], "single"),
            "pair": dropdown("Demšar pair", list(DEMSAR_PAIRS), list(DEMSAR_PAIRS)[0]),
        }

    def _hidden(self, state):
        if state["mode"] == "multiple":
            return {"dataset", "learner_a", "learner_b", "runs"}
        return {"pair"}

    def _compute(self, state):
        rope, seed = float(state["rope"]), state["seed"]
        if state["mode"] == "multiple":
            i, j = DEMSAR_PAIRS[state["pair"]]
            d, bayes, wilcoxon = _signed_rank(state["pair"], rope, seed)
            return ComparisonView("multiple", f"AUC of {state['pair']}, Demšar's 14 data sets", d, bayes,
                                  wilcoxon, (DEMSAR_ALGORITHMS[i], DEMSAR_ALGORITHMS[j]))
        runs = int(state["runs"])
        names = (state["learner_a"], state["learner_b"])
        # cached per data set, learner, runs and seed: only a new learner or data set fits
        errors = [repeated_cv_errors(state["dataset"], name, runs, K, seed,
                                     progress=lambda f, i=i: self.report_progress((i + f) / 2))
                  for i, name in enumerate(names)]
        d = errors[0] - errors[1]
        ratio = 1 / (K - 1)
        bayes = bayesian_correlated_t_test(d, test_train_ratio=ratio, rope=rope)
        shown = [LEARNER_LABELS[name] for name in names]
        setting = f"{state['dataset'].replace('_', ' ')} data, {runs}×{K}-fold CV"
        return ComparisonView("single", f"error of {shown[0]} − {shown[1]}, {setting}", d, bayes,
                              corrected_resampled_t_test(d, test_train_ratio=ratio), names, setting)

    # --- drawing -------------------------------------------------------------------------
    #
    # Each mode has its own sub-figure (two panels, laid out once by constrained layout) so
    # that switching modes re-labels nothing. What is drawn comes in three layers, cheapest
    # to update last: what a mode shows (titles, y axes) is drawn once per mode; what one
    # comparison shows (the posterior or the dots, x axes, tick labels naming the learners,
    # the frequentist test) once per comparison, kept for a few comparisons; only what the
    # rope changes (shaded regions, rope band, bars, their labels, the left title) is drawn
    # on every update. No control forces a full redraw of the figure.

    def _build(self, figure):
        cell = figure.add_gridspec(1, 1)[0, 0]
        self.figures = {mode: figure.add_subfigure(cell) for mode in REGION_COLORS}
        self.ax, self.bars_ax = self.figures["single"].subplots(1, 2, width_ratios=(1.7, 1))
        self.dots_ax, self.rank_ax = self.figures["multiple"].subplots(1, 2, width_ratios=(1.7, 1))
        self._frame_artists = {"single": self._build_single(), "multiple": self._build_multiple()}
        self._rope_artists = {
            # the t-test's interval over the rope band, which would wash it out
            "single": (*self.regions, self.rope_band, self.interval, self.interval_mid, *self.bars,
                       *self.bar_labels, self.rope_title),
            "multiple": (self.dots_rope, *self.rank_bars, *self.rank_labels, self.dots_rope_title)}
        for artist in (*self.figures.values(), *self._frame_artists["single"], *self._frame_artists["multiple"]):
            artist.set_animated(True)
        self.mode_layer = CachedLayer()
        self.frame_layer = CachedLayer(under=self.mode_layer)
        self.dynamic(self.frame_layer, *self._rope_artists["single"], *self._rope_artists["multiple"])
        self._shown = None

    def _build_single(self):
        """The posterior panel and the bars of the correlated t-test; returns the artists
        that change with the comparison."""
        ax, bars_ax = self.ax, self.bars_ax
        self.density = ax.plot([], [], color=COLORS["truth"], lw=points(1.6))[0]
        self.zero = ax.axvline(0, ymax=0.8, color=COLORS["truth"], lw=points(0.8))  # stops below the legend
        self.interval = ax.plot([], [], color=COLORS["second"], lw=points(4), solid_capstyle="butt",
                                label="corrected resampled t-test: 95% interval")[0]
        self.interval_mid = ax.plot([], [], "|", color=COLORS["second"], ms=points(14), mew=points(2))[0]
        ax.legend(handles=[self.interval], loc="upper left", fontsize="small", framealpha=0.9)
        # its numbers apart from the legend, as Wilcoxon's in the other mode: the legend is drawn once
        self.interval_text = ax.text(0.98, 0.97, " \n ", transform=ax.transAxes, ha="right", va="top",
                                     fontsize="small")
        self.regions = [ax.fill_between([0, 1], [0, 0], color=c, alpha=0.45, lw=0)
                        for c in REGION_COLORS["single"]]
        self.rope_band = ax.axvspan(-0.01, 0.01, color=COLORS["muted"], alpha=0.2, lw=0)
        # titles at a fixed height (y=1): no top tick labels to clear, and matplotlib's search for
        # them measures every tick label on each draw (and misplaces a title still blank)
        ax.set_title("Posterior of μ (rope shaded grey)", loc="left", fontsize="medium", y=1.0)
        self.rope_title = ax.set_title(" ", loc="right", fontsize="medium", y=1.0)  # only the rope's width is redrawn
        ax.set_yticks([])
        ax.set_ylabel("posterior density of μ")
        # what the axis measures is drawn once per mode; the learners, the data and the
        # posterior's numbers go in the axis label below it, drawn with each comparison
        below = fast_x_axis(ax)
        ax.text(0.5, 0, "mean difference of error μ = A − B (0.01 = 1 point)", transform=below,
                ha="center", va="top", fontsize=mpl.rcParams["axes.labelsize"])
        ax.set_xlabel(" \n ")
        ax.xaxis.set_label_coords(0.5, 0, transform=below + ScaledTranslation(
            0, -1.2 * ax.xaxis.label.get_fontsize() / 72, ax.get_figure(root=True).dpi_scale_trans))
        # the bars speak of A and B, as the controls do; the x label on the left names them
        self.bars, self.bar_labels = _probability_bars(
            bars_ax, REGION_COLORS["single"], ("A better\nby > rope", "practically\nequivalent", "B better\nby > rope"))
        bars_ax.set_ylabel("posterior probability")
        self.right_title = bars_ax.set_title("Bayesian correlated t-test (ρ = 1/10):\n"
                                             "posterior probability of each region", fontsize="medium", y=1.0)
        return ax.xaxis, self.zero, self.density, self.interval_text

    def _build_multiple(self):
        """The dots of Demšar's differences and the bars of the signed-rank test; returns the
        artists that change with the pair."""
        ax, bars_ax = self.dots_ax, self.rank_ax
        self.dots = ax.plot([], [], "o", color=COLORS["truth"], ms=points(5),  # neutral: either learner may win
                            label="difference on one data set")[0]
        self.dots_zero = ax.axvline(0, ymax=0.8, color=COLORS["truth"], lw=points(0.8))
        ax.legend(handles=[self.dots], loc="upper left", fontsize="small", framealpha=0.9)
        self.wilcoxon_text = ax.text(0.98, 0.97, " ", transform=ax.transAxes, ha="right", va="top",
                                     fontsize="small")
        self.dots_rope = ax.axvspan(-0.01, 0.01, color=COLORS["muted"], alpha=0.2, lw=0)
        ax.set_title("Differences (rope shaded grey)", loc="left", fontsize="medium", y=1.0)
        self.dots_rope_title = ax.set_title(" ", loc="right", fontsize="medium", y=1.0)
        # one row per data set in the order of Demšar's Table 2, top down: the names are drawn once
        rows = len(DEMSAR_DATASETS)
        ax.set_ylim(-0.8, rows + 2.5)
        ax.set_yticks(np.arange(rows)[::-1], DEMSAR_DATASETS)
        ax.tick_params(axis="y", labelsize="x-small")
        ax.set_xlabel(" ")
        fast_x_axis(ax)
        self.rank_bars, self.rank_labels = _probability_bars(
            bars_ax, REGION_COLORS["multiple"], ("'B better'\nmost probable", "'equivalent'\nmost probable",
                                                 "'A better'\nmost probable"))
        bars_ax.set_ylabel("share of draws: region most probable")
        self.rank_title = bars_ax.set_title(f"Bayesian signed-rank test: share of\n{N_SAMPLES:,} posterior "
                                            f"draws in which\neach region is the most probable",
                                            fontsize="medium", y=1.0)
        return ax.xaxis, self.dots_zero, self.dots, self.wilcoxon_text

    def _posterior_span(self, r):
        """The x range of the one-data-set picture: the posterior with 4.5 scales either side,
        widened to hold the first run's posterior too (so that switching between 1, 5 and
        10 runs keeps the axis and the widths can be compared) and the widest rope."""
        reach = 0.055
        lows, highs = [-reach], [reach]
        for b in (r.bayes, bayesian_correlated_t_test(r.differences[:K], test_train_ratio=1 / (K - 1))):
            spread = 4.5 * b.scale if b.scale > 0 else 0.01
            lows.append(b.mean_difference - spread)
            highs.append(b.mean_difference + spread)
        return min(lows), max(highs)

    def _show_comparison(self, r):
        """Set what one comparison shows (drawn in the comparison layer, cached by ``r``)."""
        for mode, figure in self.figures.items():
            figure.set_visible(mode == r.mode)
            for artist in self._rope_artists[mode]:
                artist.set_visible(mode == r.mode)
        a, b_name = (LEARNER_LABELS.get(name, name) for name in r.names)  # as printed: "naive Bayes"
        if r.mode == "single":
            self._show_posterior(r, a, b_name)
        else:
            self._show_differences(r, a, b_name)
        self.mode_layer.show(r.mode, [self.figures[r.mode]])
        self.frame_layer.show(self._shown, self._frame_artists[r.mode])

    def _show_posterior(self, r, a, b_name):
        b, f, ax = r.bayes, r.frequentist, self.ax
        post = b.posterior()
        self._x = np.linspace(*self._posterior_span(r), 600)
        self._pdf = post.pdf(self._x) if post is not None else np.zeros_like(self._x)
        self.density.set_data(self._x, self._pdf)
        top = max(self._pdf.max(), 1.0)
        level = 1.1 * top
        self.interval.set_data([f.low, f.high], [level, level])
        self.interval_mid.set_data([f.mean_difference], [level])
        verdict = "significant" if f.p_value < 0.05 else "not significant"
        self.interval_text.set_text(f"95% interval [{f.low:+.3f}, {f.high:+.3f}]\n"
                                    f"t-test {p_text(f.p_value)} ({verdict} at 5%)")
        ax.set_xlim(self._x[0], self._x[-1])
        ax.set_ylim(0, 1.6 * top)
        centre = ("a point mass" if b.scale == 0 else
                  f"posterior centre {b.mean_difference:+.4f}, scale {b.scale:.4f}")
        ax.set_xlabel(f"A: {a}, B: {b_name}; {r.setting}\n{centre}")

    def _show_differences(self, r, a, b_name):
        d, ax = r.differences, self.dots_ax
        self.dots.set_data(d, np.arange(d.size)[::-1])
        reach = 0.055  # the widest rope stays in view
        pad = 0.1 * max(d.max() - d.min(), reach)
        ax.set_xlim(min(d.min(), -reach) - pad, max(d.max(), reach) + pad)
        ax.set_xlabel(f"AUC difference A − B (A: {a}, B: {b_name}), Demšar's 14 data sets")
        self.wilcoxon_text.set_text(f"Wilcoxon signed-rank test: {p_text(r.frequentist.p_value)}")

    def _draw(self, r):
        shown = (r.mode, r.label, r.differences.tobytes())
        if shown != self._shown:
            self._shown = shown
            self._show_comparison(r)
        b, rope = r.bayes, r.bayes.rope
        single = r.mode == "single"
        if single:
            x, pdf = self._x, self._pdf
            masks = (x <= -rope, (x >= -rope) & (x <= rope), x >= rope)
            for region, mask in zip(self.regions, masks):
                xs, ys = x[mask], pdf[mask]
                verts = np.concatenate(([[xs[0], 0]], np.column_stack((xs, ys)), [[xs[-1], 0]])) if xs.size \
                    else np.zeros((0, 2))
                region.set_verts([verts])
        band = self.rope_band if single else self.dots_rope
        band.set_x(-rope)
        band.set_width(2 * rope)
        bars, labels = (self.bars, self.bar_labels) if single else (self.rank_bars, self.rank_labels)
        for bar, label, p in zip(bars, labels, (b.p_left, b.p_rope, b.p_right)):
            bar.set_height(p)
            label.set_position((bar.get_x() + bar.get_width() / 2, p + 0.02))
            label.set_text(f"{p:.3f}")
        if single:
            self.rope_title.set_text(f"rope ±{_rope_text(rope, 'point')}")
        else:
            self.dots_rope_title.set_text(f"rope ±{_rope_text(rope, 'AUC')}")

    def _summary(self, r):
        b = r.bayes
        if r.mode == "single":
            f = r.frequentist
            return (f"{r.label}: mean difference {b.mean_difference:+.4f}; Bayesian correlated t-test, posterior "
                    f"probabilities {b.p_left:.3f} below the rope, {b.p_rope:.3f} inside it (±{b.rope:g}) and "
                    f"{b.p_right:.3f} above it (statements about the expected difference mu under the model, a "
                    f"flat prior on mu and 1/sigma^2 on the variance; not p-values); corrected resampled t-test "
                    f"{p_text(f.p_value)}, 95% interval [{f.low:+.4f}, {f.high:+.4f}].")
        left, inside, right = b.mean_theta
        return (f"{r.label}: Bayesian signed-rank test, share of posterior draws in which each region is the "
                f"most probable: {b.p_left:.3f} below the rope (±{b.rope:g}), {b.p_rope:.3f} inside, "
                f"{b.p_right:.3f} above; posterior mean probabilities of the regions {left:.3f}, {inside:.3f}, "
                f"{right:.3f}; Wilcoxon signed-rank test {p_text(r.frequentist.p_value)}.")


def _probability_bars(ax, colors, names):
    """Three bars on [0, 1] (left of, inside, right of the rope) with a label above each."""
    bars = ax.bar([0, 1, 2], [0, 0, 0], color=colors, alpha=0.8, width=0.7)
    labels = [ax.text(i, 0, "", ha="center", va="bottom") for i in range(3)]
    ax.set_ylim(0, 1.18)
    ax.set_yticks(np.linspace(0, 1, 6))
    ax.set_xlim(-0.6, 2.6)
    ax.set_xticks([0, 1, 2], names)
    ax.tick_params(axis="x", labelsize="small")
    ax.xaxis.set_label_coords(0.5, 0.0)  # no label: spare matplotlib measuring the tick labels to place it
    return bars, labels


def _rope_text(rope, unit):
    """The rope's half-width as the lessons write it: 0.01 (1 point), 0.0025 (0.25 points)."""
    if unit == "point":
        points = 100 * rope
        return f"{rope:g} ({points:g} point{'' if points == 1 else 's'})"
    return f"{rope:g} {unit}"
