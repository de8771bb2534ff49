"""Uncluttered pictures (issue 13): in every explorer, at laptop and presenter scale, in
the default state, in every mode and at both ends of every slider, after a draw:

* no text overlaps other text,
* no text is cut off by the figure's edge,
* no text or legend box covers the axes' data (lines, opaque patches, collections).

Boxes are compared in display coordinates. Two exemptions, both explicit: a text whose
gid is ``plotting.ON_DATA`` labels the data it sits on (a count on a bar), and fills more
than half transparent are backgrounds (shaded regions) that text may sit on.
Explorers that still fail are listed in ``OVERLAP_TODO`` with what is wrong, as strict
xfails: whoever fixes one removes its entry.
"""
from __future__ import annotations

import itertools

import ipywidgets as W
import pytest
from matplotlib.collections import Collection
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text
from matplotlib.transforms import Bbox

import evalteach
from evalteach import plotting, widgets
from explorer_contract import modes

#: Pixels two boxes may share before it counts as overlap (anti-aliased edges touch).
SLACK = 1.0

#: Explorer -> what still overlaps or is cut off (strict xfail until fixed).
OVERLAP_TODO = {}


def drawn_texts(figure, monkeypatch):
    """Every non-empty text drawn in a full draw of ``figure`` (animated artists included),
    with its box in display coordinates."""
    drawn = []
    draw = Text.draw

    def record(self, renderer):
        draw(self, renderer)
        if self.get_visible() and self.get_text().strip():
            drawn.append((self, self.get_window_extent(renderer)))

    animated = [a for a in figure.findobj() if a.get_animated()]
    with monkeypatch.context() as m:
        m.setattr(Text, "draw", record)
        for artist in animated:
            artist.set_animated(False)
        try:
            figure.canvas.draw()
        finally:
            for artist in animated:
                artist.set_animated(True)
    return drawn


def _name(text):
    return repr(text.get_text()[:40])


def _overlap(a, b):
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > SLACK) and (min(a.y1, b.y1) - max(a.y0, b.y0) > SLACK)


def _data_artists(ax):
    for artist in itertools.chain(ax.lines, ax.patches, ax.collections):
        if not artist.get_visible():
            continue
        if isinstance(artist, (Patch, Collection)) and not isinstance(artist, Line2D):
            alpha = artist.get_alpha()
            face = artist.get_facecolor()
            face_alpha = face[-1] if getattr(face, "ndim", 1) == 1 else (face[:, -1].max() if len(face) else 0)
            edge = artist.get_edgecolor()
            edge_alpha = edge[-1] if getattr(edge, "ndim", 1) == 1 else (edge[:, -1].max() if len(edge) else 0)
            if max(face_alpha, edge_alpha) * (1.0 if alpha is None else alpha) <= 0.5:
                continue  # a translucent background fill
        yield artist


def _covers(artist, box):
    """Whether ``artist`` (a line, patch or collection) has ink inside ``box``."""
    if artist.get_clip_on() and artist.axes is not None:
        box = Bbox.intersection(box, artist.axes.bbox)
        if box is None or box.width <= SLACK or box.height <= SLACK:
            return False
    if isinstance(artist, Line2D):
        path = artist.get_transform().transform_path(artist.get_path())
        if artist.get_linestyle() in ("None", "", " ", "none"):
            return bool(box.count_contains(path.vertices))
        return path.intersects_bbox(box, filled=False)
    if isinstance(artist, Patch):
        path = artist.get_transform().transform_path(artist.get_path())
        return path.intersects_bbox(box, filled=artist.get_fill())
    if isinstance(artist, Collection):
        offsets = artist.get_offsets()
        if len(offsets) and len(artist.get_paths()) <= 1 and artist.get_offset_transform() is not None:
            points = artist.get_offset_transform().transform(offsets)  # a scatter
            return bool(box.count_contains(points))
        transform = artist.get_transform()
        return any(transform.transform_path(p).intersects_bbox(box, filled=True)
                   for p in artist.get_paths())
    return False


def clutter(figure, monkeypatch):
    """Problems in ``figure``: text over text, text past the edge, text over data."""
    texts = drawn_texts(figure, monkeypatch)
    edge = figure.bbox
    problems = []
    for text, box in texts:
        if (box.x0 < edge.x0 - SLACK or box.y0 < edge.y0 - SLACK
                or box.x1 > edge.x1 + SLACK or box.y1 > edge.y1 + SLACK):
            problems.append(f"text {_name(text)} is cut off by the figure's edge")
    for (a, box_a), (b, box_b) in itertools.combinations(texts, 2):
        if _overlap(box_a, box_b):
            problems.append(f"text {_name(a)} overlaps text {_name(b)}")
    renderer = figure.canvas.get_renderer()
    for ax in figure.axes:
        if not ax.get_visible():
            continue
        boxes = [(f"text {_name(t)}", b) for t, b in texts
                 if t.axes is ax and t.get_gid() != plotting.ON_DATA and not _in_legend(t)]
        boxes += [(f"the legend of {_title(ax)}", legend.get_window_extent(renderer))
                  for legend in _legends(ax)]
        for label, box in boxes:
            for artist in _data_artists(ax):
                if _covers(artist, box):
                    problems.append(f"{label} covers {artist.__class__.__name__} "
                                    f"{artist.get_label()!r} in {_title(ax)}")
    return sorted(set(problems))


def _legends(ax):
    return [c for c in ax.get_children() if isinstance(c, Legend) and c.get_visible()]


def _in_legend(text):
    return any(text in legend.texts for legend in _legends(text.axes))


def _title(ax):
    return f"panel {ax.get_title()!r}" if ax.get_title() else "a panel"


def _ends(control):
    """The smallest and the largest value of a slider."""
    if isinstance(control, W.FloatLogSlider):
        return [control.base ** control.min, control.base ** control.max]
    return [control.min, control.max]


def states(explorer):
    """The default state, every mode, then each slider shown by default at both ends (the
    widest tick labels, the longest captions and the emptiest panels are found there)."""
    yield "default", {}
    for name, value in modes(explorer):
        yield f"{name}={value!r}", {name: value}
    for name, control in explorer.visible_controls().items():
        if isinstance(control, (W.IntSlider, W.FloatSlider, W.FloatLogSlider)):
            for end in _ends(control):
                if end != control.value:
                    yield f"{name}={end!r}", {name: end}


def _params():
    for name in widgets.EXPLORERS:
        for scale in ("laptop", "presenter"):
            marks = ([pytest.mark.xfail(strict=True, reason=f"{name}: {OVERLAP_TODO[name]}")]
                     if name in OVERLAP_TODO else [])
            yield pytest.param(name, scale, id=f"{name}-{scale}", marks=marks)


@pytest.mark.parametrize(("name", "scale"), list(_params()))
def test_no_text_overlaps_text_data_or_the_edge(name, scale, monkeypatch):
    evalteach.presenter(scale == "presenter")
    try:
        explorer = getattr(widgets, name)(seed=0)
        start = {n: c.value for n, c in explorer.controls.items()}
        problems = []
        for label, values in states(explorer):
            explorer.set(**start)
            explorer.set(**values)
            problems += [f"{label}: {p}" for p in clutter(explorer.figure, monkeypatch)]
            explorer._background = None  # the recording draw put animated artists in it
    finally:
        evalteach.presenter(False)
    assert not problems, f"{name} at {scale} scale:\n" + "\n".join(problems)
