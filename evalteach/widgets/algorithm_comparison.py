"""Which test for comparing two learners keeps its promise? Type-I error and power, simulated."""
from __future__ import annotations

from collections import OrderedDict

import numpy as np
from matplotlib.collections import LineCollection

from ..plotting import COLORS
from ..simulate import ALGORITHM_TESTS, simulate_algorithm_tests
from ._base import Explorer, dropdown, slider

_NAMES = list(ALGORITHM_TESTS)


class AlgorithmComparisonExplorer(Explorer):
    """Rejection rates of seven tests for comparing two learners, over many simulated experiments.

    With ``difference = 0`` the two learners are equally good, so every rejection is a
    type-I error and a trustworthy test rejects in a share ``alpha`` of the experiments;
    with a positive difference the rejection rate is the test's power. Bars show each
    test's rate with a 95% Monte Carlo error bar against the nominal ``alpha`` (dashed).

    The experiments come from :func:`evalteach.simulate.simulate_algorithm_tests`, a
    vectorised model of the two learners' per-instance errors in which hypotheses
    trained on overlapping training sets err on the same instances (``stability``) and
    vary in quality with their training set (``training noise``). As Dietterich (1998)
    found with real learners, the paired t-test on repeated holdouts is far too liberal,
    10-fold CV's paired t somewhat liberal, while McNemar's test and the 5x2cv tests stay
    near alpha (the corrected resampled t of Nadeau & Bengio repairs the holdout t).
    More training noise hurts every test that sees a single training run (McNemar,
    difference of proportions).

    Changing ``alpha`` only re-judges the cached p-values, so it is instant; the other
    controls rerun the simulation (a fraction of a second) and update on release.
    """

    title = "Comparing two learning algorithms: type-I error and power of the tests"
    figsize = (10.0, 4.2)
    resample_button = True

    def _controls(self):
        return {
            "difference": slider("true difference in error", 0.0, 0.0, 0.15, 0.01,
                                 tooltip="0: the null hypothesis is true (type-I error); > 0: power"),
            "alpha": dropdown("alpha", [("0.01", 0.01), ("0.05", 0.05), ("0.10", 0.10)], 0.05),
            "n": slider("data set size", 200, 60, 600, 20),
            "error": slider("error of learner A", 0.20, 0.05, 0.45, 0.01),
            "stability": slider("stability across resamples", 0.9, 0.0, 0.95, 0.05,
                                tooltip="correlation of one instance's errors across training sets"),
            "training_noise": slider("training-set noise", 0.05, 0.0, 0.2, 0.01,
                                     tooltip="how much a hypothesis' quality varies with its training set"),
            "n_experiments": dropdown("experiments", [200, 500, 1000, 2000], 500),
        }

    def __init__(self, **kwargs):
        self._cache = OrderedDict()
        super().__init__(**kwargs)

    def _compute(self, state):
        key = tuple(state[k] for k in ("n", "error", "difference", "stability", "training_noise",
                                       "n_experiments", "seed"))
        if key not in self._cache:
            self._cache[key] = simulate_algorithm_tests(
                state["n"], state["error"], state["difference"], n_experiments=state["n_experiments"],
                stability=state["stability"], training_noise=state["training_noise"], seed=state["seed"],
                progress=self.report_progress)
            while len(self._cache) > 16:
                self._cache.popitem(last=False)
        self._cache.move_to_end(key)
        return self._cache[key].with_alpha(state["alpha"])

    def _build(self, figure):
        ax = self.ax = figure.subplots()
        y = np.arange(len(_NAMES))[::-1]
        self.bars = ax.barh(y, np.zeros(len(_NAMES)), height=0.6, color=COLORS["data"])
        ax.set_yticks(y, [ALGORITHM_TESTS[k] for k in _NAMES])
        self.whiskers = LineCollection([], colors=COLORS["truth"], linewidths=1.5)
        ax.add_collection(self.whiskers)
        self.alpha_line = ax.axvline(0.05, color=COLORS["truth"], ls="--", lw=1.5)
        self.labels = [ax.annotate("", xy=(0, yi), xytext=(5, 0), textcoords="offset points", va="center",
                                   fontsize="small", bbox=dict(facecolor="white", edgecolor="none", pad=0.5))
                       for yi in y]
        self.verdict = ax.text(0.99, 0.02, "", transform=ax.transAxes, ha="right", va="bottom",
                               fontsize="small", color=COLORS["muted"])
        ax.set_ylim(-0.6, len(_NAMES) - 0.4)
        # a square-root axis shows rates near alpha and near 1 on one fixed scale
        ax.set_xscale("function", functions=(np.sqrt, np.square))
        ax.set_xlim(0, 1.08)
        ax.set_xticks([0, 0.01, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0])
        ax.xaxis.set_major_formatter(lambda x, _: f"{100 * x:g}%")
        ax.grid(axis="x", color="0.92")
        ax.set_xlabel("rejection rate (whiskers: 95% Monte Carlo error; dashed: alpha)")
        # a text artist, not the axes title: redrawing a title alone costs tens of milliseconds
        self.heading = ax.text(0.5, 1.02, "", transform=ax.transAxes, ha="center", va="bottom",
                               fontsize="large")
        self.dynamic(*self.bars, self.whiskers, self.alpha_line, *self.labels, self.verdict, self.heading)

    def _draw(self, r):
        alpha, null = r.alpha, r.difference == 0
        y = np.arange(len(_NAMES))[::-1]
        segments = []
        for bar, text, yi, name in zip(self.bars, self.labels, y, _NAMES):
            rate, half = r.rejection_rates[name], 1.96 * r.mc_error[name]
            bar.set_width(rate)
            if null:
                colour = (COLORS["bad"] if rate - half > alpha else
                          COLORS["muted"] if rate + half < alpha else COLORS["good"])
            else:
                colour = COLORS["data"]
            bar.set_color(colour)
            segments.append([(max(rate - half, 0), yi), (rate + half, yi)])
            text.xy = (rate + half, yi)
            text.set_text(f"{100 * rate:.1f}%")
        self.whiskers.set_segments(segments)
        self.alpha_line.set_xdata([alpha])
        what = "type-I error (no true difference)" if null else f"power (true difference {r.difference:.2f})"
        self.heading.set_text(f"{what}: share of {r.n_experiments} experiments rejecting H0 at alpha = {alpha:g}")
        self.verdict.set_text("red: too liberal, green: near alpha, grey: conservative" if null
                              else "higher is better, if the test keeps alpha under H0")

    def _summary(self, r):
        what = ("Type-I error (the learners are equally good)" if r.difference == 0 else
                f"Power against a true difference of {r.difference:.2f}")
        rates = "; ".join(f"{ALGORITHM_TESTS[k]} {100 * r.rejection_rates[k]:.1f}% "
                          f"(± {100 * 1.96 * r.mc_error[k]:.1f})" for k in _NAMES)
        return (f"{what} at alpha = {r.alpha:g} over {r.n_experiments} simulated experiments on data sets "
                f"of {r.n}: {rates}.")
