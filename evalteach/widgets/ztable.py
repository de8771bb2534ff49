"""ZTableExplorer: the standard normal curve and the classic z table, read both ways."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.patches import Polygon, Rectangle
from scipy import stats as _st

from .. import stats
from ..plotting import COLORS
from ._base import Explorer, buttons, slider
from ._cached_layer import CachedText

_X = np.linspace(-3.9, 3.9, 400)
_ROWS = ("two", "one")  # table rows below the header: z_N, then z'_N


@dataclass(frozen=True)
class ZLookup:
    """The numbers the explorer shows.

    ``confidence`` and ``z`` are the level and critical value of the look-up (one given,
    the other computed, exactly); ``two_sided`` is ``P(-z <= Z <= z)`` and ``one_sided``
    ``P(Z <= z)`` for that z, the conversion ``C' = 1 - (1 - C)/2``; ``table_level`` is what
    the classic table gives (:func:`evalteach.stats.table_confidence`, or the level itself
    if it is a column); ``cell`` is the highlighted (row, column) of ``table``, or None.
    """

    lookup: str
    sided: str
    confidence: float
    z: float
    two_sided: float
    one_sided: float
    table_level: float
    cell: tuple | None
    table: stats.ZTable

    @property
    def table_z(self):
        """The printed z of the highlighted cell (None if no cell)."""
        if self.cell is None:
            return None
        row, col = self.cell
        return (self.table.two_sided if row == "two" else self.table.one_sided)[col]


def _column(level, levels):
    hits = np.flatnonzero(np.isclose(levels, level, atol=1e-9))
    return int(hits[0]) if hits.size else None


class ZTableExplorer(Explorer):
    """Look up the normal critical value z for a confidence level, or the level for a z.

    Two-sided, ``N%`` of the area lies within ``mu ± z_N sigma``; one-sided, below
    ``mu + z'_N sigma``. The same z gives the two-sided level C and the one-sided level
    ``C' = 100 - (100 - C)/2``: the one-sided bound adds the other tail (Mitchell ch. 5;
    Mooney). The classic table is shown with the cell of the look-up highlighted.

    Parameters
    ----------
    lookup : {"confidence", "z"}
        "confidence": give the level, read z; "z": give z, read the level.
    sided : {"two", "one"}
    confidence : float
        Level in [0.5, 0.995] (used when ``lookup="confidence"``).
    z : float
        Critical value in [0, 3.5] (used when ``lookup="z"``).
    seed : int
        Unused (nothing is random); accepted like every explorer's.

    Examples
    --------
    >>> ZTableExplorer(confidence=0.90, sided="one")   # doctest: +SKIP
    """

    title = "The z table: confidence level <-> critical value"
    figsize = (11.0, 3.8)

    def _controls(self):
        return {
            "lookup": buttons("look up", [("confidence → z", "confidence"), ("z → confidence", "z")],
                              "confidence"),
            "sided": buttons("", [("two-sided", "two"), ("one-sided", "one")], "two"),
            "confidence": slider("confidence", 0.95, 0.5, 0.995, 0.005, readout_format=".3f"),
            "z": slider("z", 1.96, 0.0, 3.5, 0.01, readout_format=".2f"),
        }

    def _hidden(self, state):
        # each look-up reads one slider: the other would change nothing
        return {"z"} if state["lookup"] == "confidence" else {"confidence"}

    def _compute(self, state):
        table = stats.z_table()
        sided = state["sided"]
        if state["lookup"] == "confidence":
            confidence = state["confidence"]
            z = stats.z_critical(confidence, sided)
            col = _column(confidence, table.levels)
            cell = None if col is None else (sided, col)
            table_level = confidence if col is not None else stats.table_confidence(z, sided)
        else:
            z = state["z"]
            confidence = stats.confidence_for_z(z, sided)
            table_level = stats.table_confidence(z, sided)
            # the table is read on its z_N row; a one-sided level is the converted column
            col = _column(stats.table_confidence(z, "two"), table.levels)
            cell = None if col is None else ("two", col)
        two_sided = stats.confidence_for_z(z, "two")
        one_sided = stats.one_sided_confidence(two_sided) if two_sided > 0 else 0.5
        return ZLookup(state["lookup"], sided, confidence, z, two_sided, one_sided, table_level, cell, table)

    def _build(self, figure):
        ax, tx = figure.subplots(1, 2, width_ratios=[1.25, 1])
        self.ax, self.tx = ax, tx
        ax.plot(_X, _st.norm.pdf(_X), color=COLORS["truth"], lw=1.5)
        ax.set_xlim(_X[0], _X[-1])
        ax.set_ylim(0, 0.5)
        ax.set_yticks([])
        ax.set_xlabel("z (standard deviations from the mean)")
        self.centre = Polygon(np.zeros((1, 2)), closed=True, color=COLORS["shade"], alpha=0.7, lw=0)
        self.tail = Polygon(np.zeros((1, 2)), closed=True, color=COLORS["theory"], alpha=0.45, lw=0)
        ax.add_patch(self.centre)
        ax.add_patch(self.tail)
        (self.plus,) = ax.plot([], [], color=COLORS["data"], lw=1.8)
        (self.minus,) = ax.plot([], [], color=COLORS["data"], lw=1.8, ls="--")
        self.centre_text = ax.text(0, 0.13, "", ha="center", va="center", fontsize="large", weight="bold")
        # tail labels sit above the tails, where the curve is low whatever z is
        self.tail_text = ax.text(-3.0, 0.2, "", ha="center", va="bottom", fontsize="small",
                                 color="#8a5a00")
        self.right_text = ax.text(3.0, 0.2, "", ha="center", va="bottom", fontsize="small",
                                  color=COLORS["muted"])
        self.headline = ax.set_title(" ", fontsize="medium")
        self.dynamic(self.centre, self.tail, self.plus, self.minus, self.centre_text, self.tail_text,
                     self.right_text, self.headline)
        self._build_table(tx)

    def _build_table(self, tx):
        table = stats.z_table()
        k = len(table.levels)
        tx.set_xlim(0, k + 1.6)
        tx.set_ylim(3.9, -0.6)
        tx.axis("off")
        tx.text(0.8, 0, "N", ha="center", va="center", weight="bold")
        tx.text(0.8, 1, "$z_N$\ntwo-sided", ha="center", va="center", fontsize="small")
        tx.text(0.8, 2, "$z'_N$\none-sided", ha="center", va="center", fontsize="small")
        for j, level in enumerate(table.levels):
            x = j + 2.1
            tx.text(x, 0, f"{100 * level:g}%", ha="center", va="center", weight="bold")
            tx.text(x, 1, f"{table.two_sided[j]:.2f}", ha="center", va="center")
            tx.text(x, 2, f"{table.one_sided[j]:.2f}", ha="center", va="center")
        for y in (0.5, 1.5):
            tx.plot([0.1, k + 1.6], [y, y], color=COLORS["muted"], lw=0.8)
        tx.plot([1.6, 1.6], [-0.5, 2.5], color=COLORS["muted"], lw=0.8)
        tx.set_title("The classic z table (Mitchell ch. 5)", fontsize="medium")
        tx.text(0.1, 3.75, "one-sided row: N% of the area lies below z'; half lies below the mean, so 50% is 0.00",
                ha="left", va="center", fontsize="x-small", color=COLORS["muted"])
        self.highlight = Rectangle((0, 0), 1, 1, fill=False, ec=COLORS["bad"], lw=2.5)
        tx.add_patch(self.highlight)
        self.column = Rectangle((0, 0), 1, 1, color=COLORS["shade"], alpha=0.25, lw=0)
        tx.add_patch(self.column)
        self.reading = tx.text(0.1, 2.72, "", ha="left", va="top", fontsize="small")
        # the words that stay while the numbers move, drawn once (CachedText) under the numbers
        self.note = tx.annotate("", (0, 0), xycoords=self.reading, xytext=(0, -2), textcoords="offset points",
                                va="top", fontsize="small")
        self.dynamic(CachedText(self.note), self.column, self.highlight, self.reading)

    def _draw(self, r):
        z = r.z
        one = r.sided == "one"
        tail = (1 - r.two_sided) / 2
        marker = [0.0, _st.norm.pdf(z) + 0.05]  # short, to stay clear of the tail labels
        self.plus.set_data([z, z], marker)
        self.minus.set_visible(not one)  # a one-sided bound has no lower limit
        self.minus.set_data([-z, -z], marker)
        if one:
            # the bound keeps everything below z (the confidence) and excludes the upper tail
            self.centre.set_xy(self._area(np.concatenate([_X[_X <= z], [z]])))
            self.tail.set_xy(self._area(np.concatenate([[z], _X[_X >= z]])))
            self.tail.set_facecolor(COLORS["bad"])
            self.centre_text.set_text(f"C' = {100 * r.one_sided:.4g}%")
            self.tail_text.set_text("")  # the lower tail is simply part of C'
            self.right_text.set_text(f"excluded:\n{100 * tail:.3g}% above z")
            self.right_text.set_color(COLORS["bad"])
        else:
            # two-sided: the centre is C; the shaded lower tail is what a one-sided bound adds
            self.centre.set_xy(self._area(np.concatenate([[-z], _X[np.abs(_X) <= z], [z]])))
            self.tail.set_xy(self._area(np.concatenate([_X[_X <= -z], [-z]])))
            self.tail.set_facecolor(COLORS["theory"])
            self.centre_text.set_text(f"C = {100 * r.two_sided:.3g}%")
            self.tail_text.set_text(f"+ {100 * tail:.3g}%\n→ C' = {100 * r.one_sided:.4g}%")  # few lines: text is slow
            self.right_text.set_text(f"{100 * tail:.3g}% above z")
            self.right_text.set_color(COLORS["muted"])
        self.centre_text.set_x(min(0.0, z - 1.2) if one else 0.0)  # inside the kept area
        self.centre_text.set_y(0.08 if one else 0.13 if z >= 1 else 0.44)  # above the peak when the band is narrow
        if r.sided == "two":
            level, area = r.two_sided, "P(-z ≤ Z ≤ z)"
            convert = f"one-sided: C' = 100 - (100 - C)/2 = {100 * r.one_sided:.4g}%"
        else:
            level, area = r.one_sided, "P(Z ≤ z)"
            convert = f"= two-sided C = {100 * r.two_sided:.3g}% plus one tail"
        given = (f"{area} = {100 * level:.4g}%  →  z = {z:.4f}" if r.lookup == "confidence"
                 else f"z = {z:.2f}  →  {area} = {100 * level:.4g}%")
        self.headline.set_text(f"{given}\n{convert}")
        self._draw_cell(r)

    @staticmethod
    def _area(xs):
        """Polygon vertices of the area under the curve over the points ``xs``."""
        if xs.size < 2:
            return np.zeros((1, 2))
        top = np.column_stack([xs, _st.norm.pdf(xs)])
        return np.vstack([[xs[0], 0.0], top, [xs[-1], 0.0]])

    def _draw_cell(self, r):
        shown = r.cell is not None
        self.highlight.set_visible(shown)
        self.column.set_visible(shown)
        if shown:
            row, col = r.cell
            x = col + 1.6
            self.column.set_bounds(x, -0.5, 1.0, 3.0)
            self.highlight.set_bounds(x + 0.02, _ROWS.index(row) + 0.52, 0.96, 0.96)
        reading, note = self._reading(r)
        self.reading.set_text(reading)
        self.note.set_text(note)

    @staticmethod
    def _reading(r):
        """The reading of the table: its numbers, and a note that does not change with them."""
        level = 100 * r.table_level
        if r.lookup == "confidence":
            if r.cell is None:
                return (f"{100 * r.confidence:.4g}% is not a column: the exact z is {r.z:.4f}.",
                        "Between columns, the table only brackets it.")
            return f"table: {r.table_z:.2f};  exact: {r.z:.4f}", "(the table rounds to two decimals)"
        if r.cell is None:
            return f"|z| = {r.z:.2f} is below 0.67: less than 50% two-sided.\nexact: {100 * r.confidence:.4g}%", ""
        text = f"|z| = {r.z:.2f} reaches {r.table_z:.2f}: table gives {level:.4g}%"
        if r.sided == "one":
            two = 100 * r.table.levels[r.cell[1]]
            text = (f"|z| = {r.z:.2f} reaches {r.table_z:.2f} ({two:g}% two-sided)\n"
                    f"one-sided: 100 - (100 - {two:g})/2 = {level:.4g}%")
        return f"{text}\nexact: {100 * r.confidence:.4g}%", ""

    def _summary(self, r):
        side = "two-sided" if r.sided == "two" else "one-sided"
        text = (f"{side} look-up: z = {r.z:.4f} and confidence {100 * r.confidence:.4g}%. "
                f"This z covers {100 * r.two_sided:.4g}% between -z and z (two-sided) and "
                f"{100 * r.one_sided:.4g}% below z (one-sided, C' = 100 - (100 - C)/2).")
        if r.cell is not None:
            text += f" The classic table's cell: {r.table_z:.2f} at {100 * r.table.levels[r.cell[1]]:g}%."
        return text
