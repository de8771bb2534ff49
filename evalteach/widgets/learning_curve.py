"""LearningCurveExplorer: cross-validated learning and noise curves of two learners (Mooney)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator, StrMethodFormatter
from matplotlib.transforms import Bbox

from .._result import p_text, pct
from ..data import DATASETS
from ..learners import LEARNER_LABELS, LEARNERS
from ..plotting import COLORS, points
from ..simulate.curves import CURVE_MODES, N_POINTS, learning_curve, majority_class_accuracy
from ..stats import paired_t_test
from ._base import Explorer, buttons, dropdown, slider
from ._cached_layer import AxisLabel, Stamp, axis_region

#: Pixels right of the axes' left edge where an x axis's stamp starts (see _right_of_the_corner).
CORNER = 9
#: Axes fraction between accuracy 1 and the top of the selected point's line (the stars sit above 1).
CURSOR_GAP = 0.02

MODE_LABELS = {"size": "training-set size (examples, log scale)",
               "class": "fraction of training labels replaced by a random label",
               "feature": "fraction of training feature values copied from random examples"}
#: What the fold panel says the selected point is: its training-set size or its noise.
#: (Short: the fold panel is narrow; the x label says which values are replaced, and by what.)
MODE_POINTS = {"size": "trained on {x} examples", "class": "{x:.0%} of labels replaced",
               "feature": "{x:.0%} of values replaced"}
#: The bands' legend entry (the band is clipped to [0, 1], the possible accuracies: see the class docstring).
BAND_LABEL = "mean ± 1 sd over folds"
#: The baseline's legend entry: always predicting the training part's most frequent class. A learning
#: curve (size mode) does not stretch its y range down to the baseline; the entry then says it is below.
BASELINE_LABEL = "majority-class baseline {value:.3f}"
BELOW = " (below the plotted range)"


@dataclass(frozen=True)
class LearningCurveView:
    """Two learners' curves, the paired t-test at every point, the selected point, and the
    majority-class baseline ``chance`` (:func:`~evalteach.simulate.curves.majority_class_accuracy`
    on the same folds)."""

    a: object
    b: object
    test: object
    index: int
    confidence: float
    chance: float

    @property
    def significant(self):
        """True at the points where the paired t-test rejects equal accuracy."""
        return np.asarray(self.test.p_value) < 1 - self.confidence


class LearningCurveExplorer(Explorer):
    """Accuracy of two learners against training-set size or noise, under k-fold CV.

    Mooney's recipe: on each of k folds, train both learners on the first p examples of
    the training part and test on the held-out fold; plot the mean accuracy (band: ± one
    standard deviation over folds, clipped to [0, 1] since no accuracy lies outside) and
    run a paired t-test at each point (stars mark p below the test level). Noise mode
    replaces a growing fraction of the training labels or feature values by random values
    (a label by a class drawn uniformly, a feature value by the same feature's value in a
    random training example), at full training size (noise curves). A random label is drawn
    from all classes, so it is often the right one: with two classes about half the replaced
    labels stay correct.
    The right panel shows the k paired fold accuracies at the selected point, the mean
    difference with its confidence interval, and the test. A thin dashed line marks the
    majority-class baseline: the accuracy of always predicting the most frequent class of each
    training part, on the same folds. Noise curves show it; a learning curve's y range holds only
    the accuracies, and the legend gives the baseline's value and says when it lies below.

    Read the stars with care: each point is tested alone (11 tests, so a false alarm
    somewhere is likely), the folds share training data so their results are not
    independent and the tests are somewhat optimistic, and with k = 5 the test rests on
    five differences.

    Fits are real scikit-learn fits, cached per fold: a new data set, learner or k fits the
    curves of all three modes at once (progress is shown); switching the mode, moving the
    point or the confidence then only selects and redraws. With seed 0 every option's
    curves come fitted with the package (:mod:`evalteach.simulate.bundled_scores`).

    Parameters
    ----------
    dataset : str
        A bundled data set (default ``"breast_cancer"``).
    learner_a, learner_b : str
        Learners from :data:`evalteach.learners.LEARNERS` (default naive Bayes and tree).
    mode : {"size", "class", "feature"}
    k : {5, 10}
    point : int
        Which point (1 to 11) the right panel and the test details show.
    confidence : {0.9, 0.95, 0.99}
        Confidence of the interval for A − B; the test's level is ``1 - confidence``
        (the buttons show that level: 10%, 5%, 1%).

    Source: Mooney, "Experimental evaluation" (learning curves, noise curves).
    """

    title = "Learning curves and noise curves"
    figsize = (10.0, 4.4)

    def _controls(self):
        learners = [(f"{k}: {v}", k) for k, v in LEARNERS.items()]
        return {
            "point": slider("point", 6, 1, N_POINTS, 1,
                            tooltip="which point of the curve the right panel shows"),
            "confidence": buttons("test level", [("10%", 0.9), ("5%", 0.95), ("1%", 0.99)], 0.95,
                                  tooltip="level of the paired t-tests; the interval for A − B has "
                                          "confidence 1 − level"),
            "learner_a": dropdown("learner A", learners, "naive_bayes"),
            "learner_b": dropdown("learner B", learners, "tree"),
            "mode": buttons("x axis", [("training-set size", "size"), ("class noise", "class"),
                                       ("feature noise", "feature")], "size"),
            "k": buttons("folds k", [5, 10], 10),
            "dataset": dropdown("data set", list(DATASETS), "breast_cancer"),
        }

    def _hidden(self, state):
        """Every control acts in every mode."""
        return set()

    def _warm_ups(self, state):
        """The other data sets, x axes and fold counts: a first picture draws every text afresh."""
        return self._other_options(state, "dataset", "mode", "k")

    def _compute(self, state):
        # The first draw of a data set, pair of learners and k fits the curves of every mode
        # (cached per fold in evalteach.simulate.curves), so switching the x axis only selects.
        names, k = (state["learner_a"], state["learner_b"]), int(state["k"])
        jobs = [(name, mode) for name in names for mode in CURVE_MODES]
        curves = {}
        for j, (name, mode) in enumerate(jobs):
            curves[name, mode] = learning_curve(
                state["dataset"], name, mode, k, state["seed"],
                progress=lambda f, j=j: self.report_progress((j + f) / len(jobs)))
        a, b = (curves[name, state["mode"]] for name in names)
        test = paired_t_test(a.accuracies, b.accuracies, confidence=float(state["confidence"]))
        chance = majority_class_accuracy(state["dataset"], k, state["seed"])
        return LearningCurveView(a, b, test, int(state["point"]) - 1, float(state["confidence"]), chance)

    # Nothing is redrawn in full after the first picture. The curves, bands, stars and the
    # selected point are cheap lines and polygons drawn on every update; the text around
    # them (each axis's ticks, the x label, the two titles, each legend entry, the fold
    # panel's learner names and its three-line verdict) is drawn once per state it shows and
    # pasted back from a stamp when that state returns (text is what a picture spends its
    # time on). The layout does not depend on the state (tick labels of one width and
    # height, one-line titles and legend entries), so the frame laid out at the first draw
    # fits every state.

    def _build(self, figure):
        self.ax, self.folds = figure.subplots(1, 2, width_ratios=(2.2, 1))
        ax, folds = self.ax, self.folds
        self.colors = (COLORS["data"], COLORS["theory"])
        # labelled with the curves
        self.chance = ax.axhline(0, color=COLORS["muted"], lw=points(0.8), ls="--", label=" ")
        self.bands = [ax.fill([], [], color=c, alpha=0.18, lw=0)[0] for c in self.colors]
        self.mean_lines = [ax.plot([], [], "o-", color=c, ms=points(4))[0] for c in self.colors]
        # the axes' labels are texts of their own: the y label drawn once in the background, the
        # x label (one per mode) in a stamp of its own, so an axis's stamp draws only its ticks
        AxisLabel(ax.yaxis, "mean accuracy on the held-out folds").set_animated(False)
        self.x_name = AxisLabel(ax.xaxis)
        self.stars = ax.plot([], [], "*", color=COLORS["truth"], ms=points(9), ls="none", label=" ")[0]
        self.cursor = ax.axvline(0, color=COLORS["muted"], lw=points(1))  # up to just below accuracy 1 and the stars
        self.pairs = LineCollection([], colors=COLORS["muted"], linewidths=points(1))
        folds.add_collection(self.pairs)
        self.dots = [folds.plot([], [], "o", color=c, ms=points(5))[0] for c in self.colors]
        self.fold_means = [folds.plot([], [], "_", color=c, ms=points(28), mew=points(3))[0] for c in self.colors]
        folds.set(xlim=(-0.5, 1.5), xticks=[0, 1])
        for axis in (folds.xaxis, folds.yaxis):  # no label: skip placing it on each draw of the axis
            axis.set_label_coords(0.5, 0.5)
        figure.canvas.mpl_connect("draw_event", lambda _: self._pin_labels())
        ax.set_autoscale_on(False)  # the limits are set with the curves
        ax.tick_params(axis="x", labelsize="small")  # in every mode: the same height, the same layout
        for axes in (ax, folds):  # steps a two-decimal label states exactly, labels of one width
            axes.yaxis.set_major_locator(MaxNLocator(nbins="auto", steps=[1, 2, 5, 10]))
            axes.yaxis.set_major_formatter(StrMethodFormatter("{x:.2f}"))
        self.folds_title = folds.set_title("\n\n\n", fontsize="small")
        # what kind of curve (left) and of which data (right): two texts, each redrawn only when it changes
        self.titles = [ax.set_title(" ", fontsize="medium", loc=where) for where in ("left", "right")]
        # outside the axes, so neither the curves nor the selected point's line can cross them: one
        # legend a learner below the curves (a new learner redraws only its own entry), and above
        # them, where the stars are, what the stars and the bands mean
        self.legends = [figure.legend(handles=[handle], loc=f"outside lower {where}", frameon=False,
                                      fontsize="small")
                        for handle, where in zip(self.mean_lines, ("left", "center"))]
        band = Patch(color=COLORS["muted"], alpha=0.3, lw=0, label=BAND_LABEL)
        self.legends.append(figure.legend(handles=[self.stars, band, self.chance], loc="outside upper left",
                                          ncols=3, frameon=False, fontsize="small"))
        self.y_axes = [Stamp([a.yaxis], region=axis_region(a.yaxis)) for a in (ax, folds)]
        self.x_axes = [Stamp([a.xaxis], region=_right_of_the_corner(a.xaxis)) for a in (ax, folds)]
        # each text keyed by what it says (a legend by all its entries: the baseline's value changes too)
        self.texts = [*self.titles, self.folds_title, *(legend.texts for legend in self.legends), self.x_name]
        self.text_stamps = [Stamp([artist]) for artist in (*self.titles, self.folds_title, *self.legends,
                                                            self.x_name)]
        self.dynamic(*self.y_axes, *self.x_axes, *self.text_stamps, self.chance, *self.bands, *self.mean_lines,
                     self.stars, self.cursor, self.pairs, *self.dots, *self.fold_means)
        self._shown = None
        self._labels_pinned = False

    def _draw_curves(self, r):
        """Set what changes with the curves: data, axes, title, legend, the learners' names."""
        ax = self.ax
        x = r.a.x
        for i, (curve, band) in enumerate(zip((r.a, r.b), self.bands)):
            self.mean_lines[i].set_data(x, curve.mean)
            label = f"{'AB'[i]}: {_name(curve.learner)} (mean over folds)"
            self.mean_lines[i].set_label(label)
            self.legends[i].texts[0].set_text(label)
            low, high = np.clip(curve.mean - curve.sd, 0, 1), np.clip(curve.mean + curve.sd, 0, 1)
            band.set_xy(np.r_[np.c_[x, low], np.c_[x, high][::-1]])
        # in steps of 0.1, so that each axis is drawn once per limit: the fold panel down to the lowest
        # fold, the curves down to their lowest band. A noise curve falls towards the baseline, so its
        # range reaches down to it; a learning curve's does not (that would squeeze the curves into the
        # top of the picture), and the legend says when the baseline lies below
        self.chance.set_ydata([r.chance, r.chance])
        bands = [np.clip(c.mean - c.sd, 0, 1).min() for c in (r.a, r.b)]
        lows = (min(*bands, *([] if r.a.mode == "size" else [r.chance])),
                min(r.a.accuracies.min(), r.b.accuracies.min()))
        ylim, fold_ylim = ((max(0.0, np.floor(low * 10) / 10 - 0.02), 1.04) for low in lows)
        label = BASELINE_LABEL.format(value=r.chance) + (BELOW if r.chance < ylim[0] else "")
        self.chance.set_label(label)
        self.legends[2].texts[2].set_text(label)
        if r.a.mode == "size":
            ax.set_xscale("log")
            ax.set_xlim(x[0] / 1.15, x[-1] * 1.15)
            # label every size the curve was measured at: powers of ten alone do not say which point is which
            ax.set_xticks(x, [str(size) for size in x])
            ax.minorticks_off()
        else:
            ax.set_xscale("linear")
            ax.set_xlim(-0.03, 1.03)
        self.x_name.set_text(MODE_LABELS[r.a.mode])
        kind = "Learning curve" if r.a.mode == "size" else f"Noise curve ({r.a.mode} noise)"
        self.titles[0].set_text(kind)
        k = r.a.accuracies.shape[1]
        self.titles[1].set_text(f"{r.a.dataset.replace('_', ' ')}, {k}-fold cross-validation")
        pair = (_name(r.a.learner), _name(r.b.learner))
        self.folds.set_xticks([0, 1], [f"A\n{pair[0]}", f"B\n{pair[1]}"])
        ax.set_ylim(ylim)
        self.folds.set_ylim(fold_ylim)
        # the selected point's line ends a little below accuracy 1: clear of the stars above it
        self.cursor.set_ydata([0, (1 - ylim[0]) / (ylim[1] - ylim[0]) - CURSOR_GAP])
        for y_axis, x_axis, limits, key in zip(self.y_axes, self.x_axes, (ylim, fold_ylim),
                                               ((r.a.mode, x.tobytes()), pair)):
            y_axis.show(limits)
            x_axis.show(key)

    def _draw(self, r):
        shown = (r.chance, *((c.dataset, c.learner, c.mode, c.accuracies.tobytes()) for c in (r.a, r.b)))
        if shown != self._shown:  # new curves: the frame around them changes
            self._shown = shown
            self._draw_curves(r)
        x, i = r.a.x, r.index
        top = self.ax.get_ylim()[1] - 0.015
        self.stars.set_data(x[r.significant], np.full(int(r.significant.sum()), top))
        self.cursor.set_xdata([x[i], x[i]])
        fa, fb = r.a.accuracies[i], r.b.accuracies[i]
        xa, xb = side_by_side(fa), 1 + side_by_side(fb)
        self.pairs.set_segments([[(p, u), (q, v)] for p, u, q, v in zip(xa, fa, xb, fb)])
        for dots, means, values, xs, pos in zip(self.dots, self.fold_means, (fa, fb), (xa, xb), (0, 1)):
            dots.set_data(xs, values)
            means.set_data([pos], [values.mean()])
        t = r.test
        level = pct(1 - r.confidence)
        self.legends[2].texts[0].set_text(f"paired t-test p < {level} at this point alone")
        verdict = "significant" if r.significant[i] else "not significant"
        self.folds_title.set_text(
            f"fold accuracies, {MODE_POINTS[r.a.mode].format(x=x[i])}\n"
            f"A − B = {_signed(t.mean_difference[i])}, {pct(r.confidence)} CI "
            f"[{_signed(t.low[i])}, {_signed(t.high[i])}]\n"
            f"t({t.df}) = {_minus(f'{t.statistic[i]:.2f}')}, {p_text(t.p_value[i])}\n{verdict} at the {level} level")
        for stamp, text in zip(self.text_stamps, self.texts):
            stamp.show(tuple(t.get_text() for t in text) if isinstance(text, list) else text.get_text())

    def _pin_labels(self):
        """Keep the axes' labels where the first full draw (the layout) put them, in axes
        coordinates: an axis then no longer measures its tick labels a second time on each
        draw to place its label (the layout is fixed, and tick labels keep one width)."""
        if self._labels_pinned:
            return
        self._labels_pinned = True
        for axis in (self.ax.xaxis, self.ax.yaxis):
            label = axis.label
            where = self.ax.transAxes.inverted().transform(label.get_transform().transform(label.get_position()))
            axis.set_label_coords(*where)

    def _summary(self, r):
        i, x, t = r.index, r.a.x, r.test
        where = (f"With {x[i]} training examples" if r.a.mode == "size"
                 else f"With {MODE_POINTS[r.a.mode].format(x=x[i])}")
        k, level = r.a.accuracies.shape[1], pct(1 - r.confidence)
        return (f"{where}, mean accuracy over {k} folds: {_name(r.a.learner)} {r.a.mean[i]:.3f} "
                f"(sd {r.a.sd[i]:.3f}), {_name(r.b.learner)} {r.b.mean[i]:.3f} (sd {r.b.sd[i]:.3f}); "
                f"A − B = {_signed(t.mean_difference[i])}, {pct(r.confidence)} CI "
                f"[{_signed(t.low[i])}, {_signed(t.high[i])}]; paired t({t.df}) = {_minus(f'{t.statistic[i]:.2f}')}, "
                f"{p_text(t.p_value[i])}. The difference is significant at the {level} level at "
                f"{int(r.significant.sum())} of {len(x)} points, each tested alone.")


