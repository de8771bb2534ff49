"""Confusion counts, precision at a share of positives, ROC analysis, AUC and its interval, precision-recall and cost curves.

Conventions (as in Fawcett 2006 and scikit-learn): class 1 is positive; a scoring
classifier predicts positive when ``score >= threshold``. The ROC curve has one point
per distinct score, starting at (0, 0) with threshold ``+inf`` (predict nothing
positive); tied scores move the curve in one diagonal step. A rate whose denominator
is zero (e.g. precision when nothing is predicted positive) is undefined: it is
``nan`` and shows as "undefined".
"""
from __future__ import annotations

import math
from dataclasses import field

import numpy as np
from scipy import stats as _st

from .. import _validate as v
from .._format import fmt, p_text, pct, plain
from .._result import Explanation, Result, WithInterval, WithPValue, draws, result
from .intervals import z_critical

__all__ = [
    "confusion", "Confusion", "precision_at_prevalence", "PrecisionAtPrevalence", "roc_curve", "RocCurve",
    "OperatingPoint", "precision_recall_curve", "PrecisionRecallCurve", "cost_curve", "CostCurve", "auc", "auc_interval", "AucInterval",
    "delong_test", "DelongResult", "multiclass_auc", "MulticlassAuc", "lift_chart", "LiftChart",
]

AUC_METHODS = ("hanley-mcneil", "delong")


def _ratio(a, b):
    return a / b if b > 0 else float("nan")


def _show(x):
    return r"\text{undefined}" if math.isnan(x) else fmt(x)


def _labels_scores(y_true, scores):
    y = v.binary_labels("y_true", y_true)
    s = v.array("scores", scores)
    v.same_length(y_true=y, scores=s)
    return y, s


# --------------------------------------------------------------------------- confusion


@result
class Confusion(Result):
    """Confusion counts of a binary classifier and the rates built from them.

    Attributes
    ----------
    tp, fp, tn, fn : int
        The confusion counts.
    accuracy, error_rate : float
        ``(tp + tn) / n`` and ``(fp + fn) / n``.
    precision, recall, specificity, fpr : float
        The rates (NaN where the denominator is 0).
    f1 : float
        ``2 tp / (2 tp + fp + fn)``.
    """

    tp: int
    fp: int
    tn: int
    fn: int
    accuracy: float
    error_rate: float
    precision: float
    recall: float
    specificity: float
    fpr: float
    f1: float

    def _explain(self):
        tp, fp, tn, fn = self.tp, self.fp, self.tn, self.fn
        formulas = [r"\text{precision} = \frac{TP}{TP+FP},\quad \text{recall} = TPR = \frac{TP}{TP+FN},"
                    r"\quad FPR = \frac{FP}{FP+TN} = 1 - \text{specificity},\quad F_1 = \frac{2TP}{2TP+FP+FN}"]
        steps = [
            rf"TP = {tp},\ FP = {fp},\ TN = {tn},\ FN = {fn},\quad \text{{accuracy}} = "
            rf"\frac{{{tp}+{tn}}}{{{tp + fp + tn + fn}}} = {fmt(self.accuracy)}",
            rf"\text{{precision}} = \frac{{{tp}}}{{{tp + fp}}} = {_show(self.precision)},\quad "
            rf"\text{{recall}} = \frac{{{tp}}}{{{tp + fn}}} = {_show(self.recall)},\quad "
            rf"FPR = \frac{{{fp}}}{{{fp + tn}}} = {_show(self.fpr)},\quad F_1 = {_show(self.f1)}",
        ]
        verdict = (f"The classifier is right on {pct(self.accuracy)} of the {tp + fp + tn + fn} examples; "
                   f"it finds {pct(self.recall) if not math.isnan(self.recall) else 'an undefined share'} "
                   f"of the positives at a false-positive rate of "
                   f"{pct(self.fpr) if not math.isnan(self.fpr) else 'undefined'}.")
        return Explanation("Confusion matrix", formulas, steps, verdict)


def confusion(y_true, y_pred):
    """Confusion counts and rates of binary predictions (Fawcett 2006, Fig. 1).

    Rates with a zero denominator (precision with no positive predictions, recall with
    no positives, FPR/specificity with no negatives) are ``nan`` ("undefined").
    F1 is ``2TP / (2TP + FP + FN)``, which equals the harmonic mean of precision and
    recall whenever both are defined and is 0 (not undefined) when TP = 0.

    Examples
    --------
    >>> c = confusion([1, 1, 0, 0, 1], [1, 0, 0, 1, 1])
    >>> c.tp, c.fp, c.tn, c.fn, c.accuracy
    (2, 1, 1, 1, 0.6)
    """
    y = v.binary_labels("y_true", y_true, need_both=False)
    p = v.binary_labels("y_pred", y_pred, need_both=False)
    v.same_length(y_true=y, y_pred=p)
    tp = int(np.sum((y == 1) & (p == 1)))
    fp = int(np.sum((y == 0) & (p == 1)))
    tn = int(np.sum((y == 0) & (p == 0)))
    fn = int(np.sum((y == 1) & (p == 0)))
    n = y.size
    return Confusion(tp, fp, tn, fn, (tp + tn) / n, (fp + fn) / n, _ratio(tp, tp + fp), _ratio(tp, tp + fn),
                     _ratio(tn, tn + fp), _ratio(fp, fp + tn), _ratio(2 * tp, 2 * tp + fp + fn))


