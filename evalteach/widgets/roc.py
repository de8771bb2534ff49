"""Sweep a classifier's threshold: confusion matrix, ROC point, hull, costs, precision-recall."""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.patches import Rectangle
from matplotlib.transforms import offset_copy

from .. import _validate as v
from ..plotting import COLORS, area, points
from ..stats.examples import fawcett_roc_example, scott_roc_example
from ..stats.roc import confusion, precision_recall_curve, roc_curve
from ._base import Explorer, buttons, checkbox, dropdown, log_slider, slider
from ._cached_layer import AxisLabel, Stamp, axis_region

SOURCES = {
    "scott": "Scott's SVM table (10 examples)",
    "fawcett": "Fawcett's 20 instances",
    "breast_cancer": "UCI breast cancer, logistic regression (held out)",
    "wine": "UCI wine (class 0 vs rest), 5-NN (held out)",
}
_REAL = {"breast_cancer": "logistic", "wine": "knn"}
#: What the positive class is, where the data say it.
POSITIVE = {"breast_cancer": "malignant", "wine": "cultivar 0"}
#: The rates beside the confusion matrix: (name shown, field of Confusion).
RATES = (("accuracy", "accuracy"), ("TPR (recall)", "recall"), ("FPR", "fpr"), ("precision", "precision"),
         ("F1", "f1"))
#: Where the scores panel's title ends and the threshold's value begins (axes fraction).
THRESHOLD_AT = 0.66


@dataclass(frozen=True)
class ScoredData:
    """True classes (1 = positive), scores, and what they are."""

    y: np.ndarray
    scores: np.ndarray
    name: str
    score_label: str
    axis_label: str = ""
    positive: str = ""  # the positive class's name, e.g. "malignant"


@dataclass(frozen=True)
class RocView:
    """The numbers shown for one threshold."""

    data: ScoredData
    threshold: float
    confusion: object  # Confusion of "positive when score >= threshold"
    curve: object  # RocCurve
    hull: object  # RocCurve (convex hull) or None
    operating: object  # OperatingPoint or None
    pr: object  # PrecisionRecallCurve or None
    view: str

    @property
    def auc(self):
        return self.curve.auc

    @property
    def point(self):
        """The current threshold's point in the view's space, or None where it is undefined.

        In the precision-recall view that is when no example is predicted positive: precision
        TP / (TP + FP) is 0/0."""
        cm = self.confusion
        x, y = (cm.fpr, cm.recall) if self.view == "roc" else (cm.recall, cm.precision)
        return None if math.isnan(x) or math.isnan(y) else (x, y)


def _scores_of(estimator, X):
    if hasattr(estimator, "decision_function"):
        return np.asarray(estimator.decision_function(X), dtype=float), "decision function"
    return np.asarray(estimator.predict_proba(X), dtype=float)[:, 1], "P(positive)"


@lru_cache(maxsize=16)
def _real_data(name, seed):
    """Held-out scores of a real classifier: fit on half the data set, score the other half."""
    from sklearn.model_selection import train_test_split

    from ..data import load_dataset
    from ..learners import make_learner

    d = load_dataset(name, binary=True)
    y = (d.y == 0).astype(int)  # class 0 (malignant; cultivar 0) is the positive class
    X_train, X_test, y_train, y_test = train_test_split(d.X, y, test_size=0.5, stratify=y, random_state=seed)
    model = make_learner(_REAL[name], seed).fit(X_train, y_train)
    scores, label = _scores_of(model, X_test)
    return ScoredData(y_test, scores, SOURCES[name], label, positive=POSITIVE[name])


def _example_data(name):
    y, s = scott_roc_example() if name == "scott" else fawcett_roc_example()
    if name == "scott":
        return ScoredData(y, s, SOURCES[name], "SVM score w·x", "SVM score w·x")
    return ScoredData(y, s, SOURCES[name], "score")


