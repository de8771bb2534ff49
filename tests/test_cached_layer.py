"""The cached layers: a hit pastes the pixels a draw would draw, keys and boxes are kept exactly,
the one pixel cache stays within its bytes, and every explorer that uses them shows what
drawing afresh shows."""
from __future__ import annotations

import gc

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from evalteach import widgets
from evalteach.widgets._cached_layer import (PAD, PIXELS, AxisLabel, CachedAxis, CachedLayer, CachedText,
                                             PixelCache, Stamp, marker_clip_box, whole_pixels)


@pytest.fixture(autouse=True)
def empty_pixel_cache():
    """Each test starts with an empty pixel cache at its usual limit."""
    limit = PIXELS.limit
    PIXELS.clear()
    yield
    PIXELS.limit = limit
    PIXELS.clear()


def copies_of(layer):
    """The keys of the copies ``layer`` keeps in the pixel cache."""
    return [key for owner, key in PIXELS._entries if owner == layer.owner]


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


def test_keys_beyond_the_byte_limit_are_forgotten_least_recently_used_first(scene):
    figure, _, text, background = scene
    layer = CachedLayer([counted(text)])
    PIXELS.limit = 2 * 200 * 150 * 4  # two copies of the 200 x 150 canvas
    for key in ("a", "b", "a", "c"):  # "a" used again after "b": "b" is the one to go
        layer.show(key)
        update(figure, background, layer)
    assert text.draws == 3
    layer.show("a")
    update(figure, background, layer)
    assert text.draws == 3
    layer.show("b")
    update(figure, background, layer)
    assert text.draws == 4 and len(copies_of(layer)) == 2 and PIXELS.nbytes <= PIXELS.limit


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
    layer = CachedLayer([counted(text)])
    for change in (lambda: None, lambda: figure.set_dpi(100), lambda: ax.set_position((0.1, 0.1, 0.8, 0.8))):
        change()
        figure.canvas.draw()  # the explorer draws in full after either change
        background = figure.canvas.copy_from_bbox(figure.bbox)
        update(figure, background, layer)
    assert text.draws == 3
    key, width, height, (place,) = copies_of(layer)[-1]
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


def test_the_pixel_cache_keeps_its_byte_limit_across_layers_and_forgets_on_demand(scene):
    figure, ax, text, background = scene
    whole = 200 * 150 * 4
    layers = [CachedLayer([text]) for _ in range(4)]
    PIXELS.limit = 3 * whole
    for i, layer in enumerate(layers):
        layer.show(i)
        update(figure, background, layer)
        assert PIXELS.nbytes <= PIXELS.limit and PIXELS.nbytes == len(PIXELS) * whole
    assert [copies_of(layer) != [] for layer in layers] == [False, True, True, True]  # the oldest went
    PIXELS.limit = whole  # lowering the limit forgets the least recently used now
    assert len(PIXELS) == 1 and copies_of(layers[3])
    layers[3].clear()
    assert len(PIXELS) == 0 and PIXELS.nbytes == 0
    PIXELS.limit = whole - 1  # a copy larger than the limit is not kept
    update(figure, background, layers[2])
    assert len(PIXELS) == 0
    for bad in (-1, 1.5, "big", True):
        with pytest.raises(ValueError, match="limit"):
            PIXELS.limit = bad


def test_a_collected_layer_takes_its_copies_with_it(scene):
    figure, _, text, background = scene
    layer = CachedLayer([text])
    update(figure, background, layer)
    assert len(PIXELS) == 1
    del layer
    gc.collect()
    assert len(PIXELS) == 0 and PIXELS.nbytes == 0


def test_the_pixel_cache_is_public_and_one_for_every_explorer():
    assert widgets.pixel_cache is PIXELS and isinstance(PIXELS, PixelCache)
    first, second = widgets.ZTableExplorer(seed=0), widgets.LossExplorer(seed=0)
    owners = {owner for owner, _ in PIXELS._entries}
    assert owners & {a.owner for a in first.dynamic_artists if isinstance(a, CachedLayer)}
    assert owners & {a.owner for a in second.dynamic_artists if isinstance(a, CachedLayer)}
    widgets.pixel_cache.clear()
    assert len(PIXELS) == 0
    first.controls["confidence"].value = 0.9  # drawn afresh, kept again
    assert len(PIXELS) > 0 and first.error is None


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
    (key,) = copies_of(stamp)
    assert PIXELS.get(stamp.owner, key, "missing") is None


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
