"""IntervalCoverageExplorer: the contract, and the coverage it shows against direct computations."""
import numpy as np
import pytest
from scipy import stats

from evalteach.stats import proportion_interval, test_set_size
from evalteach.widgets import IntervalCoverageExplorer
from evalteach.widgets._cached_layer import PAD
from evalteach.widgets.interval_coverage import GRID
from explorer_contract import check_contract, redrawn_afresh


def test_contract_defaults():
    check_contract(IntervalCoverageExplorer)


def test_contract_with_the_slides_numbers():
    # Mitchell ch. 5: 12 errors in 40 test examples, a 95% (and 90%) interval
    check_contract(IntervalCoverageExplorer, sweep=10, error=0.3, n=40, confidence=0.9,
                   method="wilson", sided="upper", intervals=200)


def test_coverage_shown_is_the_share_of_intervals_containing_the_truth():
    e = IntervalCoverageExplorer(error=0.3, n=40, method="wald", intervals=150, seed=4)
    sim = e.result.simulation
    hits = 0
    for k, low, high, covered in zip(sim.errors, sim.low, sim.high, sim.covered):
        ref = proportion_interval(int(k), 40, 0.95, "wald")
        assert (low, high) == pytest.approx((ref.low, ref.high))
        assert covered == (ref.low <= 0.3 <= ref.high)
        hits += ref.low <= 0.3 <= ref.high
    assert e.result.coverage == hits / 150
    assert e.result.running[-1] == e.result.coverage
    assert f"{hits} of 150" in e._summary_html.value


def test_play_adds_intervals_to_the_same_draws():
    e = IntervalCoverageExplorer(intervals=20)
    first = e.result.simulation.errors.copy()
    e.controls["intervals"].value = 60
    np.testing.assert_array_equal(e.result.simulation.errors[:20], first)


def brute_force(p, n, confidence, method, sided):
    k = np.arange(n + 1)
    covers = []
    for j in k:
        r = proportion_interval(int(j), n, confidence, method, sided)
        covers.append(r.low <= p <= r.high)
    return stats.binom.pmf(k, n, p)[np.array(covers)].sum()


@pytest.mark.parametrize("method", ["wald", "wilson", "clopper-pearson"])
def test_exact_coverage_curve_equals_a_brute_force_binomial_sum(method):
    e = IntervalCoverageExplorer(n=40, confidence=0.95, method=method)
    curve = e.result.curves
    for i in (0, 20, 59, 100, 198):
        for m in ("wald", "wilson", "clopper-pearson"):
            assert curve[m][i] == pytest.approx(brute_force(GRID[i], 40, 0.95, m, "two"), abs=1e-12)
    assert e.result.simulation.exact == pytest.approx(brute_force(0.3, 40, 0.95, method, "two"))


def test_one_sided_curves_use_one_sided_intervals():
    e = IntervalCoverageExplorer(n=25, confidence=0.9, sided="lower")
    assert e.result.curves["wilson"][60] == pytest.approx(brute_force(GRID[60], 25, 0.9, "wilson", "lower"))


def test_planning_is_test_set_size():
    e = IntervalCoverageExplorer(error=0.25, half_width=0.05, confidence=0.95)
    assert e.result.needed.n == test_set_size(0.25, 0.05, 0.95).n == 289


def test_bad_values_are_refused():
    with pytest.raises(ValueError, match="method"):
        IntervalCoverageExplorer(method="agresti-coull")
    with pytest.raises(ValueError, match="confidence"):
        IntervalCoverageExplorer(confidence=95)


@pytest.mark.parametrize("intervals", [1, 37, 100, 200])
def test_the_rows_fill_the_panel_and_the_caption_names_what_is_drawn(intervals):
    e = IntervalCoverageExplorer(intervals=intervals)
    ax_dance, ax_run = e.axes[:2]
    assert ax_dance.get_ylim() == (intervals + 0.5, 0.5)  # one row per interval, no empty rows
    rows = e.segments.get_segments()
    assert len(rows) == intervals and rows[-1][0][1] == intervals
    assert ax_run.get_ylim() == ax_dance.get_ylim()  # the running share, row by row
    np.testing.assert_array_equal(e.running.get_xdata(), e.result.running)
    title = e.dance_title.get_text()
    assert "red" not in title and "thick: misses" in title
    sim = e.result.simulation
    widths = np.asarray(e.segments.get_linewidths())
    assert np.all(widths[~sim.covered] > widths[sim.covered].max(initial=0))  # misses are the thick ones
    assert f"{int(sim.covered.sum())} of {intervals} cover" in title


def test_the_caption_names_the_diamonds_of_misses_of_zero_width():
    # Wald's interval is [0, 0] when a test set shows no error: a miss with no line to thicken
    e = IntervalCoverageExplorer(error=0.02, n=20, method="wald")
    sim = e.result.simulation
    zero_width = ~sim.covered & (sim.high - sim.low < 2e-3)
    assert zero_width.sum() > 0 and len(e.point_misses.get_offsets()) == zero_width.sum()
    assert e.dance_title.get_text().endswith("(thick or ◆: misses)")
    e.set(error=0.3, n=100)  # no interval of zero width: no diamonds, and the caption says none
    assert len(e.point_misses.get_offsets()) == 0
    assert e.dance_title.get_text().endswith("(thick: misses)")



