"""The cached layers: a hit pastes the pixels a draw would draw, keys and boxes are kept exactly,
and every explorer that uses them shows what drawing afresh shows."""
from __future__ import annotations

import sys

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from evalteach import widgets
from evalteach.widgets._cached_layer import (PAD, AxisLabel, CachedAxis, CachedLayer, CachedText, Stamp,
                                             marker_clip_box, whole_pixels)
from explorer_contract import modes, other_value


@pytest.fixture
def scene():
    """A figure drawn in full once (its background), with a text to put in layers."""
    figure = Figure(figsize=(4, 3), dpi=50)
    FigureCanvasAgg(figure)
    ax = figure.add_axes((0.2, 0.2, 0.7, 0.7))
    text = ax.text(0.2, 0.5, "first", fontsize=14)
    text.set_animated(True)
    figure.canvas.draw()
    return figure, ax, text, figure.canvas.copy_from_bbox(figure.bbox)


def counted(artist):
    """Count the draws of ``artist`` in ``artist.draws``."""
    draw, artist.draws = artist.draw, 0

    def counting(renderer):
        artist.draws += 1
        draw(renderer)
    artist.draw = counting
    return artist


def update(figure, background, *layers):
    """What an explorer's update does: the background, then the dynamic artists over it."""
    figure.canvas.restore_region(background)
    for layer in layers:
        figure.draw_artist(layer)
    return np.asarray(figure.canvas.buffer_rgba()).copy()


def boxes_copied(monkeypatch, figure):
    """The boxes the renderer is asked to copy, in order."""
    renderer, copied = figure.canvas.get_renderer(), []
    copy = renderer.copy_from_bbox
    monkeypatch.setattr(renderer, "copy_from_bbox", lambda box: copied.append(box.bounds) or copy(box))
    return copied


def test_a_hit_pastes_the_pixels_of_the_first_draw_without_drawing(scene):
    figure, _, text, background = scene
    layer = CachedLayer([counted(text)])
    layer.show("a")
    first = update(figure, background, layer)
    text.set_text("second")  # not named by the key: a hit must not draw it
    layer.show("a")
    assert np.array_equal(update(figure, background, layer), first) and text.draws == 1
    layer.show("b")  # a new key draws afresh
    second = update(figure, background, layer)
    assert text.draws == 2 and not np.array_equal(second, first)
    figure.canvas.restore_region(background)
    figure.draw_artist(text)
    assert np.array_equal(np.asarray(figure.canvas.buffer_rgba()), second)


def test_keys_beyond_size_are_forgotten_least_recently_used_first(scene):
    figure, _, text, background = scene
    layer = CachedLayer([counted(text)], size=2)
    for key in ("a", "b", "a", "c"):  # "a" used again after "b": "b" is the one to go
        layer.show(key)
        update(figure, background, layer)
    assert text.draws == 3
    layer.show("a")
    update(figure, background, layer)
    assert text.draws == 3
    layer.show("b")
    update(figure, background, layer)
    assert text.draws == 4 and len(layer._pixels) == 2


def test_a_full_draw_of_the_figure_forgets_every_copy(scene):
    figure, ax, text, background = scene
    layer, stamp = CachedLayer([counted(text)]), Stamp([counted(ax.xaxis)])
    first = update(figure, background, layer, stamp)
    update(figure, background, layer, stamp)
    assert (text.draws, ax.xaxis.draws) == (1, 1)
    figure.set_facecolor("0.9")  # a new background: the old copies would paste the old one
    figure.canvas.draw()
    background = figure.canvas.copy_from_bbox(figure.bbox)
    assert not np.array_equal(update(figure, background, layer, stamp), first)
    assert (text.draws, ax.xaxis.draws) == (2, 2)


