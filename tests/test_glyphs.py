"""The glyph-caching canvas draws exactly the pixels matplotlib's own Agg canvas draws."""
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from evalteach import widgets
from evalteach.widgets import _glyphs
from evalteach.widgets._glyphs import GlyphCachingCanvas


def text_figure(canvas_class, seed=0):
    """Many texts at random sub-pixel places: sizes, angles, mathtext, no antialiasing."""
    rng = np.random.default_rng(seed)
    figure = Figure(figsize=(5, 3.5), dpi=200)
    canvas_class(figure)
    for i in range(60):
        x = rng.random()
        figure.text(rng.random(), rng.random(), f"error {x:.4f} ± {x / 7:.3f} √n Σ fig",
                    fontsize=5 + 12 * rng.random(), rotation=(0, 90, 33, -12)[i % 4],
                    antialiased=i % 7 != 0, color=("k", "#D55E00", "#0072B2")[i % 3])
    figure.text(0.1, 0.1, r"$\frac{r}{n} \pm z\sqrt{\frac{p(1-p)}{n}}$", fontsize=14)
    figure.text(0.6, 0.2, "two lines:\nline gap and descent gy", fontsize=9, family="DejaVu Serif")
    ax = figure.add_subplot()
    ax.plot([0, 1, 3])
    ax.set_title("coverage 0.95 of 100 intervals")
    ax.set_xlabel("n")
    return figure


def pixels(figure):
    figure.canvas.draw()
    return np.asarray(figure.canvas.buffer_rgba()).copy()


@pytest.mark.skipif(not _glyphs.SUPPORTED, reason="this matplotlib draws text another way")
def test_cached_glyphs_are_the_pixels_matplotlib_draws():
    _glyphs._glyphs.clear()
    expected = pixels(text_figure(FigureCanvasAgg))
    first = pixels(text_figure(GlyphCachingCanvas))  # every glyph rendered and kept
    assert len(_glyphs._glyphs) > 100
    again = pixels(text_figure(GlyphCachingCanvas))  # every glyph pasted from the cache
    assert np.array_equal(first, expected)
    assert np.array_equal(again, expected)


@pytest.mark.skipif(not _glyphs.SUPPORTED, reason="this matplotlib draws text another way")
def test_a_full_cache_starts_again(monkeypatch):
    monkeypatch.setattr(_glyphs, "CAPACITY", 50)
    monkeypatch.setattr(_glyphs, "LAYOUTS", 7)
    _glyphs._glyphs.clear()
    _glyphs._layouts.clear()
    expected = pixels(text_figure(FigureCanvasAgg, seed=1))
    assert np.array_equal(pixels(text_figure(GlyphCachingCanvas, seed=1)), expected)
    assert 0 < len(_glyphs._glyphs) <= 50
    assert 0 < len(_glyphs._layouts) <= 7


@pytest.mark.skipif(not _glyphs.SUPPORTED, reason="this matplotlib draws text another way")
def test_a_text_whose_font_changes_is_laid_out_again():
    """The layouts and line heights are kept per font: a text drawn, then given another
    size and family, is drawn as matplotlib draws it in its new font."""
    drawn = {}
    for canvas_class in (FigureCanvasAgg, GlyphCachingCanvas):
        figure = Figure(figsize=(3, 2), dpi=150)
        canvas_class(figure)
        label = figure.text(0.1, 0.5, "p = 0.031\nn = 120", fontsize=10)
        first = pixels(figure)
        label.set_fontsize(15)
        label.set_family("DejaVu Serif")
        drawn[canvas_class] = first, pixels(figure)
    (agg_first, agg_second), (cached_first, cached_second) = drawn.values()
    assert not np.array_equal(agg_first, agg_second)
    assert np.array_equal(cached_first, agg_first)
    assert np.array_equal(cached_second, agg_second)


def test_explorers_draw_on_the_glyph_caching_canvas():
    explorer = widgets.CLTExplorer(seed=0)
    assert isinstance(explorer.figure.canvas, GlyphCachingCanvas)
