"""RandomizationExplorer: a null distribution and a bootstrap distribution built one resample at a time."""
from __future__ import annotations

import html
from dataclasses import dataclass

import ipywidgets as W
import matplotlib as mpl
import numpy as np
from matplotlib.artist import Artist
from matplotlib.legend import Legend
from matplotlib.text import Text
from matplotlib.ticker import FuncFormatter, MaxNLocator, ScalarFormatter
from matplotlib.transforms import ScaledTranslation

from .. import _validate
from .._format import p_text
from ..learners import LEARNERS
from ..plotting import COLORS, fast_x_axis, points
from ..simulate.bundled_scores import DATASETS, LEARNERS as FAST_LEARNERS, RANDOMIZATION_K
from ..simulate.learner_scores import fold_errors, growing_resamples, holdout_predictions
from ..stats import paired_t_test, permutation_test, proportion_interval
from ..stats._bootstrap import bca_levels
from ._base import Explorer, buttons, dropdown
from ._cached_layer import CachedLayer, Stamp, axis_region

#: The buttons: how many resamples each adds.
STEPS = (1, 10, 100, 1000)
MAX_RESAMPLES = 100_000
CONFIDENCE = 0.95
_BINS = 60
#: Round ends of the x axes: a new data set keeps the axis unless its scale really changes.
_FINE = (1, 1.5, 2, 3, 4, 5, 7.5, 10)
#: Ticks of the p axis (log scale), and every tick label left of the side panel in either mode.
_P_TICKS = (1e-5, 1e-4, 0.001, 0.01, 0.05, 0.2, 1)
_SIDE_TICK_LABELS = ("Wald\n(formula)", "Wilson\n(formula)", "BCa", "percentile") + tuple(f"{x:g}" for x in _P_TICKS)
#: The top of the p axis, and the share of its height (from the bottom) the p-values legend
#: may take: every p line is drawn above it (the legend reaches 0.27 at either scale).
_P_TOP = 1.5
_LEGEND_ROOM = 0.3
#: The heading of each mode (the bootstrap has no null distribution).
HEADINGS = {"permutation": "Randomisation test: a null distribution, one resample at a time",
            "bootstrap": "Bootstrap interval: a bootstrap distribution, one resample at a time"}


def readable(name):
    """A learner's name for titles: its description without the parenthesis ("naive Bayes", "logistic regression")."""
    return LEARNERS[name].split(" (")[0].removeprefix("Gaussian ")


def _sign_flip_edges(observed, reach):
    """Symmetric bin edges over [-reach, reach] with -|observed| and |observed| on edges, so
    each bar is wholly "as extreme" or wholly "less extreme" (a hair inside, for rounding)."""
    reach = max(reach, 1e-9)
    inner, side = abs(observed) * (1 - 1e-9), _BINS // 2
    if inner < reach / (side - 2):  # observed about 0: nearly every resample is as extreme
        return np.linspace(-1.001 * reach, 1.001 * reach, _BINS + 1)
    for j in range(max(1, round(side * inner / reach)), 0, -1):  # bars inside +-|observed|
        width = inner / j
        outer = int(np.ceil((1.001 * reach - inner) / width))
        if j + outer <= side:
            break
    right = inner + width * np.arange(1, outer + 1)
    return np.concatenate((-right[::-1], np.linspace(-inner, inner, 2 * j + 1), right))


def _nice_top(count):
    """A y-axis top from 5, 7.5, 10, 15, 20, 30, 50, ... with headroom above ``count`` for the legend."""
    need = max(5.0, 1.45 * count)
    scale = 10.0 ** np.floor(np.log10(need))
    return float(next(m * scale for m in (1, 1.5, 2, 3, 5, 7.5, 10) if m * scale >= need))


def _count_locator():
    """Ticks of the count axis: few labels (a full redraw is mostly text)."""
    return MaxNLocator(5, steps=[1, 2, 2.5, 5, 10], integer=True)


def _count_label(count, top):
    """A tick label of the count axis: plain below 10,000, in thousands ("20k", "150k")
    on an axis that reaches 10,000, so no label is wider than four digits."""
    return f"{count / 1000:g}k" if top >= 10_000 and count else f"{count:.0f}"


def _count_tick_labels():
    """Every label the count axis can show: the ticks of every top _nice_top gives for up to
    MAX_RESAMPLES resamples in one bar (the y label is put beyond the widest)."""
    highest = _nice_top(MAX_RESAMPLES)
    tops = {top for top in (m * 10.0 ** j for m in (1, 1.5, 2, 3, 5, 7.5) for j in range(7))
            if 5 <= top <= highest}
    return tuple(sorted({_count_label(t, top) for top in tops
                         for t in _count_locator().tick_values(0, top) if t <= top}))


def _keep(needed, kept, ratio=3):
    """``kept`` if it still holds ``needed`` and ``needed`` fills at least 1/ratio of it, else ``needed``."""
    return kept if kept is not None and needed <= kept < ratio * needed else needed


