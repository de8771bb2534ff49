"""Choosing among m models by their test score makes that score optimistic."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.ticker import FormatStrFormatter, MaxNLocator

from ..plotting import COLORS, points
from ..simulate import TestSetReuseExperiments
from ._base import Explorer, slider
from ._cached_layer import CachedLayer, Stamp, axis_region

M_MAX = 100
N_EXPERIMENTS = 1000
#: Ends of the models axis (left panel): it follows m in these steps, so a few models fill
#: the panel while most moves of m keep the axis (its tick labels are pasted per end).
_MODEL_ENDS = (5, 10, 20, 50, M_MAX)
#: The optimism label's size relative to the font, in em: one line's height, and a
#: character's width (digits are 0.64 em in DejaVu Sans; a little more for safety).
_LINE_EM, _CHAR_EM = 1.25, 0.68


@lru_cache(maxsize=2)
def _experiments(seed):
    """The draws for one seed: a new setting redraws only what it changes."""
    return TestSetReuseExperiments(M_MAX, N_EXPERIMENTS, seed)


@lru_cache(maxsize=64)
def _simulation(error, n_test, n_validation, spread, seed):
    return _experiments(seed).simulate(error, n_test, n_validation=n_validation, spread=spread)


@dataclass(frozen=True)
class TestSetReuseView:
    """The simulation (curves for m = 1..100) and its values at the chosen m.

    One sign convention throughout: optimism = true error - reported error, positive when the
    reported error flatters the model (``optimism`` for the lowest test error,
    ``validated_optimism`` for the test error of the model chosen on validation). The ``_se``
    fields are Monte Carlo standard errors over the experiments."""

    simulation: object
    m: int
    reused: float
    reused_true: float
    optimism: float
    optimism_se: float
    validated: float
    validated_true: float
    validated_optimism: float
    validated_se: float
    error: float = 0.2  # every model's true error (their mean, when spread > 0)
    spread: float = 0.0

    __test__ = False  # not a pytest class

    @property
    def validated_bias(self):
        """Reported - true on the validation route: ``-validated_optimism`` (the sign of
        :attr:`evalteach.simulate.TestSetReuseSimulation.validated_bias`)."""
        return -self.validated_optimism


class TestSetReuseExplorer(Explorer):
    """Report the best of m models' test-set scores, and see it flatter the winner.

    Each of m models (hyper-parameter settings, say) has a true error; its error on a
    test set of ``n_test`` instances is binomial. Picking the model with the lowest test
    error and reporting that error is optimistic, more so the more models are tried,
    even when all models are equally good (``spread = 0``). Choosing on a separate
    validation set and reporting the untouched test set removes the bias (nested
    cross-validation does the same when data are scarce). Simulated with
    :func:`evalteach.simulate.simulate_test_set_reuse` (1000 experiments), whose draws
    are kept: a new test-set size redraws only the test scores.

    Source: Witten & Frank, *Data Mining*, ch. 5 (parameter tuning needs a validation set).
    """

    __test__ = False
    title = "Reusing the test set to choose a model"
    figsize = (10.5, 4.0)
    resample_button = True
    play = {"m": 150}

    def _controls(self):
        return {
            "m": slider("models tried m", 20, 1, M_MAX),
            "error": slider("true error of each", 0.20, 0.05, 0.50, 0.01),
            "spread": slider("spread of true errors", 0.0, 0.0, 0.05, 0.005,
                             tooltip="standard deviation of the models' true errors around 'true error'"),
            "n_test": slider("test set size", 100, 20, 1000, 10),
            "n_validation": slider("validation set size", 100, 20, 1000, 10),
        }

    def _hidden(self, state):
        """Every slider acts in every state."""
        return set()

    def _compute(self, state):
        sim = _simulation(state["error"], state["n_test"], state["n_validation"], state["spread"],
                          state["seed"])
        i = state["m"] - 1
        return TestSetReuseView(
            simulation=sim, m=state["m"], reused=float(sim.reused[i]), reused_true=float(sim.reused_true[i]),
            optimism=float(sim.reused_true[i] - sim.reused[i]), optimism_se=float(sim.reused_se[i]),
            validated=float(sim.validated[i]), validated_true=float(sim.validated_true[i]),
            validated_optimism=float(sim.validated_true[i] - sim.validated[i]),
            validated_se=float(sim.validated_se[i]), error=float(state["error"]), spread=float(state["spread"]))

    def _build(self, figure):
        self.ax_one, self.ax_curve = figure.subplots(1, 2, width_ratios=[1, 1.3])
        ax = self.ax_one
        ax.set_title("one experiment: the m models")
        ax.set_xlabel("model")
        ax.set_ylabel("error")
        ax.xaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 5, 10], integer=True))
        (self.true_pts,) = ax.plot([], [], "_", color=COLORS["truth"], ms=points(7),
                                   label="true error (one dash a model)")
        (self.test_pts,) = ax.plot([], [], "o", color=COLORS["data"], ms=points(3.5), zorder=2.5, label="test error")
        (self.pick_test,) = ax.plot([], [], "*", color=COLORS["bad"], ms=points(15),
                                    label="lowest test error (reported)")
        (self.pick_val,) = ax.plot([], [], "s", mfc="none", mec=COLORS["good"], mew=points(2), ms=points(10),
                                   label="chosen on validation set")

        ax = self.ax_curve
        ax.set_title(f"average over {N_EXPERIMENTS} experiments")
        ax.set_xlabel("number of models tried m")
        ax.set_ylabel("error")
        # from just left of m = 1, so that the arrow and the m line at m = 1 clear the spine
        ax.set_xlim(0, M_MAX)
        ax.set_xticks([1, 20, 40, 60, 80, 100])
        m = np.arange(1, M_MAX + 1)
        (self.c_reused,) = ax.plot(m, m * 0.0, color=COLORS["bad"], label="reported: lowest test error")
        (self.c_valid,) = ax.plot(m, m * 0.0, color=COLORS["good"], label="reported: test error, chosen on validation")
        # drawn over the green curve (which lies almost on it) with wide gaps: both stay visible
        (self.c_true,) = ax.plot(m, m * 0.0, color=COLORS["truth"], ls=(0, (4, 3)), zorder=2.5,
                                 label="true error of the chosen model")
        self.m_line = ax.axvline(1, color=COLORS["muted"], lw=points(1))
        self.gap = ax.annotate("", xy=(1, 0), xytext=(1, 0),
                               arrowprops=dict(arrowstyle="<->", color=COLORS["bad"], lw=points(1.5)))
        self.gap_text = ax.text(0, 0, "", color=COLORS["bad"], fontsize="small")
        # one legend under both panels: inside, it covered the models' points and the curves
        # the true errors are a row of dashes (one a model): so is their legend entry
        dashes = Line2D([], [], color=COLORS["truth"], lw=points(1), ls=(0, (2.5, 2)), label=self.true_pts.get_label())
        handles = [dashes, self.test_pts, self.pick_test, self.pick_val, self.c_true, self.c_reused,
                   self.c_valid]
        figure.legend(handles=handles, loc="outside lower center", ncol=4, fontsize="small", frameon=False)
        # The error axes take limits on a coarse grid; their tick labels (all "0.xx", one
        # width) are drawn once per limits and pasted back, and the models axis once per end
        # (_MODEL_ENDS): no change forces a full redraw.
        for ax in (self.ax_one, self.ax_curve):
            ax.yaxis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 5, 10]))
            ax.yaxis.set_major_formatter(FormatStrFormatter("%.2f"))
            ax.yaxis.set_animated(True)
        self.axis_layer = CachedLayer()
        self.models_axis = Stamp([self.ax_one.xaxis], region=axis_region(self.ax_one.xaxis))
        self._limits = self._end = None
        # animated artists are drawn in this order: the chosen model's true error over the green curve
        # the test-error dots last: the star and square mark a dot, and must not hide it
        self.dynamic(self.axis_layer, self.models_axis, self.true_pts, self.pick_test, self.pick_val,
                     self.test_pts, self.c_reused, self.c_valid, self.c_true, self.m_line, self.gap,
                     self.gap_text)

    def _draw(self, r):
        sim, m = r.simulation, r.m
        low = min(sim.example_test.min(), sim.reused.min(), sim.example_true.min())
        high = max(sim.example_test.max(), sim.validated.max(), sim.example_true.max())
        # a coarse grid of limits: most changes of the error redraw only the dynamic artists
        limits = (max(0.0, np.floor(low * 10 - 0.3) / 10), np.ceil(high * 10 + 0.3) / 10)
        if limits != self._limits:
            self._limits = limits
            self.ax_one.set_ylim(*limits)
            self.ax_curve.set_ylim(*limits)
        end = next(e for e in _MODEL_ENDS if e >= m)
        if end != self._end:
            self._end = end
            self.ax_one.set_xlim(0.5, end + 0.5)
        self.axis_layer.show(limits, [self.ax_one.yaxis, self.ax_curve.yaxis])
        self.models_axis.show(end)

        x = np.arange(1, m + 1)
        true, test, val = sim.example_true[:m], sim.example_test[:m], sim.example_validation[:m]
        self.true_pts.set_data(x, true)
        self.test_pts.set_data(x, test)
        best, chosen = int(np.argmin(test)), int(np.argmin(val))
        self.pick_test.set_data([best + 1], [test[best]])
        self.pick_val.set_data([chosen + 1], [test[chosen]])
        self.c_true.set_ydata(sim.reused_true)
        self.c_reused.set_ydata(sim.reused)
        self.c_valid.set_ydata(sim.validated)
        self.m_line.set_xdata([m])
        self._place_gap(r)

    def _place_gap(self, r):
        """The optimism arrow at m and its label, never over a curve.

        The label goes between the curves (beside the arrow) where they leave it room all
        along its width, else above every curve, else below them; the arrow is drawn only
        when it is long enough to read as one (at m = 1 the gap is about 0)."""
        sim, m, ax, text = r.simulation, r.m, self.ax_curve, self.gap_text
        label = _gap_label(r)
        to_pixels = ax.transData.transform
        (x0, y_low), (x1, y_high) = to_pixels([(0, 0), (1, 1)])
        px_x, px_y = x1 - x0, y_high - y_low  # pixels per model, per unit of error
        em = text.get_fontsize() * self.figure.dpi / 72
        line, width, step = _LINE_EM * em, _CHAR_EM * em * len(label) / px_x, 1.5
        gap = abs(r.reused_true - r.reused) * px_y
        self.gap.xy, self.gap.xyann = (m, r.reused), (m, r.reused_true)
        self.gap.set_visible(gap >= 1.2 * em)
        right = m + step + width <= M_MAX  # near the right edge the label goes left of the arrow
        start, stop = (m + step, m + step + width) if right else (m - step - width, m - step)
        span = slice(max(int(np.floor(start)) - 1, 0), max(int(np.ceil(stop)), 1))  # curve i is m = i + 1
        curves = (sim.reused_true[span], sim.validated[span], sim.reused[span])
        lowest_upper, highest_lower = min(c.min() for c in curves[:2]), curves[2].max()
        top = ax.get_ylim()[1]
        margin = 0.3 * em / px_y
        if (lowest_upper - highest_lower) * px_y >= line + 2 * 0.3 * em:  # between the curves
            y, va = (lowest_upper + highest_lower) / 2, "center"
        elif max(c.max() for c in curves) + margin + line / px_y <= top:  # above them
            y, va = max(c.max() for c in curves) + margin, "bottom"
        else:  # below them (the limits leave room above or below the curves)
            y, va = min(c.min() for c in curves) - margin, "top"
        text.set_position((start if right else stop, y))
        text.set_horizontalalignment("left" if right else "right")
        text.set_verticalalignment(va)
        text.set_text(label)

    def _summary(self, r):
        sim = r.simulation
        if r.spread == 0:
            models = f"Every model has the same true error, {r.error:.2f}."
        else:
            models = (f"The models' true errors are {r.error:.2f} plus normal noise with standard "
                      f"deviation {r.spread:.3g} (clipped to [0.001, 0.999]).")
        if r.m == 1:
            reused = (f"With m = 1 there is one model and no choice: no optimism. Its test error averages "
                      f"{r.reused:.3f} against its true error {r.reused_true:.3f}; the difference, "
                      f"{r.optimism:+.4f} ± {r.optimism_se:.4f}, is Monte Carlo noise.")
        else:
            reused = (f"Trying m = {r.m} models on a test set of {sim.n_test} and reporting the lowest test "
                      f"error: it averages {r.reused:.3f}, while the chosen model's true error averages "
                      f"{r.reused_true:.3f}, an optimism (true - reported) of {r.optimism:+.3f} "
                      f"± {r.optimism_se:.4f}.")
        if r.m == 1:  # a validation set has nothing to choose from: the same model, the same numbers
            return (f"{models} {reused} A validation set would choose the same model, so that route reports "
                    f"the same. The ± is the Monte Carlo standard error over the {sim.n_experiments} experiments.")
        return (f"{models} {reused} Choosing on a validation set and reporting the test set gives "
                f"{r.validated:.3f} against a true {r.validated_true:.3f}: optimism (true - reported) "
                f"{r.validated_optimism:+.4f} ± {r.validated_se:.4f}. Each ± is the Monte Carlo standard error "
                f"over the {sim.n_experiments} experiments.")


def _gap_label(r):
    """The optimism arrow's label: at m = 1 nothing is chosen, and the gap is noise."""
    return "one model, no choice: no optimism" if r.m == 1 else f"optimism {r.optimism:.3f}"
