"""CriticalDifferenceExplorer: many algorithms on many data sets (Demsar 2006)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.offsetbox import AnnotationBbox, DrawingArea
from matplotlib.ticker import MaxNLocator

from .._result import p_text
from .. import _validate
from ..example_scores import DEMSAR_ALGORITHMS, DEMSAR_AUC, DEMSAR_DATASETS
from ..plotting import COLORS, points
from ..stats import friedman_test, nemenyi_cd, sign_test
from ._base import Explorer, buttons, checkbox, dropdown
from ._cached_layer import CachedText


_REACH = 0.25  # how far (in ranks) the lines reach beyond the rank axis
_GAP = 4  # points between a line's end and its name


@dataclass(frozen=True)
class CriticalDifferenceView:
    """The numbers shown: Friedman/Iman-Davenport, Nemenyi CD, the groups it joins, a sign test."""

    friedman: object
    cd: object
    groups: tuple
    a: int
    b: int
    wins: np.ndarray
    sign: object
    alpha: float


def cd_groups(ranks, cd):
    """Maximal runs of algorithms (in rank order) whose average ranks differ by less than ``cd``.

    Each group is a tuple of column indices; groups of one are left out (Demsar's bars).
    """
    order = np.argsort(ranks, kind="stable")
    groups, reach = [], -1
    for i in range(len(order)):
        j = i
        while j + 1 < len(order) and ranks[order[j + 1]] - ranks[order[i]] < cd:
            j += 1
        if j > i and j > reach:
            groups.append(tuple(int(x) for x in order[i:j + 1]))
            reach = j
    return tuple(groups)


class CriticalDifferenceExplorer(Explorer):
    """Friedman test, Nemenyi critical difference and a critical-difference diagram.

    Opens on Demsar's (2006) Table 6 (AUC of four C4.5 variants on 14 data sets), or on
    your own table. Left: the average ranks on a line (1 = best), with a bar joining the
    algorithms whose ranks differ by less than the critical difference CD, i.e. that the
    Nemenyi test cannot tell apart at the chosen alpha. Right: for a chosen pair, the
    per-data-set differences and the sign test on the wins and losses.

    Parameters
    ----------
    scores : array_like (N, k), optional
        Scores of k algorithms (columns) on N data sets (rows); default Demsar's table.
    algorithms, datasets : sequence of str, optional
        Column and row names (default A1.., D1.. for a table of your own).
    alpha : {0.1, 0.05, 0.01}
    a, b : str
        The pair for the sign test.
    higher_is_better : bool
        False when the scores are errors.

    Examples
    --------
    >>> CriticalDifferenceExplorer(scores=[[0.9, 0.8, 0.7], [0.85, 0.8, 0.6], [0.7, 0.75, 0.6]],
    ...                            algorithms=["tree", "nb", "knn"])  # doctest: +SKIP

    Source: Demsar, "Statistical comparisons of classifiers over multiple data sets", JMLR 2006.
    """

    title = "Comparing several algorithms over several data sets"

    figsize = (10.0, 4.6)  # the presenter theme scales it with the fonts (plotting.Theme.figure_scale)

    def __init__(self, *, scores=None, algorithms=None, datasets=None, seed=0, **values):
        #: What the scores are, for the difference axis: Demsar's table holds AUCs.
        self.score_name = "AUC" if scores is None else "score"
        if scores is None:
            table = DEMSAR_AUC
            algorithms = DEMSAR_ALGORITHMS if algorithms is None else algorithms
            datasets = DEMSAR_DATASETS if datasets is None else datasets
        else:
            table = _validate.array("scores", scores, ndim=2)
        n, k = table.shape
        if n < 2 or k < 2:
            raise ValueError(f"scores must have at least 2 rows (data sets) and 2 columns "
                             f"(algorithms), got shape {table.shape}")
        self.algorithms = self._names("algorithms", algorithms, k, "A")
        self.datasets = self._names("datasets", datasets, n, "D")
        self.scores = table
        super().__init__(seed=seed, **values)

    @staticmethod
    def _names(name, names, count, prefix):
        if names is None:
            return tuple(f"{prefix}{i + 1}" for i in range(count))
        if isinstance(names, str) or not all(isinstance(x, str) for x in names):
            raise TypeError(f"{name} must be a sequence of strings, got {names!r}")
        names = tuple(names)
        if len(names) != count or len(set(names)) != count:
            raise ValueError(f"{name} must be {count} distinct names (one per "
                             f"{'column' if prefix == 'A' else 'row'} of scores), got {names!r}")
        return names

    def _controls(self):
        return {
            "alpha": buttons("alpha", [0.1, 0.05, 0.01], 0.05,
                             tooltip="significance level of the Nemenyi test and the sign test"),
            "a": dropdown("sign test: A", list(self.algorithms), self.algorithms[0]),
            "b": dropdown("against B", list(self.algorithms), self.algorithms[-1]),
            "higher_is_better": checkbox("higher score is better", True,
                                         tooltip="untick when the scores are error rates"),
        }

    def _compute(self, state):
        alpha, better = float(state["alpha"]), bool(state["higher_is_better"])
        friedman = friedman_test(self.scores, higher_is_better=better)
        cd = nemenyi_cd(friedman.k, friedman.n, alpha=alpha)
        a, b = self.algorithms.index(state["a"]), self.algorithms.index(state["b"])
        difference = self.scores[:, a] - self.scores[:, b]
        wins = np.sign(difference if better else -difference).astype(int)
        sign = sign_test(int(np.sum(wins > 0)), int(np.sum(wins < 0)), int(np.sum(wins == 0)),
                         confidence=1 - alpha)
        return CriticalDifferenceView(friedman, cd, cd_groups(friedman.average_ranks, cd.cd),
                                      a, b, wins, sign, alpha)

    # --- view -------------------------------------------------------------------------------

    def _build(self, figure):
        k, n = len(self.algorithms), len(self.datasets)
        diagram, pair = figure.subplots(1, 2, width_ratios=(1.6, 1))
        self.k = k
        # Critical-difference diagram (Demsar 2006, Fig. 1) in data coordinates: ranks on x,
        # y going down. Each algorithm's line drops from its rank and turns outwards, to the
        # left for the better half, to the right for the worse; its name sits beyond the end.
        rows = (k + 1) // 2
        diagram.set(xlim=(1 - _REACH, k + _REACH), ylim=(rows + 2.2, -2.1))
        diagram.axis("off")
        diagram.plot([1, k], [0, 0], color=COLORS["truth"], lw=points(1))
        for r in range(1, k + 1):
            diagram.plot([r, r], [0, -0.15], color=COLORS["truth"], lw=points(1))
            diagram.text(r, -0.25, str(r), ha="center", va="bottom", fontsize="small")
        diagram.text((1 + k) / 2, -2.0, "average rank (1 = best)", ha="center", va="top")
        # blue: the sign test's bars use orange for "A loses"
        self.cd_bar = diagram.plot([], [], color=COLORS["data"], lw=points(2.5), solid_capstyle="butt")[0]
        # above the bar and at a fixed place: whatever CD is, the text never runs off
        self.cd_text = diagram.text(1, -1.2, "", ha="left", va="bottom", fontsize="small",
                                    color=COLORS["data"])
        self.leaders = diagram.plot([], [], color=COLORS["muted"], lw=points(1))[0]
        self.labels = [diagram.annotate("", xy=(0, 0), xytext=(0, 0), textcoords="offset points",
                                        annotation_clip=False, va="center", fontsize="small")
                       for _ in range(k)]
        # Beyond each end of the axis, a column as wide as the widest name could be: the
        # layout keeps room for the names on either side, so it stays put when reversing the
        # ranks moves them to the other side.
        renderer, font = figure.canvas.get_renderer(), self.labels[0].get_fontproperties()
        width = max(renderer.get_text_width_height_descent(f"({k:.2f}) {name}", font, ismath=False)[0]
                    for name in self.algorithms)  # pixels
        for x_end, side in ((1 - _REACH, 1), (k + _REACH, 0)):
            column = DrawingArea(width * 72 / figure.dpi + _GAP, 1)
            diagram.add_artist(AnnotationBbox(column, (x_end, 1), box_alignment=(side, 0.5), frameon=False,
                                              pad=0, annotation_clip=False))
        self.groups = LineCollection([], colors=COLORS["truth"], linewidths=points(4))
        diagram.add_collection(self.groups)
        self.friedman_text = diagram.text(0.5, 0.02, "", transform=diagram.transAxes, ha="center",
                                          va="bottom", fontsize="small")
        self._ranks_shown = None

        # Sign test panel: one bar per data set.
        differences = self.scores[:, :, None] - self.scores[:, None, :]
        reach = float(np.max(np.abs(differences))) or 1.0
        self.bars = pair.barh(np.arange(n), np.zeros(n), color=COLORS["muted"])
        pair.set(xlim=(-1.1 * reach, 1.1 * reach), ylim=(n - 0.5, -0.5), yticks=np.arange(n),
                 xlabel=f"{self.score_name} of A − {self.score_name} of B")
        pair.set_yticklabels(self.datasets, fontsize="x-small")
        pair.xaxis.set_major_locator(MaxNLocator(5, symmetric=True))
        pair.axvline(0, color=COLORS["truth"], lw=points(1))
        # four short lines: the layout is fixed at the first draw, and a wider title (a longer
        # verdict) would then run off the figure's edge
        self.pair_title = pair.set_title("\n" * (_TITLE_LINES - 1), fontsize="small")
        # No control redraws the whole figure. Every text is drawn once per wording and place
        # (CachedText) and pasted back after that: the names and ranks have two versions
        # (higher or lower score is better), the verdict one per pair, alpha and direction.
        texts = (self.cd_text, *self.labels, self.friedman_text)
        self.dynamic(*(CachedText(t) for t in texts), CachedText(self.pair_title),
                     self.cd_bar, self.leaders, self.groups, *self.bars)

    def _draw(self, r):
        f = r.friedman
        ranks = f.average_ranks
        if not np.array_equal(ranks, self._ranks_shown):
            self._ranks_shown = ranks
            self._draw_labels(f, ranks)
        self.groups.set_segments([[(ranks[g[0]] - 0.04, 0.35 + 0.22 * i),
                                   (ranks[g[-1]] + 0.04, 0.35 + 0.22 * i)] for i, g in enumerate(r.groups)])
        self.cd_bar.set_data([1, 1 + r.cd.cd], [-1.0, -1.0])
        self.cd_text.set_text(f"CD = {r.cd.cd:.3f} (Nemenyi, α = {r.alpha:g})")
        colors = {1: COLORS["good"], -1: COLORS["bad"], 0: COLORS["muted"]}
        difference = self.scores[:, r.a] - self.scores[:, r.b]
        for bar, d, w in zip(self.bars, difference, r.wins):
            bar.set_width(d)
            bar.set_color(colors[int(w)])
        A, B = self.algorithms[r.a], self.algorithms[r.b]
        s = r.sign
        lines = [f"A = {A} against B = {B}", f"A wins {s.wins}, loses {s.losses}, ties {s.ties}",
                 f"sign test {p_text(s.p_value)}:", *_sign_verdict(r, self.k).split("\n")]
        # always five lines (blank ones on top): the layout keeps room for the longest verdict
        self.pair_title.set_text("\n".join([""] * (_TITLE_LINES - len(lines)) + lines))

    def _draw_labels(self, f, ranks):
        k = self.k
        order = np.argsort(ranks, kind="stable")
        rows = (k + 1) // 2
        xs, ys = [], []
        for place, j in enumerate(order):
            left = place < rows
            y = 1.0 + (place if left else k - 1 - place)
            x_end = 1 - _REACH if left else k + _REACH
            xs += [ranks[j], ranks[j], x_end, np.nan]
            ys += [0, y, y, np.nan]
            label = self.labels[place]
            label.set_text(f"{self.algorithms[j]} ({ranks[j]:.2f})" if left
                           else f"({ranks[j]:.2f}) {self.algorithms[j]}")
            label.xy = (x_end, y)
            label.set_position((-_GAP if left else _GAP, 0))  # beyond the line's end, not on it
            label.set_ha("right" if left else "left")
        self.leaders.set_data(xs, ys)
        self.friedman_text.set_text(
            f"N = {f.n} data sets, k = {f.k} algorithms\n"
            f"Friedman χ²_F = {f.statistic:.2f} ({p_text(f.p_value)})\n"
            f"Iman-Davenport F_F = {f.iman_davenport:.2f} ({p_text(f.iman_davenport_p_value)})")

    def _summary(self, r):
        f = r.friedman
        ranks = ", ".join(f"{name} {rank:.3f}" for name, rank in zip(self.algorithms, f.average_ranks))
        # braces, not "=": not told apart is not equal
        groups = "; ".join("{" + ", ".join(self.algorithms[j] for j in g) + "}" for g in r.groups) or "none"
        ties = (f" (some data sets have ties; with the tie correction, as scipy computes it, chi-square is "
                f"{f.other_statistic:.3f})" if f.tie_factor != 1.0 else "")
        return (f"Average ranks: {ranks}. Friedman chi-square {f.statistic:.3f} ({p_text(f.p_value)}){ties}, "
                f"Iman-Davenport F {f.iman_davenport:.3f} ({p_text(f.iman_davenport_p_value)}). "
                f"Nemenyi critical difference {r.cd.cd:.3f} at alpha {r.alpha:g}; groups the test cannot "
                f"tell apart (not shown to be equal): {groups}. Sign test {self.algorithms[r.a]} against "
                f"{self.algorithms[r.b]}: {_count(r.sign.wins, 'win')}, {_count(r.sign.losses, 'loss', 'losses')}, "
                f"{_count(r.sign.ties, 'tie')}, {p_text(r.sign.p_value)}: "
                f"{_sign_verdict(r, self.k, short=False)}.")


def _count(n, one, many=None):
    return f"{n} {one if n == 1 else many or one + 's'}"


#: Lines of the sign test's title: the pair, its counts, its p and a verdict of up to two lines.
_TITLE_LINES = 5


def _sign_verdict(r, k, short=True):
    """The sign test's verdict for the chosen pair, and what it is worth among all pairs:
    two lines for the picture (``short``), one sentence for the summary.

    With k algorithms the pair is one of k(k - 1)/2, and a pair picked from the diagram is
    picked after seeing the ranks. Bonferroni's bound, alpha divided by the number of pairs, is
    the level that keeps the chance of any false alarm among them at most alpha (Dunn 1961;
    Demsar 2006 on pairwise tests after Friedman)."""
    p, alpha = r.sign.p_value, r.alpha
    pairs = k * (k - 1) // 2
    if p >= alpha or pairs == 1:
        return f"{'not ' if p >= alpha else ''}significant at α = {alpha:g}"
    bound = f"Bonferroni's α/{pairs} = {alpha / pairs:.2g}"
    if p < alpha / pairs:
        return (f"significant also over all {pairs} pairs:\nbelow {bound}" if short else
                f"significant also over all {pairs} pairs: below {bound}")
    return (f"significant only if planned alone;\nnot below {bound}" if short else
            f"significant at α = {alpha:g} only if this pair was the single comparison planned in "
            f"advance; not below {bound} for the {pairs} pairs")
