"""Holdout, cross-validation, leave-one-out and the bootstrap, side by side on a real learner."""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

from ..data import load_dataset, random_dataset
from ..learners import LEARNERS
from ..plotting import COLORS, PALETTE
from ..simulate import RESAMPLING_METHODS, resampling_estimates
from ._base import Explorer, dropdown, slider

REPETITIONS = 20
HELDOUT_RANDOM = 2000
#: preset -> (data set, learner, method): the slides' two counterexamples.
PRESETS = {
    "loo_majority": ("random", "majority", "loo"),
    "632_memoriser": ("random", "1nn", "632"),
}
# Cell roles in the split picture.
_UNUSED, _TRAIN, _TRAIN2, _TRAIN3, _TEST = range(5)
_CMAP = ListedColormap(["#eeeeee", PALETTE["sky"], PALETTE["blue"], "#003a5c", PALETTE["orange"]])
_ROLE_LABELS = {_UNUSED: "unused", _TRAIN: "train", _TRAIN2: "train, drawn twice",
                _TRAIN3: "train, drawn 3+ times", _TEST: "test"}
#: Methods whose k is not used: one split, or as many as instances.
_NO_K = ("holdout", "stratified", "loo")
_BOOTSTRAPS = ("bootstrap", "632", "632plus")
_MAX_ROWS = 40
_METHOD_ORDER = ("kfold", "repeated", "holdout", "stratified", "loo", "bootstrap", "632", "632plus")
_SHORT = {"1nn": "1-NN", "knn": "5-NN", "tree": "decision tree", "stump": "decision stump",
          "naive_bayes": "naive Bayes", "logistic": "logistic regression", "majority": "majority class"}


def _data(name, n, seed):
    """The first n instances of a shuffled data set and the rest as the large held-out set."""
    if name == "random":
        small, large = random_dataset(n, seed=seed), random_dataset(HELDOUT_RANDOM, seed=seed + 1)
        return small.X, small.y, large.X, large.y
    d = load_dataset(name, binary=True)
    order = np.random.default_rng(seed).permutation(len(d.y))
    return d.X[order[:n]], d.y[order[:n]], d.X[order[n:]], d.y[order[n:]]


@dataclass(frozen=True)
class ResamplingView:
    """What the explorer shows: the estimates and the first repetition's split grid."""

    dataset: str
    learner: str
    method: str
    estimates: object
    grid: np.ndarray
    classes: np.ndarray
    tested_once: bool


def _grid(splits, y):
    """Rows = splits, columns = instances sorted by class; cells coloured by role."""
    order = np.argsort(y, kind="stable")
    rows = np.full((len(splits), len(y)), _UNUSED)
    for r, (train, test) in enumerate(splits):
        counts = np.bincount(train, minlength=len(y))
        rows[r] = np.select([counts >= 3, counts == 2, counts == 1], [_TRAIN3, _TRAIN2, _TRAIN], _UNUSED)
        rows[r, test] = _TEST
    return rows[:, order], y[order]


