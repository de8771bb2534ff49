"""ImbalanceExplorer: the accuracy paradox, costs, and balancing the training set."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.transforms import IdentityTransform

from .._format import decimal
from ..data import load_dataset
from ..learners import LEARNER_LABELS, LEARNERS, fitting, make_learner
from ..plotting import COLORS, ON_DATA
from ..stats import confusion
from ._base import Explorer, buttons, dropdown, log_slider, slider
from ._cached_layer import Stamp, axis_region

METRICS = ("accuracy", "precision", "recall", "specificity", "fpr")
METRIC_LABELS = ("accuracy", "precision", "recall\n(TP rate)", "specificity", "false-alarm\nrate (FPR)")
#: Each rate as the confusion counts above and below its fraction line.
METRIC_COUNTS = {"accuracy": (("tp", "tn"), ("tp", "tn", "fp", "fn")), "precision": (("tp",), ("tp", "fp")),
                 "recall": (("tp",), ("tp", "fn")), "specificity": (("tn",), ("tn", "fp")),
                 "fpr": (("fp",), ("fp", "tn"))}
#: A rate of fewer cases than this is shown as its count ("1/4"): three decimals would
#: claim a precision that 4 cases cannot give.
FEW = 20
BALANCING = {"under": "undersampled", "over": "oversampled"}
#: Scott's example: 1000 test cases, 20 positive. h_A finds 2/20 positives and 965/980
#: negatives; h_B finds 19/20 and 930/980. Kept as per-class rates when the ratio moves.
SCOTT_N = 1000
SCOTT_RATES = {"h_A": (2 / 20, 965 / 980), "h_B": (19 / 20, 930 / 980)}
#: The cost axis' possible tops (1-2-5 steps): the costs reach at most
#: 1.25 x (0.5 x 1000 + 0.5) with every positive missed at the largest share and cost.
COST_TOPS = (0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)


@dataclass(frozen=True)
class ImbalanceView:
    """Three classifiers' confusion results on one test set and their average costs per test case."""

    names: tuple
    confusions: tuple
    costs: np.ndarray
    n_positive: int
    n_negative: int
    cost_fn: float
    #: the names as the picture prints them ("naive Bayes (balanced)", not ``naive_bayes, balanced``)
    labels: tuple = ()
    #: real data only: (positives, negatives) of the training half and of its balanced version
    train: tuple | None = None
    balanced: tuple | None = None
    balance: str = "under"

    @property
    def few(self):
        """Whether some rate rests on fewer than :data:`FEW` cases (and is shown as a count)."""
        return any(0 < counts(c, m)[1] < FEW for c in self.confusions for m in METRICS)


def _labels(tp, fn, tn, fp):
    """Label and prediction arrays (1 = positive) holding the given counts."""
    y = np.r_[np.ones(tp + fn, int), np.zeros(tn + fp, int)]
    pred = np.r_[np.ones(tp, int), np.zeros(fn, int), np.zeros(tn, int), np.ones(fp, int)]
    return y, pred


def scott_predictions(share):
    """Scott's h_A and h_B (and always-negative) on 1000 cases with ``share`` positives."""
    pos = int(round(SCOTT_N * share))
    neg = SCOTT_N - pos
    out = {"always negative": _labels(0, pos, neg, 0)}
    for name, (tpr, tnr) in SCOTT_RATES.items():
        tp, tn = int(round(tpr * pos)), int(round(tnr * neg))
        out[name] = _labels(tp, pos - tp, tn, neg - tn)
    return out