def test_a_new_pixel_density_or_layout_draws_afresh(scene):
    figure, ax, text, _ = scene
    layer = CachedLayer([counted(text)], size=8)
    for change in (lambda: None, lambda: figure.set_dpi(100), lambda: ax.set_position((0.1, 0.1, 0.8, 0.8))):
        change()
        figure.canvas.draw()  # the explorer draws in full after either change
        background = figure.canvas.copy_from_bbox(figure.bbox)
        update(figure, background, layer)
    assert text.draws == 3
    key, width, height, (place,) = layer._pixels.popitem()[0]
    assert (key, width, height) == (None, 400, 300) and place == pytest.approx((40, 30, 320, 240))


def test_a_layer_on_another_draws_it_from_its_own_cache(scene):
    figure, ax, text, background = scene
    lower = CachedLayer([counted(ax.xaxis)])
    upper = CachedLayer([counted(text)], under=lower)
    lower.show("axis")
    for key in ("a", "b", "a"):
        upper.show(key)
        update(figure, background, upper)
    assert (ax.xaxis.draws, text.draws) == (1, 2)
    upper.clear()  # also forgets the layer under it
    update(figure, background, upper)
    assert (ax.xaxis.draws, text.draws) == (2, 3)


@pytest.mark.parametrize("frac", [0.0, 0.3, 0.5, 0.7])
def test_whole_pixels_are_the_pixels_agg_draws_into_when_it_clips_to_the_box(frac):
    # paths clipped to the axes, and markers clipped to marker_clip_box, ink exactly the rounded box
    figure = Figure(figsize=(1, 1), dpi=100)
    FigureCanvasAgg(figure)
    ax = figure.add_axes(((20 + frac) / 100, (20 + frac) / 100, 0.5, 0.4))
    ax.axis("off")
    ax.set_xlim(0, 1), ax.set_ylim(0, 1)
    fill = ax.fill_between([-1, 2], -1, 2, color="k")
    dots = ax.scatter([0, 1, 0, 1], [0, 0, 1, 1], s=300, color="k")
    expected = whole_pixels(ax.bbox).extents
    for drawn, hidden, clip in ((fill, dots, None), (dots, fill, marker_clip_box(ax))):
        drawn.set_visible(True), hidden.set_visible(False)
        if clip is not None:
            drawn.set_clip_box(clip)
        figure.canvas.draw()
        inked = np.asarray(figure.canvas.buffer_rgba())[::-1, :, 0] < 255  # rows from the bottom
        rows, cols = np.flatnonzero(inked.any(axis=1)), np.flatnonzero(inked.any(axis=0))
        assert (cols[0], rows[0], cols[-1] + 1, rows[-1] + 1) == tuple(expected), (frac, drawn)


def test_a_layer_keeps_its_region_in_whole_pixels_and_neighbouring_regions_do_not_overlap(scene, monkeypatch):
    figure, ax, text, background = scene
    copied = boxes_copied(monkeypatch, figure)
    left = CachedLayer([text], region=lambda renderer: Bbox.from_extents(0.3, 10.4, 100.5, 80.6))
    right = CachedLayer([ax.xaxis], region=lambda renderer: Bbox.from_extents(100.5, 10.4, 200.2, 80.6))
    whole = CachedLayer([text])
    update(figure, background, left, right, whole)
    assert copied == [(0, 10, 101, 71), (101, 10, 99, 71), (0, 0, 200, 150)]


def test_a_stamp_keeps_its_artists_box_padded_to_whole_pixels_inside_the_canvas(scene, monkeypatch):
    figure, ax, text, background = scene
    copied = boxes_copied(monkeypatch, figure)
    edge = figure.text(-0.02, 0.5, "edge", animated=True)  # sticks out of the canvas on the left
    hidden = ax.text(0.5, 0.1, "hidden", animated=True, visible=False)
    update(figure, background, Stamp([text, hidden]), Stamp([edge]), Stamp([hidden]))
    renderer = figure.canvas.get_renderer()
    box = text.get_window_extent(renderer)
    edge_box = edge.get_window_extent(renderer)
    assert edge_box.x0 < 0
    assert copied == [whole_pixels(Bbox.from_extents(box.x0 - PAD, box.y0 - PAD, box.x1 + PAD, box.y1 + PAD)).bounds,
                      whole_pixels(Bbox.from_extents(0, edge_box.y0 - PAD, edge_box.x1 + PAD, edge_box.y1 + PAD)).bounds]