def _right_of_the_corner(axis):
    """An x axis's box, starting a few pixels right of the axes' left edge: apart from the
    y axis's box (which reaches 2 pixels into the axes, plus the stamps' padding), so the
    two change independently. The x axis has no tick or label there (tested)."""
    below = axis_region(axis)

    def region(renderer):
        box = below(renderer)
        left = axis.axes.get_window_extent(renderer).x0 + CORNER
        return None if box is None else Bbox.from_extents(max(box.x0, left), box.y0, box.x1, box.y1)

    return region


def _name(learner):
    """The learner's plain name (not its code name) in the legend, fold panel and summary."""
    return LEARNER_LABELS.get(learner, learner)


def _signed(value):
    """An accuracy difference with its sign, three decimals, a true minus sign."""
    return _minus(f"{value:+.3f}")


def _minus(number):
    """A formatted number with the typographic minus sign the axes' tick labels use."""
    return number.replace("-", "−")



def side_by_side(values, width=0.07, decimals=3):
    """Horizontal offsets that set folds with the same accuracy (to ``decimals``) side by side.

    Folds often tie (four folds at 0.158, say); drawn at one x they look like a single dot.
    A unique value keeps offset 0; m tied values get offsets ``width * (j - (m - 1) / 2)``.
    """
    rounded = np.round(np.asarray(values, dtype=float), decimals)
    offsets = np.zeros(rounded.size)
    for value in np.unique(rounded):
        same = np.flatnonzero(rounded == value)
        offsets[same] = width * (np.arange(same.size) - (same.size - 1) / 2)
    return offsets