class ROCExplorer(Explorer):
    """Move a classifier's threshold and watch the confusion matrix and the ROC point.

    Predict positive when ``score >= threshold``. Top left: the scores of each class
    with the threshold line (filled dots are predicted positive). Bottom left: the
    confusion matrix and its rates. Right: the ROC curve with the current point and the
    AUC; optionally the convex hull, the iso-cost line for the two error costs and the
    data's class ratio with the cost-optimal point (Provost & Fawcett 2001), or the
    precision-recall curve instead (Fawcett 2006).

    Parameters
    ----------
    source : str
        "scott" (default), "fawcett", "breast_cancer", "wine", or "user" when data are passed.
    threshold : float in [0, 1]
        Position of the threshold between the lowest (0) and the highest (1) score. Left out with
        ``iso_cost=True``, the explorer opens at the least-cost threshold, so the current point and
        the cost-optimal diamond agree.
    hull, iso_cost : bool
        Show the ROC convex hull; show the iso-cost line and the optimal operating point.
    cost_fp, cost_fn : float
        Costs of a false positive and of a false negative.
    view : {"roc", "pr"}
    y_true, scores : array, optional
        Your own classes (0/1) and scores.
    score_name : str, optional
        What your scores are, e.g. "−(SVM score)": it labels the score axis and starts the
        summary (default "your data").
    estimator, X, y : optional
        A fitted scikit-learn classifier and the (held-out) data to score.
    seed : int
        Seed of the train/test split of the UCI sources.

    Examples
    --------
    >>> ROCExplorer()                                   # doctest: +SKIP
    >>> ROCExplorer(y_true=[1, 0, 1], scores=[.9, .4, .3])  # doctest: +SKIP
    """

    title = "Sweeping a classifier's threshold"  # ROC or precision-recall: the view decides

    figsize = (10.0, 5.6)  # the presenter theme scales it with the fonts (plotting.Theme.figure_scale)

    def __init__(self, *, y_true=None, scores=None, estimator=None, X=None, y=None, score_name=None, seed=0,
                 **values):
        self._user = self._user_data(y_true, scores, estimator, X, y)
        if score_name is not None:
            if not isinstance(score_name, str) or not score_name.strip():
                raise TypeError(f"score_name must be a non-empty string, got {score_name!r}")
            if self._user is None:
                raise TypeError("score_name= names your own scores; pass y_true= and scores= (or estimator=) too")
            self._user = ScoredData(self._user.y, self._user.scores, score_name, score_name, score_name)
        if self._user is not None:
            values.setdefault("source", "user")
        if values.get("iso_cost") and "threshold" not in values and values.get("view", "roc") == "roc":
            try:
                values["threshold"] = self._optimal_position(values, seed)
            except (KeyError, TypeError, ValueError):
                pass  # bad values: the checks of Explorer.__init__ name them
        super().__init__(seed=seed, **values)

    def _optimal_position(self, values, seed):
        """The slider position (a multiple of its step) whose threshold selects the least-cost hull vertex.

        It lies midway between the vertex's score and the next lower score, so the threshold line
        sits in the gap and not on top of a dot (any threshold in the gap gives the same point)."""
        data = self._data(values.get("source", "scott"), seed)
        op = roc_curve(data.y, data.scores).operating_point(values.get("cost_fp", 1.0), values.get("cost_fn", 1.0))
        if math.isinf(op.threshold):
            return 1.0 if op.threshold > 0 else 0.0
        lo, hi = self.score_range(data)
        below = data.scores[data.scores < op.threshold]
        gap_low = float(below.max()) if below.size else lo
        step = 0.005
        position = round(((op.threshold + gap_low) / 2 - lo) / (hi - lo) / step) * step
        if not gap_low < lo + position * (hi - lo) <= op.threshold:  # a gap narrower than a step
            # round down: a threshold just below the vertex's score still predicts that score positive
            position = math.floor((op.threshold - lo) / (hi - lo) / step) * step
        return min(1.0, max(0.0, position))

    @staticmethod
    def _user_data(y_true, scores, estimator, X, y):
        if estimator is not None:
            if y_true is not None or scores is not None:
                raise TypeError("pass either y_true= and scores= or estimator=, X=, y=, not both")
            if X is None or y is None:
                raise TypeError("estimator= needs X= and y= (the data to score), got "
                                f"X={'None' if X is None else 'array'}, y={'None' if y is None else 'array'}")
            if not (hasattr(estimator, "decision_function") or hasattr(estimator, "predict_proba")):
                raise TypeError(f"estimator must have decision_function or predict_proba, got {estimator!r}")
            s, label = _scores_of(estimator, X)
            labels = v.binary_labels("y", y)
            v.same_length(y=labels, X=s)
            return ScoredData(labels, v.array("scores", s), f"your {type(estimator).__name__}", label)
        if (y_true is None) != (scores is None):
            raise TypeError("pass both y_true= and scores=, got only "
                            + ("y_true" if scores is None else "scores"))
        if y_true is None:
            if X is not None or y is not None:
                raise TypeError("X= and y= go with estimator=; pass estimator= too")
            return None
        labels = v.binary_labels("y_true", y_true)
        s = v.array("scores", scores)
        v.same_length(y_true=labels, scores=s)
        return ScoredData(labels, s, "your data", "score")

    def _controls(self):
        options = [(label, key) for key, label in SOURCES.items()]
        if self._user is not None:
            options.insert(0, (self._user.name, "user"))
        return {
            "source": dropdown("scores from", options, options[0][1]),
            "threshold": slider("threshold position", 0.5, 0.0, 1.0, 0.005),
            "hull": checkbox("convex hull", False),
            "iso_cost": checkbox("iso-cost line", False),
            "cost_fp": log_slider("cost of a false positive", 1.0, -1, 1),
            "cost_fn": log_slider("cost of a false negative", 1.0, -1, 1),
            "view": buttons("view", [("ROC", "roc"), ("precision-recall", "pr")], "roc"),
        }

    def _hidden(self, state):
        # The hull and the iso-cost line belong to the ROC view; the costs only place the iso-cost line.
        if state["view"] == "pr":
            return {"hull", "iso_cost", "cost_fp", "cost_fn"}
        return set() if state["iso_cost"] else {"cost_fp", "cost_fn"}

    def _data(self, source, seed):
        if source == "user":
            return self._user
        if source in _REAL:
            return _real_data(source, seed)
        return _example_data(source)

    @staticmethod
    def score_range(data):
        """The threshold axis: from a little below the lowest score to a little above the highest."""
        lo, hi = float(data.scores.min()), float(data.scores.max())
        pad = 0.06 * (hi - lo) if hi > lo else 1.0
        return lo - pad, hi + pad

    def _compute(self, s):
        data = self._data(s["source"], s["seed"])
        lo, hi = self.score_range(data)
        threshold = lo + s["threshold"] * (hi - lo)
        curve = roc_curve(data.y, data.scores)
        cm = confusion(data.y, (data.scores >= threshold).astype(int))
        roc = s["view"] == "roc"
        hull = curve.convex_hull() if roc and s["hull"] else None
        operating = curve.operating_point(s["cost_fp"], s["cost_fn"]) if roc and s["iso_cost"] else None
        pr = None if roc else precision_recall_curve(data.y, data.scores)
        return RocView(data, threshold, cm, curve, hull, operating, pr, s["view"])

    # --- drawing -------------------------------------------------------------------------
    #
    # No control redraws the whole figure. What changes with the data set (the score axis)
    # or with the view and the switches (the ROC panel's axis names, diagonal and legend) is
    # drawn once per state in a stamp and pasted back when that state returns; so are the
    # texts of the confusion matrix, which most threshold moves leave as they were.

    def _build(self, figure):
        grid = figure.add_gridspec(2, 2, width_ratios=(1.25, 1), height_ratios=(1, 1))
        self.ax_scores = figure.add_subplot(grid[0, 0])
        self.ax_cm = figure.add_subplot(grid[1, 0])
        self.ax_curve = figure.add_subplot(grid[:, 1])

        ax = self.ax_scores
        ax.set_ylim(-0.6, 1.6)
        ax.set_yticks([0, 1], ["negative", "positive"])
        self.pos_dots = ax.scatter([], [], s=area(28), edgecolors=COLORS["data"], linewidths=points(1.2), zorder=3)
        self.neg_dots = ax.scatter([], [], s=area(28), marker="s", edgecolors=COLORS["theory"],
                                   linewidths=points(1.2), zorder=3)
        self.threshold_line = ax.axvline(0, color=COLORS["truth"], lw=points(1.5))
        # the words are drawn once; only the threshold after them is redrawn on each move
        ax.text(THRESHOLD_AT, 1.02, "predict + (filled dots) when score ≥", transform=ax.transAxes, ha="right")
        self.threshold_text = ax.text(THRESHOLD_AT, 1.02, "", ha="left",
                                      transform=offset_copy(ax.transAxes, figure, x=3, units="points"))
        self.score_axis = Stamp([ax.xaxis], region=axis_region(ax.xaxis))

        ax = self.ax_cm
        ax.set_xlim(0, 4.2)
        ax.set_ylim(0, 2.6)
        ax.axis("off")
        ax.text(1.5, 2.35, "predicted +", ha="center")
        ax.text(2.5, 2.35, "predicted −", ha="center")
        ax.text(0.95, 1.5, "actual +", ha="right", va="center")
        ax.text(0.95, 0.5, "actual −", ha="right", va="center")
        cells = {"tp": (1, 1, COLORS["good"]), "fn": (2, 1, COLORS["bad"]),
                 "fp": (1, 0, COLORS["bad"]), "tn": (2, 0, COLORS["good"])}
        self.cells = {}
        for name, (x, y, color) in cells.items():
            ax.add_patch(Rectangle(
                (x, y), 1, 1, facecolor=color, alpha=0.18, edgecolor="white", lw=points(2)))
            self.cells[name] = ax.text(x + 0.5, y + 0.5, "", ha="center", va="center", fontsize="large")
        # a table: the rates' names drawn once, their values (right-aligned) as they change,
        # one text a row so the rows line up whatever their glyphs
        self.rates = []
        for row, (label, _) in enumerate(RATES):
            name = ax.text(3.1, 1.0, label, va="center_baseline", fontsize="small")
            name.set_transform(offset_copy(ax.transData, figure, y=1.5 * name.get_fontsize() * (2 - row),
                                           units="points"))
            self.rates.append(ax.text(4.25, 1.0, "", ha="right", va="center_baseline", fontsize="small",
                                      transform=name.get_transform()))
        # under the table, only while precision is 0/0: why F1 is nevertheless 0
        # (out of the layout: a note that comes and goes must not move the panels)
        self.f1_note = ax.text(3.1, 1.0, "", va="center_baseline", fontsize="small", in_layout=False)
        self.f1_note.set_transform(offset_copy(ax.transData, figure, y=-1.5 * self.f1_note.get_fontsize() * 3,
                                               units="points"))
        # each text keyed by what it says: a move that keeps the counts pastes them
        self.count_stamps = [Stamp([text]) for text in (*self.cells.values(), *self.rates, self.f1_note)]

        ax = self.ax_curve
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.set_aspect("equal")
        self.diagonal = ax.plot([0, 1], [0, 1], color=COLORS["muted"], ls=":", lw=points(1))[0]
        (self.curve_line,) = ax.plot([], [], color=COLORS["data"], drawstyle="default", label="ROC curve")
        (self.hull_line,) = ax.plot([], [], color=COLORS["second"], ls="--", label="convex hull")
        # green, not the negatives' orange: the cheapest line and vertex are not about the negatives
        (self.iso_line,) = ax.plot([], [], color=COLORS["good"], ls="-.", label="iso-cost line")
        (self.point,) = ax.plot([], [], "o", color=COLORS["truth"], ms=points(8), label="current threshold", zorder=4)
        # drawn on top of the current point and hollow, so both stay visible when they coincide
        (self.best,) = ax.plot([], [], "D", color=COLORS["good"], ms=points(12), mfc="none", mew=points(2),
                               label="least expected cost", zorder=5)
        self.curve_title = ax.text(0.5, 1.02, "", transform=ax.transAxes, ha="center")
        # both views share the ticks (rates on [0, 1]): only the axes' names and what is inside change
        self.x_name, self.y_name = AxisLabel(ax.xaxis), AxisLabel(ax.yaxis)
        self.inside = Stamp([self.diagonal], region=ax.get_window_extent)
        self.curve_texts = [Stamp([text]) for text in (self.x_name, self.y_name, self.curve_title)]
        # the threshold line before the dots: a dot on the line stays whole (animated artists are
        # drawn in this order, whatever their zorder)
        self.dynamic(self.score_axis, self.inside, *self.curve_texts, *self.count_stamps,
                     self.threshold_line, self.pos_dots, self.neg_dots, self.threshold_text,
                     self.curve_line, self.hull_line, self.iso_line, self.best, self.point)
        self._data_shown = self._frame_shown = None

    def _frame(self, r):
        """Score axis, ROC panel axes and legend: they change only with the data and the view."""
        d = r.data
        data_key = (d.name, d.score_label, d.axis_label, d.y.tobytes(), d.scores.tobytes())
        if data_key != self._data_shown:
            self._data_shown = data_key
            self.ax_scores.set_xlabel(d.axis_label or f"{d.score_label} ({d.name})")
            self.ax_scores.set_xlim(*self.score_range(d))
        self.score_axis.show(data_key)
        # the precision-recall legend goes where the data's steps are not: it depends on the data
        # the legend lists only what is drawn: no "current threshold" where that point is undefined
        frame_key = (r.view, r.hull is not None, r.operating is not None, data_key if r.pr is not None else None,
                     r.point is not None)
        self.inside.show(frame_key)
        if frame_key == self._frame_shown:
            return
        self._frame_shown = frame_key
        ax = self.ax_curve
        if r.view == "roc":
            self.x_name.set_text("false-positive rate FP / N")
            self.y_name.set_text("true-positive rate TP / P")
        else:
            self.x_name.set_text("recall TP / P")
            self.y_name.set_text("precision TP / (TP + FP)")
        self.diagonal.set_visible(r.view == "roc")
        # only the corners of the PR steps are classifiers (Davis & Goadrich 2006); the steps' area is the AP
        self.curve_line.set_label("ROC curve" if r.view == "roc" else "precision-recall points (steps; area = AP)")
        shown = [self.curve_line] + ([self.point] if r.point is not None else [])
        if r.hull is not None:  # hull and costs are only computed in ROC space, when switched on
            shown.append(self.hull_line)
        if r.operating is not None:
            shown += [self.iso_line, self.best]
        if ax.get_legend() is not None:
            ax.get_legend().remove()
        self.inside.show(frame_key, [self.diagonal, _place_legend(ax, shown, r.pr)])

    def _draw(self, r):
        # before the legend is made: its handles copy the lines' visibility
        for artist, on in ((self.hull_line, r.hull is not None), (self.iso_line, r.operating is not None),
                           (self.best, r.operating is not None)):
            artist.set_visible(on)
        self._frame(r)
        d, cm = r.data, r.confusion
        jitter = 0.25 * np.sin(np.arange(d.y.size) * 2.39996)  # deterministic spread of the dots
        for dots, cls, color in ((self.pos_dots, 1, COLORS["data"]), (self.neg_dots, 0, COLORS["theory"])):
            s = d.scores[d.y == cls]
            dots.set_offsets(np.c_[s, cls + jitter[d.y == cls]])
            dots.set_facecolors([color if x >= r.threshold else "white" for x in s])
            dots.set_sizes([area(28 if d.y.size <= 60 else 12)])
        self.threshold_line.set_xdata([r.threshold] * 2)
        self.threshold_text.set_text(f"{r.threshold:.4g}")

        for name, text in self.cells.items():
            text.set_text(f"{name.upper()} = {getattr(cm, name)}")
        for text, (_, field) in zip(self.rates, RATES):
            text.set_text(_num(getattr(cm, field)))
        self.f1_note.set_text(_f1_formula(cm) if cm.tp + cm.fp == 0 else "")

        c = r.curve
        self.point.set_data(*(([], []) if r.point is None else ([r.point[0]], [r.point[1]])))
        if r.view == "roc":
            self.curve_line.set_data(c.fpr, c.tpr)
            self.curve_title.set_text(f"AUC = {c.auc:.3f}")
        else:
            # never straight lines between PR points (Davis & Goadrich 2006): the step curve's area is AP
            self.curve_line.set_data(*r.pr.achievable("steps"))
            if r.point is None:  # say why the current point is missing
                self.curve_title.set_text(f"average precision = {r.pr.average_precision:.3f} (area under the steps)"
                                          f"\nno current point: TP + FP = 0, precision undefined"
                                          f"\n(the steps' start at recall 0 is a drawing convention)")
            else:
                self.curve_title.set_text(f"average precision = {r.pr.average_precision:.3f}\n(area under the steps)")
        if r.hull is not None:
            self.hull_line.set_data(r.hull.fpr, r.hull.tpr)
        if r.operating is not None:
            op = r.operating
            self.iso_line.set_data(*_segment_in_unit_square(op.fpr, op.tpr, op.slope))
            self.best.set_data([op.fpr], [op.tpr])
            self.curve_title.set_text(f"AUC = {c.auc:.3f}\niso-cost slope c_FP·N / (c_FN·P) = {op.slope:.3g}")
        for stamp in (*self.count_stamps, *self.curve_texts):  # a text's pixels depend on what it says
            stamp.show(stamp.artists[0].get_text())

    def _summary(self, r):
        cm = r.confusion
        positive = f"positive ({r.data.positive})" if r.data.positive else "positive"
        text = (f"{r.data.name}: predicting {positive} when the score is at least {r.threshold:.4g} gives "
                f"TP = {cm.tp}, FP = {cm.fp}, TN = {cm.tn}, FN = {cm.fn}; true-positive rate {_num(cm.recall)}, "
                f"false-positive rate {_num(cm.fpr)}, precision {_precision(cm, r.data.positive)}, accuracy "
                f"{_num(cm.accuracy)}")
        if cm.tp + cm.fp == 0:  # F1 is shown beside an undefined precision: say why it is defined
            text += f", {_f1_formula(cm)}"
        text += f". The AUC is {r.auc:.3f}."
        if r.operating is not None:
            op = r.operating
            text += (f" With costs {op.cost_fp:.3g} (false positive) and {op.cost_fn:.3g} (false negative) the "
                     f"iso-cost slope is {op.slope:.3g}; the least expected cost, {op.expected_cost:.3g} per "
                     f"example, is at FPR {op.fpr:.3g}, TPR {op.tpr:.3g}.")
        if r.pr is not None:
            text += f" Average precision {r.pr.average_precision:.3f}."
            if r.point is None:
                text += " No current point is marked on the precision-recall curve."
            recall, precision = r.pr.achievable("steps")
            text += (f" The curve's first point, (recall 0, precision {precision[0]:.3g}), is a drawing convention: "
                     f"the first threshold's precision is held back to recall 0, where precision itself is 0/0.")
        return text


