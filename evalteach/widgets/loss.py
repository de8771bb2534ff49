"""LossExplorer: quadratic and informational loss of a predicted probability (Witten & Frank ch. 5)."""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from matplotlib.font_manager import FontProperties
from matplotlib.legend_handler import HandlerTuple

from ..plotting import COLORS, points
from ..stats import informational_loss, quadratic_loss
from ..stats.losses import ZeroFrequencyWarning
from ._base import Explorer, slider
from ._cached_layer import CachedText

#: The readout table's rows (what each number is) and the end of each column, in characters.
_ROWS = ("if class 1", "if class 0", "expected", "", "smallest at")
_COLUMN_ENDS = (20, 28)

#: Predicted probabilities on which the curves are drawn: every slider value, and points
#: ever closer to 0 and 1, where the informational loss runs off to infinity (so its curve
#: climbs to the top of the panel instead of stopping at 0.0025 from the edge).
_EDGES = 10.0 ** -np.arange(3.0, 9.5, 0.5)
GRID = np.union1d(np.linspace(0.0, 1.0, 401), np.concatenate([_EDGES, 1 - _EDGES]))
#: Informational loss is cut at this height; beyond it the curve runs off to infinity.
TOP = 6.0
#: Where an arrowhead marks a loss beyond TOP (infinite at a forecast of 0 or 1).
OFF_SCALE = 0.96 * TOP
#: Expected losses are drawn up to this height; the legend sits above it.
EXPECTED_TOP = 3.0
#: The forecast axes reach a little beyond 0 and 1, so that a forecast of 0 or 1 (its line
#: and markers) is not hidden under the axis or cut at the edge.
XLIM = (-0.025, 1.025)


def _losses(p):
    """Per-instance losses of predicting P(class 1) = p, for true class 1 and true class 0."""
    p = np.atleast_1d(np.asarray(p, dtype=float))
    ones, zeros = np.ones(p.size, int), np.zeros(p.size, int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ZeroFrequencyWarning)  # inf is the point being made
        return {
            ("quadratic", 1): quadratic_loss(p, ones).losses,
            ("quadratic", 0): quadratic_loss(p, zeros).losses,
            ("informational", 1): informational_loss(p, ones).losses,
            ("informational", 0): informational_loss(p, zeros).losses,
        }


_GRID_LOSSES = _losses(GRID)


@dataclass(frozen=True)
class LossView:
    """The numbers shown for a true probability ``p_true`` and a prediction ``predicted``.

    ``quadratic`` and ``informational`` map the true class (1 or 0) to the loss of the
    prediction; ``expected_*`` are the losses averaged over the true class distribution
    (class 1 with probability ``p_true``) on :data:`GRID`; ``best_*`` the grid point
    where that expectation is smallest.
    """

    p_true: float
    predicted: float
    quadratic: dict
    informational: dict
    expected_quadratic: np.ndarray
    expected_informational: np.ndarray
    best_quadratic: float
    best_informational: float

    def expected_at_prediction(self, kind):
        """Expected loss of the chosen prediction under the true distribution."""
        losses = self.quadratic if kind == "quadratic" else self.informational
        return self.p_true * losses[1] + (1 - self.p_true) * losses[0]


def loss_view(p_true, predicted):
    """Compute the :class:`LossView` for a true probability and a prediction."""
    at = _losses(predicted)
    expected = {kind: p_true * _GRID_LOSSES[(kind, 1)] + (1 - p_true) * _GRID_LOSSES[(kind, 0)]
                for kind in ("quadratic", "informational")}
    return LossView(
        p_true, predicted,
        {c: float(at[("quadratic", c)][0]) for c in (1, 0)},
        {c: float(at[("informational", c)][0]) for c in (1, 0)},
        expected["quadratic"], expected["informational"],
        float(GRID[np.nanargmin(expected["quadratic"])]),
        float(GRID[np.nanargmin(expected["informational"])]),
    )


def _cut_at(values, top):
    """The part of an expected-loss curve on :data:`GRID` that lies at or below ``top``,
    ending exactly at ``top`` (linear between the grid points either side), so a curve
    that leaves the panel reaches its top edge. Expected losses are convex in the
    forecast, so that part is one piece."""
    inside = np.flatnonzero(values <= top)
    lo, hi = inside[0], inside[-1]
    x, y = GRID[lo:hi + 1], values[lo:hi + 1]
    for outer, inner, at_start in ((lo - 1, lo, True), (hi + 1, hi, False)):
        if 0 <= outer < GRID.size and np.isfinite(values[outer]):
            share = (top - values[inner]) / (values[outer] - values[inner])
            end = GRID[inner] + share * (GRID[outer] - GRID[inner])
            x, y = (np.r_[end, x], np.r_[top, y]) if at_start else (np.r_[x, end], np.r_[y, top])
    return x, y


def _show(x):
    return "∞" if np.isinf(x) else f"{x:.3f}"