def test_a_stamp_with_nothing_to_show_pastes_nothing(scene):
    figure, _, text, background = scene
    stamp = Stamp([counted(text)])
    text.set_text("")
    blank = update(figure, background, stamp)
    assert np.array_equal(update(figure, background, stamp), blank) and text.draws == 1
    assert list(stamp._pixels.values()) == [None]


def test_a_cached_axis_is_keyed_by_its_limits(scene):
    figure, ax, _, background = scene
    stamp = CachedAxis(ax.xaxis)
    counted(ax.xaxis)
    figure.canvas.draw()  # the background without the axis
    background = figure.canvas.copy_from_bbox(figure.bbox)
    first = update(figure, background, stamp)
    ax.set_xlim(0, 2)
    update(figure, background, stamp)
    ax.set_xlim(0, 1)
    assert np.array_equal(update(figure, background, stamp), first) and ax.xaxis.draws == 2


def test_a_cached_text_is_keyed_by_its_string(scene):
    figure, _, text, background = scene
    stamp = CachedText(text)
    counted(text)
    first = update(figure, background, stamp)
    text.set_text("second")
    update(figure, background, stamp)
    text.set_color("red")
    update(figure, background, stamp)
    text.set_text("first")
    text.set_color("black")
    assert np.array_equal(update(figure, background, stamp), first) and text.draws == 3


def test_an_axis_label_is_drawn_where_the_axis_puts_its_label(scene):
    figure, ax, _, _ = scene
    ax.set_xlabel("rate")
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    where = ax.xaxis.label.get_window_extent(renderer)
    label = AxisLabel(ax.xaxis, "rate")
    figure.canvas.draw()
    assert ax.xaxis.get_label_text() == " "
    assert np.allclose(label.get_window_extent(renderer).get_points(), where.get_points())


#: The explorers that draw through cached layers, stamps, cached axes or cached texts.
CACHING = ["AlgorithmComparisonExplorer", "BayesianComparisonExplorer", "CLTExplorer",
           "CriticalDifferenceExplorer", "HypothesisComparisonExplorer", "ImbalanceExplorer",
           "IntervalCoverageExplorer", "LearningCurveExplorer", "LossExplorer", "RandomizationExplorer",
           "ResamplingExplorer", "ROCExplorer", "SamplingErrorExplorer", "TvsZExplorer",
           "TestSetReuseExplorer", "ZTableExplorer"]


def test_every_explorer_using_cached_layers_is_listed():
    for name in widgets.EXPLORERS:
        cls = getattr(widgets, name)
        source = sys.modules[cls.__module__]
        uses = any(isinstance(getattr(source, n, None), type) and issubclass(getattr(source, n), CachedLayer)
                   for n in vars(source))
        assert uses == (name in CACHING), name


@pytest.mark.parametrize("name", CACHING)
def test_pasted_pictures_equal_pictures_drawn_afresh_through_modes_and_jumps(name, monkeypatch):
    # the same changes twice: the second time round most layers paste what the first drew
    cls = getattr(widgets, name)
    e, twin = cls(seed=0), cls(seed=0)
    monkeypatch.setattr(twin, "_text_grew", lambda: False)  # the same frozen layout as e's
    rng = np.random.default_rng(0)
    start = {n: c.value for n, c in e.controls.items()}
    steps = [{n: v} for n, v in modes(e)]
    steps += [{n: other_value(c, rng)} for n, c in e.visible_controls().items() if n not in dict(modes(e))]
    steps = [step for step in steps if None not in step.values()] + [start]
    for step in steps * 2:
        e.set(**step)
        for layer in twin._dynamic:
            if isinstance(layer, CachedLayer):
                layer.clear()
        twin._background = None
        twin.set(**step)
        assert e.error is None and twin.error is None
        assert e.image == twin.image, step