class ResamplingExplorer(Explorer):
    """How do the resampling methods estimate a learner's error, and where do they fail?

    A learner (from :data:`evalteach.learners.LEARNERS`) is evaluated on a small sample
    of ``n`` instances of a bundled data set by the chosen method, 20 times with new
    random splits. Left: which instances train (blue; darker = drawn 2 or 3+ times by
    the bootstrap) and which test (orange) in each fold or resample of the first
    repetition, instances sorted by class. Right: the 20 estimates, their mean, and the
    error on a large held-out set of the learner trained on all ``n``.

    The presets reproduce Witten & Frank's counterexamples on pure noise (true error
    50%): leave-one-out with a majority-class learner estimates 100% error (removing
    one instance always makes the *other* class the majority), and the .632 bootstrap
    with a memoriser (1-NN: resubstitution error 0) estimates about 0.632 x 50% = 32%.
    The .632+ estimate corrects the second. A preset overrides the data set, learner
    and method controls; set it back to "custom" to use them.

    Fitting is cached per setting; a new setting takes up to a second (progress bar).
    """

    title = "Resampling: estimating a learner's error"
    figsize = (11.0, 4.4)
    resample_button = True

    def _controls(self):
        return {
            "dataset": dropdown("data set", [("breast cancer", "breast_cancer"), ("wine (class 0 vs rest)", "wine"),
                                             ("iris (setosa vs rest)", "iris"), ("random noise", "random")],
                                "breast_cancer"),
            "learner": dropdown("learner", [(_SHORT[name], name) for name in LEARNERS],
                                "tree"),
            "method": dropdown("method", [(RESAMPLING_METHODS[name], name) for name in _METHOD_ORDER], "kfold"),
            "k": slider("k (folds, repeats, samples)", 10, 2, 20),
            "n": slider("instances used n", 100, 40, 200, 10),
            "preset": dropdown("preset (slides' counterexamples)", [("custom (use the controls)", "custom"),
                                          ("LOO + majority learner on noise", "loo_majority"),
                                          (".632 bootstrap + 1-NN on noise", "632_memoriser")], "custom"),
        }

    def __init__(self, **kwargs):
        self._cache = OrderedDict()
        super().__init__(**kwargs)

    def _hidden(self, state):
        """A preset fixes data set, learner and method; k does nothing for single splits and LOO."""
        hidden = {"dataset", "learner", "method"} if state["preset"] != "custom" else set()
        if self._settings(state)[2] in _NO_K:
            hidden.add("k")
        return hidden

    def _settings(self, state):
        if state["preset"] != "custom":
            return PRESETS[state["preset"]]
        return state["dataset"], state["learner"], state["method"]

    def _compute(self, state):
        dataset, learner, method = self._settings(state)
        key = (dataset, learner, method, state["k"], state["n"], state["seed"])
        if key not in self._cache:
            X, y, X_big, y_big = _data(dataset, state["n"], state["seed"])
            self._cache[key] = (y, resampling_estimates(X, y, X_big, y_big, learner, method, k=state["k"],
                                                        repetitions=REPETITIONS, seed=state["seed"],
                                                        progress=self.report_progress))
            while len(self._cache) > 32:
                self._cache.popitem(last=False)
        self._cache.move_to_end(key)
        y, estimates = self._cache[key]
        grid, classes = _grid(estimates.splits, y)
        tested = (grid == _TEST).sum(axis=0)
        return ResamplingView(dataset, learner, method, estimates, grid, classes,
                              tested_once=bool(np.all(tested == 1)))

    def _build(self, figure):
        self.ax_grid, self.ax_est = figure.subplots(1, 2, width_ratios=[1.5, 1])
        ax = self.ax_grid
        self.image_artist = ax.imshow(np.zeros((1, 1)), cmap=_CMAP, vmin=-0.5, vmax=4.5, aspect="auto",
                                      interpolation="nearest")
        ax.set_xlabel("instance (sorted by class)")
        ax.set_ylabel("fold / resample")
        self.grid_legend = None
        self._roles = None
        self.boundary = ax.axvline(0, color=COLORS["truth"], lw=1.2)
        self._shape = None

        ax = self.ax_est
        ax.set_xlim(-0.03, 1.03)
        ax.set_ylim(-0.6, 0.6)
        ax.set_yticks([])
        self._xmax = None
        ax.set_xlabel("estimated error")
        (self.dots,) = ax.plot([], [], "o", color=COLORS["data"], alpha=0.7, label="estimate per repetition")
        self.mean_line = ax.axvline(0, color=COLORS["data"], lw=2.5, label="mean estimate")
        self.true_line = ax.axvline(0, color=COLORS["truth"], ls="--", lw=2, label="error on large held-out set")
        self.resub_line = ax.axvline(0, color=COLORS["muted"], ls=":", lw=1.5, label="resubstitution error")
        self.est_text = ax.text(0.5, -0.2, "", transform=ax.transAxes, fontsize="small", va="top",
                                ha="center")
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize="x-small", frameon=False)
        self.heading = self.ax_grid.text(0.5, 1.02, "", transform=self.ax_grid.transAxes, ha="center",
                                         va="bottom")
        self.dynamic(self.image_artist, self.boundary, self.heading, self.dots, self.mean_line,
                     self.true_line, self.resub_line, self.est_text)

    def _draw(self, r):
        est = r.estimates
        rows = r.grid[:_MAX_ROWS]
        self.image_artist.set_data(rows)
        shape = rows.shape
        if shape != self._shape:
            self._shape = shape
            self.image_artist.set_extent((0.5, shape[1] + 0.5, shape[0] + 0.5, 0.5))
            self.ax_grid.set_xlim(0.5, shape[1] + 0.5)
            self.ax_grid.set_ylim(shape[0] + 0.5, 0.5)
            self.relayout()
        roles = tuple(np.unique(rows))
        if roles != self._roles:  # the legend lists only the roles this method shows
            self._roles = roles
            if self.grid_legend is not None:
                self.grid_legend.remove()
            labels = {**_ROLE_LABELS, **({_TEST: "test (out of bag)"} if r.method in _BOOTSTRAPS else {})}
            handles = [Patch(color=_CMAP.colors[role], label=labels[role]) for role in roles]
            self.grid_legend = self.ax_grid.legend(handles=handles, loc="upper center", ncol=len(handles),
                                                   bbox_to_anchor=(0.5, -0.13), fontsize="x-small",
                                                   frameon=False)
            self.relayout()
        largest = max(est.estimates.max(), est.true_error)
        xmax = next((top for top in (0.25, 0.5) if largest <= top * 0.96), 1.0)
        if xmax != self._xmax:  # the narrowest of three fixed ranges that holds every estimate
            self._xmax = xmax
            self.ax_est.set_xlim(-0.02 * xmax, 1.02 * xmax)
            self.relayout()
        self.boundary.set_xdata([np.sum(r.classes == r.classes[0]) + 0.5])
        more = f" (first {_MAX_ROWS} of {len(r.grid)} shown)" if len(r.grid) > _MAX_ROWS else ""
        self.heading.set_text(f"{RESAMPLING_METHODS[r.method]}, {_SHORT[r.learner]} on "
                              f"{r.dataset.replace('_', ' ')}: {len(r.grid)} splits{more}")
        jitter = np.random.default_rng(0).uniform(-0.4, 0.4, est.estimates.size)
        self.dots.set_data(est.estimates, jitter)
        self.mean_line.set_xdata([est.mean])
        self.true_line.set_xdata([est.true_error])
        self.resub_line.set_xdata([est.resub_error])
        self.est_text.set_text(f"{est.estimates.size} repetitions: mean {100 * est.mean:.1f}%, "
                               f"SD {100 * est.sd:.1f}%\nheld-out {100 * est.true_error:.1f}%, "
                               f"resubstitution {100 * est.resub_error:.1f}%")

    def _summary(self, r):
        est = r.estimates
        return (f"{RESAMPLING_METHODS[r.method]} of the {LEARNERS[r.learner]} on {est.n} instances of "
                f"{r.dataset.replace('_', ' ')}: the estimate averages {100 * est.mean:.1f}% over "
                f"{est.estimates.size} repetitions (SD {100 * est.sd:.1f}%); trained on all {est.n} it errs "
                f"{100 * est.true_error:.1f}% on a large held-out set (resubstitution error "
                f"{100 * est.resub_error:.1f}%).")
