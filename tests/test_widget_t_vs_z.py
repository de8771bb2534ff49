"""TvsZExplorer: the contract, and its numbers against evalteach.stats and scipy."""
import numpy as np
import pytest
from matplotlib.colors import to_rgba
from scipy import stats

from evalteach.simulate import paired_experiments, t_vs_z_coverage
from evalteach.stats import paired_t_test
from evalteach.widgets import TvsZExplorer
from evalteach.widgets.t_vs_z import KS, N_EXPERIMENTS, SHOWN
from explorer_contract import check_contract


def test_contract_defaults():
    check_contract(TvsZExplorer)


def test_contract_with_custom_values():
    # Mooney's experiment: 5 folds, differences of a few percent
    check_contract(TvsZExplorer, sweep=10, k=5, difference=0.05, noise=0.1, confidence=0.9)


def test_critical_values_and_coverage_at_k_3():
    r = TvsZExplorer(k=3).result
    assert r.t_critical == pytest.approx(stats.t.ppf(0.975, 2))
    assert r.z_critical == pytest.approx(stats.norm.ppf(0.975))
    mc = np.sqrt(0.95 * 0.05 / N_EXPERIMENTS)
    assert abs(r.t_coverage - 0.95) < 3 * mc  # t is right
    assert r.z_coverage < 0.95 - 0.1  # z is far too liberal (about 81%)


def test_numbers_shown_equal_the_paired_test_on_the_same_experiments():
    e = TvsZExplorer(k=4, difference=0.3, noise=0.5, confidence=0.9, seed=2)
    r = e.result
    d = paired_experiments(4, 0.3, 0.5, N_EXPERIMENTS, seed=2 + 4)
    ref = paired_t_test(d, confidence=0.9)
    np.testing.assert_allclose(r.t_test.low, ref.low)
    assert r.t_coverage == np.mean((ref.low <= 0.3) & (0.3 <= ref.high))
    curve = t_vs_z_coverage(KS, 0.3, 0.5, 0.9, N_EXPERIMENTS, 2)
    np.testing.assert_array_equal(r.curve.z_reject, curve.z_reject)
    assert f"{r.t_coverage:.1%}" in e._summary_html.value
    assert "power" in e._summary_html.value
    assert "type-I error" in TvsZExplorer()._summary_html.value


def test_a_miss_is_drawn_thick_in_its_own_tests_colour():
    # t's and z's misses told apart: a miss keeps its row's colour (not one colour for both)
    e = TvsZExplorer(k=3, seed=0)
    r, shown = e.result, SHOWN
    for test, segments, colour in ((r.t_test, e.t_segments, "t(k-1)"), (r.z_test, e.z_segments, "z (normal)")):
        low, high = test.low[:shown], test.high[:shown]
        miss = (low > r.curve.difference) | (high < r.curve.difference)
        key = next(h for h in e.figure.legends[0].legend_handles if h.get_label() == colour)
        assert np.all(segments.get_colors() == to_rgba(key.get_color()))
        widths = np.broadcast_to(segments.get_linewidths(), miss.shape)
        assert widths[miss].min(initial=np.inf) > widths[~miss].max()
    assert len(e.z_segments.get_segments()) == shown
    z_misses = (r.z_test.low[:shown] > r.curve.difference) | (r.z_test.high[:shown] < r.curve.difference)
    assert z_misses.any()  # the state shows what the test is about
    labels = [h.get_label() for h in e.figure.legends[0].legend_handles]
    assert "thick: misses the true difference" in labels


def test_bad_values_are_refused():
    with pytest.raises(ValueError, match="k"):
        TvsZExplorer(k=1)
    with pytest.raises(ValueError, match="noise"):
        TvsZExplorer(noise=0)


def test_the_rejection_panel_fits_its_rates():
    e = TvsZExplorer(k=5, difference=0.0)
    c = e.result.curve
    top = e.ax_rej.get_ylim()[1]
    assert top == 0.35 and max(c.t_reject.max(), c.z_reject.max()) < top  # type-I rates of a few %, not 0-1
    e.controls["difference"].value = 1.0  # power reaches near 1: the axis grows to hold it
    c = e.result.curve
    assert max(c.t_reject.max(), c.z_reject.max()) <= e.ax_rej.get_ylim()[1] == 1.0


def test_axes_drawn_once_per_limits_then_pasted_show_what_a_fresh_explorer_shows():
    # the interval, coverage and rejection axes change limits here, and come back, without a
    # full redraw: every picture must equal the one drawn from scratch in the same state
    e = TvsZExplorer(seed=0)
    limits = set()
    for values in ({"noise": 0.1}, {"difference": 1.0}, {"confidence": 0.8, "k": 2}, {"noise": 3.0},
                   {"difference": 0.0, "noise": 1.0, "confidence": 0.95, "k": 5}, {"noise": 0.1}):
        e.set(**values)
        limits.add((e.ax_int.get_xlim(), e.ax_cov.get_ylim(), e.ax_rej.get_ylim()))
        fresh = TvsZExplorer(seed=0, **{name: c.value for name, c in e.controls.items()})
        assert e.image == fresh.image, values
    assert len(limits) == 5