def _nice_end(count, steps=(1, 2, 5, 10), least=10):
    """The smallest of ``steps`` x 10^j (by default 10, 20, 50, 100, 200, ...) at or above ``count``."""
    scale = 10.0 ** np.floor(np.log10(max(count, least)))
    return float(next(m * scale for m in steps if m * scale >= count))


def _label_beyond(ax, tick_labels):
    """Put the y label of ``ax`` just beyond the widest of ``tick_labels``, wherever the
    tick labels actually reach (matplotlib's default puts it beside the widest one shown)."""
    figure = ax.figure
    renderer, size = figure.canvas.get_renderer(), mpl.rcParams["ytick.labelsize"]
    widest = max(Text(text=label, fontsize=size, figure=figure).get_window_extent(renderer).width
                 for label in tick_labels) / figure.dpi
    pad = (mpl.rcParams["ytick.major.size"] + mpl.rcParams["ytick.major.pad"] + 4) / 72
    ax.yaxis.set_label_coords(0, 0.5, transform=ax.transAxes + ScaledTranslation(-widest - pad, 0,
                                                                                 figure.dpi_scale_trans))


class _TicksOnly(Artist):
    """An axis drawn without its label (the label is drawn once per mode, the ticks per frame)."""

    def __init__(self, axis):
        super().__init__()
        self.axis = axis
        self.set_figure(axis.get_figure(root=True))

    def draw(self, renderer):
        label = self.axis.label
        shown = label.get_visible()
        label.set_visible(False)
        try:
            self.axis.draw(renderer)
        finally:
            label.set_visible(shown)


def _ticks_inside(low, high):
    """Round ticks between ``low`` and ``high`` that end a tenth of the range before ``high``,
    so the last tick label never reaches past the panel (and a new range keeps the layout)."""
    ticks = MaxNLocator(6, steps=[1, 2, 2.5, 5, 10]).tick_values(low, high)
    return ticks[(ticks >= low) & (ticks <= high - 0.1 * (high - low))]


def _error_edges(estimate, n):
    """Bin edges for bootstrap error rates: one bin per whole number of mistakes within
    5 standard errors of ``estimate`` (neighbours merged beyond _BINS bins)."""
    se = max(np.sqrt(estimate * (1 - estimate) / n), 1 / n)
    lo = max(0, int(np.floor((estimate - 5 * se) * n)))
    hi = min(n, int(np.ceil((estimate + 5 * se) * n)))
    edges = (np.arange(lo, hi + 2) - 0.5) / n
    return np.linspace(edges[0], edges[-1], _BINS + 1) if edges.size > _BINS + 1 else edges


@dataclass(frozen=True)
class SignFlipView:
    """The sign-flip (randomisation) test on k paired fold differences, grown to B resamples."""

    label: str
    differences: np.ndarray
    observed: float
    null: np.ndarray           # the first B sign-flip means
    p_value: float | None      # Monte Carlo p of those B (None before the first resample)
    exact: object              # PermutationTest over every sign pattern
    t_test: object             # paired t-test on the same differences
    trace_b: np.ndarray        # B values at which the running p is drawn
    trace_p: np.ndarray
    names: tuple | None = None  # (learner A, learner B) when the differences are fold errors A - B
    #: How many of the B resampled means lie at least as far from 0 as the observed one: the
    #: count in the Monte Carlo p, ``(as_extreme + 1) / (B + 1)`` (None before B = 1).
    as_extreme: int | None = None

    mode = "permutation"

    @property
    def resamples(self):
        return self.null.size

    @property
    def smallest_p(self):
        """The smallest two-sided p the sign-flip test can give on these differences (``2 / 2**m``
        with m nonzero differences: :attr:`evalteach.stats.PermutationTest.smallest_p_value`)."""
        return self.exact.smallest_p_value

    @property
    def monte_carlo_se(self):
        """The Monte Carlo standard error of the resampled p, ``sqrt(p (1 - p) / B)`` (None before B = 1)."""
        return None if self.p_value is None else float(np.sqrt(self.p_value * (1 - self.p_value) / self.resamples))


@dataclass(frozen=True)
class BootstrapView:
    """Bootstrap distribution of one learner's test error, grown to B resamples."""

    label: str
    errors: np.ndarray          # 1 where the test example is misclassified
    estimate: float
    replicates: np.ndarray
    percentile: tuple | None    # (low, high), None below 10 resamples
    bca: tuple | None
    bias_correction: float | None
    acceleration: float | None
    wilson: object
    wald: object

    mode = "bootstrap"

    @property
    def resamples(self):
        return self.replicates.size


def _floor_note(r):
    """The side panel's note when the sign-flip test cannot reach the level: its smallest p."""
    if r.smallest_p <= 1 - CONFIDENCE:
        return ""
    patterns = round(2 / r.smallest_p)
    return f"smallest exact p = 2/{patterns:,} = {r.smallest_p:.4g} > {1 - CONFIDENCE:.2g}"


def _interval(low, high):
    """An interval's ends, or "unbounded" where the test cannot reject any value of the difference."""
    if not (np.isfinite(low) and np.isfinite(high)):
        return "unbounded (with so few sign patterns the test cannot reject any value of the difference)"
    return f"[{low:+.4f}, {high:+.4f}]"


