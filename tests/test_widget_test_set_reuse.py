"""TestSetReuseExplorer: the best of m test scores is optimistic; a validation split is not."""
import numpy as np
import pytest

from evalteach.simulate import simulate_test_set_reuse
from evalteach.widgets.test_set_reuse import M_MAX, N_EXPERIMENTS, TestSetReuseExplorer
from explorer_contract import check_contract


def test_contract_with_defaults():
    check_contract(TestSetReuseExplorer)


def test_contract_with_custom_values():
    check_contract(TestSetReuseExplorer, sweep=30, m=50, error=0.3, spread=0.02, n_test=200)


def test_numbers_shown_are_the_simulation_at_m():
    e = TestSetReuseExplorer(m=35, error=0.25, n_test=150, n_validation=300, seed=4)
    ref = simulate_test_set_reuse(M_MAX, 0.25, 150, n_validation=300, spread=0.0,
                                  n_experiments=N_EXPERIMENTS, seed=4)
    r = e.result
    assert r.reused == ref.reused[34] and r.reused_true == ref.reused_true[34]
    assert r.validated == ref.validated[34]
    assert r.optimism == pytest.approx(ref.reused_true[34] - ref.reused[34])
    assert f"{r.reused:.3f}" in e._summary_html.value
    # the picture marks the best test score of the example experiment
    x, y = e.pick_test.get_data()
    assert y[0] == ref.example_test[:35].min() and x[0] == np.argmin(ref.example_test[:35]) + 1


def test_optimism_grows_with_m_and_validation_stays_unbiased():
    e = TestSetReuseExplorer()
    gaps = []
    for m in (1, 5, 20, 100):
        e.controls["m"].value = m
        r = e.result
        gaps.append(r.optimism)
        assert abs(r.validated_bias) < 3 * r.validated_se + 1e-12
    assert gaps[0] == pytest.approx(0, abs=0.003)
    assert gaps == sorted(gaps) and gaps[-1] > 0.08


def test_larger_test_sets_shrink_the_optimism():
    small = TestSetReuseExplorer(n_test=50).result.optimism
    large = TestSetReuseExplorer(n_test=1000).result.optimism
    assert large < small / 3


@pytest.mark.parametrize("m", [1, 50, 100])
def test_legend_and_optimism_label_stay_clear_and_inside(m):
    e = TestSetReuseExplorer(m=m, spread=0.03)
    e.figure.canvas.draw()
    legend = e.figure.legends[0].get_window_extent()
    for ax in (e.ax_one, e.ax_curve):
        assert not legend.overlaps(ax.get_window_extent())
    label = e.gap_text.get_window_extent()
    assert e.figure.bbox.x0 <= label.x0 and label.x1 <= e.figure.bbox.x1
    assert f"{e.result.optimism:.3f}" in e.gap_text.get_text()
    assert e._hidden(e.state) == set()
