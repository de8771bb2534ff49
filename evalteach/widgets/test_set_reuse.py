"""Choosing among m models by their test score makes that score optimistic."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.ticker import FormatStrFormatter, MaxNLocator

from ..plotting import COLORS
from ..simulate import TestSetReuseExperiments
from ._base import Explorer, slider
from ._cached_layer import CachedLayer

M_MAX = 100
N_EXPERIMENTS = 1000


@lru_cache(maxsize=2)
def _experiments(seed):
    """The draws for one seed: a new setting redraws only what it changes."""
    return TestSetReuseExperiments(M_MAX, N_EXPERIMENTS, seed)


@lru_cache(maxsize=64)
def _simulation(error, n_test, n_validation, spread, seed):
    return _experiments(seed).simulate(error, n_test, n_validation=n_validation, spread=spread)


@dataclass(frozen=True)
class TestSetReuseView:
    """The simulation (curves for m = 1..100) and its values at the chosen m."""

    simulation: object
    m: int
    reused: float
    reused_true: float
    optimism: float
    optimism_se: float
    validated: float
    validated_true: float
    validated_bias: float
    validated_se: float

    __test__ = False  # not a pytest class


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
            validated_bias=float(sim.validated[i] - sim.validated_true[i]),
            validated_se=float(sim.validated_se[i]))

    def _build(self, figure):
        self.ax_one, self.ax_curve = figure.subplots(1, 2, width_ratios=[1, 1.3])
        ax = self.ax_one
        ax.set_title("one experiment: the m models")
        ax.set_xlabel("model")
        ax.set_ylabel("error")
        ax.set_xlim(0, M_MAX + 1)
        (self.true_pts,) = ax.plot([], [], "_", color=COLORS["truth"], ms=7, label="true error")
        (self.test_pts,) = ax.plot([], [], "o", color=COLORS["data"], ms=3.5, label="test score")
        (self.pick_test,) = ax.plot([], [], "*", color=COLORS["bad"], ms=15, label="best test score (reported)")
        (self.pick_val,) = ax.plot([], [], "s", mfc="none", mec=COLORS["good"], mew=2, ms=10,
                                   label="chosen on validation set")

        ax = self.ax_curve
        ax.set_title(f"average over {N_EXPERIMENTS} experiments")
        ax.set_xlabel("number of models tried m")
        ax.set_ylabel("error")
        ax.set_xlim(1, M_MAX)
        m = np.arange(1, M_MAX + 1)
        (self.c_true,) = ax.plot(m, m * 0.0, color=COLORS["truth"], ls="--", label="true error of the chosen model")
        (self.c_reused,) = ax.plot(m, m * 0.0, color=COLORS["bad"], label="reported: best test score")
        (self.c_valid,) = ax.plot(m, m * 0.0, color=COLORS["good"], label="reported: test score, chosen on validation")
        self.m_line = ax.axvline(1, color=COLORS["muted"], lw=1)
        self.gap = ax.annotate("", xy=(1, 0), xytext=(1, 0),
                               arrowprops=dict(arrowstyle="<->", color=COLORS["bad"], lw=1.5))
        self.gap_text = ax.text(0, 0, "", color=COLORS["bad"], fontsize="small", va="center")
        # one legend under both panels: inside, it covered the models' points and the curves
        handles = [self.true_pts, self.test_pts, self.pick_test, self.pick_val, self.c_true, self.c_reused,
                   self.c_valid]
        figure.legend(handles=handles, loc="outside lower center", ncol=4, fontsize="small", frameon=False)
        # The error axes take limits on a coarse grid; their tick labels (all "0.xx", one
        # width) are drawn once per limits and pasted back: no change forces a full redraw.
        for ax in (self.ax_one, self.ax_curve):
            ax.yaxis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 5, 10]))
            ax.yaxis.set_major_formatter(FormatStrFormatter("%.2f"))
            ax.yaxis.set_animated(True)
        self.axis_layer = CachedLayer(size=8)
        self._limits = None
        self.dynamic(self.axis_layer, self.true_pts, self.test_pts, self.pick_test, self.pick_val, self.c_true, self.c_reused,
                     self.c_valid, self.m_line, self.gap, self.gap_text)

    def _draw(self, r):
        sim, m = r.simulation, r.m
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
        self.gap.xy, self.gap.xyann = (m, r.reused), (m, r.reused_true)
        right = m < 0.7 * M_MAX  # near the right edge the label goes left of the arrow
        self.gap_text.set_position((m + 1.5 if right else m - 1.5, (r.reused + r.reused_true) / 2))
        self.gap_text.set_horizontalalignment("left" if right else "right")
        self.gap_text.set_text(f"optimism {r.optimism:.3f}")

        low = min(sim.example_test.min(), sim.reused.min(), sim.example_true.min())
        high = max(sim.example_test.max(), sim.validated.max(), sim.example_true.max())
        # a coarse grid of limits: most changes of the error redraw only the dynamic artists
        limits = (max(0.0, np.floor(low * 10 - 0.3) / 10), np.ceil(high * 10 + 0.3) / 10)
        if limits != self._limits:
            self._limits = limits
            self.ax_one.set_ylim(*limits)
            self.ax_curve.set_ylim(*limits)
        self.axis_layer.show(limits, [self.ax_one.yaxis, self.ax_curve.yaxis])

    def _summary(self, r):
        sim = r.simulation
        return (f"Trying m = {r.m} models on a test set of {sim.n_test}: the best test score averages "
                f"{r.reused:.3f}, while the chosen model's true error averages {r.reused_true:.3f}, an optimism "
                f"of {r.optimism:.3f} (± {r.optimism_se:.4f}). Choosing on a validation set and reporting the "
                f"test set gives {r.validated:.3f} against a true {r.validated_true:.3f} "
                f"(bias {r.validated_bias:+.4f} ± {r.validated_se:.4f}).")