def sign_flip_summary(r):
    """The screen-reader summary of the sign-flip mode: short sentences, from the view's numbers."""
    k, alpha = r.differences.size, 1 - CONFIDENCE
    label = r.label.replace("\n", ", ")
    if r.names:
        a, b = r.names
        ahead = (f"{a} erred less on average" if r.observed < 0 else f"{b} erred less on average"
                 if r.observed > 0 else "Neither erred less on average")
        parts = [f"{label}.", f"Mean difference of fold errors, {a} − {b}: {r.observed:+.4f}.",
                 f"{ahead[0].upper()}{ahead[1:]}."]
    else:
        lower = ("On average the scores in a are lower" if r.observed < 0 else "On average the scores in b are lower"
                 if r.observed > 0 else "On average neither is lower")
        parts = [f"{label}.", f"Mean difference a − b: {r.observed:+.4f}.", f"{lower}."]
    if r.p_value is None:
        parts.append("B = 0: no resamples drawn yet.")
    else:
        parts += [f"Monte Carlo p-value ({r.as_extreme:,} + 1)/({r.resamples:,} + 1) = {r.p_value:.4f}: "
                  f"{r.as_extreme:,} of {r.resamples:,} random sign patterns give a mean at least as far from 0, "
                  "and the observed pattern counts as one more (an estimate of "
                  "the probability, if on every fold either learner was as likely to come out ahead, of a mean "
                  "at least this far from 0 on either side; not the probability that they are equally good).",
                  f"Its Monte Carlo standard error is {r.monte_carlo_se:.4f}."]
    exact = f"All {2 ** k:,} sign patterns can be enumerated, so the exact p is known: {r.exact.p_value:.4f}."
    if r.p_value is not None:
        gap = abs(r.p_value - r.exact.p_value)
        se = r.monte_carlo_se
        exact += (f" The estimate is {gap:.4f} from it" + (f", {gap / se:.1f} standard errors." if se > 0 else "."))
    parts.append(exact)
    if r.smallest_p > alpha:
        nonzero = int(np.count_nonzero(r.differences))
        patterns = round(2 / r.smallest_p)
        start = f"With k = {k}" if nonzero == k else f"With only {nonzero} of the {k} differences not 0"
        parts += [f"{start}, the smallest possible exact two-sided p is 2/{patterns:,} = {r.smallest_p:.4g}, "
                  f"above {alpha:.2g}.", f"So the exact test can never be significant at the {alpha:.0%} level."]
    t = r.t_test
    parts += [f"Paired t-test {p_text(t.p_value)}.",
              f"{CONFIDENCE:.0%} interval for the mean difference from the sign-flip test: "
              f"{_interval(r.exact.low, r.exact.high)}.",
              f"From the t-test: {_interval(t.low, t.high)}."]
    if r.names:
        parts += ["Both tests treat the fold differences as independent.",
                  "They are not: the training sets overlap.", "So both p-values are approximate."]
    else:
        parts += ["Both tests treat the differences as independent (fold estimates from one data set are not), "
                  "so their p-values are then approximate."]
    parts.append("The t-test also assumes roughly normal differences.")
    return " ".join(parts)


def sign_flip_view(differences, resamples, seed, label="", names=None):
    """The numbers :class:`RandomizationExplorer` shows in its sign-flip mode.

    The Monte Carlo p-value follows :func:`evalteach.stats.permutation_test`: two-sided,
    it counts the resamples at least as far from 0 as the observed mean in both tails and
    the observed arrangement itself, ``(#{|T*| >= |T|} + 1) / (B + 1)``.
    """
    d = np.asarray(differences, dtype=float)
    observed = float(d.mean())
    null = growing_resamples(d, "sign-flip", seed).first(resamples)
    gamma = abs(observed) * 100 * np.finfo(float).eps  # permutation_test's rounding tolerance
    b = np.arange(1, null.size + 1)
    counts = np.cumsum(np.abs(null) >= abs(observed) - gamma)
    running = (counts + 1) / (b + 1)
    shown = np.unique(np.geomspace(1, max(null.size, 1), 300).astype(int)) - 1 if null.size else b
    exact = permutation_test(d, n_resamples=2 ** d.size, seed=seed)
    return SignFlipView(label, d, observed, null, float(running[-1]) if null.size else None, exact,
                        paired_t_test(d), shown + 1, running[shown], names,
                        int(counts[-1]) if null.size else None)