@result
class PrecisionAtPrevalence(Result):
    """Precision and accuracy of a classifier moved to another share of positives.

    Attributes
    ----------
    recall, specificity, prevalence : float
        The classifier's rates and the share of positives, as given.
    precision : float
        Its precision at that share (NaN if it never predicts positive).
    accuracy : float
        Its accuracy at that share.
    fpr : float
        ``1 - specificity``.
    tp, fp, tn, fn : float
        The expected counts among ``n`` cases.
    n : int
        The number of cases for the counts.
    """

    recall: float
    specificity: float
    prevalence: float
    precision: float
    accuracy: float
    fpr: float
    tp: float
    fp: float
    tn: float
    fn: float
    n: int

    def _explain(self):
        r, s, pi, n = self.recall, self.specificity, self.prevalence, self.n
        formulas = [r"\text{precision} = \frac{\text{recall}\cdot\pi}{\text{recall}\cdot\pi + "
                    r"(1 - \text{specificity})(1 - \pi)},\quad \text{accuracy} = \text{recall}\cdot\pi + "
                    r"\text{specificity}\,(1 - \pi),\quad \pi = \text{share of positives}"]
        steps = [
            rf"\text{{precision}} = \frac{{{fmt(r)} \cdot {fmt(pi)}}}{{{fmt(r)} \cdot {fmt(pi)} + "
            rf"(1 - {fmt(s)})(1 - {fmt(pi)})}} = {_show(self.precision)},\quad \text{{accuracy}} = "
            rf"{fmt(r)} \cdot {fmt(pi)} + {fmt(s)}\,(1 - {fmt(pi)}) = {fmt(self.accuracy)}",
            rf"\text{{expected among }} {n} \text{{ cases: }} TP = {fmt(self.tp)},\ FP = {fmt(self.fp)},\ "
            rf"TN = {fmt(self.tn)},\ FN = {fmt(self.fn)}",
        ]
        if math.isnan(self.precision):
            verdict = (f"A classifier that never says \"positive\" (recall 0, specificity 1) has no positive "
                       f"verdicts to be right about: its precision is undefined at any share of positives. "
                       f"Its accuracy with {pct(pi)} positives is {pct(self.accuracy)}.")
        else:
            verdict = (f"With {pct(pi)} positives, a classifier with recall {plain(r)} and specificity "
                       f"{plain(s)} is right in {pct(self.precision)} of its positive verdicts (about "
                       f"{plain(self.tp)} true against {plain(self.fp)} false alarms in {n} cases), and its "
                       f"accuracy is {pct(self.accuracy)}: recall and specificity do not depend on the share of "
                       f"positives, precision and accuracy do.")
        return Explanation("Precision at a share of positives", formulas, steps, verdict)


def precision_at_prevalence(recall, specificity, prevalence, n=1000):
    """Precision and accuracy of a classifier at another share of positives.

    Recall (the true-positive rate) and specificity are each computed within one class,
    so they describe the classifier whatever the class ratio. Precision and accuracy mix
    the classes. With a share ``pi`` of positives, Bayes' theorem gives

    ``precision = recall * pi / (recall * pi + (1 - specificity) * (1 - pi))`` and
    ``accuracy = recall * pi + specificity * (1 - pi)``.

    Parameters
    ----------
    recall : float
        True-positive rate, in [0, 1].
    specificity : float
        True-negative rate (1 - false-positive rate), in [0, 1].
    prevalence : float
        Share of positives in the population the classifier will meet, in (0, 1).
    n : int, optional
        Number of cases for the expected counts ``tp``, ``fp``, ``tn`` and ``fn``
        (natural frequencies, e.g. "26 false alarms in 1000 cases"); the rates do not
        depend on it.

    Returns
    -------
    PrecisionAtPrevalence
        ``precision`` (``nan`` when the classifier never predicts positive, i.e.
        recall 0 and specificity 1), ``accuracy``, ``fpr`` and the expected counts.

    Notes
    -----
    The expected counts are not rounded to whole cases, so on a finite test set whose
    counts must be whole the rates can differ in the third decimal.

    Sources: D. G. Altman and J. M. Bland, "Diagnostic tests 2: predictive values",
    *BMJ* 309, 1994; T. Fawcett, "An introduction to ROC analysis", *Pattern Recognition
    Letters* 27, 2006 (class skew changes precision, not the ROC point); Scott's slides
    (after Mitchell), "Evaluating hypotheses": h_B at 2% positives.

    Examples
    --------
    >>> r = precision_at_prevalence(0.95, 930 / 980, 0.02)   # Scott's h_B, 20 positives in 1000
    >>> round(r.precision, 3), round(precision_at_prevalence(0.95, 930 / 980, 0.5).precision, 3)
    (0.275, 0.949)
    """
    r = v.probability("recall", recall)
    s = v.probability("specificity", specificity)
    pi = v.probability("prevalence", prevalence, open_low=True, open_high=True)
    n = v.integer("n", n, low=1)
    tp, fn = n * r * pi, n * (1 - r) * pi
    tn, fp = n * s * (1 - pi), n * (1 - s) * (1 - pi)
    return PrecisionAtPrevalence(r, s, pi, _ratio(r * pi, r * pi + (1 - s) * (1 - pi)),
                                 r * pi + s * (1 - pi), 1 - s, tp, fp, tn, fn, n)


# --------------------------------------------------------------------------- ROC


def _cumulative_counts(y, s):
    """Distinct thresholds (descending) and the TP, FP counts of ``score >= threshold``."""
    order = np.argsort(-s, kind="mergesort")
    s, y = s[order], y[order]
    last = np.r_[np.nonzero(np.diff(s))[0], s.size - 1]  # last index of each tied block
    tps = np.cumsum(y)[last]
    fps = (last + 1) - tps
    return s[last], tps, fps


def _trapezoid(x, y):
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))


def _upper_hull(x, y):
    """Indices of the vertices of the upper convex hull of points sorted by x then y."""
    keep = []
    for i in range(len(x)):
        while len(keep) >= 2:
            o, a = keep[-2], keep[-1]
            cross = (x[a] - x[o]) * (y[i] - y[o]) - (y[a] - y[o]) * (x[i] - x[o])
            if cross < -1e-12:
                break
            keep.pop()  # a lies on or below the segment o -> i
        keep.append(i)
    return np.array(keep)


