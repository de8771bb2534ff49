"""ReplicabilityExplorer: does a test say "significant" again on another random partition?"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.markers import MarkerStyle

from ..learners import LEARNER_LABELS, LEARNERS
from ..plotting import COLORS, area, points
from ..simulate.bundled_scores import DATASETS, LEARNERS as FAST_LEARNERS, PARTITIONS
from ..simulate.repeated_partitions import REPLICABILITY_TESTS, agreement, replicability
from ._base import Explorer, buttons, dropdown, slider

#: Partition seeds fitted per data set and learner pair (the slider shows a prefix).
N_SEEDS = PARTITIONS
#: p-values below this are drawn at it, as triangles pointing left: at every alpha offered they
#: say "significant", and one p axis for every pair keeps the verdict region (0.01 to 0.1) wide.
P_FLOOR = 1e-5
#: The p axis of every pair: from half the floor to 2 (room for the dots at p = 1).
P_SPAN = (P_FLOOR / 2, 2.0)
#: The tests' row labels in the right panel (the left panel has the full names).
SHORT_TESTS = ("paired t", "corrected t", "5x2cv F", "McNemar")
#: Colour of the agreement bars: neither "significant" (vermilion) nor "not" (blue).
AGREE_COLOR = COLORS["muted"]


@dataclass(frozen=True)
class ReplicabilityView:
    """The p-values of the first ``seeds`` partitions, the verdicts at ``alpha`` and their agreement."""

    runs: object
    seeds: int
    alpha: float
    p_values: np.ndarray        # (4, seeds)
    significant: np.ndarray     # (4, seeds) bool
    share: np.ndarray           # (4,) share of seeds with a significant verdict
    agreement: np.ndarray       # (4,) share of pairs of seeds whose verdicts agree


class ReplicabilityExplorer(Explorer):
    """The same test, the same data, another random partition: the same verdict?

    One pair of real learners on one real data set. Every partition seed runs four
    tests of "A and B have equal error": the paired t-test and the corrected resampled
    t-test on one 10-fold cross-validation, Alpaydin's 5x2cv F-test, and McNemar's test
    on a 2/3 : 1/3 hold-out split. Left: each seed's p-value per test (one dot per
    partition, spread vertically only to keep the dots apart; vermilion where
    p < alpha; a p below :data:`P_FLOOR` is a triangle at the floor). Right: the share
    of partitions on which each test says "significant" and the share of pairs of
    partitions whose verdicts agree (Bouckaert & Frank's replicability). A test whose
    verdict depends on the seed reports the partition, not the learners.

    The fits of every offered pair on every partition come with the package
    (:mod:`evalteach.simulate.bundled_scores`; fitted, with progress shown, only under
    another scikit-learn) and the p-values are cached per data set and learner pair:
    moving ``seeds`` or ``alpha`` only re-reads them. The p axis is the same for every pair, so
    no change of a control redraws the axes (only the dots, bars and numbers).

    Parameters
    ----------
    seed : int
        Unused by the model (the partitions are seeds 0 to 14); kept for the framework.
    **values
        Control values: ``dataset``, ``learner_a``, ``learner_b``, ``alpha``, ``seeds``.

    References
    ----------
    Bouckaert & Frank (2004), "Evaluating the replicability of significance tests for
    comparing learning algorithms", PAKDD. Dietterich (1998); Alpaydin (1999); Nadeau &
    Bengio (2003).
    """

    title = "Replicability: the same test on new random partitions of the same data"
    figsize = (10.0, 4.4)

    def _controls(self):
        learners = [(f"{name}: {LEARNERS[name]}", name) for name in FAST_LEARNERS]
        return {
            "seeds": slider("partitions", N_SEEDS, 2, N_SEEDS, 1,
                            tooltip="how many random partitions (seeds 0, 1, ...) are shown"),
            "alpha": buttons("alpha", [0.01, 0.05, 0.1], 0.05),
            "dataset": dropdown("data set", list(DATASETS), "breast_cancer"),
            "learner_a": dropdown("learner A", learners, "naive_bayes"),
            "learner_b": dropdown("learner B", learners, "stump"),
        }

    def _compute(self, state):
        # cached per data set and learner pair: seeds and alpha only re-read the p-values
        runs = replicability(state["dataset"], state["learner_a"], state["learner_b"], N_SEEDS,
                             progress=self.report_progress)
        seeds, alpha = int(state["seeds"]), float(state["alpha"])
        p = runs.p_values[:, :seeds]
        significant = p < alpha
        return ReplicabilityView(runs, seeds, alpha, p, significant, significant.mean(axis=1),
                                 agreement(significant))

    def _build(self, figure):
        self.ax, self.bars_ax = figure.subplots(1, 2, width_ratios=(1.5, 1))
        ax, bars_ax = self.ax, self.bars_ax
        rows = np.arange(len(REPLICABILITY_TESTS))[::-1]
        self._rows = rows
        self.points = ax.scatter(np.ones(N_SEEDS * 4), np.repeat(rows, N_SEEDS), s=area(28), alpha=0.8,
                                 edgecolors="none")
        self.cut = ax.axvline(0.05, color=COLORS["truth"], lw=points(1.2), ls="--", label="alpha")
        # One p axis for every pair (from the floor to 1): switching the data set or a learner
        # then redraws only the dynamic artists, and dots keep their meaning from pair to pair.
        ax.set_xscale("log")
        ax.set_xlim(*P_SPAN)
        ax.set_xlabel(f"p-value on one partition (log scale; triangles: p < {P_FLOOR:g}); vermilion: "
                      f"p < alpha\n(dashed line), \"significant\"; blue: not; dots spread vertically "
                      f"to stay apart")
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_yticks(rows)
        ax.set_yticklabels(REPLICABILITY_TESTS)
        # the pair, the count and alpha: redrawn per change (the colour key above is static)
        self.left_title = ax.set_title("\n", fontsize="medium")
        height = 0.36
        self.share_bars = bars_ax.barh(rows + height / 2, np.zeros(4), height, color=COLORS["bad"],
                                       label="share of partitions: significant")
        self.agree_bars = bars_ax.barh(rows - height / 2, np.zeros(4), height, color=AGREE_COLOR,
                                       label="share of pairs of partitions that agree")
        self.labels = [bars_ax.text(0, y, "", va="center", fontsize="small")
                       for y in np.concatenate((rows + height / 2, rows - height / 2))]
        bars_ax.set_xlim(0, 1.28)
        bars_ax.set_xticks(np.linspace(0, 1, 6))
        bars_ax.set_ylim(ax.get_ylim())  # the same rows as the left panel, side by side
        bars_ax.set_yticks(rows)
        bars_ax.set_yticklabels(SHORT_TESTS, fontsize="small")
        bars_ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), fontsize="small", framealpha=0.95)
        # static (drawn once into the background); the count of partitions is in the left title
        bars_ax.set_title("Verdicts over the partitions shown\n(Bouckaert & Frank 2004)", fontsize="medium")
        self.dynamic(self.points, self.cut, self.left_title, *self.share_bars, *self.agree_bars,
                     *self.labels)

    def _draw(self, r):
        n = r.seeds
        below = (r.p_values < P_FLOOR).ravel()
        x = np.clip(r.p_values, P_FLOOR, 1.0).ravel()
        self.points.set_paths([_BELOW_FLOOR if b else _DOT for b in below])
        # the same seed keeps its vertical place in every row: a jitter by seed index
        jitter = (np.arange(n) / max(n - 1, 1) - 0.5) * 0.5
        y = (self._rows[:, None] + jitter[None, :]).ravel()
        self.points.set_offsets(np.column_stack((x, y)))
        colors = np.where(r.significant.ravel(), COLORS["bad"], COLORS["data"])
        self.points.set_facecolors(colors)
        self.cut.set_xdata([r.alpha] * 2)
        self.left_title.set_text(f"{_pair(r.runs)}\n{n} random partitions, alpha = {r.alpha:g}")
        for bar, label, value in zip([*self.share_bars, *self.agree_bars], self.labels,
                                     np.concatenate((r.share, r.agreement))):
            bar.set_width(value)
            label.set_position((value + 0.02, label.get_position()[1]))
            label.set_text(f"{value:.0%}")

    def _summary(self, r):
        parts = [f"{name}: significant on {share:.0%} of partitions, pairs agree {agree:.0%}"
                 for name, share, agree in zip(REPLICABILITY_TESTS, r.share, r.agreement)]
        return (f"{_pair(r.runs)}, {r.seeds} random partitions, alpha = {r.alpha:g}. " + "; ".join(parts)
                + ". On one data set the agreement depends only on the share of significant partitions.")


def _marker_path(marker):
    style = MarkerStyle(marker)
    return style.get_path().transformed(style.get_transform())


_DOT, _BELOW_FLOOR = _marker_path("o"), _marker_path("<")


def _pair(runs):
    return (f"{LEARNER_LABELS[runs.learner_a]} vs {LEARNER_LABELS[runs.learner_b]} on the "
            f"{runs.dataset.replace('_', ' ')} data")

