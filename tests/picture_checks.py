"""Reading a result's picture back: the artists that carry its numbers, found by their gid
(evalteach/pictures/_canvas.py), and the areas and heights they draw."""
from __future__ import annotations

import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.patches import Rectangle


def by_gid(ax, gid):
    """The artists of ``ax`` (or a figure) whose gid is ``gid``."""
    return [a for a in ax.findobj() if a.get_gid() == gid]


def one(ax, gid):
    found = by_gid(ax, gid)
    assert len(found) == 1, f"expected one artist with gid {gid!r}, found {len(found)}"
    return found[0]


def _polygon_area(xy):
    x, y = xy[:, 0], xy[:, 1]
    return abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))) / 2


def area(artists):
    """The area (in data units) that filled polygons cover, or the total height of bars
    (a probability drawn as bars of a distribution of counts)."""
    total = 0.0
    for artist in artists:
        if isinstance(artist, PolyCollection):
            total += sum(_polygon_area(p) for path in artist.get_paths() for p in path.to_polygons())
        elif isinstance(artist, Rectangle):
            total += artist.get_height()
        else:
            raise TypeError(f"cannot measure a {type(artist).__name__}")
    return total


def heights(collection):
    """The heights of bars drawn as one collection (``pictures._marks.bars``), in order of x."""
    boxes = [p.vertices for p in collection.get_paths()]
    boxes.sort(key=lambda v: v[:, 0].min())
    return np.array([v[:, 1].max() - v[:, 1].min() for v in boxes])


def bar_centres(collection):
    boxes = [p.vertices for p in collection.get_paths()]
    return np.sort([(v[:, 0].min() + v[:, 0].max()) / 2 for v in boxes])


def x_span(line):
    """The smallest and largest x of a line."""
    x = np.asarray(line.get_xdata(), dtype=float)
    return float(x.min()), float(x.max())


def legend_texts(ax):
    legend = ax.get_legend()
    return [t.get_text() for t in legend.get_texts()] if legend else []
