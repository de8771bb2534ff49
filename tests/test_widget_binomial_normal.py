"""BinomialNormalExplorer: the contract, and its numbers against scipy."""
import numpy as np
import pytest
from scipy import stats

from evalteach.widgets import BinomialNormalExplorer
from explorer_contract import check_contract


def test_contract_defaults():
    check_contract(BinomialNormalExplorer)


def test_contract_with_the_slides_numbers():
    check_contract(BinomialNormalExplorer, sweep=10, n=40, p=0.3)  # Mitchell: 12 errors in 40
    assert BinomialNormalExplorer(n=40, p=0.3).result.mean == pytest.approx(12)


def direct_distances(n, p):
    k = np.arange(n + 1)
    normal = stats.norm(n * p, np.sqrt(n * p * (1 - p)))
    max_cdf = np.max(np.abs(stats.binom.cdf(k, n, p) - normal.cdf(k + 0.5)))
    bins = normal.cdf(k + 0.5) - normal.cdf(k - 0.5)
    tv = 0.5 * (np.abs(stats.binom.pmf(k, n, p) - bins).sum() + normal.cdf(-0.5) + normal.sf(n + 0.5))
    return max_cdf, tv


@pytest.mark.parametrize("n, p", [(40, 0.3), (30, 0.05), (500, 0.01), (1, 0.5)])
def test_distance_shown_equals_a_direct_scipy_computation(n, p):
    r = BinomialNormalExplorer(n=n, p=p).result
    max_cdf, tv = direct_distances(n, p)
    assert r.max_cdf == pytest.approx(max_cdf, rel=1e-10)
    assert r.total_variation == pytest.approx(tv, rel=1e-10)
    np.testing.assert_allclose(r.pmf, stats.binom.pmf(np.arange(n + 1), n, p))
    assert r.sd == pytest.approx(stats.binom.std(n, p))
    i = np.searchsorted(r.curve_n, 40)
    assert r.curve_max_cdf[i] == pytest.approx(direct_distances(40, p)[0], rel=1e-10)


def test_rules_of_thumb_hold_and_fail_where_they_should():
    small_p = BinomialNormalExplorer(n=30, p=0.05).result  # n >= 30 but np(1-p) = 1.4
    assert small_p.rules == {"n ≥ 30": True, "np(1-p) ≥ 5": False, "np(1-p) ≥ 10": False}
    # ... and the approximation is visibly worse there than at np(1-p) >= 10
    assert small_p.max_cdf > 3 * BinomialNormalExplorer(n=100, p=0.2).result.max_cdf
    assert all(BinomialNormalExplorer(n=100, p=0.2).result.rules.values())
    assert "rules that fail: np(1-p) ≥ 5" in BinomialNormalExplorer(n=30, p=0.05)._summary_html.value


def test_bad_values_are_refused():
    with pytest.raises(ValueError, match="p"):
        BinomialNormalExplorer(p=1.5)
    with pytest.raises(TypeError, match="n"):
        BinomialNormalExplorer(n=2.5)


def test_the_normal_mass_below_zero_errors_is_shaded_and_stated():
    # lesson 2: for small np the normal approximation spills below 0 errors
    e = BinomialNormalExplorer(n=30, p=0.05)
    r = e.result
    expected = stats.norm.cdf(-0.5, 1.5, np.sqrt(30 * 0.05 * 0.95))
    assert r.below_zero == pytest.approx(expected) and r.below_zero > 0.04
    xy = e.spill.get_xy()
    area = np.trapezoid(xy[1:-1, 1], xy[1:-1, 0])  # on the standardised axis the area is the probability
    assert area == pytest.approx(expected - stats.norm.cdf(-4.5), abs=2e-3)
    assert f"{expected:.1%}" in e.pmf_title.get_text()
    assert BinomialNormalExplorer(n=500, p=0.5).result.below_zero < 1e-12


def test_the_legend_lists_only_rule_lines_on_the_axis_and_total_variation_is_spelled_out():
    e = BinomialNormalExplorer(n=40, p=0.02)  # np(1-p) = 10 needs n = 510, beyond the axis (500)
    labels = [t.get_text() for t in e.ax_dist.get_legend().get_texts()]
    assert "np(1-p) = 10" not in labels and "np(1-p) = 5" in labels
    assert "total variation" in e.dist_title.get_text() and "TV" not in e.dist_title.get_text()
    e.controls["p"].value = 0.3  # both rules now fall inside the axis
    labels = [t.get_text() for t in e.ax_dist.get_legend().get_texts()]
    assert "np(1-p) = 10" in labels and "np(1-p) = 5" in labels