def test_zero_width_misses_get_a_visible_marker_and_the_panel_zooms_to_the_intervals():
    # error 0.02, n = 40: many test sets see no error, and Wald gives the empty interval [0, 0]
    e = IntervalCoverageExplorer(error=0.02, n=40, method="wald", intervals=100, seed=0)
    sim = e.result.simulation
    zero = ~sim.covered & (sim.high - sim.low < 2e-3)
    assert zero.sum() > 10
    points = e.point_misses.get_offsets()
    assert len(points) == zero.sum()
    np.testing.assert_allclose(points[:, 1], np.flatnonzero(zero) + 1)  # one per row of such a miss
    np.testing.assert_allclose(points[:, 0], 0.0)
    low, high = e.axes[0].get_xlim()
    assert low < 0 <= sim.low.min() and sim.high.max() + 0.02 < high <= 0.35  # zoomed, with a margin
    e.controls["error"].value = 0.5  # the limits follow the intervals
    low, high = e.axes[0].get_xlim()
    assert low <= e.result.simulation.low.min() and high >= e.result.simulation.high.max()
    assert len(e.point_misses.get_offsets()) == 0


@pytest.mark.parametrize("changes", [
    [("method", "wilson"), ("method", "wald")],                  # every panel seen before
    [("half_width", 0.1)],                                       # the planning panel alone
    [("error", 0.02), ("n", 300), ("error", 0.3), ("n", 40)],    # zooms seen before
    [("sided", "upper"), ("confidence", 0.8), ("sided", "two")],
])
def test_what_is_pasted_from_a_cached_panel_is_what_a_full_redraw_draws(changes, monkeypatch):
    # panels whose numbers did not change are pasted as pixels, not drawn: the same pixels
    e = IntervalCoverageExplorer()
    for name, value in changes:
        e.controls[name].value = value
    assert e.image == redrawn_afresh(e, monkeypatch)


def _inked_under(e, box):
    """Whether a line of the running panel passes through ``box`` (display pixels)."""
    xy = e.running.get_transform().transform(np.c_[e.running.get_xdata(), e.running.get_ydata()])
    along = np.concatenate([xy[:-1] * (1 - t) + xy[1:] * t for t in np.linspace(0, 1, 50)] + [xy])
    inside = (along[:, 0] > box.x0) & (along[:, 0] < box.x1) & (along[:, 1] > box.y0) & (along[:, 1] < box.y1)
    vertical = [line.get_transform().transform((line.get_xdata()[0], 0))[0] for line in (e.nominal_run, e.exact_run)]
    return bool(inside.any()) or any(box.x0 < x < box.x1 for x in vertical)


@pytest.mark.parametrize("changes", [
    [("n", 41), ("n", 60), ("error", 0.25), ("n", 80)],                # coverage high: the legend at the left
    [("intervals", 3), ("n", 5), ("error", 0.1), ("n", 10), ("n", 5)],  # lines pass under it
    [("error", 0.02), ("n", 5), ("n", 6), ("intervals", 5), ("n", 10)],
])
def test_the_running_legend_is_pasted_only_where_no_line_passes_under_it(changes, monkeypatch):
    e = IntervalCoverageExplorer()
    for name, value in changes:
        e.controls[name].value = value
        _, crossed = e._place_run_legend(e.result.running, e.result.simulation)
        box = e.run_legend.get_window_extent(e.figure.canvas.get_renderer()).padded(PAD + 1)
        assert crossed or not _inked_under(e, box)  # its pixels are the background's and its own
    assert e.image == redrawn_afresh(e, monkeypatch)


def test_the_coverage_legend_sits_above_full_coverage_clear_of_every_curve():
    e = IntervalCoverageExplorer(n=5, error=0.5)
    ax = e.axes[2]
    e.figure.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    full = ax.transData.transform((0, 1.0))[1]
    assert legend.y0 > full  # coverage is at most 1: no curve reaches the legend
    top_of_truth = ax.transAxes.transform((0, e.truth_curve.get_ydata()[1]))[1]
    assert top_of_truth == pytest.approx(full) and top_of_truth < legend.y0


def test_every_panel_names_both_its_axes():
    """Issue 22: the running-coverage panel had no label on its axis of rows."""
    e = IntervalCoverageExplorer(seed=0)
    dance, run, curve, plan = e.axes
    # the intervals' x label is a text of its own under the axis (clt._x_label), drawn once
    assert any(t.get_text() == "error rate" for t in dance.texts)
    assert dance.get_ylabel() and run.get_xlabel() and run.get_ylabel()
    assert curve.get_xlabel() and curve.get_ylabel() and plan.get_xlabel() and plan.get_ylabel()
    assert "test sets" in run.get_ylabel()