@result
class OperatingPoint(Result):
    """The ROC convex-hull point of least expected cost for given error costs.

    Attributes
    ----------
    fpr, tpr : float
        The hull point of least expected cost.
    threshold : float
        Its threshold.
    slope : float
        The iso-cost lines' slope ``cost_fp N / (cost_fn P)``.
    expected_cost : float
        Its expected cost per example.
    cost_fp, cost_fn : float
        The costs given.
    n_pos, n_neg : int
        The numbers of positives and negatives.
    """

    fpr: float
    tpr: float
    threshold: float
    slope: float
    expected_cost: float
    cost_fp: float
    cost_fn: float
    n_pos: int
    n_neg: int

    def _explain(self):
        P, N = self.n_pos, self.n_neg
        formulas = [r"m = \frac{c_{FP}\,N}{c_{FN}\,P},\qquad "
                    r"\text{cost} = \frac{c_{FP}\,FPR\,N + c_{FN}\,(1 - TPR)\,P}{P + N}"]
        steps = [rf"m = \frac{{{fmt(self.cost_fp)} \cdot {N}}}{{{fmt(self.cost_fn)} \cdot {P}}} = {fmt(self.slope)}",
                 rf"\text{{cost}} = \frac{{{fmt(self.cost_fp)} \cdot {fmt(self.fpr)} \cdot {N} + {fmt(self.cost_fn)}"
                 rf" \cdot (1 - {fmt(self.tpr)}) \cdot {P}}}{{{P + N}}} = {fmt(self.expected_cost)}"]
        if math.isinf(self.threshold):
            rule = "predict every example negative"
        else:
            rule = f"predict positive when the score is at least {fmt(self.threshold)}"
        verdict = (f"An iso-cost line of slope {plain(self.slope)} first touches the hull at "
                   f"(FPR, TPR) = ({plain(self.fpr)}, {plain(self.tpr)}): {rule}, "
                   f"for an expected cost of {plain(self.expected_cost)} per example.")
        return Explanation("Cost-optimal operating point", formulas, steps, verdict)


@result
class RocCurve(Result):
    """An ROC curve (or its convex hull): one point per threshold, from (0, 0) to (1, 1).

    Attributes
    ----------
    fpr, tpr : ndarray
        The points, from (0, 0) to (1, 1).
    thresholds : ndarray
        Each point's threshold (``inf`` first: predict nothing positive).
    auc : float
        The area under the curve.
    n_pos, n_neg : int
        The numbers of positives and negatives.
    hull : bool
        Whether this is a convex hull.
    """

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray
    auc: float
    n_pos: int
    n_neg: int
    hull: bool = False

    def convex_hull(self):
        """The ROC convex hull: the vertices of the upper hull of the curve's points.

        Every classifier on the hull is optimal for some class ratio and costs;
        points below it never are (Provost & Fawcett 2001).
        """
        keep = _upper_hull(self.fpr, self.tpr)
        fpr, tpr = self.fpr[keep], self.tpr[keep]
        return RocCurve(fpr, tpr, self.thresholds[keep], _trapezoid(fpr, tpr), self.n_pos,
                        self.n_neg, True)

    def operating_point(self, cost_fp=1, cost_fn=1):
        """The hull point with the least expected cost for the data's class ratio.

        Slide an iso-cost line of slope ``cost_fp * N / (cost_fn * P)`` down from the top
        left corner; the first hull vertex it touches minimises
        ``(cost_fp * FP + cost_fn * FN) / (P + N)``. Ties go to the higher threshold.
        """
        c_fp = v.real("cost_fp", cost_fp, low=0, low_open=True)
        c_fn = v.real("cost_fn", cost_fn, low=0, low_open=True)
        h = self if self.hull else self.convex_hull()
        P, N = self.n_pos, self.n_neg
        cost = (c_fp * h.fpr * N + c_fn * (1 - h.tpr) * P) / (P + N)
        i = int(np.argmin(cost))
        return OperatingPoint(float(h.fpr[i]), float(h.tpr[i]), float(h.thresholds[i]), c_fp * N / (c_fn * P),
                              float(cost[i]), c_fp, c_fn, P, N)

    def _explain(self):
        P, N = self.n_pos, self.n_neg
        what = "ROC convex hull" if self.hull else "ROC curve"
        formulas = [r"TPR(t) = \frac{TP(t)}{P},\quad FPR(t) = \frac{FP(t)}{N},\quad "
                    r"AUC = \sum_i (FPR_i - FPR_{i-1})\,\frac{TPR_i + TPR_{i-1}}{2}"]
        steps = [rf"P = {P},\ N = {N},\ \text{{{len(self.fpr)} points}}"]
        if len(self.fpr) <= 12:
            points = r",\ ".join(f"({fmt(a, 3)}, {fmt(b, 3)})" for a, b in zip(self.fpr, self.tpr))
            steps.append(rf"(FPR, TPR):\ {points}")
        steps.append(rf"AUC = {fmt(self.auc)}")
        pairs = P * N
        verdict = (f"The area under the {what} is {plain(self.auc)}: in this test set a positive outscores a "
                   f"negative in {plain(self.auc * pairs)} of the {pairs} (positive, negative) pairs (ties count "
                   f"half). It estimates the probability that a random positive outscores a random negative "
                   f"(0.5 is chance, 1 is perfect ranking)."
                   if not self.hull else
                   f"The hull keeps {len(self.fpr)} points; its area is {plain(self.auc)}.")
        return Explanation(what[0].upper() + what[1:], formulas, steps, verdict)

    @draws("roc", "roc_curve")
    def plot(self, ax=None, costs=None):
        """Draw the ROC curve with its convex hull, and optionally an iso-cost line.

        The curve (a point per threshold when there are few) with its AUC, the diagonal of
        random scores, the convex hull (the classifiers optimal for some costs and class
        ratio), and with ``costs`` the iso-cost line of slope ``cost_fp N / (cost_fn P)``
        through the hull point of least expected cost (``operating_point``).

        Parameters
        ----------
        costs : (cost_fp, cost_fn), optional
            The costs of a false positive and a false negative.

        References
        ----------
        Fawcett (2006), "An introduction to ROC analysis", Pattern Recognition Letters 27;
        Provost & Fawcett (2001), Machine Learning 42.

        Examples
        --------
        >>> from evalteach.stats.examples import fawcett_roc_example
        >>> roc_curve(*fawcett_roc_example()).plot(costs=(1, 2))  # doctest: +SKIP
        """


def roc_curve(y_true, scores):
    """The ROC curve of a scoring classifier (Fawcett 2006, Algorithm 1).

    Parameters
    ----------
    y_true : array_like of 0/1
        True classes (1 = positive); both classes must occur.
    scores : array_like of float
        Higher means "more positive" (an SVM's w.x, a probability, ...).

    Returns
    -------
    RocCurve
        ``fpr, tpr, thresholds`` (``thresholds[0] = inf``, then the distinct scores in
        decreasing order), ``auc``, ``n_pos, n_neg``; methods ``convex_hull()`` and
        ``operating_point(cost_fp, cost_fn)``. Equals scikit-learn's ``roc_curve`` with
        ``drop_intermediate=False``.

    Examples
    --------
    >>> r = roc_curve([1, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.2])
    >>> r.tpr.tolist(), r.auc
    ([0.0, 0.3333333333333333, 0.6666666666666666, 0.6666666666666666, 1.0, 1.0], 0.8333333333333333)
    """
    y, s = _labels_scores(y_true, scores)
    thresholds, tps, fps = _cumulative_counts(y, s)
    P, N = int(tps[-1]), int(fps[-1])
    fpr, tpr = np.r_[0.0, fps / N], np.r_[0.0, tps / P]
    return RocCurve(fpr, tpr, np.r_[np.inf, thresholds], _trapezoid(fpr, tpr), P, N)