@lru_cache(maxsize=64)
def data_split(share, balance, seed):
    """Labels (1 = malignant) and the training, test and balanced training rows of
    :func:`data_predictions` (indices into the breast-cancer data)."""
    data = load_dataset("breast_cancer")
    y = (data.y == 0).astype(int)  # class 0 of the bundle is malignant
    rng = np.random.default_rng([seed, 7])
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    if share <= len(pos) / len(y):
        pos = rng.choice(pos, max(4, int(round(share / (1 - share) * len(neg)))), replace=False)
    else:
        neg = rng.choice(neg, int(round(len(pos) * (1 - share) / share)), replace=False)
    train, test = [], []
    for members in (rng.permutation(pos), rng.permutation(neg)):
        half = len(members) // 2
        train.append(members[:half])
        test.append(members[half:])
    train, test = np.concatenate(train), np.concatenate(test)
    return y, train, test, _balance(train, y, balance, rng)


@lru_cache(maxsize=256)
def data_predictions(share, learner, balance, seed):
    """Breast-cancer predictions (malignant = positive) on a test set with ``share`` positives.

    The data are subsampled to the ratio, split in half (stratified, seeded), and three
    classifiers are trained on the training half: always-majority, ``learner``, and
    ``learner`` on a training set balanced by undersampling the majority or by
    oversampling (repeating) the minority (:func:`data_split`).
    """
    X = load_dataset("breast_cancer").X
    y, train, test, balanced = data_split(share, balance, seed)
    out = {}
    with fitting():  # one thread, no input checks: a slider step costs a fit
        for name, model, rows in (("always majority", make_learner("majority"), train),
                                  (learner, make_learner(learner, seed), train),
                                  (f"{learner}, balanced", make_learner(learner, seed), balanced)):
            out[name] = (y[test], model.fit(X[rows], y[rows]).predict(X[test]))
    return out


def _balance(train, y, how, rng):
    pos, neg = train[y[train] == 1], train[y[train] == 0]
    small, large = (pos, neg) if len(pos) <= len(neg) else (neg, pos)
    if how == "under":
        return np.r_[small, rng.choice(large, len(small), replace=False)]
    return np.r_[large, small, rng.choice(small, len(large) - len(small), replace=True)]


def counts(c, metric):
    """A rate of the confusion result ``c`` as (cases counted, cases it is a share of)."""
    above, below = METRIC_COUNTS[metric]
    return sum(getattr(c, f) for f in above), sum(getattr(c, f) for f in below)


def _bar_text(c, metric):
    """A rate as its bar shows it: n/a when undefined, the count on fewer than FEW cases,
    else three decimals without the leading zero."""
    k, n = counts(c, metric)
    if n == 0:
        return "n/a"
    return f"{k}/{n}" if n < FEW else f"{getattr(c, metric):.3f}".removeprefix("0")


def _rate(c, metric):
    """A rate as the summary writes it."""
    k, n = counts(c, metric)
    if n == 0:
        return "n/a (undefined: 0 of 0)"
    value = f"{getattr(c, metric):.3f}"
    return f"{value} ({k} of {n})" if n < FEW else value


def _wrap(name):
    """A classifier's name as a bar label, one word a line (the cost panel is narrow)."""
    return name.replace(" ", "\n")


def _nice_ceiling(x):
    """The smallest of 1, 2, 5 times a power of ten that is >= x (steady axis limits)."""
    power = 10.0 ** np.floor(np.log10(x))
    return float(next(m * power for m in (1, 2, 5, 10) if m * power >= x))


