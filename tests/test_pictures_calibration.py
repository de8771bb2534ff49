"""The reliability diagram's picture: the curve is the non-empty bins' (mean forecast, observed
frequency), the histogram beneath the bins' counts, the legend the Brier score's terms."""
import matplotlib.pyplot as plt
import numpy as np
import pytest

import evalteach as et
from picture_checks import bar_centres, heights, one


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.mark.parametrize("n_bins", [4, 10, 25])
def test_the_curve_and_the_histogram_are_the_table(n_bins):
    rng = np.random.default_rng(n_bins)
    p = rng.beta(0.8, 2, 300)
    y = (rng.random(300) < p).astype(int)
    r = et.reliability_diagram(y, p, n_bins=n_bins)
    top = r.plot()
    bottom = top.figure.axes[1]
    curve = one(top, "estimate")
    np.testing.assert_allclose(curve.get_xdata(), r.mean_forecast)            # NaN where a bin is empty
    np.testing.assert_allclose(curve.get_ydata(), r.observed_frequency)
    counts = one(bottom, "counts")
    np.testing.assert_allclose(heights(counts), r.counts)
    np.testing.assert_allclose(bar_centres(counts), (r.bin_edges[:-1] + r.bin_edges[1:]) / 2)
    title = top.get_legend().get_title().get_text()
    for value in (r.brier, r.reliability, r.resolution, r.uncertainty, r.within_bin):
        assert et._format.plain(value) in title
    assert one(top, "diagonal").get_xydata().tolist() == [[0, 0], [1, 1]]


def test_no_line_crosses_an_empty_bin():
    """Forecasts only near 0.1 and 0.7 (a tree's two leaves): no segment may join them across empty bins."""
    p = np.r_[np.full(40, 0.12), np.full(40, 0.71)]
    y = np.r_[np.zeros(36), np.ones(4), np.zeros(10), np.ones(30)].astype(int)
    r = et.reliability_diagram(y, p)
    assert r.counts.tolist() == [0, 40, 0, 0, 0, 0, 0, 40, 0, 0]
    line = one(r.plot(), "estimate")
    x, yy = np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)
    drawn = np.isfinite(x) & np.isfinite(yy)
    np.testing.assert_allclose(x[drawn], [0.12, 0.71])
    np.testing.assert_allclose(yy[drawn], [0.1, 0.75])
    segments = drawn[:-1] & drawn[1:]                     # matplotlib draws a segment only between finite points
    assert not segments.any()
    assert line.get_marker() == "o"                       # each non-empty bin still shows as a marker
