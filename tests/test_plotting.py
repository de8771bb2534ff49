"""Shared drawing helpers of evalteach.plotting."""
import matplotlib

matplotlib.use("agg")

import matplotlib as mpl  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from evalteach import plotting  # noqa: E402


def _pixels(draw):
    with mpl.rc_context(plotting.theme().rc()):
        figure, ax = plt.subplots(dpi=200)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        draw(ax)
        figure.canvas.draw()
        pixels = np.asarray(figure.canvas.buffer_rgba()).copy()
    plt.close(figure)
    return pixels


@pytest.mark.parametrize("presenter", [False, True], ids=["classroom", "presenter"])
@pytest.mark.parametrize("alpha", [None, 0.7])
def test_dots_draw_the_pixels_a_one_colour_scatter_draws(presenter, alpha):
    """At classroom scale the default scatter's pixels; at presenter scale its edge grows too."""
    x, y = np.linspace(0.1, 0.9, 9), np.linspace(0.2, 0.8, 9)
    plotting.presenter(presenter)
    try:
        size = plotting.area(14)
        scattered = _pixels(lambda ax: ax.scatter(  # the default edge, grown with the fonts
            x, y, s=size, linewidths=plotting.points(mpl.rcParams["patch.linewidth"]), color="C1", alpha=alpha))
        dotted = _pixels(lambda ax: plotting.dots(ax, size, color="C1", alpha=alpha).set_data(x, y))
    finally:
        plotting.presenter(False)
    assert np.any(scattered != 255)  # something was drawn
    assert np.array_equal(dotted, scattered)