class ImbalanceExplorer(Explorer):
    """Accuracy against the rates that matter when one class is rare, with costs.

    Scott's example opens it: 1000 test cases, 20 positive. h_A has accuracy 0.967, the
    useless "always negative" 0.980, and h_B, which finds 19 of the 20 positives, only
    0.949. Move the class ratio and the cost of a missed positive to see when accuracy
    misleads; switch to real data (breast cancer, malignant = positive) to train a
    learner on imbalanced data and on a balanced training set. A rate resting on fewer
    than 20 cases is shown as its count ("1/4"), under a warning: three decimals would
    claim a precision that so few cases cannot give.

    Parameters
    ----------
    source : {"scott", "data"}
    positive_share : float
        Fraction of positives in the test population (and the data).
    cost_fn : float
        Cost of a false negative; a false positive costs 1. The cost panel shows the
        average cost per test case, ``(cost_fn * FN + FP) / n``.
    learner : str
        Learner for ``source="data"`` (see :data:`evalteach.learners.LEARNERS`).
    balance : {"under", "over"}
        How the balanced training set is made: undersample the majority or oversample
        the minority.

    Source: Scott (after Mitchell), "Evaluating hypotheses"; Witten & Frank, *Data Mining*, ch. 5.
    """

    title = "Imbalanced classes: the accuracy paradox and costs"
    figsize = (10.0, 4.4)

    def _controls(self):
        learners = [(LEARNERS[k], k) for k in LEARNERS if k != "majority"]
        return {
            "positive_share": slider("share of positives", 0.02, 0.01, 0.5, 0.01),
            # 0.01 to 1000 in steps of 10**0.02 (5%): the cost at which the cheapest classifier
            # changes lies between 0.05 (half the cases positive) and 5 (1%) for Scott's
            # classifiers, and a step lands within 2.5% of it (Scott's 2%: 50/19 = 2.63)
            # readout to 4 significant figures, trailing zeros cut (d3's ".4"): as the cost title
            "cost_fn": log_slider("cost of a missed positive (FP costs 1)", 10.0, -2, 3, step=0.02,
                                  readout_format=".4"),
            "learner": dropdown("learner (real data)", learners, "naive_bayes"),
            "balance": dropdown("balancing (real data)", [("undersample the majority", "under"),
                                                          ("oversample the minority", "over")],
                                "under"),
            "source": buttons("example", [("Scott's h_A and h_B", "scott"),
                                         ("breast cancer, real learner", "data")], "scott"),
        }

    def _hidden(self, state):
        """Learner and balancing act on the real data only, not on Scott's fixed hypotheses."""
        return {"learner", "balance"} if state["source"] == "scott" else set()

    def _compute(self, state):
        share = round(float(state["positive_share"]), 10)
        training = {}
        if state["source"] == "scott":
            predictions = scott_predictions(share)
            labels = tuple(predictions)
        else:
            predictions = data_predictions(share, state["learner"], state["balance"], state["seed"])
            y, train, _, balanced = data_split(share, state["balance"], state["seed"])
            training = dict(train=(int(y[train].sum()), int((1 - y[train]).sum())),
                            balanced=(int(y[balanced].sum()), int((1 - y[balanced]).sum())),
                            balance=state["balance"])
            learner = LEARNER_LABELS[state["learner"]]
            labels = ("always majority", learner, f"{learner} (balanced)")
        confusions = tuple(confusion(y, pred) for y, pred in predictions.values())
        cost_fn = float(state["cost_fn"])
        costs = np.array([(c.fp + cost_fn * c.fn) / (c.tp + c.fp + c.tn + c.fn) for c in confusions])
        first = confusions[0]
        return ImbalanceView(tuple(predictions), confusions, costs, first.tp + first.fn,
                             first.tn + first.fp, cost_fn, labels, **training)

    def _build(self, figure):
        rates, cost = figure.subplots(1, 2, width_ratios=(2.4, 1))
        colors = (COLORS["muted"], COLORS["data"], COLORS["theory"])
        x = np.arange(len(METRICS))
        width = 0.3  # "1.000" beside "1.000" needs the room at 1x
        self.rate_bars, self.rate_text = [], []
        for i, color in enumerate(colors):
            bars = rates.bar(x + (i - 1) * width, np.zeros(len(METRICS)), width, color=color)
            self.rate_bars.append(bars)
            self.rate_text.append([rates.text(b.get_x() + width / 2, 0, "", ha="center", va="bottom",
                                              fontsize="x-small") for b in bars])
        rates.set(xticks=x, ylim=(0, 1.25), yticks=np.linspace(0, 1, 6), ylabel="rate on the test set")
        rates.set_xticklabels(METRIC_LABELS)
        self.legend = rates.legend([b[0] for b in self.rate_bars], ["", "", ""], loc="upper center",
                                   ncol=3, frameon=False)
        self.rate_title = rates.set_title("")
        self.cost_bars = cost.bar(np.arange(3), np.zeros(3), 0.6, color=colors)
        self.cost_text = [cost.text(i, 0, "", ha="center", va="bottom", fontsize="small")
                          for i in range(3)]
        for text in (*sum(self.rate_text, []), *self.cost_text):
            text.set_gid(ON_DATA)  # a value printed on the bar it labels
            text.set_transform(IdentityTransform())  # placed in whole pixels: see _label
        # the costs span orders of magnitude as the sliders move, so the axis follows them
        # (in 1-2-5 steps): read the numbers on the bars
        cost.set(xticks=np.arange(3), ylabel="average cost per test case\n(miss cost × FN + FP) / n")
        self.cost_title = cost.set_title("")
        self.cost_axes = cost
        self._lay_out(figure)
        # Text that changes with one control only is drawn once per what it says and then
        # pasted: the cost axis per top, the titles per text, the legend and the cost bars'
        # names per source and learner. No control redraws the whole figure.
        self.stamps = {
            "cost_axis": Stamp([cost.yaxis], region=axis_region(cost.yaxis)),
            "names": Stamp([cost.xaxis], region=axis_region(cost.xaxis)),
            "legend": Stamp([self.legend]),
            "rate_title": Stamp([self.rate_title]),
            "cost_title": Stamp([self.cost_title]),
        }
        # The values on the bars: each pasted while it shows the same number at the same pixel,
        # drawn before the bars (its box then holds background only).
        self.value_stamps = {text: Stamp([text]) for text in (*sum(self.rate_text, []), *self.cost_text)}
        self.dynamic(*self.stamps.values(), *self.value_stamps.values(),
                     *[b for bars in self.rate_bars for b in bars], *self.cost_bars)
        self._names = None
        self._cost_top = None

    def _lay_out(self, figure):
        """Lay the figure out once, for the widest text any state shows, and keep it: every
        state then has the same layout (no text outgrows it, and no full redraw is needed)."""
        cost = self.cost_axes
        renderer = figure.canvas.get_renderer()

        def width(texts, prop):
            return max(renderer.get_text_width_height_descent(line, prop, ismath=False)[0]
                       for text in texts for line in text.split("\n"))

        def tick_labels(top):
            cost.set_ylim(0, top)
            return cost.yaxis.get_major_formatter().format_ticks(cost.yaxis.get_majorticklocs())

        prop = cost.yaxis.get_major_ticks()[0].label1.get_fontproperties()
        cost.set_ylim(0, max(COST_TOPS, key=lambda top: width(tick_labels(top), prop)))
        learners = [LEARNER_LABELS[k] for k in LEARNERS if k != "majority"]  # the learner control's options
        names = [("always negative", "always majority"), ("h_A", *learners),
                 ("h_B", *(f"{k} (balanced)" for k in learners))]
        prop = cost.xaxis.get_major_ticks()[0].label1.get_fontproperties().copy()
        prop.set_size("small")
        cost.set_xticklabels([_wrap(max(options, key=lambda n: (_wrap(n).count("\n"), width([_wrap(n)], prop))))
                              for options in names], fontsize="small")
        self.cost_title.set_text(self._cost_title(0.01259))  # the widest misses' costs: 4 digits after "0.0"
        # the tallest and widest title: real data, balanced by oversampling, some rate a count
        self.rate_title.set_text(self._rate_title(888, 888, (888, 888), (888, 888), "over", True))
        figure.get_layout_engine().execute(figure)
        figure.set_layout_engine("none")

    @staticmethod
    def _cost_title(cost_fn):
        return f"costs: miss {cost_fn:.4g},\nfalse alarm 1"

    @staticmethod
    def _rate_title(n_positive, n_negative, train=None, balanced=None, balance="under", few=False):
        """The test set (and, on real data, the training half and its balanced version); a
        warning when a rate rests on so few cases that it is shown as a count."""
        if train is None:
            lines = [f"test set: {n_positive} positive, {n_negative} negative"]
        else:
            lines = [f"test set: {n_positive} malignant (positive), {n_negative} benign",
                     f"training half: {train[0]} malignant, {train[1]} benign; "
                     f"balanced ({BALANCING[balance]}): {balanced[0]} + {balanced[1]}"]
        if few:
            lines.append(f"rates shown as counts (k/n) rest on fewer than {FEW} cases: very uncertain")
        return "\n".join(lines)

    def _label(self, text, bar, y, words, beside=None):
        """Put ``words`` above ``bar`` at height ``y`` (data), rounded to a whole pixel: a
        label with the same words at the same pixel is the same picture, pasted from its stamp.

        Two "1.000"s on neighbouring bars are 2 pixels apart at 1x, so a stamp's box may hold
        the edge of the label drawn before it: ``beside``, that label's key, is part of the key.
        Returns the key.
        """
        x, y = bar.axes.transData.transform((bar.get_x() + bar.get_width() / 2, y))
        text.set_position((x, round(y)))
        text.set_text(words)
        key = (words, x, round(y))
        self.value_stamps[text].show((key, beside))
        return key

    def _draw(self, r):
        for m, metric in enumerate(METRICS):  # the bars of a metric side by side, left to right
            beside = None
            for bars, texts, c in zip(self.rate_bars, self.rate_text, r.confusions):
                value = getattr(c, metric)
                bars[m].set_height(0 if np.isnan(value) else value)
                beside = self._label(texts[m], bars[m], (0 if np.isnan(value) else value) + 0.01,
                                     _bar_text(c, metric), beside)
        self.rate_title.set_text(self._rate_title(r.n_positive, r.n_negative, r.train, r.balanced,
                                                  r.balance, r.few))
        top = _nice_ceiling(1.25 * max(0.02, float(np.max(r.costs))))
        if top != self._cost_top:
            self._cost_top = top
            self.cost_axes.set_ylim(0, top)
        if r.labels != self._names:
            self._names = r.labels
            for text, name in zip(self.legend.get_texts(), r.labels):
                text.set_text(name)
            self.cost_axes.set_xticklabels([_wrap(name) for name in r.labels], fontsize="small")
        for bar, text, value in zip(self.cost_bars, self.cost_text, r.costs):
            bar.set_height(value)
            self._label(text, bar, value, decimal(value))
        self.cost_title.set_text(self._cost_title(r.cost_fn))
        for name, key in (("cost_axis", top), ("names", r.labels), ("legend", r.labels),
                          ("rate_title", self.rate_title.get_text()), ("cost_title", self.cost_title.get_text())):
            self.stamps[name].show(key)

    def _summary(self, r):
        parts = []
        for name, c, cost in zip(r.labels, r.confusions, r.costs):
            rates = ", ".join(f"{label.replace(chr(10), ' ')} {_rate(c, m)}"
                              for m, label in zip(METRICS, METRIC_LABELS))
            parts.append(f"{name}: {rates}, average cost per test case {decimal(cost)}")
        if r.train is None:
            data = f"Test set with {r.n_positive} positives and {r.n_negative} negatives. "
        else:
            data = (f"Test set with {r.n_positive} malignant (positive) and {r.n_negative} benign tumours; "
                    f"training half {r.train[0]} malignant and {r.train[1]} benign, balanced "
                    f"({BALANCING[r.balance]}) {r.balanced[0]} + {r.balanced[1]}. ")
        few = (f" Rates on fewer than {FEW} cases (given with their counts) are very uncertain."
               if r.few else "")
        return (f"Costs: a miss {r.cost_fn:.4g}, a false alarm 1; the average cost per test case is "
                f"(cost of a miss × FN + FP) / n on this test set. " + data + "; ".join(parts) + "." + few)