# --------------------------------------------------------------------------- precision-recall


PR_INTERPOLATIONS = ("steps", "roc")


@result
class PrecisionRecallCurve(Result):
    """Precision and recall at each distinct threshold, with average precision.

    Attributes
    ----------
    precision, recall : ndarray
        The points, one per threshold.
    thresholds : ndarray
        The distinct scores, from the highest down.
    average_precision : float
        ``sum (R_i - R_(i-1)) P_i``.
    n_pos : int
        The number of positives.
    tps, fps : ndarray
        The true and false positives at each threshold.
    """

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray
    average_precision: float
    n_pos: int
    tps: np.ndarray = field(repr=False)
    fps: np.ndarray = field(repr=False)

    def achievable(self, interpolation="steps", points_per_segment=20):
        """The achievable precision-recall curve, as (recall, precision) arrays to draw.

        Joining PR points with straight lines is wrong and optimistic (Davis & Goadrich 2006).

        Parameters
        ----------
        interpolation : {"steps", "roc"}
            "steps": precision ``P_i`` held over each recall interval ``(R_{i-1}, R_i]``, the
            curve whose area is exactly ``average_precision``. Only its corners are
            classifiers; between them a coin flip achieves the "roc" curve, which lies above
            the steps and below the straight line. "roc": Davis & Goadrich's
            interpolation, made in ROC space: between neighbouring thresholds TP and FP
            grow together linearly (the classifiers a coin flip between the two thresholds
            achieves), so precision ``TP / (TP + FP)`` follows a curve, not a line.
        points_per_segment : int
            Points per segment for "roc".

        Returns
        -------
        recall, precision : ndarray
            Starting at recall 0 (with the precision that the first segment approaches)
            and passing through every point of the curve.
        """
        v.choice("interpolation", interpolation, PR_INTERPOLATIONS)
        k = v.integer("points_per_segment", points_per_segment, low=1)
        if interpolation == "steps":
            recall = np.repeat(np.r_[0.0, self.recall], 2)[1:-1]
            return recall, np.repeat(self.precision, 2)
        tp0, fp0 = np.r_[0.0, self.tps[:-1]], np.r_[0.0, self.fps[:-1]]
        t = np.arange(1, k + 1) / k
        tp = (tp0[:, None] + t * (self.tps - tp0)[:, None]).ravel()
        fp = (fp0[:, None] + t * (self.fps - fp0)[:, None]).ravel()
        first = self.tps[0] / (self.tps[0] + self.fps[0])  # the limit of TP/(TP+FP) along the first segment
        return np.r_[0.0, tp / self.n_pos], np.r_[first, tp / (tp + fp)]

    def _explain(self):
        formulas = [r"AP = \sum_i (R_i - R_{i-1})\,P_i,\qquad R_0 = 0"]
        steps = [rf"AP = {fmt(self.average_precision)}\ \text{{over {len(self.thresholds)} thresholds}}"]
        base = self.precision[-1]  # everything predicted positive: the share of positives
        verdict = (f"Average precision is {plain(self.average_precision)}, against {plain(base)} for "
                   f"random scores (the share of positives).")
        return Explanation("Precision-recall curve", formulas, steps, verdict)

    @draws("roc", "precision_recall_curve")
    def plot(self, ax=None):
        """Draw the achievable precision-recall curve as steps, with the random-scores baseline.

        Precision held over each recall interval (``achievable("steps")``, whose area is
        ``average_precision``); the thresholds' points when there are few; the share of
        positives, the precision of random scores, as a dashed line. Points are never
        joined by straight lines, which would overstate precision (Davis & Goadrich 2006).

        References
        ----------
        Davis & Goadrich (2006), "The relationship between precision-recall and ROC
        curves", ICML.

        Examples
        --------
        >>> from evalteach.stats.examples import fawcett_roc_example
        >>> precision_recall_curve(*fawcett_roc_example()).plot()  # doctest: +SKIP
        """


def precision_recall_curve(y_true, scores):
    """Precision and recall when predicting positive for ``score >= t``, for each distinct ``t``.

    Thresholds run from the highest score down (recall increases); no point is added
    at recall 0, where precision is undefined. ``average_precision`` is
    ``sum (R_i - R_{i-1}) P_i`` as in scikit-learn (a step, not trapezoid, integral);
    ``achievable()`` gives the curve to draw (Davis & Goadrich 2006), never straight
    lines between the points.

    Examples
    --------
    >>> c = precision_recall_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> c.precision.tolist(), round(c.average_precision, 4)
    ([1.0, 0.5, 0.6666666666666666, 0.5], 0.8333)
    """
    y, s = _labels_scores(y_true, scores)
    thresholds, tps, fps = _cumulative_counts(y, s)
    precision, recall = tps / (tps + fps), tps / tps[-1]
    ap = float(np.sum(np.diff(np.r_[0.0, recall]) * precision))
    return PrecisionRecallCurve(precision, recall, thresholds, ap, int(tps[-1]), tps, fps)


# --------------------------------------------------------------------------- cost curve


def _normalised_costs(fpr, fnr, pc):
    return fnr[:, None] * pc + fpr[:, None] * (1 - pc)


