"""Holdout, cross-validation, leave-one-out and the bootstrap, side by side on a real learner."""
from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from matplotlib.artist import Artist
from matplotlib.colors import ListedColormap
from matplotlib.legend import Legend
from matplotlib.patches import Patch

from ..data import load_dataset, random_dataset
from ..learners import LEARNERS
from ..plotting import COLORS, PALETTE, points
from ..simulate import RESAMPLING_METHODS, ResamplingFits
from ._base import Explorer, dropdown, slider
from ._cached_layer import CachedLayer, CachedText

REPETITIONS = 20
HELDOUT_RANDOM = 2000
#: Settings (data set, learner, n, seed) whose fits are kept.
SETTINGS_KEPT = 16
#: Seconds of fitting per step while the kernel is idle (a change by hand waits for a step).
IDLE_FITS_FOR = 0.004
#: Seconds of fitting in each picture that completes a change by hand. The first picture
#: fits nothing: it shows the splits and what was fitted ahead, and fills in while the hand
#: rests. A change by hand waits for at most one later picture (its fits and its drawing).
MORE_FITS_FOR = 0.035
#: Seconds after a first answer before filling in starts: a hand still moving is answered
#: at once, not after a round of fits.
FILL_IN_AFTER = 0.1
#: preset -> (data set, learner, method): the slides' two counterexamples.
PRESETS = {
    "loo_majority": ("random", "majority", "loo"),
    "632_memoriser": ("random", "1nn", "632"),
}
# Cell roles in the split picture.
_UNUSED, _TRAIN, _TRAIN2, _TRAIN3, _TEST = range(5)
_CMAP = ListedColormap(["#eeeeee", PALETTE["sky"], PALETTE["blue"], "#003a5c", PALETTE["orange"]])
#: The colours of the roles as RGBA bytes.
_RGBA = np.round(_CMAP(np.arange(5)) * 255).astype(np.uint8)
_ROLE_LABELS = {_UNUSED: "unused", _TRAIN: "train", _TRAIN2: "train, drawn twice",
                _TRAIN3: "train, drawn 3+ times", _TEST: "test"}
#: Methods whose k is not used: one split, or as many as instances.
_NO_K = ("holdout", "stratified", "loo")
_BOOTSTRAPS = ("bootstrap", "632", "632plus")
_MAX_ROWS = 40
_METHOD_ORDER = ("kfold", "repeated", "holdout", "stratified", "loo", "bootstrap", "632", "632plus")
#: What one split of a method is called in the heading.
_SPLITS = {"kfold": "fold", "loo": "fold of one", "holdout": "split", "stratified": "split",
           "repeated": "holdout", "bootstrap": "bootstrap sample", "632": "bootstrap sample",
           "632plus": "bootstrap sample"}
_DATA_WORDS = {"breast_cancer": "breast-cancer", "random": "pure-noise", "wine": "wine (class 0 vs rest)",
               "iris": "iris (setosa vs rest)"}
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


