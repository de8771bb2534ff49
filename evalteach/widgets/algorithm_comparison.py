"""Which test for comparing two learners keeps its promise? Type-I error and power in a simulated model."""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..plotting import COLORS, points
from ..simulate import ALGORITHM_TESTS, AlgorithmTestExperiments
from ._base import Explorer, dropdown, slider
from ._cached_layer import CachedText, Stamp

_NAMES = list(ALGORITHM_TESTS)
#: The largest data set the "data set size" slider offers: the draws are made for it once.
MAX_N = 600
#: Experiments in the first answer to a change by hand: the first ones of the current draws
#: (:meth:`~evalteach.simulate.AlgorithmTestExperiments.head`, whose draws are kept whole).
PREVIEW_EXPERIMENTS = 100
# Bar styles: (face colour, hatch), one meaning in both views: how the test keeps alpha
# under H0 at the same settings. Under H0 the bar is that type-I error itself; in the power
# view a test that rejects too often under H0 keeps its colour (and hatching), because its
# "power" is bought with false alarms.
_LIBERAL = (COLORS["bad"], "///")
_NEAR = (COLORS["good"], "")
_CONSERVATIVE = (COLORS["muted"], "")
_STYLES = {"liberal": _LIBERAL, "near": _NEAR, "conservative": _CONSERVATIVE}
_LEGENDS = {
    True: [(_LIBERAL, "too liberal (above alpha)"), (_NEAR, "keeps alpha"),
           (_CONSERVATIVE, "conservative (below alpha)")],
    False: [(_LIBERAL, "too liberal under H0: invalid"), (_NEAR, "keeps alpha under H0"),
            (_CONSERVATIVE, "conservative under H0")],
}
#: The widest label a bar can have.
_WIDEST = "100.0% (invalid)"
#: Test labels, wrapped so that the axis keeps its width at presenter scale.
_LABELS = {k: v.replace(" (", "\n(") if len(v) > 22 else v for k, v in ALGORITHM_TESTS.items()}


@dataclass(frozen=True)
class AlgorithmComparisonView:
    """The simulation shown, and under a true difference the same setting with none (H0)."""

    simulation: object
    null: object
    #: the model's training-set noise (the simulation does not keep it): the picture states it
    training_noise: float

    def __getattr__(self, name):  # the numbers shown are the simulation's
        return getattr(self.__dict__["simulation"], name)

    def verdict(self, name):
        """'liberal', 'near' or 'conservative': the test's type-I error against alpha."""
        return self.null.level(name)