class LossExplorer(Explorer):
    """Quadratic and informational loss as a predicted probability moves.

    Left: the loss of one instance against the predicted probability of class 1, when the
    instance is of class 1 (solid) or class 0 (dashed). Right: the expected loss when
    class 1 occurs with the true probability ``p_true``; both losses are smallest exactly
    at ``predicted = p_true`` (they reward honest probabilities), and the informational
    loss is unbounded as the probability of the true class goes to 0 (the zero-frequency
    problem).

    Parameters
    ----------
    p_true : float
        True probability of class 1 (default 0.7).
    predicted : float
        The predicted probability of class 1 (default 0.9).
    seed : int
        Unused (nothing is random); kept for the common interface.

    Examples
    --------
    >>> LossExplorer(p_true=0.3, predicted=0.05)  # doctest: +SKIP

    Source: Witten & Frank, *Data Mining*, ch. 5 (predicting probabilities).
    """

    title = "Quadratic and informational loss"
    figsize = (11.5, 4.2)

    def _controls(self):
        return {
            "p_true": slider("true P(class 1)", 0.7, 0.05, 0.95, 0.05,
                             tooltip="how often class 1 really occurs for instances like this"),
            "predicted": slider("forecast P(class 1)", 0.9, 0.0, 1.0, 0.01,
                                tooltip="the probability the classifier (the forecaster) gives class 1"),
        }

    def _hidden(self, state):
        """Both sliders act in every state."""
        return set()

    def _compute(self, state):
        return loss_view(float(state["p_true"]), float(state["predicted"]))

    def _build(self, figure):
        left, right, table = figure.subplots(1, 3, width_ratios=(1, 1, 0.5))
        colors = {"quadratic": COLORS["data"], "informational": COLORS["theory"]}
        for kind, color in colors.items():
            for cls, style in ((1, "-"), (0, "--")):
                y = np.where(np.isfinite(_GRID_LOSSES[(kind, cls)]), _GRID_LOSSES[(kind, cls)], np.nan)
                infinite = f" (→ ∞ as p → {1 - cls})" if kind == "informational" else ""
                left.plot(GRID, y, style, color=color, label=f"{kind}, true class {cls}{infinite}")
        left.set(xlim=XLIM, ylim=(0, TOP), xlabel="forecast P(class 1)",
                 ylabel="loss of one instance (bits for informational)",
                 title="Loss of one forecast")
        # under the figure: inside the panel the legend and labels would cover the curves
        figure.legend(handles=left.lines[:4], loc="outside lower left", ncol=2, frameon=False,
                      fontsize="small")
        self.left_p = left.axvline(0, color=COLORS["muted"], lw=points(1))
        # not clipped: a loss of 0 is a whole dot on the axis, not half of one
        self.markers = {key: left.plot([], [], "o", color=colors[key[0]], ms=points(6), clip_on=False)[0]
                        for key in _GRID_LOSSES}
        # a loss beyond the top (infinite at a forecast of 0 or 1): an arrowhead inside the top
        # edge and "∞" beside it, not a dot cut in half by the edge
        self.infinity = left.text(0, 0, "", color=colors["informational"], va="center")

        self.expected = {kind: right.plot([], [], color=color, label=f"expected {kind} loss")[0]
                         for kind, color in colors.items()}
        self.true_line = right.plot([], [], color=COLORS["truth"], lw=points(1.2), ls=":",
                                    label="true probability p*")[0]
        self.right_p = right.plot([], [], color=COLORS["muted"], lw=points(1), label="the forecast")[0]
        # a diamond, not a triangle: an upward triangle means "off the scale" in both panels
        self.minima = right.plot([], [], "D", color=COLORS["good"], ms=points(7), label="minimum")[0]
        # where the forecast line meets each expected-loss curve: the table's "expected" row
        self.expected_dots = {kind: right.plot([], [], "o", color=color, ms=points(6), clip_on=False)[0]
                              for kind, color in colors.items()}
        right.set(xlim=XLIM, ylim=(0, EXPECTED_TOP + 0.7), yticks=np.arange(0, EXPECTED_TOP + 0.1, 0.5),
                  xlabel="forecast P(class 1)", ylabel="expected loss per instance\n(bits for informational)",
                  title="Expected loss when class 1 has probability p*")
        handles, labels = right.get_legend_handles_labels()
        handles.append(tuple(self.expected_dots.values()))
        labels.append("its expected losses (▲ off scale)")
        right.legend(handles, labels, loc="upper center", ncol=3, frameon=False, fontsize="x-small",
                     handler_map={tuple: HandlerTuple(ndivide=None)})
        # the numbers in a panel of their own: a table over the curves would hide them
        table.set_axis_off()
        # "the forecast", not "your prediction": the slider is not the student's locked-in guess
        table.set_title("The forecast")
        # a grid of short texts, each pasted per wording: a move redraws only the numbers it
        # changes (the row labels are drawn once, with the background)
        size = FontProperties(size="small").get_size_in_points()

        def cell(row, end_column, text="", ha="right"):
            # monospace: a character is 0.6 of the font size wide; rows 1.6 font sizes apart
            return table.annotate(text, (0.0, 0.95), xycoords="axes fraction", textcoords="offset points",
                                  xytext=(0.6 * size * end_column, -1.6 * size * row), ha=ha, va="top",
                                  fontsize="small", family="monospace")

        for row, label in enumerate(_ROWS, start=1):
            cell(row, 0, label, ha="left")
        for column, word in zip(_COLUMN_ENDS, ("quadr.", "inform.")):
            cell(0, column, word)
        self.forecast_cell = cell(0, 0, ha="left")
        self.true_cell = cell(4, 0, ha="left")
        self.number_cells = [[cell(row, column) for column in _COLUMN_ENDS] for row in (1, 2, 3, 5)]
        self.readout_cells = [self.forecast_cell, self.true_cell, *sum(self.number_cells, [])]
        self.dynamic(self.left_p, *self.markers.values(), self.infinity, *self.expected.values(),
                     self.true_line, self.right_p, self.minima, *self.expected_dots.values(),
                     *map(CachedText, self.readout_cells))

    def _draw(self, r):
        p = r.predicted
        self.left_p.set_xdata([p, p])
        self.infinity.set_text("")
        for (kind, cls), marker in self.markers.items():
            value = (r.quadratic if kind == "quadratic" else r.informational)[cls]
            if value < TOP:
                marker.set_marker("o")
                marker.set_data([p], [value])
                continue
            marker.set_marker("^")  # off the scale: an arrowhead pointing up, inside the top edge
            marker.set_data([p], [OFF_SCALE])
            if np.isinf(value):
                right = p < 0.5
                self.infinity.set_text("∞")
                self.infinity.set_position((p + (0.04 if right else -0.04), OFF_SCALE))
                self.infinity.set_horizontalalignment("left" if right else "right")
        for kind, values in (("quadratic", r.expected_quadratic),
                             ("informational", r.expected_informational)):
            self.expected[kind].set_data(*_cut_at(values, EXPECTED_TOP))
        self.true_line.set_data([r.p_true, r.p_true], [0, EXPECTED_TOP])
        self.right_p.set_data([p, p], [0, EXPECTED_TOP])
        for kind, dot in self.expected_dots.items():
            value = r.expected_at_prediction(kind)
            on_scale = value <= EXPECTED_TOP
            dot.set_marker("o" if on_scale else "^")  # off the scale: an arrowhead at the top
            dot.set_data([p], [value if on_scale else EXPECTED_TOP])
        best = [(r.best_quadratic, np.min(r.expected_quadratic)),
                (r.best_informational, np.nanmin(r.expected_informational))]
        self.minima.set_data([b[0] for b in best], [b[1] for b in best])
        self.forecast_cell.set_text(f"p = {p:.2f}")
        self.true_cell.set_text(f"  (p* = {r.p_true:.2f})")
        numbers = [(_show(r.quadratic[1]), _show(r.informational[1])),
                   (_show(r.quadratic[0]), _show(r.informational[0])),
                   (_show(r.expected_at_prediction("quadratic")), _show(r.expected_at_prediction("informational"))),
                   (f"{r.best_quadratic:.3f}", f"{r.best_informational:.3f}")]
        for cells, values in zip(self.number_cells, numbers):
            for cell, value in zip(cells, values):
                cell.set_text(value)

    @property
    def readout(self):
        """The readout table's text, row by row, as it reads."""
        rows = {}
        for t in self.figure.axes[2].texts:
            rows.setdefault(-t.xyann[1], []).append(t)
        return "\n".join("  ".join(t.get_text() for t in sorted(row, key=lambda t: t.xyann[0]) if t.get_text())
                         for _, row in sorted(rows.items()))

    def _summary(self, r):
        if np.isclose(r.best_quadratic, r.p_true) and np.isclose(r.best_informational, r.p_true):
            smallest = (f"both expected losses are smallest when the forecast equals the true probability, "
                        f"{r.p_true:.2f}")
        else:  # not on the grid of forecasts (the slider's values always are)
            smallest = (f"on the drawn grid the expected losses are smallest at p = {r.best_quadratic:.3f} "
                        f"(quadratic) and {r.best_informational:.3f} (informational)")
        return (f"Forecasting P(class 1) = {r.predicted:.2f}: quadratic loss {_show(r.quadratic[1])} if the "
                f"instance is class 1 and {_show(r.quadratic[0])} if class 0; informational loss "
                f"{_show(r.informational[1])} and {_show(r.informational[0])} bits. With true probability "
                f"{r.p_true:.2f} the expected losses are {_show(r.expected_at_prediction('quadratic'))} "
                f"(quadratic) and {_show(r.expected_at_prediction('informational'))} bits (informational); "
                f"{smallest}. The quadratic loss here sums the squared errors over both classes (Witten and "
                f"Frank): for two classes it equals 2(p - y)^2, y the class (0 or 1), so its largest value is 2. "
                f"The Brier score usually reported is the mean of (p - y)^2 over instances, half of it, at most 1.")
