"""SamplingErrorExplorer: how much the error measured on a test set varies (Mitchell ch. 5)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.ticker import FormatStrFormatter, MultipleLocator
from scipy import stats as _st

from .. import simulate
from ..plotting import COLORS, area, dots, points
from ._base import Explorer, checkbox, slider
from ._cached_layer import CachedLayer, Stamp

#: The learner and data set the resubstitution switch scores.
LEARNER, DATASET, N_SPLITS = "1nn", "breast_cancer", 20
#: Bars at most across the x axis (0 to 1): a larger n gathers neighbouring values of r in one bar.
MAX_BARS = 200
#: The histogram's fixed x axis: a margin beyond 0 and 1 shows the end bars whole (half a bar,
#: 0.5/n, fits in it from n = 10 on); the ticks stay at the possible rates 0 to 1.
X_LIMITS = (-0.05, 1.05)


def values_per_bar(n):
    """How many neighbouring values of r one bar of the histogram gathers at test-set size ``n``.

    One while ``n <= MAX_BARS`` (a bar per possible value r/n); beyond, the smallest odd
    number that keeps the bars at most ``MAX_BARS`` across the axis (narrower bars are
    thinner than a pixel and alias). Odd, so that a bar's centre is one of its values r/n.
    """
    g = -(-n // MAX_BARS)
    return g + 1 - g % 2


def bar_bounds(n, g, error):
    """The first r of each bar and, last, n + 1: bars of ``g`` whole values of r.

    The bars are laid out from the one centred on ``round(n * error)``, the value of r nearest
    the truth line, so that the histogram is centred where the test sets gather. Every bar holds
    ``g`` values of r except an end bar that reaches r = 0 or r = n: it holds only the values
    that exist (fewer than ``g``) and is drawn only over them, narrower.
    """
    centre = int(round(n * error))
    first = (centre - (g - 1) // 2) % g
    return np.unique(np.r_[0, np.arange(first, n + 1, g), n + 1])


def headroom(ax, top, low=0.0, grow=1.25):
    """Fit the y axis to ``top`` with hysteresis; True if the limits changed (full redraw).

    The top moves to ``grow * top`` when ``top`` leaves (0.4, 1) of it: a larger ``grow``
    means fewer full redraws while a value keeps rising (as under Play).
    """
    current = ax.get_ylim()[1]
    if top <= current and top >= 0.4 * current:
        return False
    ax.set_ylim(low, grow * top)
    return True


@dataclass(frozen=True)
class SamplingErrorView:
    """The numbers the explorer shows.

    ``errors`` are the simulated error_S(h) of ``n_sets`` test sets; ``values`` the
    possible rates k/n, ``observed`` the fraction of test sets at each and ``pmf`` the
    binomial probability of each; ``sd_theory`` is the standard error
    sqrt(error_D(1-error_D)/n). ``learner`` holds the
    resubstitution and held-out errors of a real learner when the switch is on.
    """

    error: float
    n: int
    n_sets: int
    errors: np.ndarray
    mean: float
    sd: float
    sd_theory: float
    values: np.ndarray
    observed: np.ndarray
    pmf: np.ndarray
    learner: simulate.Resubstitution | None


class SamplingErrorExplorer(Explorer):
    """Draw many test sets and watch error_S(h) scatter around error_D(h).

    The number of mistakes r on ``n`` test examples is binomial, so the sample error
    ``error_S(h) = r/n`` has mean ``error_D(h)`` and standard deviation (its standard error)
    ``sqrt(p(1-p)/n)`` with ``p = error_D(h)``, and it is close to normal when ``n p(1-p)``
    is large (say at least 5; lesson 2 shows where it fails) (Mitchell ch. 5). The histogram has a
    bar per possible value r/n, centred on it; beyond ``n = MAX_BARS`` a bar gathers an odd number
    of neighbouring values of r (:func:`values_per_bar`), centred on the middle one, and one bar is
    centred on ``round(n error_D)`` (:func:`bar_bounds`). The switch scores a real
    1-nearest-neighbour classifier on its own training set beside a held-out set, a
    separate experiment on real data: the training-set error is optimistically biased.

    Parameters
    ----------
    error : float, default 0.3
        The true error error_D(h).
    n : int, default 40
        Test-set size.
    n_sets : int, default 1000
        Number of simulated test sets.
    learner : bool, default False
        Show the resubstitution-versus-held-out panel.
    seed : int, default 0

    Examples
    --------
    >>> SamplingErrorExplorer(error=0.3, n=40)   # doctest: +SKIP
    """

    title = "Sampling error: error_S(h) over many test sets"
    figsize = (10.0, 4.2)
    resample_button = True

    def _controls(self):
        return {
            "error": slider("true error error_D", 0.3, 0.01, 0.99, 0.01,
                            tooltip="The hypothesis' true error: each test example is misclassified with this probability"),
            "n": slider("test-set size n", 40, 1, 1000),
            "n_sets": slider("test sets", 1000, 100, 10000, 100),
            "learner": checkbox("score 1-NN on its training set vs held out", False,
                                tooltip="A real learner on breast cancer data: resubstitution is optimistic"),
        }

    def _warm_ups(self, state):
        """The learner panel, on or off: its first picture costs several later ones."""
        return ({"learner": not state["learner"]},)

    def _compute(self, state):
        p, n, n_sets = state["error"], state["n"], state["n_sets"]
        errors = simulate.sample_errors(p, n, n_sets, seed=state["seed"])
        k = np.arange(n + 1)
        observed = np.bincount(np.rint(errors * n).astype(int), minlength=n + 1) / n_sets
        learner = None
        if state["learner"]:
            learner = simulate.resubstitution_vs_holdout(DATASET, LEARNER, n_splits=N_SPLITS,
                                                         seed=state["seed"])
        return SamplingErrorView(p, n, n_sets, errors, float(errors.mean()), float(errors.std(ddof=1))
                                 if n_sets > 1 else 0.0, simulate.sampling_error_sd(p, n), k / n,
                                 observed, _st.binom.pmf(k, n, p), learner)

    def _build(self, figure):
        grid = figure.add_gridspec(1, 2, width_ratios=[2.3, 1])
        ax, lx = figure.add_subplot(grid[0, 0]), figure.add_subplot(grid[0, 1])
        self.ax, self.lax = ax, lx
        # A fixed x axis shows the spread shrink as n grows; without y ticks the height can
        # follow the histogram without a full redraw.
        ax.set_xlim(*X_LIMITS)
        ax.set_xticks(np.linspace(0, 1, 6))
        ax.set_ylim(0, 0.2)
        ax.set_yticks([])
        ax.set_xlabel(r"sample error $error_S(h) = r/n$")
        ax.set_ylabel("share of test sets")
        self.bars = ax.stairs([0.0], [0.0, 1.0], fill=True, color=COLORS["data"], alpha=0.45,
                              label=bars_label(1))
        # The dots are drawn last, over the curve and the truth line, with a dark rim: the
        # centre dot stays visible at the curve's peak, and orange dots and the vermillion
        # curve differ in shape as well as hue (Okabe-Ito, plotting.PALETTE).
        (self.pmf,) = ax.plot([], [], "o", ms=points(4.5), mec=COLORS["truth"], mew=points(0.8), color=COLORS["theory"],
                              label=pmf_label(1))
        (self.normal,) = ax.plot([], [], color=COLORS["normal"], label="normal approximation")
        self.truth = ax.axvline(0.3, color=COLORS["truth"], ls="--", lw=points(1.2), label=r"$error_D(h)$")
        self.readout = ax.set_title(" \n ", fontsize="medium")  # two lines, as in _draw
        self.legend = ax.legend(loc="upper right", frameon=False)

        lx.set_xlim(-0.6, 1.6)
        lx.set_ylim(-0.01, 0.2)  # dots at error 0 stay visible above the axis
        lx.set_xticks([0, 1], ["own training\nset", "held-out\nset"])
        lx.set_ylabel("error rate")
        lx.yaxis.set_major_locator(MultipleLocator(0.05))
        lx.yaxis.set_major_formatter(FormatStrFormatter("%.2f"))
        self.learner_title = lx.set_title(" \n ", fontsize="medium")  # two lines, as in _draw_learner
        # The mean bars go under the dots (drawn first, thin): the training errors at 0 stay visible.
        (self.means,) = lx.plot([], [], "_", ms=points(34), mew=points(1.5), color=COLORS["truth"])
        self.train_dots = dots(lx, area(14), color=COLORS["second"], alpha=0.7)
        self.test_dots = dots(lx, area(14), color=COLORS["good"], alpha=0.7)
        self.learner_text = lx.text(0.5, 0.97, "", transform=lx.transAxes, ha="center", va="top",
                                    fontsize="small")
        self._jitter = np.random.default_rng(0).uniform(-0.18, 0.18, N_SPLITS)
        # The learner panel is there only when switched on: lay the figure out both ways now
        # and switch between the two arrangements (no empty panel, no layout at run time).
        self._spans = {False: grid[0, :], True: grid[0, 0]}
        self._positions = {}
        for on in (False, True):
            self._arrange(on)
            figure.get_layout_engine().execute(figure)
            self._positions[on] = ax.get_position().frozen(), lx.get_position().frozen()
        figure.set_layout_engine("none")  # these two layouts are the only ones
        self._learner_shown = None
        # Both axes with their ticks, labels and titles are one frame, drawn once per
        # arrangement and side-panel y limits and then pasted, and the legend a stamp on it per
        # place (the data stay below it): no control redraws their text.
        self.frame = CachedLayer()
        ax.set_animated(True)
        lx.set_animated(True)
        self.legend_stamp = Stamp([self.legend])  # two places, a few bar widths
        self.dynamic(self.frame, self.legend_stamp, self.bars, self.normal, self.truth, self.pmf,
                     self.readout, self.means, self.train_dots, self.test_dots, self.learner_text)

    def _arrange(self, on):
        self.ax.set_subplotspec(self._spans[on])
        self.lax.set_in_layout(on)
        # dynamic artists are drawn one by one, whether or not their axes is visible
        for artist in (self.lax, self.means, self.train_dots, self.test_dots, self.learner_text):
            artist.set_visible(on)

    def _draw(self, r):
        n, g = r.n, values_per_bar(r.n)
        # bars of g whole values of r, from (first r - 0.5)/n to (last r + 0.5)/n: centred on r/n
        # values (g is odd), one on round(n error_D), end bars possibly fewer; those that hold a
        # simulated test set or a visible binomial probability
        bounds = bar_bounds(n, g, r.error)
        shares, probabilities = (np.add.reduceat(v, bounds[:-1]) for v in (r.observed, r.pmf))
        shown = np.flatnonzero((shares > 0) | (probabilities > 1e-4))
        lo, hi = shown[0], shown[-1] + 1
        self.bars.set_data(shares[lo:hi], (bounds[lo:hi + 1] - 0.5) / n)
        centres = (bounds[lo:hi] + bounds[lo + 1:hi + 1] - 1) / 2 / n
        self.pmf.set_data(centres, probabilities[lo:hi])
        x = np.linspace(max(0.0, r.error - 5 * r.sd_theory), min(1.0, r.error + 5 * r.sd_theory), 300)
        # density times a bar's width g/n: comparable with the probability of a bar's values
        self.normal.set_data(x, _st.norm.pdf(x, r.error, r.sd_theory) * g / n)
        self.truth.set_xdata([r.error, r.error])
        self.readout.set_text(
            f"{r.n_sets} test sets of n = {n}:  mean {r.mean:.4f}  (error_D = {r.error:.2f})\n"
            f"SD of the sample errors {r.sd:.4f}  "
            f"(standard error √(error_D(1−error_D)/n) = {r.sd_theory:.4f})")  # plain text: mathtext is slow
        legend_at = "upper left" if r.error > 0.5 else "upper right"  # away from the histogram
        self.legend.set_loc(legend_at)
        for text, label in zip(self.legend.texts, (bars_label(g), pmf_label(g))):
            text.set_text(label)
        top = max(shares.max(), probabilities.max(), _st.norm.pdf(0.0, 0.0, r.sd_theory) * g / n)
        self.ax.set_ylim(0, 1.2 * top)  # no y ticks: the frame does not depend on it
        self._draw_learner(r.learner)
        on = r.learner is not None
        side = (self.lax.get_ylim(), self.learner_title.get_text()) if on else None
        self.frame.show((on, side), (self.ax, self.lax))
        self.legend_stamp.show((legend_at, g))

    def _draw_learner(self, learner):
        on = learner is not None
        if on != self._learner_shown:
            self._learner_shown = on
            self._arrange(on)
            main, side = self._positions[on]
            self.ax.set_position(main)
            self.lax.set_position(side)
        if not on:
            return
        # a separate experiment from the simulation on the left; the split is the result's
        self.learner_title.set_text(f"separate experiment: 1-NN on breast\n"
                                    f"cancer, {len(learner.test_errors)} random {learner.n_train}/{learner.n_test} splits")
        self.train_dots.set_data(self._jitter, learner.train_errors)
        self.test_dots.set_data(1 + self._jitter, learner.test_errors)
        self.means.set_data([0, 1], [learner.train_errors.mean(), learner.test_errors.mean()])
        self.learner_text.set_text(f"mean {learner.train_errors.mean():.3f} vs {learner.test_errors.mean():.3f}:"
                                   f"\ntraining error below held-out\nerror by {learner.optimism:.3f}")
        headroom(self.lax, max(learner.test_errors.max(), 0.05) * 1.2, low=-0.01)

    def _summary(self, r):
        text = (f"Over {r.n_sets} simulated test sets of n = {r.n} examples with true error "
                f"{r.error:.2f}, the sample error averaged {r.mean:.4f} with standard deviation "
                f"{r.sd:.4f}; the standard error sqrt(error_D(1-error_D)/n) is {r.sd_theory:.4f}.")
        if r.learner is not None:
            lr = r.learner
            text += (f" In a separate experiment, a 1-nearest-neighbour classifier on breast cancer data "
                     f"({lr.n_train} training, "
                     f"{lr.n_test} held-out examples, {len(lr.test_errors)} random splits) has mean "
                     f"error {lr.train_errors.mean():.3f} on its own training set but "
                     f"{lr.test_errors.mean():.3f} on held-out examples: resubstitution is optimistic.")
        return text


def bars_label(g):
    """The histogram's legend entry: what a bar gathers when it gathers several values of r."""
    return "simulated test sets" if g == 1 else f"simulated test sets, {g} values of r a bar"


def pmf_label(g):
    """The binomial dots' legend entry: P(r), or summed over a bar's values of r."""
    return "binomial P(r)" if g == 1 else "binomial P(r), summed over a bar"
