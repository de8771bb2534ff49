"""reliability_diagram against scikit-learn's calibration_curve (uniform bins) and brier_score_loss,
and Murphy's decomposition against a direct computation, bin by bin."""
import numpy as np
import pytest
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss

import evalteach as et

RNG = np.random.default_rng(4)


def _forecasts(n, rounded):
    p = RNG.beta(2, 3, n)
    if rounded:  # forecasts on the bins' edges: 0, 0.1, ..., 1
        p = np.round(p, 1)
    return (RNG.random(n) < p ** 1.2).astype(int), p


@pytest.mark.parametrize("n_bins", [1, 2, 5, 10, 17])
@pytest.mark.parametrize("rounded", [False, True])
def test_the_table_agrees_with_scikit_learns_calibration_curve(n_bins, rounded):
    y, p = _forecasts(400, rounded)
    r = et.reliability_diagram(y, p, n_bins=n_bins)
    observed, predicted = calibration_curve(y, p, n_bins=n_bins, strategy="uniform")
    filled = r.counts > 0
    np.testing.assert_allclose(r.observed_frequency[filled], observed)
    np.testing.assert_allclose(r.mean_forecast[filled], predicted)
    assert np.all(np.isnan(r.observed_frequency[~filled]) & np.isnan(r.mean_forecast[~filled]))
    np.testing.assert_allclose(r.bin_edges, np.linspace(0, 1, n_bins + 1))
    assert r.counts.sum() == 400
    assert r.brier == pytest.approx(brier_score_loss(y, p))
    assert r.brier == pytest.approx(et.quadratic_loss(p, y).mean / 2)


@pytest.mark.parametrize("n_bins", [3, 10])
@pytest.mark.parametrize("rounded", [False, True])
def test_murphys_decomposition_against_a_direct_computation(n_bins, rounded):
    y, p = _forecasts(300, rounded)
    r = et.reliability_diagram(y, p, n_bins=n_bins)
    base = y.mean()
    bin_of = np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], p)  # the binning checked against scikit-learn above
    reliability = resolution = within = 0.0
    for k in range(n_bins):
        members = bin_of == k
        if not members.any():
            continue
        f, o = p[members].mean(), y[members].mean()
        reliability += members.sum() * (f - o) ** 2
        resolution += members.sum() * (o - base) ** 2
        within += np.sum((p[members] - f) ** 2) - 2 * np.sum((p[members] - f) * (y[members] - o))
    assert r.reliability == pytest.approx(reliability / 300)
    assert r.resolution == pytest.approx(resolution / 300)
    assert r.uncertainty == pytest.approx(base * (1 - base))
    assert r.within_bin == pytest.approx(within / 300, abs=1e-15)
    assert r.brier == pytest.approx(r.reliability - r.resolution + r.uncertainty + r.within_bin)


def test_one_forecast_value_per_bin_leaves_nothing_over():
    p = RNG.integers(0, 10, 200) / 10 + 0.05  # each of the 10 bins holds one forecast value, its centre
    y = (RNG.random(200) < p).astype(int)
    r = et.reliability_diagram(y, p, n_bins=10)
    assert r.within_bin == pytest.approx(0, abs=1e-15)


def test_a_calibrated_forecaster_has_small_reliability_and_the_display_shows_the_terms():
    p = RNG.random(20000)
    y = (RNG.random(20000) < p).astype(int)
    r = et.reliability_diagram(y, p)
    assert r.reliability < 1e-3 and r.resolution > 0.05
    text = r._repr_markdown_()
    for value in (r.brier, r.reliability, r.resolution, r.uncertainty):
        assert et._format.fmt(value) in text
    assert "0 is perfectly calibrated" in r.verdict


@pytest.mark.parametrize(("y", "p", "n_bins", "error", "match"), [
    ([0, 1], [0.2, 1.2], 10, ValueError, r"probabilities must lie in \[0, 1\], got 1.2"),
    ([0, 1], [-0.1, 0.5], 10, ValueError, r"probabilities must lie in \[0, 1\], got -0.1"),
    ([0, 1, 1], [0.2, 0.5], 10, ValueError, "arrays must have the same length: y_true has 3, probabilities has 2"),
    ([0, 1], [0.2, 0.5], 0, ValueError, "n_bins must be >= 1, got 0"),
    ([0, 1], [0.2, 0.5], 2.5, TypeError, "n_bins must be an integer, got 2.5"),
    ([0, 2], [0.2, 0.5], 10, ValueError, r"y_true must hold class labels 0 and 1 only, got values \[0, 2\]"),
    ([0, 1], [0.2, np.nan], 10, ValueError, "probabilities must hold finite numbers only"),
    ([0, 1], "0.2 0.5", 10, TypeError, "probabilities must be array-like of numbers"),
    ([0, 1], [0.2, 0.5], True, TypeError, "n_bins must be an integer, got True"),
])
def test_bad_input_names_the_parameter_and_the_value(y, p, n_bins, error, match):
    with pytest.raises(error, match=match):
        et.reliability_diagram(y, p, n_bins=n_bins)