@result
class CostCurve(Result):
    """Drummond and Holte's cost curve: each ROC point is a line, the classifier their lower envelope.

    Attributes
    ----------
    probability_cost : ndarray
        The grid of PC(+) in [0, 1].
    envelope : ndarray
        The lower envelope's normalised expected cost on the grid.
    fpr, fnr : ndarray
        The ROC points' rates, one line each.
    thresholds : ndarray
        Their thresholds.
    """

    probability_cost: np.ndarray
    envelope: np.ndarray
    fpr: np.ndarray
    fnr: np.ndarray
    thresholds: np.ndarray

    @property
    def useful(self):
        """Where the classifier beats both trivial ones: envelope below ``min(PC, 1 - PC)``
        (Drummond & Holte 2006), a boolean array over ``probability_cost``."""
        pc = self.probability_cost
        return self.envelope < np.minimum(pc, 1 - pc) - 1e-12

    def lines(self):
        """Normalised expected cost of every ROC point on the grid, shape (points, grid)."""
        return _normalised_costs(self.fpr, self.fnr, self.probability_cost)

    def _explain(self):
        formulas = [r"PC(+) = \frac{p(+)\,C(-|+)}{p(+)\,C(-|+) + p(-)\,C(+|-)},\qquad "
                    r"NE[C] = (1 - TPR)\,PC(+) + FPR\,(1 - PC(+))"]
        worst = float(np.max(self.envelope))
        steps = [rf"\text{{{len(self.fpr)} lines; lower envelope}}\ \max_{{PC}} NE = {fmt(worst)}"]
        index = np.flatnonzero(self.useful)
        if index.size:
            pc = self.probability_cost
            where = (f"for PC(+) from {plain(pc[index[0]])} to {plain(pc[index[-1]])}"
                     if index[-1] - index[0] + 1 == index.size else
                     f"at {index.size} of the {pc.size} grid values of PC(+)")
            verdict = (f"The classifier beats both trivial classifiers (its envelope lies below min(PC, 1 − PC)) "
                       f"{where}; elsewhere always predicting one class costs no more. Its worst normalised "
                       f"expected cost is {plain(worst)}.")
        else:
            verdict = ("The envelope never lies below min(PC, 1 − PC): for every operating condition one of the "
                       "trivial classifiers (always positive or always negative) costs no more.")
        return Explanation("Cost curve", formulas, steps, verdict)

    @draws("roc", "cost_curve")
    def plot(self, ax=None):
        """Draw Drummond and Holte's cost curve: one line per operating point, their envelope, the trivial ones.

        Each ROC point is the line from (0, FPR) to (1, 1 - TPR); their lower envelope is
        the classifier's cost curve; "always negative" is the line NE = PC(+) and "always
        positive" NE = 1 - PC(+). Where the envelope lies below both (``useful``), the gap
        is filled.

        References
        ----------
        Drummond & Holte (2006), "Cost curves: an improved method for visualizing
        classifier performance", Machine Learning 65.

        Examples
        --------
        >>> from evalteach.stats.examples import fawcett_roc_example
        >>> cost_curve(*fawcett_roc_example()).plot()  # doctest: +SKIP
        """


def cost_curve(y_true, scores, grid=101):
    """Cost curve of a scoring classifier (Drummond & Holte 2006).

    Each ROC point (FPR, TPR) becomes the line from (0, FPR) to (1, 1 - TPR) in the
    plane of probability-cost ``PC(+)`` against normalised expected cost; the lower
    envelope of the lines, on ``grid`` evenly spaced values of ``PC(+)`` in [0, 1], is
    the cost of the best threshold for each operating condition. The points (0, 0)
    and (1, 1) give the trivial "always negative"/"always positive" lines.

    Examples
    --------
    >>> c = cost_curve([1, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.2], grid=3)
    >>> c.envelope.round(4).tolist()
    [0.0, 0.1667, 0.0]
    """
    r = roc_curve(y_true, scores)
    g = v.integer("grid", grid, low=2)
    pc = np.linspace(0.0, 1.0, g)
    fnr = 1 - r.tpr
    return CostCurve(pc, _normalised_costs(r.fpr, fnr, pc).min(axis=0), r.fpr, fnr, r.thresholds)


# --------------------------------------------------------------------------- AUC


def _placement_values(y, s):
    """DeLong's structural components via midranks (Sun & Xu 2014).

    ``v10[i]``: share of negatives scored below positive i (ties 1/2);
    ``v01[j]``: share of positives scored above negative j (ties 1/2).
    """
    pos, neg = s[y == 1], s[y == 0]
    ranks = _st.rankdata(np.r_[pos, neg])
    m, n = pos.size, neg.size
    v10 = (ranks[:m] - _st.rankdata(pos)) / n
    v01 = 1.0 - (ranks[m:] - _st.rankdata(neg)) / m
    return v10, v01


def auc(y_true, scores):
    """Area under the ROC curve as the Mann-Whitney statistic: P(score+ > score-), ties 1/2.

    Equals ``sum_{x+} sum_{x-} [I(s+ > s-) + I(s+ = s-)/2] / (P N)`` and the
    trapezoid area of :func:`roc_curve`.

    Examples
    --------
    >>> auc([1, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.2])
    0.8333333333333334
    """
    y, s = _labels_scores(y_true, scores)
    return float(np.mean(_placement_values(y, s)[0]))


@result
class AucInterval(WithInterval, Result):
    """A confidence interval for the AUC.

    Attributes
    ----------
    estimate : float
        The AUC.
    low, high : float
        The interval, clipped to [0, 1]; ``confidence_interval()`` gives both.
    confidence : float
        The level asked for.
    method : {"hanley-mcneil", "delong"}
        The standard error's method.
    se : float
        The AUC's standard error.
    n_pos, n_neg : int
        The numbers of positives and negatives.
    """

    estimate: float
    low: float
    high: float
    confidence: float
    method: str
    se: float
    n_pos: int
    n_neg: int

    def _explain(self):
        A, P, N = self.estimate, self.n_pos, self.n_neg
        z = z_critical(self.confidence)
        if self.method == "hanley-mcneil":
            formulas = [r"SE^2 = \frac{A(1-A) + (P-1)(Q_1 - A^2) + (N-1)(Q_2 - A^2)}{PN},\quad "
                        r"Q_1 = \frac{A}{2-A},\ Q_2 = \frac{2A^2}{1+A}"]
            q1, q2 = A / (2 - A), 2 * A * A / (1 + A)
            steps = [rf"Q_1 = {fmt(q1)},\ Q_2 = {fmt(q2)},\quad SE = \sqrt{{\frac{{{fmt(A)}(1-{fmt(A)}) + "
                     rf"{P - 1}({fmt(q1)} - {fmt(A)}^2) + {N - 1}({fmt(q2)} - {fmt(A)}^2)}}{{{P} \cdot {N}}}}}"
                     rf" = {fmt(self.se)}"]
            title = "Hanley-McNeil interval for the AUC"
        else:
            formulas = [r"V_{10}(x_i) = \frac{1}{N}\sum_j \psi(x_i, y_j),\ V_{01}(y_j) = \frac{1}{P}\sum_i "
                        r"\psi(x_i, y_j),\quad SE^2 = \frac{s^2_{10}}{P} + \frac{s^2_{01}}{N}"]
            steps = [rf"SE = {fmt(self.se)}\quad (P = {P},\ N = {N})"]
            title = "DeLong interval for the AUC"
        steps.append(rf"{fmt(A)} \pm {fmt(z)} \times {fmt(self.se)} = [{fmt(self.low)},\ {fmt(self.high)}]")
        verdict = (f"The {pct(self.confidence)} interval for the true AUC is [{plain(self.low)}, {plain(self.high)}] "
                   f"(about {pct(self.confidence)} of intervals built this way cover it)"
                   + ("; it lies above 0.5, so the ranking is better than chance." if self.low > 0.5 else
                      "; it includes 0.5, so the data do not rule out chance ranking." if self.high >= 0.5 else "."))
        return Explanation(title, formulas, steps, verdict)


