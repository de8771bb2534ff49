"""ZTableExplorer: the standard normal curve and the classic z table, read both ways."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.patches import Polygon, Rectangle
from scipy import stats as _st

from .. import stats
from .._result import pct
from ..plotting import COLORS, points
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
    the classic table gives, read on the row of the chosen sidedness (the two-sided ``z_N`` or
    the one-sided ``z'_N``): the level itself if it is a column, else the highest column whose
    printed z is reached (0 if none); ``cell`` is the highlighted (row, column) of ``table``,
    or None.
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

    @property
    def row(self):
        """The printed row of the chosen sidedness: ``z_N`` (two-sided) or ``z'_N`` (one-sided)."""
        return self.table.two_sided if self.sided == "two" else self.table.one_sided

    @property
    def exact_row(self):
        """The exact values of that row."""
        return self.table.two_sided_exact if self.sided == "two" else self.table.one_sided_exact


def _column(level, levels):
    hits = np.flatnonzero(np.isclose(levels, level, atol=1e-9))
    return int(hits[0]) if hits.size else None


def _reached(z, row):
    """The column of the highest printed z in ``row`` that ``z`` reaches, or None (below the first).

    The tolerance lets a z computed as 1.6399999999 count as the table's 1.64."""
    index = int(np.searchsorted(np.asarray(row), z + 1e-9, side="right")) - 1
    return None if index < 0 else index