def _polyline(x, y, per_segment=50):
    """Points along the straight pieces joining (x, y), dense enough to test what a box covers."""
    s = np.linspace(0.0, 1.0, per_segment)[:, None]
    return (x[:-1] + s * np.diff(x)).ravel(), (y[:-1] + s * np.diff(y)).ravel()


def _place_legend(ax, handles, pr):
    """A legend where it covers none of the precision-recall steps, if any candidate place does.

    ROC curves run from the lower left to the upper right, so their legend sits lower right. A
    precision-recall curve may pass anywhere: try the places in turn and keep the first free one."""
    if pr is None:
        return ax.legend(handles=handles, loc="lower right", fontsize="small")
    x, y = _polyline(*pr.achievable("steps"))
    renderer = ax.figure.canvas.get_renderer()
    for loc in ("upper right", "center right", "lower left", "center", "lower right"):
        legend = ax.legend(handles=handles, loc=loc, fontsize="small")
        box = legend.get_window_extent(renderer).transformed(ax.transData.inverted())
        if not np.any((x > box.x0) & (x < box.x1) & (y > box.y0) & (y < box.y1)):
            break
    return legend


def _segment_in_unit_square(x0, y0, slope):
    """The part of the line through (x0, y0) with this slope that lies in ROC space [0, 1] x [0, 1]."""
    # x range where 0 <= y0 + slope (x - x0) <= 1, intersected with [0, 1]
    x_lo, x_hi = x0 - y0 / slope, x0 + (1 - y0) / slope
    x = np.clip(np.array([x_lo, x_hi]), 0.0, 1.0)
    return x, y0 + slope * (x - x0)


def _num(x):
    return "undefined" if math.isnan(x) else f"{x:.3f}"


def _f1_formula(cm):
    """F1 from the counts, defined (0 when TP = 0) even where precision is 0/0."""
    return f"F1 = 2TP/(2TP+FP+FN) = {'0' if cm.f1 == 0 else _num(cm.f1)}"


def _precision(cm, positive=""):
    """Precision for a sentence: with no example predicted positive it is 0/0, and says so."""
    if cm.tp + cm.fp == 0:
        named = f"positive, i.e. {positive}," if positive else "positive,"
        return f"undefined (no example is predicted {named} so TP / (TP + FP) = 0/0)"
    return _num(cm.precision)