class _PixelGrid(Artist):
    """A grid of coloured cells filling its axes, each cell a block of whole pixels.

    An ``AxesImage`` colour-maps, resamples and blends the whole scaled-up picture on
    every draw, most of the explorer's drawing time; here the small grid is coloured once
    and scaled by repeating rows and columns, which is exact for the nearest-cell look.
    """

    def __init__(self, ax):
        super().__init__()
        self.axes = ax
        self.set_figure(ax.get_figure(root=False))
        self.rgba = _RGBA[np.zeros((1, 1), int)]

    def set_data(self, rgba):
        """Show ``rgba``: rows top to bottom, columns left to right, RGBA bytes."""
        self.rgba = rgba

    def draw(self, renderer):
        if not self.get_visible():
            return
        box = self.axes.bbox
        x0, y0, x1, y1 = int(np.ceil(box.x0)), int(np.ceil(box.y0)), int(box.x1), int(box.y1)
        rows, cols = self.rgba.shape[:2]
        # two takes along one axis each: about 200x faster than one 2-D fancy index
        pixels = self.rgba.take(np.arange(x1 - x0) * cols // (x1 - x0), axis=1).take(
            np.arange(y1 - y0) * rows // (y1 - y0), axis=0)
        gc = renderer.new_gc()
        renderer.draw_image(gc, x0, y0, pixels[::-1])  # the renderer fills from the bottom row up
        gc.restore()


@dataclass(frozen=True)
class ResamplingView:
    """What the explorer shows: the estimates of the repetitions fitted so far (all of them,
    unless a change by hand is still being completed; None if none yet), the held-out and
    resubstitution errors of the model trained on all n (None until it is fitted), and the
    first repetition's split grid."""

    dataset: str
    learner: str
    method: str
    estimates: object
    repetitions: int
    true_error: float
    resub_error: float
    grid: np.ndarray
    classes: np.ndarray
    tested_once: bool

    @property
    def complete(self):
        """Whether every repetition is in."""
        return self.repetitions == REPETITIONS


def _grid(splits, y):
    """Rows = splits, columns = instances sorted by class; cells coloured by role."""
    n = len(y)
    order = np.argsort(y, kind="stable")
    rows = np.arange(len(splits))
    train = np.concatenate([tr for tr, _ in splits])
    counts = np.bincount(np.repeat(rows, [len(tr) for tr, _ in splits]) * n + train,
                         minlength=len(splits) * n).reshape(len(splits), n)
    grid = np.minimum(counts, 3)  # _UNUSED, _TRAIN, _TRAIN2, _TRAIN3 by how often drawn
    test = np.concatenate([te for _, te in splits])
    grid[np.repeat(rows, [len(te) for _, te in splits]), test] = _TEST
    return grid[:, order], y[order]


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

    Every fit is made once per data set, learner and ``n``. A change by hand that needs new
    fits answers at once with the new splits and the repetitions fitted so far, and fills in
    the rest while the hand rests ("fitting: 6 of 20 repetitions so far"); values set from
    Python are fitted in full before the assignment returns (with a progress bar). While
    the kernel is idle the explorer then fits what the other values of ``k`` and the other
    methods need, so that moving the slider or switching the method only selects.
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
        self._fits = OrderedDict()  # (data set, learner, n, seed) -> (ResamplingFits, targets fitted)
        self._queue = None  # (setting, target, its unfitted fits) being fitted ahead
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

    def _setting(self, state):
        dataset, learner, _ = self._settings(state)
        return dataset, learner, state["n"], state["seed"]

    def _fits_of(self, setting):
        """The fits of one setting (data set, learner, n, seed), kept for later visits."""
        if setting not in self._fits:
            dataset, learner, n, seed = setting
            self._fits[setting] = (ResamplingFits(*_data(dataset, n, seed), learner, seed=seed), set())
            while len(self._fits) > SETTINGS_KEPT:
                self._fits.popitem(last=False)
        self._fits.move_to_end(setting)
        return self._fits[setting]

    @property
    def refine_after(self):
        """Seconds after a first answer before filling in starts (:data:`FILL_IN_AFTER`)."""
        return FILL_IN_AFTER

    def _compute(self, state):
        """Every fit the state needs, made before the picture (with a progress bar)."""
        _, _, method = self._settings(state)
        fits, _ = self._fits_of(self._setting(state))
        estimates = fits.estimates(method, state["k"], REPETITIONS, progress=self.report_progress)
        return self._view(state, fits, estimates, REPETITIONS)

    def _preview(self, state):
        """A change by hand that needs new fits: the new splits and the repetitions fitted so
        far (ahead of time or by earlier refinements), at once; None when every fit is made."""
        _, _, method = self._settings(state)
        fits, _ = self._fits_of(self._setting(state))
        repetitions = fits.fitted_repetitions(method, state["k"], REPETITIONS) if fits.whole_fitted else 0
        if repetitions == REPETITIONS:
            return None
        estimates = fits.estimates(method, state["k"], repetitions) if repetitions else None
        return self._view(state, fits, estimates, repetitions)

    def _refine(self, state):
        """First the model on all n (the lines the dots are read against), then more fits for
        about :data:`MORE_FITS_FOR` seconds."""
        _, _, method = self._settings(state)
        fits, _ = self._fits_of(self._setting(state))
        fits.fit_whole()
        unfitted = fits.unfitted(method, state["k"], REPETITIONS)
        if unfitted:
            _fit_for(fits, unfitted, MORE_FITS_FOR)

    def _view(self, state, fits, estimates, repetitions):
        dataset, learner, method = self._settings(state)
        whole = (fits.true_error, fits.resub_error) if fits.whole_fitted else (None, None)
        grid, classes = _grid(fits.splits(method, state["k"], REPETITIONS), fits.y)
        tested = (grid == _TEST).sum(axis=0)
        return ResamplingView(dataset, learner, method, estimates, repetitions, *whole, grid, classes,
                              tested_once=bool(np.all(tested == 1)))

    # --- fitting ahead while the kernel is idle -------------------------------------------

    def _targets(self, state):
        """What to fit ahead, most likely next first: the shown method's other k (nearest
        first), then the other methods. Repeated holdout and the bootstrap at the largest
        k hold every smaller k."""
        _, _, method = self._settings(state)
        top = min(self.controls["k"].max, state["n"])
        ks = sorted(range(self.controls["k"].min, top + 1), key=lambda k: abs(k - state["k"]))
        every_k = {"kfold": [("kfold", k) for k in ks], "repeated": [("repeated", top)],
                   "bootstrap": [("bootstrap", top)], "holdout": [("holdout", 2)],
                   "stratified": [("stratified", 2)], "loo": [("loo", 2)]}
        family = "bootstrap" if method in _BOOTSTRAPS else method
        return every_k.pop(family) + [target for targets in every_k.values() for target in targets]

    def _work_ahead(self):
        """Make a few of the fits the next pictures may need; True while more remain."""
        state = self.state
        setting = self._setting(state)
        fits, done = self._fits_of(setting)
        if self._queue is None or self._queue[0] != setting or self._queue[1] in done:
            target = next((t for t in self._targets(state) if t not in done), None)
            if target is None:
                return False
            self._queue = (setting, target, fits.unfitted(*target, REPETITIONS))
        _, target, unfitted = self._queue
        del unfitted[:_fit_for(fits, unfitted, IDLE_FITS_FOR)]
        if not unfitted:
            done.add(target)
        return True

    # --- drawing -------------------------------------------------------------------------
    #
    # No control forces a full redraw. The split grid fills its panel whatever its shape
    # (no tick labels: the heading counts the splits); the error axis takes one of three
    # fixed ranges and its tick labels, with the split legend of the method, are drawn
    # once per range and legend and pasted back afterwards (a cached layer).

    def _build(self, figure):
        self.ax_grid, self.ax_est = figure.subplots(1, 2, width_ratios=[1.5, 1])
        ax = self.ax_grid
        self.image_artist = ax.add_artist(_PixelGrid(ax))
        ax.set_xlim(0, 1)
        ax.set_ylim(1, 0)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_xlabel("instance (sorted by class)")
        ax.set_ylabel("fold / resample")
        self._legends = {}  # (roles, bootstrap?) -> the split legend listing them
        self.grid_legend = None
        self.boundary = ax.axvline(0, color=COLORS["truth"], lw=points(1.2))

        ax = self.ax_est
        ax.set_xlim(-0.03, 1.03)
        ax.set_ylim(-0.6, 0.6)
        ax.set_yticks([])
        self._xmax = None
        ax.set_xlabel("estimated error")
        ax.set_ylabel("repetitions (height at random)", fontsize="small")
        (self.dots,) = ax.plot([], [], "o", color=COLORS["data"], alpha=0.7, label="estimate per repetition")
        self.mean_line = ax.axvline(0, color=COLORS["data"], lw=points(2.5), label="mean estimate")
        self.true_line = ax.axvline(0, color=COLORS["truth"], ls="--", lw=points(2),
                                    label="held-out error of the one model\ntrained on all n")
        self.resub_line = ax.axvline(0, color=COLORS["muted"], ls=":", lw=points(1.5),
                                     label="resubstitution error\nof that model")
        # the estimates and the one model's errors, two texts pasted per wording: a change of k
        # or method redraws the first line only, a move of n at first the second only
        self.est_text = ax.text(0.5, -0.2, "", transform=ax.transAxes, fontsize="small", va="top",
                                ha="center")
        self.whole_text = ax.annotate("", (0.5, -0.2), xycoords="axes fraction", fontsize="small",
                                      xytext=(0, -1.35 * self.est_text.get_fontsize()),
                                      textcoords="offset points", va="top", ha="center")
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize="x-small", frameon=False)
        # the heading in two texts pasted per wording: a change of k redraws the splits' line only
        self.splits_heading = self.ax_grid.text(0.5, 1.02, "", transform=self.ax_grid.transAxes,
                                                ha="center", va="bottom")
        self.heading = self.ax_grid.annotate("", (0.5, 1.02), xycoords="axes fraction", ha="center",
                                             va="bottom", textcoords="offset points",
                                             xytext=(0, 1.3 * self.splits_heading.get_fontsize()))
        ax.xaxis.set_animated(True)
        self.scale_layer = CachedLayer()
        self.dynamic(self.scale_layer, CachedText(self.heading), CachedText(self.splits_heading),
                     self.image_artist, self.boundary, self.dots,
                     self.mean_line, self.true_line, self.resub_line, CachedText(self.est_text),
                     CachedText(self.whole_text))

    def _split_legend(self, roles, bootstrap):
        """The legend listing the roles the split grid shows (made once per list)."""
        key = (roles, bootstrap)
        if key not in self._legends:
            labels = {**_ROLE_LABELS, **({_TEST: "test (out of bag)"} if bootstrap else {})}
            handles = [Patch(color=_CMAP.colors[role], label=labels[role]) for role in roles]
            legend = Legend(self.ax_grid, handles, [h.get_label() for h in handles], loc="upper center",
                            ncol=len(handles), bbox_to_anchor=(0.5, -0.13), fontsize="x-small",
                            frameon=False)
            legend.set_animated(True)
            self.ax_grid.add_artist(legend)
            self._legends[key] = legend
        for other in self._legends.values():
            other.set_visible(other is self._legends[key])
        return self._legends[key]

    def _draw(self, r):
        est = r.estimates
        values = est.estimates if est is not None else np.empty(0)
        rows = r.grid[:_MAX_ROWS]
        self.image_artist.set_data(_RGBA[rows])
        self.grid_legend = self._split_legend(tuple(int(role) for role in np.unique(rows)),
                                              r.method in _BOOTSTRAPS)
        largest = max(values.max(initial=0.0), r.true_error or 0.0)
        xmax = next((top for top in (0.25, 0.5) if largest <= top * 0.96), 1.0)
        if xmax != self._xmax:  # the narrowest of three fixed ranges that holds every estimate
            self._xmax = xmax
            self.ax_est.set_xlim(-0.02 * xmax, 1.02 * xmax)
        self.scale_layer.show((xmax, self.grid_legend), [self.ax_est.xaxis, self.grid_legend])
        self.boundary.set_xdata([np.sum(r.classes == r.classes[0]) / len(r.classes)])
        what, splits = _heading(r)
        self.heading.set_text(what)
        self.splits_heading.set_text(splits)
        jitter = np.random.default_rng(0).uniform(-0.4, 0.4, REPETITIONS)[:values.size]
        self.dots.set_data(values, jitter)
        self.mean_line.set_visible(est is not None)
        self.mean_line.set_alpha(1.0 if r.complete else 0.35)  # a mean of some repetitions: not final
        if est is not None:
            self.mean_line.set_xdata([est.mean])
        n = len(r.classes)
        for line, error in ((self.true_line, r.true_error), (self.resub_line, r.resub_error)):
            line.set_visible(error is not None)
            if error is not None:
                line.set_xdata([error])
        errors = (f"one model trained on all {n}: fitting" if r.true_error is None else
                  f"one model trained on all {n}: held-out {100 * r.true_error:.1f}%, "
                  f"resubstitution {100 * r.resub_error:.1f}%")
        self.whole_text.set_text(errors)
        if est is None:
            self.est_text.set_text(f"fitting: 0 of {REPETITIONS} repetitions so far")
        else:
            shown = (f"{values.size} repetitions" if r.complete
                     else f"fitting: {values.size} of {REPETITIONS} repetitions so far")
            # the SD is over new splits of the same n instances: not the estimate's whole uncertainty
            self.est_text.set_text(f"{shown}: mean {100 * est.mean:.1f}%, SD over new splits "
                                   f"{100 * est.sd:.1f}%")

    def _summary(self, r):
        est = r.estimates
        n = len(r.classes)
        where = (f"{RESAMPLING_METHODS[r.method]} of the {LEARNERS[r.learner]} on {n} instances of "
                 f"{r.dataset.replace('_', ' ')}, {len(r.grid)} splits per repetition")
        errors = (f"the one model trained on all {n} is being fitted." if r.true_error is None else
                  f"the one model trained on all {n} errs {100 * r.true_error:.1f}% on a large held-out set "
                  f"(resubstitution error {100 * r.resub_error:.1f}%).")
        if est is None:
            return f"{where}: fitting, no repetition finished yet; {errors}"
        so_far = "" if r.complete else f" so far (still fitting the other {REPETITIONS - est.estimates.size})"
        return (f"{where}: the estimate averages {100 * est.mean:.1f}% over {est.estimates.size} "
                f"repetitions{so_far} (SD over new splits of the same data {100 * est.sd:.1f}%); {errors}")


def _heading(r):
    """What the grid shows: method, learner and data; the splits of the first repetition."""
    count = len(r.grid)
    splits = f"{count} {_SPLITS[r.method]}{'s' if count > 1 and r.method != 'loo' else ''}"
    if r.method == "loo":
        splits = f"{count} folds of one"
    more = f", first {_MAX_ROWS} shown" if count > _MAX_ROWS else ""
    first = "" if r.method == "loo" else f" of repetition 1 of {REPETITIONS}"
    # n is in the text under the estimates: a heading that changes with n would be drawn afresh
    # on every move of the n slider, not pasted
    return (f"{RESAMPLING_METHODS[r.method]}, {_SHORT[r.learner]} on "
            f"{_DATA_WORDS.get(r.dataset, r.dataset)} data:", f"{splits}{first}{more}")


def _fit_for(fits, unfitted, seconds):
    """Make the fits of ``unfitted`` in order for about ``seconds`` (at least one); how many."""
    deadline = time.perf_counter() + seconds
    for i in range(len(unfitted)):
        fits.fit(unfitted[i:i + 1])
        if time.perf_counter() > deadline:
            return i + 1
    return len(unfitted)