class AlgorithmComparisonExplorer(Explorer):
    """Rejection rates of seven tests for comparing two learners, in a simulated model.

    What it is: a *statistical model* of two learners, not Dietterich's (1998) experiment
    with real learners on real data. No classifier is trained; each simulated experiment
    draws the 0/1 errors of two learners on every test instance of every resample from
    :class:`evalteach.simulate.AlgorithmTestExperiments` (see
    :func:`evalteach.simulate.simulate_algorithm_tests`): hypotheses trained on
    overlapping training sets err on the same instances (``stability``) and vary in
    quality with their training set (``training noise``). It does not model how a real
    learner's error depends on its training-set size, nor anything specific to a learner
    or a data set: it shows how the tests' assumptions break under such dependence.

    With ``difference = 0`` the two learners are equally good, so every rejection is a
    type-I error and a trustworthy test rejects in a share ``alpha`` of the experiments.
    With a positive difference the rejection rate is the test's power. In both views a
    bar's colour says how the test keeps alpha under H0 at the same settings, judged
    with the 95% Monte Carlo error shown as whiskers: hatched orange (the palette's
    vermillion, ``COLORS["bad"]``) above alpha, green near it, grey below it. So a test
    that rejects too often under H0 stays hatched orange in the power view: its "power"
    is bought with false alarms. The x axis is linear, so bar lengths compare; the rates
    are written in a column right of the axes, clear of every bar and whisker.

    The random draws are made once per number of experiments and seed (a progress bar
    shows them; fewer experiments take the first of the current draws where those are a
    prefix), then every control only transforms them (common random numbers):
    neighbouring settings differ by the setting, not by Monte Carlo noise. Most of the
    draws are not kept but made again from saved generator states when a setting needs
    them (:class:`~evalteach.simulate.AlgorithmTestExperiments`: 18 MB instead of 86 MB
    for 1000 experiments), so a change by hand that needs new scores (n, stability or
    training noise) is answered at once with the first 100 experiments
    (:data:`PREVIEW_EXPERIMENTS`, the picture those experiments give, its heading and
    whiskers saying so) and completed when the hand rests.

    Source: Dietterich (1998), Neural Computation 10(7); Nadeau & Bengio (2003).
    """

    title = "Comparing two learning algorithms: type-I error and power of the tests, in a simulated model"
    figsize = (10.0, 4.6)
    resample_button = True

    def _controls(self):
        return {
            "difference": slider("true difference in error", 0.0, 0.0, 0.15, 0.01,
                                 tooltip="0: the null hypothesis is true (type-I error); > 0: power"),
            "alpha": dropdown("alpha", [("0.01", 0.01), ("0.05", 0.05), ("0.10", 0.10)], 0.05),
            "n": slider("data set size", 200, 60, MAX_N, 20),
            "error": slider("error of learner A", 0.20, 0.05, 0.45, 0.01),
            "stability": slider("stability across resamples", 0.9, 0.0, 0.95, 0.05,
                                tooltip="correlation of one instance's errors across training sets"),
            "training_noise": slider("training-set noise", 0.05, 0.0, 0.2, 0.01,
                                     tooltip="how much a hypothesis' quality varies with its training set"),
            "n_experiments": dropdown("experiments", [200, 500, 1000], 500),
        }

    def _hidden(self, state):
        """Every control changes the model in both views."""
        return set()

    def __init__(self, **kwargs):
        self._experiments = {}
        self._cache = OrderedDict()
        self._few = (None, None)  # (draws, their first PREVIEW_EXPERIMENTS experiments)
        super().__init__(**kwargs)

    @staticmethod
    def _key(state, difference):
        return tuple(state[k] for k in ("n", "error", "stability", "training_noise", "n_experiments",
                                        "seed")) + (difference,)

    def _simulation(self, state, difference, null=None, experiments=None):
        key = self._key(state, difference)
        if key not in self._cache:
            if experiments is None:
                drawn = (state["n_experiments"], state["seed"])
                if drawn not in self._experiments:
                    self._experiments = {drawn: self._draws(*drawn)}
                experiments = self._experiments[drawn]
            self._cache[key] = experiments.simulate(
                state["n"], state["error"], difference, stability=state["stability"],
                training_noise=state["training_noise"], null=null)
            if difference and null is None:  # a power simulation made H0 in the same pass
                self._cache[self._key(state, 0.0)] = self._cache[key].without_difference()
            while len(self._cache) > 64:
                self._cache.popitem(last=False)
        self._cache.move_to_end(key)
        return self._cache[key].with_alpha(state["alpha"])

    def _draws(self, n_experiments, seed):
        """The draws of ``n_experiments`` experiments: the first ones of the current draws
        where they are a prefix of them (fewer experiments, same seed), else drawn anew."""
        current = next(iter(self._experiments.values()), None)
        if current is not None and current.seed == seed and n_experiments <= current.n_experiments:
            try:
                return current.first(n_experiments)
            except ValueError:  # not a prefix of the current draws
                pass
        return AlgorithmTestExperiments(n_experiments, max_n=MAX_N, seed=seed, progress=self.report_progress)

    def _view(self, state, experiments=None):
        if state["difference"] == 0:
            null = sim = self._simulation(state, 0.0, experiments=experiments)
        else:
            sim = self._simulation(state, state["difference"], self._cache.get(self._key(state, 0.0)), experiments)
            null = self._simulation(state, 0.0, experiments=experiments)
        return AlgorithmComparisonView(sim, null, float(state["training_noise"]))

    def _compute(self, state):
        return self._view(state)

    def _preview(self, state):
        """A change by hand to a setting whose scores are not made yet (n, stability or
        training noise): the first :data:`PREVIEW_EXPERIMENTS` experiments at once (exactly
        what that many experiments show); None when the full answer is quick (its scores
        are at hand) or the draws must be made first."""
        drawn = (state["n_experiments"], state["seed"])
        if (state["n_experiments"] <= PREVIEW_EXPERIMENTS or drawn not in self._experiments
                or all(self._key(state, d) in self._cache for d in {0.0, state["difference"]})
                or self._experiments[drawn].scored(state["n"], stability=state["stability"],
                                                   training_noise=state["training_noise"])):
            return None
        if self._few[0] != drawn:
            self._few = (drawn, self._experiments[drawn].head(PREVIEW_EXPERIMENTS))
        return self._view(dict(state, n_experiments=PREVIEW_EXPERIMENTS), self._few[1])

    def _refine(self, state):
        """The whole setting, in one step."""
        self._view(state)

    def _build(self, figure):
        ax = self.ax = figure.subplots()
        y = np.arange(len(_NAMES))[::-1]
        # white edges: the hatching of a too liberal bar, white on its colour (no outline: width 0)
        self.bars = ax.barh(y, np.zeros(len(_NAMES)), height=0.6, color=COLORS["data"],
                            edgecolor="white", linewidth=0)
        ax.set_yticks(y, [_LABELS[k] for k in _NAMES], fontsize="small")
        self.whiskers = LineCollection([], colors=COLORS["truth"], linewidths=points(1.5))
        ax.add_collection(self.whiskers)
        self.alpha_line = ax.axvline(0.05, color=COLORS["truth"], ls="--", lw=points(1.5))
        # the rates in a column right of the axes (a label inside the axes would cross a bar
        # near 100% or its whisker), right-aligned at the width of the widest: the layout
        # keeps room for every label from the first picture on
        widest = ax.annotate(_WIDEST, (0, 0), fontsize="small")
        room = widest.get_window_extent(figure.canvas.get_renderer()).width * 72 / figure.dpi
        widest.remove()
        self.labels = [ax.annotate("", xy=(1, yi), xycoords=("axes fraction", "data"), xytext=(6 + room, 0),
                                   textcoords="offset points", ha="right", va="center", fontsize="small")
                       for yi in y]
        ax.set_ylim(-0.6, len(_NAMES) - 0.4)
        ax.set_xlim(0, 1)  # a rate
        ax.set_xticks(np.linspace(0, 1, 6))
        ax.xaxis.set_major_formatter(lambda x, _: f"{100 * x:.0f}%")
        ax.grid(axis="x", color="0.92")
        ax.set_xlabel("share of experiments rejecting H0")
        self._legends = {}  # (view, bar styles drawn) -> its legend, drawn in the legend layer
        self.legend = None
        # Two text artists, not the axes title, each pasted per wording (CachedText): their
        # glyphs cost more than the rest of an update, the first line changes with the view,
        # alpha and the difference, the second with the number of experiments and the
        # training-set noise. They stand apart by more than the padding of their cached regions.
        self.heading = ax.text(0.5, 1.02, "", transform=ax.transAxes, ha="center", va="bottom")
        self.view_heading = ax.annotate("", xy=(0.5, 1), xycoords=self.heading, xytext=(0, 3),
                                        textcoords="offset points", ha="center", va="bottom")
        self.legend_layer = Stamp()  # below the axes, clear of every other layer
        self.dynamic(self.legend_layer, CachedText(self.view_heading), CachedText(self.heading),
                     *self.bars, self.whiskers, self.alpha_line, *self.labels)

    def _legend(self, null, styles):
        """The figure's legend for the type-I error view (``null``) or the power view: the bar
        styles drawn (``styles``), the alpha line and the whiskers.

        Made once per view and styles and drawn in a cached layer, so a change of what the
        bars show pastes pixels instead of redrawing the figure. Every legend has two rows,
        so the room the first one got below the axes fits them all."""
        key = (null, styles)
        if key not in self._legends:
            handles = [Patch(facecolor=face, hatch=hatch, edgecolor="white", linewidth=0, label=label) for (face, hatch), label in _LEGENDS[null] if (face, hatch) in styles]
            handles += [Line2D([], [], color=COLORS["truth"], ls="--", label="alpha"),
                        Line2D([], [], color=COLORS["truth"], lw=points(1.5), label="95% Monte Carlo error")]
            legend = self.figure.legend(handles=handles, loc="outside lower center", ncol=3 if len(handles) > 3 else 2,
                                        frameon=False, fontsize="small")
            legend.set_animated(True)
            self._legends[key] = legend
        for legend in self._legends.values():
            legend.set_visible(legend is self._legends[key])
        return self._legends[key]

    @staticmethod
    def _style(r, name):
        """The bar style of test ``name``: how it keeps alpha under H0, the same in both views."""
        return _STYLES[r.verdict(name)]

    def _draw(self, r):
        alpha, null = r.alpha, r.difference == 0
        styles = [self._style(r, name) for name in _NAMES]
        self.legend = self._legend(null, frozenset(styles))
        self.legend_layer.show(self.legend, [self.legend])
        y = np.arange(len(_NAMES))[::-1]
        segments = []
        for bar, text, yi, name, (face, hatch) in zip(self.bars, self.labels, y, _NAMES, styles):
            rate, half = r.rejection_rates[name], 1.96 * r.mc_error[name]
            bar.set_width(rate)
            bar.set_facecolor(face)
            bar.set_hatch(hatch)
            segments.append([(max(rate - half, 0), yi), (rate + half, yi)])
            invalid = not null and r.verdict(name) == "liberal"
            text.set_text(f"{100 * rate:.1f}%" + (" (invalid)" if invalid else ""))
        self.whiskers.set_segments(segments)
        self.alpha_line.set_xdata([alpha])
        what = "Type-I error (no true difference)" if null else f"Power (true difference {r.difference:.2f})"
        self.view_heading.set_text(f"{what}, alpha = {alpha:g}")
        self.heading.set_text(f"{r.n_experiments} experiments simulated from a model of two learners, "
                              f"training-set noise {r.training_noise:.2f}")

    def _summary(self, r):
        what = ("Type-I error (the learners are equally good)" if r.difference == 0 else
                f"Power against a true difference of {r.difference:.2f}")
        rates = "; ".join(f"{ALGORITHM_TESTS[k]} {100 * r.rejection_rates[k]:.1f}% "
                          f"(± {100 * 1.96 * r.mc_error[k]:.1f})"
                          + (" (too liberal under H0)" if r.difference and r.verdict(k) == "liberal" else "")
                          for k in _NAMES)
        return (f"{what} at alpha = {r.alpha:g} over {r.n_experiments} experiments simulated from a "
                f"statistical model of two learners (no real learners trained) on data sets of {r.n}, "
                f"training-set noise {r.training_noise:.2f}: "
                f"{rates}.")