def auc_interval(y_true, scores, confidence=0.95, method="hanley-mcneil"):
    """Normal-approximation confidence interval for the AUC, clipped to [0, 1].

    Parameters
    ----------
    method : {"hanley-mcneil", "delong"}
        Hanley & McNeil (1982) approximate the score distributions by exponentials;
        DeLong, DeLong & Clarke-Pearson (1988) estimate the variance of the
        Mann-Whitney statistic from its structural components (needs P, N >= 2).

    Returns
    -------
    AucInterval
        ``estimate, low, high, confidence, method, se, n_pos, n_neg``.

    Examples
    --------
    >>> r = auc_interval([1, 1, 0, 1, 0, 0, 1, 0], [9, 8, 7, 6, 5, 4, 3, 1])
    >>> round(r.estimate, 4), round(r.se, 4)
    (0.75, 0.1839)
    """
    c = v.confidence("confidence", confidence)
    v.choice("method", method, AUC_METHODS)
    y, s = _labels_scores(y_true, scores)
    v10, v01 = _placement_values(y, s)
    A, P, N = float(np.mean(v10)), v10.size, v01.size
    if method == "hanley-mcneil":
        q1, q2 = A / (2 - A), 2 * A * A / (1 + A)
        se = math.sqrt(max(A * (1 - A) + (P - 1) * (q1 - A * A) + (N - 1) * (q2 - A * A), 0.0) / (P * N))
    else:
        if min(P, N) < 2:
            raise ValueError(f"y_true must hold at least 2 examples of each class for DeLong, got P={P}, N={N}")
        se = math.sqrt(np.var(v10, ddof=1) / P + np.var(v01, ddof=1) / N)
    z = z_critical(c)
    return AucInterval(A, max(A - z * se, 0.0), min(A + z * se, 1.0), c, method, se, P, N)


# --------------------------------------------------------------------------- two correlated AUCs


@result
class DelongResult(WithPValue, WithInterval, Result):
    """DeLong's test of two correlated AUCs measured on the same test set.

    Attributes
    ----------
    auc_a, auc_b : float
        The two AUCs.
    difference : float
        ``auc_a - auc_b``.
    se : float
        DeLong's standard error of the difference.
    statistic : float
        z.
    p_value : float
        The two-sided p-value; ``pvalue`` is the same.
    low, high : float
        The interval for the difference; ``confidence_interval()`` gives both.
    confidence : float
        The level asked for.
    correlation : float
        The correlation of the two AUCs.
    n_pos, n_neg : int
        The numbers of positives and negatives.
    roc_a, roc_b : RocCurve
        The two ROC curves.
    """

    auc_a: float
    auc_b: float
    difference: float
    se: float
    statistic: float
    p_value: float
    low: float
    high: float
    confidence: float
    correlation: float
    n_pos: int
    n_neg: int
    roc_a: RocCurve | None = field(default=None, repr=False)
    roc_b: RocCurve | None = field(default=None, repr=False)

    def _explain(self):
        P, N = self.n_pos, self.n_neg
        z = z_critical(self.confidence)
        formulas = [r"\operatorname{Var}(\hat A_a - \hat A_b) = \frac{S^{10}_{aa} + S^{10}_{bb} - 2S^{10}_{ab}}{P}"
                    r" + \frac{S^{01}_{aa} + S^{01}_{bb} - 2S^{01}_{ab}}{N},\quad z = \frac{\hat A_a - \hat A_b}{SE}",
                    r"S^{10}, S^{01}:\ \text{covariances of the structural components } V_{10}(x_i), V_{01}(y_j)"]
        steps = [rf"\hat A_a = {fmt(self.auc_a)},\ \hat A_b = {fmt(self.auc_b)},\ P = {P},\ N = {N},\ "
                 rf"r = {fmt(self.correlation)}",
                 rf"z = \frac{{{fmt(self.auc_a)} - {fmt(self.auc_b)}}}{{{fmt(self.se)}}} = {fmt(self.statistic)},"
                 rf"\quad p = {fmt(self.p_value)}",
                 rf"{fmt(self.difference)} \pm {fmt(z)} \times {fmt(self.se)} = [{fmt(self.low)},\ {fmt(self.high)}]"]
        alpha = 1 - self.confidence
        interval = (f"the {pct(self.confidence)} interval for AUC(a) − AUC(b) is "
                    f"[{plain(self.low)}, {plain(self.high)}]")
        if self.p_value < alpha:
            verdict = (f"{p_text(self.p_value)} (normal approximation), below {plain(alpha)}: the two AUCs differ "
                       f"significantly "
                       f"(two-sided); {interval}.")
        else:
            verdict = (f"{p_text(self.p_value)} (normal approximation), not below {plain(alpha)}: the data do not "
                       f"rule out equal AUCs; "
                       f"{interval}, which says how large a difference they allow.")
        return Explanation("DeLong test of two correlated AUCs", formulas, steps, verdict)

    @draws("roc", "delong")
    def plot(self, ax=None):
        """Draw both ROC curves with their AUCs, and the difference on its null distribution with its interval.

        Left: the two classifiers' ROC curves on the same test set. Right: AUC(a) - AUC(b)
        on the normal distribution N(0, se) it follows if the AUCs are equal (DeLong's
        standard error), the share at least as extreme shaded (its area is ``p_value``),
        and the interval for the difference above.

        References
        ----------
        DeLong, DeLong & Clarke-Pearson (1988), Biometrics 44.

        Examples
        --------
        >>> y = [1, 1, 1, 1, 0, 0, 0, 0]
        >>> delong_test(y, [9, 8, 7, 3, 6, 2, 1, 0], [9, 3, 7, 2, 8, 6, 1, 0]).plot()  # doctest: +SKIP
        """