def bootstrap_view(y_true, predictions, resamples, seed, label=""):
    """The numbers :class:`RandomizationExplorer` shows in its bootstrap mode: the
    percentile and BCa intervals of :func:`evalteach.stats.bootstrap_interval` on the
    first B resamples of its stream, and the Wilson and Wald intervals beside them."""
    errors = (np.asarray(y_true) != np.asarray(predictions)).astype(float)
    estimate = float(errors.mean())
    reps = growing_resamples(errors, "bootstrap", seed).first(resamples)
    alpha = (1 - CONFIDENCE) / 2
    percentile = bca = z0 = acceleration = None
    if reps.size >= 10:
        percentile = tuple(float(x) for x in np.percentile(reps, [100 * alpha, 100 * (1 - alpha)]))
        jackknife = (errors.sum() - errors) / (errors.size - 1)
        levels, z0, acceleration = bca_levels(reps, estimate, jackknife, alpha)
        bca = tuple(float(x) for x in np.percentile(reps, 100 * levels))
    wilson, wald = (proportion_interval(int(errors.sum()), errors.size, CONFIDENCE, method=method)
                    for method in ("wilson", "wald"))
    return BootstrapView(label, errors, estimate, reps, percentile, bca, z0, acceleration, wilson, wald)


class RandomizationExplorer(Explorer):
    """Build a null distribution (or a bootstrap distribution) one resample at a time.

    Sign-flip mode: two learners are cross-validated on the same k folds of a real
    data set; their fold errors give k paired differences. The null hypothesis: on
    every fold either learner was as likely to come out ahead, so each difference was
    as likely to have the opposite sign, and flipping signs at random and averaging
    draws from the null distribution of the mean difference. The buttons add 1, 10,
    100 or 1000 such resamples; the Monte Carlo p-value is the share of resamples at
    least as far from 0 as the observed mean, on either side, counting the observed
    arrangement: ``(# + 1) / (B + 1)``. As B grows it settles on the exact p over all
    2^k sign patterns; the paired t-test's p on the same differences stands beside it.

    Bootstrap mode: learner A's predictions on a held-out third of the data; resample
    the test examples with replacement to see how the error rate would vary, and
    read the 95% percentile and BCa intervals off the resamples, beside the Wilson
    and Wald intervals from the binomial formulas.

    Parameters
    ----------
    a, b : array, optional
        Your own paired scores of two learners on the same folds (or ``a`` alone as
        the differences); they replace the bundled data in sign-flip mode.
    y_true, predictions : array, optional
        Your own test labels and one classifier's predictions; they replace the
        bundled data in bootstrap mode.
    label : str, optional
        What your own data are, for the titles (default "your paired scores" or "your
        classifier on your test set").
    seed : int
        Seeds the folds, the split and the resamples.
    **values
        Control values: ``mode``, ``dataset``, ``learner_a``, ``learner_b``, ``k``,
        ``resamples`` (how many resamples are drawn, 0 to 100000).

    References
    ----------
    Lock, Lock, Lock Morgan, Lock & Lock, StatKey (lock5stat.com/StatKey): a null
    distribution built one resample at a time. Efron & Tibshirani (1993), *An
    Introduction to the Bootstrap*, ch. 13-15. Fisher (1935), the randomisation test.
    """

    title = "Inference by resampling: one resample at a time"
    figsize = (10.0, 4.4)

    def __init__(self, *, a=None, b=None, y_true=None, predictions=None, label=None, seed=0, **values):
        if label is not None and not isinstance(label, str):
            raise TypeError(f"label must be a string, got {label!r}")
        self._own_label = label
        self._own_differences = None
        self._own_test = None
        if a is not None:
            a = _validate.array("a", a, min_size=2)
            if b is not None:
                b = _validate.array("b", b, min_size=2)
                _validate.same_length(a=a, b=b)
                a = a - b
            if a.size > 20:
                raise ValueError(f"a must hold at most 20 paired scores (2**20 sign patterns), got {a.size}")
            self._own_differences = a
        elif b is not None:
            raise TypeError("b was given without a; pass a (and b) to use your own scores")
        if (y_true is None) != (predictions is None):
            raise TypeError("y_true and predictions must be given together")
        if y_true is not None:
            y = np.asarray(y_true)
            pred = np.asarray(predictions)
            if y.ndim != 1 or y.size < 2:
                raise ValueError(f"y_true must be a 1-dimensional array of at least 2 labels, got shape {y.shape}")
            _validate.same_length(y_true=y, predictions=pred)
            self._own_test = (y, pred)
        super().__init__(seed=seed, **values)

    def _controls(self):
        learners = [(f"{name}: {LEARNERS[name]}", name) for name in FAST_LEARNERS]
        modes = [("sign-flip test (k folds)", "permutation"), ("bootstrap interval (test set)", "bootstrap")]
        if self._own_test is not None and self._own_differences is None:
            modes = modes[1:]
        elif self._own_differences is not None and self._own_test is None:
            modes = modes[:1]
        return {
            "dataset": dropdown("data set", list(DATASETS), "breast_cancer"),
            "learner_a": dropdown("learner A", learners, "naive_bayes"),
            "learner_b": dropdown("learner B", learners, "tree"),
            "k": buttons("folds k", list(RANDOMIZATION_K), 10),
            "resamples": W.BoundedIntText(value=100, min=0, max=MAX_RESAMPLES, description="resamples B",
                                          style={"description_width": "initial"},
                                          layout=W.Layout(width="190px"),
                                          tooltip="how many resamples are drawn so far"),
            "mode": buttons("mode", modes, modes[0][1]),
        }

    def _make_view(self):
        super()._make_view()
        self._step_buttons = []
        for step in STEPS:
            button = W.Button(description=f"+{step}", tooltip=f"add {step} resample{'s' * (step > 1)}",
                              layout=W.Layout(width="70px"))
            button.on_click(lambda _, step=step: self.add(step))
            self._step_buttons.append(button)
        reset = W.Button(description="reset", tooltip="start again from no resamples",
                         layout=W.Layout(width="70px"))
        reset.on_click(lambda _: self.controls.__getitem__("resamples").__setattr__("value", 0))
        self._step_buttons.append(reset)
        self._control_box.children = tuple(self._control_box.children) + tuple(self._step_buttons)
        mode = self.controls["mode"]
        mode.observe(lambda change: self._show_heading(change["new"]), names="value")
        self._show_heading(mode.value)

    def _show_heading(self, mode):
        self._heading.value = f"<b>{html.escape(HEADINGS[mode])}</b>"

    def add(self, count):
        """Add ``count`` resamples (up to 100000 in all) and redraw."""
        count = _validate.integer("count", count, low=0)
        control = self.controls["resamples"]
        control.value = min(MAX_RESAMPLES, control.value + count)

    def _hidden(self, state):
        if state["mode"] == "bootstrap":
            hidden = {"learner_b", "k"}
            own = self._own_test is not None
        else:
            hidden = set()
            own = self._own_differences is not None
        if own:
            hidden |= {"dataset", "learner_a", "learner_b", "k"}
        if len(self.controls["mode"].options) < 2:
            hidden.add("mode")
        return hidden

    def _warm_ups(self, state):
        """The other modes, data sets, learners and fold counts: a click to one draws new
        axes and texts (up to three times a picture's cost)."""
        hidden = self._hidden(state)
        return self._other_options(state, *(name for name in ("mode", "dataset", "learner_a", "learner_b", "k")
                                            if name not in hidden))

    def _compute(self, state):
        seed, b = state["seed"], int(state["resamples"])
        name_a, name_b, dataset = state["learner_a"], state["learner_b"], state["dataset"]
        if state["mode"] == "bootstrap":
            if self._own_test is not None:
                return bootstrap_view(*self._own_test, b, seed, self._own_label or "your classifier on your test set")
            y, pred = holdout_predictions(dataset, name_a, seed)
            label = f"{readable(name_a)}\non a held-out third of {dataset.replace('_', ' ')} ({y.size} examples)"
            return bootstrap_view(y, pred, b, seed, label)
        if self._own_differences is not None:
            return sign_flip_view(self._own_differences, b, seed, self._own_label or "your paired scores")
        k = int(state["k"])
        errors = [fold_errors(dataset, name, k, seed,
                              progress=lambda f, i=i: self.report_progress((i + f) / 2))
                  for i, name in enumerate((name_a, name_b))]
        label = f"{readable(name_a)} − {readable(name_b)}\n{dataset.replace('_', ' ')}, {k}-fold CV"
        return sign_flip_view(errors[0] - errors[1], b, seed, label, (readable(name_a), readable(name_b)))

    # --- drawing -------------------------------------------------------------------------
    #
    # What changes with B is dynamic (drawn on every update): the bars, the lines and the
    # two titles. Under them cached layers, each drawn only when its key is new and
    # otherwise pasted back as pixels: what a mode shows (spines, legends, axis labels:
    # the whole canvas); each axis's ticks for the mode and coarse limits (_frame_of), so a
    # new data set or learner keeps them unless the scale really changes; and each text
    # that changes with the data but not with B (the data's name, the exact and t-test p,
    # the note on the smallest p). No control redraws the whole figure, and the other
    # modes, data sets, learners and k are drawn ahead while the kernel is idle.

    def _build(self, figure):
        self.ax, self.side = figure.subplots(1, 2, width_ratios=(1.45, 1))
        ax, side = self.ax, self.side
        edges = np.linspace(-1, 1, _BINS + 1)
        # two filled step outlines (one artist each, cheap to redraw): the less extreme
        # resamples, and the extreme ones stacked on top of them
        self.calm = ax.stairs(np.zeros(_BINS), edges, fill=True, color=COLORS["data"], alpha=0.75)
        self.extreme = ax.stairs(np.zeros(_BINS), edges, baseline=np.zeros(_BINS), fill=True,
                                 color=COLORS["bad"], alpha=0.85)
        # lines stop below the legend's band
        self.observed = ax.axvline(0, ymax=0.68, color=COLORS["truth"], lw=points(2))
        self.mirror = ax.axvline(0, ymax=0.68, color=COLORS["truth"], lw=points(1.2), ls="--")
        # bootstrap mode: the percentile interval's ends, the 2.5% and 97.5% points
        self.ends = ax.vlines([0, 0], 0, 0.68, transform=ax.get_xaxis_transform(), colors=COLORS["second"],
                              linestyles="--", lw=points(1.2))
        self.hist_title = ax.set_title(" \n ", fontsize="medium")
        # what the data are, right under the (static) x label
        self.data_label = ax.annotate(" \n ", xy=(0.5, 0), xycoords=ax.xaxis.label, xytext=(0, -1),
                                      textcoords="offset points", ha="center", va="top")
        # sign-flip mode: the running p-value against the exact and the t-test's p
        self.trace = side.plot([], [], color=COLORS["data"], label="Monte Carlo p after B resamples")[0]
        # the t-test's p often lies on the exact one: long dashes under fine dots drawn last,
        # so both show where they meet
        self.t_line = side.axhline(1, color=COLORS["second"], ls=(0, (7, 3)), lw=points(2.5), label="paired t-test p")
        self.exact_line = side.axhline(1, color=COLORS["good"], ls=(0, (1, 1.2)), lw=points(2.5),
                                       label="exact p (every sign pattern)")
        self.level_line = side.axhline(1 - CONFIDENCE, color=COLORS["muted"], lw=points(1), label="0.05 level")
        # bootstrap mode: four intervals
        self.intervals = side.hlines([0, 1, 2, 3], 0, 0, colors=[COLORS["muted"], COLORS["good"],
                                                                  COLORS["theory"], COLORS["second"]], lw=points(5))
        self.centres = side.plot([], [], "|", color=COLORS["truth"], ms=points(14), mew=points(2))[0]
        self.side_title = side.set_title(" ", fontsize="medium", loc="left")
        # sign-flip mode: the exact and t-test p-values, above the title's one line
        self.side_facts = side.annotate("", xy=(0, 1), xycoords=self.side_title, xytext=(0, 1),
                                        textcoords="offset points", ha="left", va="bottom", fontsize="medium")
        # sign-flip mode, too few patterns for significance: the smallest p, under the x label
        # as the data's name is under the histogram's (in the panel the p lines and the
        # running p would cross it: at k = 5 they lie about 0.05, where it stood)
        self.floor_note = side.annotate("", xy=(0.5, 0), xycoords=side.xaxis.label, xytext=(0, -1),
                                        textcoords="offset points", ha="center", va="top", fontsize="small")
        # one legend per mode, made once; a mode switch only shows the other
        self.legends = {
            "permutation": Legend(ax, [self.calm, self.extreme, self.observed, self.mirror],
                                  ["less extreme", "at least as far from 0 as observed",
                                   "observed mean difference", "its mirror image (the other side)"],
                                  loc="upper left", fontsize="small", framealpha=0.9),
            "bootstrap": Legend(ax, [self.calm, self.observed, self.ends],
                                ["bootstrap error rates", "error on the test set", "percentile ends (2.5%, 97.5%)"],
                                loc="upper left", fontsize="small", framealpha=0.9),
            "p-values": Legend(side, [self.trace, self.exact_line, self.t_line, self.level_line],
                               [line.get_label() for line in (self.trace, self.exact_line, self.t_line,
                                                              self.level_line)],
                               loc="lower left", fontsize="small", framealpha=0.9)}
        for legend in self.legends.values():
            legend.axes.add_artist(legend)
        # the y labels sit beyond the widest tick label that may come (of either mode), so
        # new limits or a mode switch keep the frozen layout
        _label_beyond(ax, _count_tick_labels())
        _label_beyond(side, _SIDE_TICK_LABELS)
        for panel in (ax, side):  # the x labels just below one line of tick labels
            fast_x_axis(panel)
        # The mode's picture (axes, legends, axis labels) is one whole-canvas layer; over it
        # each axis's ticks and each data text is a stamp of its own box, keyed by what it
        # shows and by what it overlaps: the x axis of a panel overlaps its y axis's lowest
        # tick label, the data's name the x label.
        axes = (ax.xaxis, ax.yaxis, side.xaxis, side.yaxis)
        for artist in (ax, side, *axes, *(axis.label for axis in axes)):
            artist.set_animated(True)  # drawn by the layers, not by a full draw of the figure
        self.mode_layer = CachedLayer((ax, side, *(axis.label for axis in axes)))
        self.tick_layers = {axis: Stamp([_TicksOnly(axis)], region=axis_region(axis))
                            for axis in (ax.yaxis, ax.xaxis, side.yaxis, side.xaxis)}
        self.text_layers = {text: Stamp([text]) for text in (self.data_label, self.side_facts, self.floor_note)}
        self.dynamic(self.mode_layer, *self.tick_layers.values(), *self.text_layers.values(),
                     self.calm, self.extreme, self.observed, self.mirror, self.ends, self.hist_title,
                     self.level_line, self.trace, self.t_line, self.exact_line, self.intervals, self.centres,
                     self.side_title)
        self._frame = None  # the frame the axes show now
        self._kept = {}     # mode -> the limits of its last frame (see _frame_of)

    def _frame_of(self, r, edges, tallest):
        """The frame for ``r`` (the mode and coarse limits: what the tick layers show) and the
        limits this mode would keep after showing it.

        Each limit keeps its last value in this mode while the data still fit in it and
        fill a third of it (the p axis: while its lines lie within 3 decades of the bottom),
        so most new data sets and learners keep the frame and draw no axis."""
        kept = dict(self._kept.get(r.mode, {}))
        top = kept["top"] = _keep(_nice_top(tallest), kept.get("top"))
        if r.mode == "permutation":
            # a round end a little beyond the outer bars, so its tick label stays inside the panel
            if np.any(r.differences):
                reach = _keep(_nice_end(max(abs(edges[0]), abs(edges[-1])), _FINE, least=1e-9), kept.get("reach"))
            else:  # all tied: the null is 0 alone, which any axis holds
                reach = kept.get("reach", 0.01)
            kept["reach"] = reach
            # the p axis a decade or more below the smallest line or running p, so low that
            # they run above the legend in the panel's lower corner (_LEGEND_ROOM of its
            # height); a t-test p of 0 (equal differences: t infinite) has no place on a log axis
            shown = (r.exact.p_value, r.t_test.p_value, float(np.min(r.trace_p, initial=1)))
            lowest = np.log10(min(0.01, *(p for p in shown if p > 0)))
            room = (lowest - _LEGEND_ROOM * np.log10(_P_TOP)) / (1 - _LEGEND_ROOM)
            bottom = 10.0 ** np.floor(min(lowest - 1, room))
            if "bottom" in kept and kept["bottom"] <= bottom < 1e3 * kept["bottom"]:
                bottom = kept["bottom"]
            kept["bottom"] = bottom
            # the B axis ends past the current B (rounded up to 1, 2, 5 x 10^j), room for the
            # last tick's label inside the panel
            side = (3 * _nice_end(r.resamples), bottom)
            return ("permutation", (-1.05 * reach, 1.05 * reach), top, side), kept
        # an error rate is at least 0: the axis starts there and ends at a round rate
        right = kept["right"] = _keep(min(_nice_end(edges[-1], _FINE, least=1e-9), max(1.0, edges[-1])),
                                      kept.get("right"))
        return ("bootstrap", (min(edges[0], -0.05 * right), 1.05 * right), top, None), kept

    def _show_frame(self, frame):
        """Set the axes to ``frame``: limits, labels and legends (the static parts)."""
        mode, xlim, top, side_limits = frame
        ax, side = self.ax, self.side
        sign_flip = mode == "permutation"
        for name, legend in self.legends.items():
            legend.set_visible(name == mode or (name == "p-values" and sign_flip))
        ax.set_xlim(xlim)
        ax.set_xticks(_ticks_inside(*xlim))
        ax.set_ylim(0, top)
        ax.yaxis.set_major_locator(_count_locator())
        ax.yaxis.set_major_formatter(FuncFormatter(lambda count, _: _count_label(count, top)))
        ax.set_ylabel("resamples")
        ax.set_xlabel("mean difference of fold errors, signs flipped at random" if sign_flip
                      else "test error rate on a resample of the test set")
        self.level_line.set_visible(sign_flip)
        if sign_flip:
            end, bottom = side_limits
            side.set_xlim(0.8, end)
            side.set_ylim(bottom, _P_TOP)
            side.set_xscale("log")
            side.set_yscale("log")
            ticks = [x for x in _P_TICKS + tuple(10.0 ** -np.arange(6, 16)) if x >= bottom]
            side.set_yticks(ticks, [f"{x:g}" for x in ticks])
            # plain numbers, as tall as the bootstrap mode's, so a switch keeps the layout
            ticks = 10.0 ** np.arange(0, np.log10(end) + 1e-9)
            side.set_xticks(ticks, [f"{x:,.0f}" if x < 1e4 else f"{x / 1000:.0f}k" for x in ticks])
            side.minorticks_off()  # decades suffice; minor ticks cost a third of a redraw
            side.set_xlabel("resamples B (log scale)")
            side.set_ylabel("p-value (two-sided, log scale)")
        else:
            side.set_xscale("linear")
            side.set_yscale("linear")
            side.set_xlim(xlim)
            side.set_ylim(-0.6, 3.6)
            side.set_yticks([0, 1, 2, 3], _SIDE_TICK_LABELS[:4])
            side.set_xticks(_ticks_inside(*xlim))
            side.xaxis.set_major_formatter(ScalarFormatter())
            side.set_xlabel("test error rate")
            side.set_ylabel("95% interval")

    def _draw(self, r):
        sign_flip = r.mode == "permutation"
        if sign_flip:
            values, observed = r.null, r.observed
            gamma = abs(observed) * 100 * np.finfo(float).eps
            far = np.abs(values) >= abs(observed) - gamma
            edges = _sign_flip_edges(observed, float(np.abs(r.differences).mean()))
        else:
            values, observed = r.replicates, r.estimate
            far = np.zeros(values.size, dtype=bool)
            edges = _error_edges(r.estimate, r.errors.size)
        calm_counts = np.histogram(values[~far], edges)[0]
        stacked = calm_counts + np.histogram(values[far], edges)[0]
        frame, kept = self._frame_of(r, edges, stacked.max())
        if not self.drawing_ahead:  # the limits a state drawn ahead would keep are not kept
            self._kept[r.mode] = kept
        if frame != self._frame:
            self._show_frame(frame)
            self._frame = frame
        mode, xlim, top, side_limits = frame
        bottom = side_limits[1] if side_limits else None  # the p axis (the bootstrap's side: four rows)
        layers = self.tick_layers
        self.mode_layer.show(mode)
        layers[self.ax.yaxis].show((mode, top))
        layers[self.ax.xaxis].show((mode, xlim, top))
        layers[self.side.yaxis].show((mode, bottom))
        layers[self.side.xaxis].show((mode, side_limits or xlim))  # the bootstrap's side: the x range
        self.calm.set_data(calm_counts, edges, baseline=0)
        self.extreme.set_data(stacked, edges, baseline=calm_counts)
        self.observed.set_xdata([observed] * 2)
        self.mirror.set_xdata([-observed] * 2)
        for artist in (self.mirror, self.trace, self.exact_line, self.t_line):
            artist.set_visible(sign_flip)
        for artist in (self.ends, self.intervals, self.centres):
            artist.set_visible(not sign_flip)
        if sign_flip:
            k = r.differences.size
            self._show_texts(frame, f"{r.label}: observed mean {r.observed:+.4f}",
                             f"exact p = {r.exact.p_value:.4f} (all {2 ** k:,} sign patterns)\n"
                             f"paired t-test {p_text(r.t_test.p_value)} (t = {r.t_test.statistic:.2f}, {k - 1} df)",
                             _floor_note(r))
            self._draw_sign_flip(r, int(np.sum(far & (values > 0))), int(np.sum(far & (values < 0))))
        else:
            self._show_texts(frame, r.label, "", "")
            self._draw_bootstrap(r)

    def _show_texts(self, frame, label, facts, note):
        """Set the texts that change with the data but not with B: the data's name and the
        note on the smallest p (each under its panel's x label) and the exact and t-test p
        (over the side panel's title); each keyed by its text and by what lies under it."""
        mode = frame[0]
        for text, value in ((self.data_label, label), (self.side_facts, facts), (self.floor_note, note)):
            text.set_text(value)
            self.text_layers[text].show((mode, value))

    def _draw_sign_flip(self, r, right, left):
        # two short lines: the title stays within its panel whatever the numbers
        self.hist_title.set_text(f"Null distribution: B = {r.resamples:,} sign-flip resamples\n"
                                 f"{right:,} right + {left:,} left at least as far from 0")
        self.trace.set_data(r.trace_b, r.trace_p)
        self.exact_line.set_ydata([r.exact.p_value] * 2)
        self.t_line.set_ydata([r.t_test.p_value] * 2)
        # B stands in the histogram's title; the exact and t-test p above this one (self.side_facts)
        # two lines, always: the count and B at 100,000 resamples would not fit in one
        self.side_title.set_text(
            "Monte Carlo p: add resamples\n " if r.p_value is None else
            f"Monte Carlo p = ({r.as_extreme:,} + 1)/({r.resamples:,} + 1)\n"
            f"= {r.p_value:.4f} (se {r.monte_carlo_se:.4f})")

    def _draw_bootstrap(self, r):
        self.hist_title.set_text(f"Bootstrap distribution of the test error\nB = {r.resamples:,} resamples")
        w = r.wilson
        rows = [(r.wald.low, r.wald.high), (w.low, w.high), r.bca or (np.nan, np.nan),
                r.percentile or (np.nan, np.nan)]
        self.intervals.set_segments([[(lo, y), (hi, y)] for y, (lo, hi) in enumerate(rows)])
        self.centres.set_data([r.estimate] * 4, [0, 1, 2, 3])
        ends = r.percentile or (np.nan, np.nan)
        self.ends.set_segments([[(x, 0), (x, 0.68)] for x in ends])

        def show(pair):
            return "need B ≥ 10" if pair is None else f"[{pair[0]:.3f}, {pair[1]:.3f}]"

        self.side_title.set_text(
            f"95% intervals, test error = {r.estimate:.3f} (n = {r.errors.size})\n"
            f"percentile {show(r.percentile)}   BCa {show(r.bca)}\n"
            f"Wilson [{w.low:.3f}, {w.high:.3f}]   Wald [{r.wald.low:.3f}, {r.wald.high:.3f}]")

    def _summary(self, r):
        label = r.label.replace("\n", ", " if r.mode == "permutation" else " ")
        if r.mode == "permutation":
            return sign_flip_summary(r)
        if r.percentile is None:
            intervals = "add at least 10 resamples for the bootstrap intervals"
        else:
            intervals = (f"95% percentile interval [{r.percentile[0]:.3f}, {r.percentile[1]:.3f}], "
                         f"BCa [{r.bca[0]:.3f}, {r.bca[1]:.3f}]")
        return (f"{label}: test error {r.estimate:.3f}; {r.resamples:,} bootstrap resamples; {intervals}; "
                f"Wilson [{r.wilson.low:.3f}, {r.wilson.high:.3f}], Wald [{r.wald.low:.3f}, {r.wald.high:.3f}]. "
                f"Wilson's intervals cover the true error in about 95% of test sets; the percentile interval, "
                f"like Wald's, uses the spread at the observed error and covers less for small errors.")
