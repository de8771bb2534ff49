"""AlgorithmComparisonExplorer: type-I error and power of the tests for comparing learners."""
import numpy as np
import pytest

from evalteach.simulate import ALGORITHM_TESTS, simulate_algorithm_tests
from evalteach.widgets.algorithm_comparison import _NAMES, AlgorithmComparisonExplorer
from explorer_contract import check_contract


def test_contract_with_defaults():
    check_contract(AlgorithmComparisonExplorer, sweep=100, n_experiments=200)


def test_contract_with_custom_values():
    check_contract(AlgorithmComparisonExplorer, sweep=10, n_experiments=200, difference=0.05, n=300,
                   alpha=0.1)


def test_rates_shown_are_the_share_of_small_p_values():
    e = AlgorithmComparisonExplorer(n_experiments=1000, seed=2)
    ref = simulate_algorithm_tests(200, 0.2, 0.0, n_experiments=1000, stability=0.9, training_noise=0.05,
                                   seed=2)
    for alpha in (0.05, 0.01, 0.1):
        e.controls["alpha"].value = alpha
        r = e.result
        for name in ALGORITHM_TESTS:
            np.testing.assert_array_equal(r.p_values[name], ref.p_values[name])
            assert r.rejection_rates[name] == np.mean(ref.p_values[name] < alpha)
        widths = [bar.get_width() for bar in e.bars]
        assert widths == [r.rejection_rates[k] for k in _NAMES]
        assert e.alpha_line.get_xdata()[0] == alpha
    assert f"{100 * r.rejection_rates['mcnemar']:.1f}%" in e._summary_html.value


def test_under_h0_the_resampled_t_is_liberal_and_5x2cv_f_and_mcnemar_are_not():
    r = AlgorithmComparisonExplorer(n_experiments=1000, seed=0).result
    tolerance = 3 * np.sqrt(0.05 * 0.95 / 1000)
    assert r.rejection_rates["resampled_t"] > 0.25
    assert r.rejection_rates["5x2cv_f"] < 0.05 + tolerance
    assert abs(r.rejection_rates["mcnemar"] - 0.05) < tolerance
    # the liberal bar is drawn in the "bad" colour, McNemar's in the "good" one
    from evalteach.plotting import COLORS
    from matplotlib.colors import to_hex
    e = AlgorithmComparisonExplorer(n_experiments=1000, seed=0)
    colours = {k: to_hex(bar.get_facecolor()) for k, bar in zip(_NAMES, e.bars)}
    assert colours["resampled_t"] == COLORS["bad"].lower()
    assert COLORS["bad"].lower() not in (colours["mcnemar"], colours["5x2cv_f"])


def test_power_rises_with_the_difference():
    e = AlgorithmComparisonExplorer(n_experiments=200)
    low = e.result.rejection_rates
    e.controls["difference"].value = 0.1
    high = e.result.rejection_rates
    assert all(high[k] > low[k] for k in _NAMES)
    assert "Power" in e._summary_html.value


def test_alpha_change_reuses_the_simulation():
    e = AlgorithmComparisonExplorer(n_experiments=200)
    before = e.result.p_values
    e.controls["alpha"].value = 0.01
    assert e.result.p_values is before


def test_infeasible_error_is_shown_inline():
    e = AlgorithmComparisonExplorer(n_experiments=200)
    e.set(error=0.45, difference=0.15)  # fine: 0.60
    assert e.error is None
    with pytest.raises(ValueError, match="error"):
        AlgorithmComparisonExplorer(error=0.9)