def delong_test(y_true, scores_a, scores_b, confidence=0.95):
    """Compare the AUCs of two classifiers scored on the same test set (DeLong, DeLong &
    Clarke-Pearson 1988, Biometrics 44).

    Both AUCs are Mann-Whitney statistics on the same examples, so they are correlated.
    DeLong et al. estimate the covariance matrix of the two from their structural
    components ``V10`` (per positive: the share of negatives it outscores, ties 1/2) and
    ``V01`` (per negative: the share of positives that outscore it); the difference is
    then normal with variance ``c' S c`` for ``c = (1, -1)``.

    Parameters
    ----------
    y_true : array_like of 0/1
        True classes, at least 2 of each.
    scores_a, scores_b : array_like of float
        The two classifiers' scores for the same examples (higher = more positive).
    confidence : float
        Level of the two-sided interval for ``AUC(a) - AUC(b)``.

    Returns
    -------
    DelongResult
        ``auc_a, auc_b, difference, se, statistic (z), p_value (two-sided), low, high,
        confidence, correlation, n_pos, n_neg``.

    Examples
    --------
    >>> y = [1, 1, 1, 1, 0, 0, 0, 0]
    >>> r = delong_test(y, [9, 8, 7, 3, 6, 2, 1, 0], [9, 3, 7, 2, 8, 6, 1, 0])
    >>> r.auc_a, r.auc_b
    (0.9375, 0.6875)
    """
    c = v.confidence("confidence", confidence)
    y, a = _labels_scores(y_true, scores_a)
    b = v.array("scores_b", scores_b)
    v.same_length(y_true=y, scores_b=b)
    P, N = int(y.sum()), int(y.size - y.sum())
    if min(P, N) < 2:
        raise ValueError(f"y_true must hold at least 2 examples of each class for DeLong, got P={P}, N={N}")
    (v10a, v01a), (v10b, v01b) = _placement_values(y, a), _placement_values(y, b)
    s10, s01 = np.cov(np.vstack([v10a, v10b])), np.cov(np.vstack([v01a, v01b]))
    covariance = s10 / P + s01 / N
    auc_a, auc_b = float(v10a.mean()), float(v10b.mean())
    variance = float(covariance[0, 0] + covariance[1, 1] - 2 * covariance[0, 1])
    if variance <= 0:
        raise ValueError("scores_a and scores_b must rank the examples differently (the difference of their "
                         "AUCs has zero estimated variance)")
    se = math.sqrt(variance)
    d = auc_a - auc_b
    z = d / se
    zc = z_critical(c)
    denominator = math.sqrt(covariance[0, 0] * covariance[1, 1])
    correlation = float(covariance[0, 1] / denominator) if denominator > 0 else float("nan")
    return DelongResult(auc_a, auc_b, d, se, z, float(2 * _st.norm.sf(abs(z))), d - zc * se, d + zc * se, c,
                        correlation, P, N, roc_curve(y, a), roc_curve(y, b))


# --------------------------------------------------------------------------- several classes

MULTICLASS_METHODS = ("hand-till", "ovr")


@result
class MulticlassAuc(Result):
    """An AUC for more than two classes: Hand & Till's M or the one-versus-rest average.

    Attributes
    ----------
    estimate : float
        Hand and Till's M, or the one-versus-rest average.
    method : {"hand-till", "ovr"}
        The method.
    per_class : ndarray
        The c x c matrix of pairwise AUCs (Hand and Till), or the c one-versus-rest AUCs.
    n_classes : int
        The number of classes c.
    """

    estimate: float
    method: str
    per_class: np.ndarray
    n_classes: int

    def _explain(self):
        c = self.n_classes
        if self.method == "hand-till":
            formulas = [r"\hat A(i, j) = \frac{\hat A(i \mid j) + \hat A(j \mid i)}{2},\quad "
                        r"M = \frac{2}{c(c-1)} \sum_{i<j} \hat A(i, j)"]
            i, j = np.triu_indices(c, 1)
            terms = " + ".join(fmt(x) for x in self.per_class[i, j])
            steps = [rf"M = \frac{{2}}{{{c} \cdot {c - 1}}}\left({terms}\right) = {fmt(self.estimate)}"]
            verdict = (f"Hand and Till's M is {plain(self.estimate)}: averaged over the {c * (c - 1) // 2} pairs of "
                       f"classes, a random example of one class of the pair scores its own class higher than a random "
                       f"example of the other class does with probability {plain(self.estimate)} (0.5 is chance).")
            title = "Multi-class AUC (Hand & Till's M)"
        else:
            formulas = [r"AUC_{ovr} = \frac{1}{c}\sum_{i=1}^{c} AUC(i \text{ vs rest})"]
            terms = " + ".join(fmt(x) for x in self.per_class)
            steps = [rf"AUC_{{ovr}} = \frac{{1}}{{{c}}}\left({terms}\right) = {fmt(self.estimate)}"]
            verdict = (f"The {c} one-versus-rest AUCs average to {plain(self.estimate)} (each class weighs the same; "
                       f"0.5 is chance).")
            title = "Multi-class AUC (one versus rest)"
        return Explanation(title, formulas, steps, verdict)