def _side(sided):
    return "two-sided" if sided == "two" else "one-sided"


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
        # the table is read on the row of the chosen sidedness: z_N two-sided, z'_N one-sided
        row = table.two_sided if sided == "two" else table.one_sided
        if state["lookup"] == "confidence":
            confidence = state["confidence"]
            z = stats.z_critical(confidence, sided)
            col = _column(confidence, table.levels)
            reached = col if col is not None else _reached(z, row)
        else:
            z = state["z"]
            confidence = stats.confidence_for_z(z, sided)
            col = reached = _reached(z, row)
        cell = None if col is None else (sided, col)
        table_level = 0.0 if reached is None else table.levels[reached]
        two_sided = stats.confidence_for_z(z, "two")
        one_sided = stats.one_sided_confidence(two_sided) if two_sided > 0 else 0.5
        return ZLookup(state["lookup"], sided, confidence, z, two_sided, one_sided, table_level, cell, table)

    def _build(self, figure):
        ax, tx = figure.subplots(1, 2, width_ratios=[1.25, 1])
        self.ax, self.tx = ax, tx
        ax.plot(_X, _st.norm.pdf(_X), color=COLORS["truth"], lw=points(1.5))
        ax.set_xlim(_X[0], _X[-1])
        ax.set_ylim(0, 0.5)
        ax.set_yticks([])
        ax.set_xlabel("z (standard deviations from the mean)")
        self.centre = Polygon(np.zeros((1, 2)), closed=True, color=COLORS["shade"], alpha=0.7, lw=0)
        self.tail = Polygon(np.zeros((1, 2)), closed=True, color=COLORS["theory"], alpha=0.45, lw=0)
        ax.add_patch(self.centre)
        ax.add_patch(self.tail)
        (self.plus,) = ax.plot([], [], color=COLORS["data"], lw=points(1.8))
        (self.minus,) = ax.plot([], [], color=COLORS["data"], lw=points(1.8), ls="--")
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
            tx.plot([0.1, k + 1.6], [y, y], color=COLORS["muted"], lw=points(0.8))
        tx.plot([1.6, 1.6], [-0.5, 2.5], color=COLORS["muted"], lw=points(0.8))
        tx.set_title("The classic z table (Mitchell ch. 5)", fontsize="medium")
        tx.text(0.1, 3.75, "one-sided row: N% of the area lies below z'; half lies below the mean, so 50% is 0.00",
                ha="left", va="center", fontsize="x-small", color=COLORS["muted"])
        self.highlight = Rectangle((0, 0), 1, 1, fill=False, ec=COLORS["bad"], lw=points(2.5))
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
        # short, to stay clear of the tail labels, and below the centre label above the peak
        marker = [0.0, min(_st.norm.pdf(z) + 0.05, 0.41)]
        self.plus.set_data([z, z], marker)
        self.minus.set_visible(not one)  # a one-sided bound has no lower limit
        self.minus.set_data([-z, -z], marker)
        if one:
            # the bound keeps everything below z (the confidence) and excludes the upper tail
            self.centre.set_xy(self._area(np.concatenate([_X[_X <= z], [z]])))
            self.tail.set_xy(self._area(np.concatenate([[z], _X[_X >= z]])))
            self.tail.set_facecolor(COLORS["bad"])
            self.centre_text.set_text(f"C' = {pct(r.one_sided, 4)}")
            self.tail_text.set_text("")  # the lower tail is simply part of C'
            self.right_text.set_text(f"excluded:\n{pct(tail)} above z")
            self.right_text.set_color(COLORS["bad"])
        else:
            # two-sided: the centre is C; the shaded lower tail is what a one-sided bound adds
            self.centre.set_xy(self._area(np.concatenate([[-z], _X[np.abs(_X) <= z], [z]])))
            self.tail.set_xy(self._area(np.concatenate([_X[_X <= -z], [-z]])))
            self.tail.set_facecolor(COLORS["theory"])
            self.centre_text.set_text(f"C = {pct(r.two_sided)}")
            self.tail_text.set_text(f"+ {pct(tail)}\n→ C' = {pct(r.one_sided, 4)}")  # few lines: text is slow
            self.right_text.set_text(f"{pct(tail)} above z")
            self.right_text.set_color(COLORS["muted"])
        if one and z < 1.0:
            # a narrow kept area near the peak: the label ends just left of the bound, where the
            # curve is high enough to hold it
            self.centre_text.set(x=z - 0.12, y=0.08, ha="right")
        else:  # inside the kept area; above the peak when the two-sided band is narrow
            self.centre_text.set(x=min(0.0, z - 1.2) if one else 0.0, y=0.08 if one else 0.13 if z >= 1 else 0.455,
                                 ha="center")
        if r.sided == "two":
            level, area = r.two_sided, "P(-z ≤ Z ≤ z)"
            convert = f"one-sided: C' = 100 - (100 - C)/2 = {pct(r.one_sided, 4)}"
        else:
            level, area = r.one_sided, "P(Z ≤ z)"
            convert = f"= two-sided C = {pct(r.two_sided)} plus the lower tail, {pct(tail)}"
        given = (f"{area} = {pct(level, 4)}  →  z = {z:.4f}" if r.lookup == "confidence"
                 else f"z = {z:.2f}  →  {area} = {pct(level, 4)}")
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
        """The reading of the table on the row of the chosen sidedness: its numbers, and a note
        that does not change with them."""
        side, levels = _side(r.sided), r.table.levels
        if r.lookup == "confidence":
            if r.cell is not None:
                return (f"{levels[r.cell[1]]:.0%} column, {side} row: {r.table_z:.2f};  exact: {r.z:.4f}",
                        "The table rounds to two decimals.")
            above = int(np.searchsorted(levels, r.confidence))  # the first column above the level
            if above == len(levels):
                return (f"{pct(r.confidence, 4)} is beyond the last column ({levels[-1]:.0%}):"
                        f"\nthe exact z is {r.z:.4f}.",
                        f"The table only says z is above {r.row[-1]:.2f}.")
            low, high = above - 1, above
            return (f"{pct(r.confidence, 4)} lies between the {levels[low]:.0%} and {levels[high]:.0%} columns:"
                    f"\n{side} row: {r.row[low]:.2f} < z < {r.row[high]:.2f};  exact: {r.z:.4f}",
                    "Between columns, the table only brackets z.")
        exact = f"exact: {pct(r.confidence, 4)}"
        if r.cell is None:  # two-sided only: the one-sided row starts at 0.00
            return (f"z = {r.z:.2f} is below {r.row[0]:.2f}, the {levels[0]:.0%} column of the {side} row:"
                    f"\nthe table gives less than {levels[0]:.0%};  {exact}", "")
        col = r.cell[1]
        level, exact_z = f"{levels[col]:.0%}", r.exact_row[col]
        if np.isclose(r.z, exact_z, rtol=0, atol=1e-9):
            gives = f"the table gives {level};  {exact}"
        elif r.z > exact_z and col + 1 < len(levels) and r.z < r.row[col + 1]:
            gives = f"the table gives at least {level}, below {levels[col + 1]:.0%};  {exact}"
        elif r.z > exact_z:
            gives = f"the table gives at least {level};  {exact}"
        else:  # reaches the printed value but not the exact one, which is higher
            gives = f"the table gives {level} ({r.table_z:.2f} is {exact_z:.4f} rounded down)\n{exact}"
        if r.sided == "one" and stats.table_confidence(r.z, "one") > levels[col]:
            # the slides' route, through the two-sided row, gives a tighter bound here
            two = stats.table_confidence(r.z, "two")
            gives += (f"\nslides' route: two-sided row {two:.0%} → C' at least "
                      f"{pct(stats.table_confidence(r.z, 'one'))} (both are lower bounds)")
        return f"z = {r.z:.2f} reaches {r.table_z:.2f}, the {level} column of the {side} row:\n{gives}", ""

    def _summary(self, r):
        text = (f"{_side(r.sided)} look-up: z = {r.z:.4f} and confidence {pct(r.confidence, 4)}. "
                f"This z encloses {pct(r.two_sided, 4)} of the normal curve between -z and z (two-sided) and "
                f"{pct(r.one_sided, 4)} below z (one-sided, C' = 100 - (100 - C)/2).")
        reading, note = self._reading(r)
        lines = [" ".join(line.split()) for line in reading.splitlines()]
        reading = "".join(line if i == 0 else (" " if lines[i - 1].endswith(":") else "; ") + line
                          for i, line in enumerate(lines))
        return f"{text} The classic table: {reading}{'' if reading.endswith('.') else '.'} {note}".rstrip()
