"""Uncluttered pictures (issue 13): the checker the explorers' walk uses, checked itself.

``explorer_contract.clutter`` finds, after a draw of a figure, text overlapping other
text, text cut off by the figure's edge, and text or a legend box covering the axes' data
(lines, opaque patches, collections); ``tests/test_explorer_walk.py`` runs it in every
state of every explorer at laptop and presenter scale. Two exemptions, both explicit: a
text whose gid is ``plotting.ON_DATA`` labels the data it sits on (a count on a bar), and
fills more than half transparent are backgrounds (shaded regions) that text may sit on.
"""
from __future__ import annotations

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from evalteach import plotting
from explorer_contract import SLACK, clutter, drawn_texts  # noqa: F401 - the checker, imported from here too


def figure():
    f = Figure(figsize=(4, 3), dpi=100)
    FigureCanvasAgg(f)
    ax = f.add_subplot()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    return f, ax


def test_a_clean_figure_has_no_clutter():
    f, ax = figure()
    ax.plot([0, 1], [0, 0.2])
    ax.text(0.1, 0.8, "clear of the line")
    ax.set_title("title")
    assert clutter(f) == []


def test_clutter_finds_text_over_text_over_data_and_past_the_edge():
    f, ax = figure()
    ax.plot([0, 1], [0.5, 0.5], label="line")
    ax.text(0.3, 0.5, "on the line", va="center")
    ax.text(0.3, 0.9, "first")
    ax.text(0.32, 0.9, "second")
    f.text(0.98, 0.5, "past the right edge")
    problems = clutter(f)
    assert "text 'on the line' covers Line2D 'line' in a panel" in problems
    assert "text 'first' overlaps text 'second'" in problems
    assert "text 'past the right edge' is cut off by the figure's edge" in problems


def test_a_label_on_the_data_it_labels_and_a_translucent_fill_are_exempt():
    f, ax = figure()
    bar = ax.bar([0.5], [0.8], width=0.4)
    ax.text(0.5, 0.4, "0.80", ha="center", gid=plotting.ON_DATA)
    ax.axvspan(0.0, 1.0, alpha=0.2)
    ax.text(0.05, 0.95, "over the shading", va="top")
    assert bar and clutter(f) == []


def test_animated_artists_are_drawn_and_stay_animated():
    f, ax = figure()
    text = ax.text(0.2, 0.2, "animated", animated=True)
    assert "animated" in [t.get_text() for t, _ in drawn_texts(f)]
    assert text.get_animated()