def multiclass_auc(y_true, probabilities, method="hand-till"):
    """AUC for c >= 2 classes.

    Parameters
    ----------
    y_true : array_like of int
        Classes coded 0, 1, ..., c-1; each must occur.
    probabilities : array_like, shape (n, c)
        Column i: the score (e.g. estimated probability) of class i.
    method : {"hand-till", "ovr"}
        "hand-till" (Hand & Till 2001, Machine Learning 45): for every pair of classes
        i, j, ``A(i|j)`` is the AUC of column i separating class i from class j on the
        examples of those two classes; ``M`` averages ``(A(i|j) + A(j|i)) / 2`` over
        the pairs. Insensitive to the class distribution. "ovr": the unweighted mean
        over classes of the AUC of column i separating class i from all others (each
        class weighs the same). Provost & Domingos (2003, Machine Learning 52) weight
        each class's AUC by its prevalence instead, which depends on the class mix even
        more; weight ``per_class`` yourself for theirs.

    Returns
    -------
    MulticlassAuc
        ``estimate, method, per_class`` (the c x c matrix of ``A(i, j)`` for
        "hand-till", the c one-versus-rest AUCs for "ovr"), ``n_classes``.

    Examples
    --------
    >>> p = [[.7, .2, .1], [.3, .4, .3], [.1, .3, .6], [.5, .3, .2], [.2, .5, .3], [.2, .2, .6]]
    >>> multiclass_auc([0, 1, 2, 0, 1, 2], p).estimate
    1.0
    """
    v.choice("method", method, MULTICLASS_METHODS)
    prob = v.array("probabilities", probabilities, ndim=2)
    n, c = prob.shape
    if c < 2:
        raise ValueError(f"probabilities must have one column per class (at least 2), got shape {prob.shape}")
    y = v.array("y_true", y_true, dtype=None if isinstance(y_true, np.ndarray) else float)
    if y.dtype.kind not in "iuf" or not np.all(np.isin(y, np.arange(c))):
        raise ValueError(f"y_true must hold class labels 0..{c - 1} (one per column of probabilities), got "
                         f"values {np.unique(y).tolist()[:10]}")
    y = y.astype(int)
    v.same_length(y_true=y, probabilities=prob)
    missing = np.setdiff1d(np.arange(c), y)
    if missing.size:
        raise ValueError(f"y_true must contain every class 0..{c - 1}, got none of {missing.tolist()}")
    if method == "ovr":
        per_class = np.array([np.mean(_placement_values((y == i).astype(int), prob[:, i])[0]) for i in range(c)])
        return MulticlassAuc(float(per_class.mean()), method, per_class, c)
    pairwise = np.full((c, c), np.nan)
    for i in range(c):
        for j in range(i + 1, c):
            both = (y == i) | (y == j)
            a_ij = np.mean(_placement_values((y[both] == i).astype(int), prob[both, i])[0])
            a_ji = np.mean(_placement_values((y[both] == j).astype(int), prob[both, j])[0])
            pairwise[i, j] = pairwise[j, i] = (a_ij + a_ji) / 2
    i, j = np.triu_indices(c, 1)
    return MulticlassAuc(float(pairwise[i, j].mean()), method, pairwise, c)


# --------------------------------------------------------------------------- lift chart


@result
class LiftChart(Result):
    """Witten & Frank's lift chart: how many positives a sample of the top-scored examples catches.

    Attributes
    ----------
    sample_size : ndarray of int
        The sizes of the samples of top-scored examples, one per distinct score.
    true_positives : ndarray of int
        The positives in each sample.
    thresholds : ndarray
        The scores, from the highest down.
    lift : ndarray
        Each sample's share of positives over the share in all the data.
    n_pos, n : int
        The numbers of positives and of examples.
    """

    sample_size: np.ndarray
    true_positives: np.ndarray
    thresholds: np.ndarray
    lift: np.ndarray
    n_pos: int
    n: int

    def _reported(self):
        """Index of the point the display reports: the first sample covering at least 10% of
        the examples (the "top decile" lift quoted in direct marketing)."""
        return int(np.argmax(self.sample_size >= 0.1 * self.n))

    def _explain(self):
        P, n = self.n_pos, self.n
        formulas = [r"\text{lift}(t) = \frac{TP(t) / \text{sample}(t)}{P / n},\qquad "
                    r"\text{sample}(t) = \#\{\text{score} \ge t\}"]
        i = self._reported()
        k, tp = int(self.sample_size[i]), int(self.true_positives[i])
        steps = [rf"P = {P},\ n = {n};\quad \text{{top {k}}}:\ \text{{lift}} = \frac{{{tp}/{k}}}{{{P}/{n}}} "
                 rf"= {fmt(self.lift[i])}"]
        verdict = (f"Taking the {k} top-scored of {n} examples ({pct(k / n)}) reaches {tp} of the {P} positives "
                   f"({pct(tp / P)}), {plain(self.lift[i])} times as many as a random sample of that size would.")
        return Explanation("Lift chart", formulas, steps, verdict)

    @draws("roc", "lift_chart")
    def plot(self, ax=None):
        """Draw the chart: true positives against sample size, beside a random sample's diagonal.

        The curve starts at (0, 0) and has one point per distinct score (tied scores join
        their points by a straight segment); the dashed diagonal from (0, 0) to (n, P) is
        what a random sample of each size reaches on average; the dot is the sample the
        display reports (the first covering 10% of the examples) with its lift.

        References
        ----------
        Witten, Frank & Hall (2011), *Data Mining*, 3rd ed., section 5.7, "Lift charts".

        Examples
        --------
        >>> chart = lift_chart([1, 1, 0, 1, 0, 0, 0, 0, 1, 0], [.95, .93, .93, .88, .86, .85, .82, .80, .80, .79])
        >>> chart.plot()  # doctest: +SKIP
        """


def lift_chart(y_true, scores):
    """Lift chart of a scoring classifier (Witten & Frank, *Data Mining*, ch. 5, "Lift charts").

    Sort the examples by decreasing score; for each distinct score ``t``, the sample of
    the examples scored at least ``t`` has ``sample_size`` members of which
    ``true_positives`` are positive. The chart plots true positives against sample size;
    the diagonal from (0, 0) to (n, P) is a random sample. ``lift`` is the sample's share
    of positives divided by the share in all the data.

    Returns
    -------
    LiftChart
        ``sample_size, true_positives, thresholds, lift, n_pos, n`` (one entry per distinct
        score, from the highest down); ``plot()`` draws the chart.

    Examples
    --------
    >>> c = lift_chart([1, 1, 0, 1, 0, 0, 0, 0, 1, 0], [.95, .93, .93, .88, .86, .85, .82, .80, .80, .79])
    >>> c.sample_size.tolist(), c.true_positives.tolist()
    ([1, 3, 4, 5, 6, 7, 9, 10], [1, 2, 3, 3, 3, 3, 4, 4])
    """
    y, s = _labels_scores(y_true, scores)
    thresholds, tps, fps = _cumulative_counts(y, s)
    size = tps + fps
    P, n = int(tps[-1]), int(y.size)
    return LiftChart(size.astype(int), tps.astype(int), thresholds, (tps / size) / (P / n), P, n)
