"""HypothesisComparisonExplorer: the z test for two hypotheses, independent or shared test set."""
import numpy as np
import pytest
from scipy import stats

from evalteach.stats import compare_hypotheses, mcnemar_test, table_confidence
from evalteach.widgets.hypothesis_comparison import HypothesisComparisonExplorer
from explorer_contract import check_contract


def test_contract_with_defaults():
    # both_wrong only matters on a shared test set; the default compares independent sets
    check_contract(HypothesisComparisonExplorer, unchanged_ok=("both_wrong",))


def test_contract_with_mooneys_second_example():
    check_contract(HypothesisComparisonExplorer, sweep=40, unchanged_ok=("both_wrong",),
                   error1=0.20, error2=0.25, n1=100, n2=100)


@pytest.mark.parametrize("e2, z, two, one", [(0.30, 1.644, 0.90, 0.95), (0.25, 0.848, 0.50, 0.75)])
def test_mooneys_examples_show_the_slides_numbers(e2, z, two, one):
    e = HypothesisComparisonExplorer(error1=0.20, error2=e2)
    r = e.result
    assert abs(r.statistic) == pytest.approx(z, abs=1e-3)
    assert (r.table_confidence, r.table_one_sided_confidence) == (two, one)
    ref = compare_hypotheses(0.20, 100, e2, 100)
    assert r.statistic == ref.statistic and r.p_value == ref.p_value and r.se == ref.se
    assert r.two_sided_confidence == pytest.approx(ref.two_sided_confidence)
    assert r.one_sided_confidence == pytest.approx(ref.one_sided_confidence)
    assert f"{100 * two:g}% two-sided" in e._summary_html.value


def test_numbers_follow_every_control():
    e = HypothesisComparisonExplorer()
    e.set(error1=0.12, n1=250, error2=0.18, n2=400, confidence=0.9)
    ref = compare_hypotheses(0.12, 250, 0.18, 400, confidence=0.9)
    r = e.result
    assert (r.statistic, r.p_value, r.comparison.low, r.comparison.high) == (
        ref.statistic, ref.p_value, ref.low, ref.high)
    assert r.table_confidence == table_confidence(ref.statistic)
    assert r.one_sided_p_value == pytest.approx(stats.norm.sf(abs(ref.statistic)))


def test_shared_test_set_uses_mcnemar_on_the_disagreements():
    e = HypothesisComparisonExplorer(test_sets="same", both_wrong=0.15)
    r = e.result
    assert (r.only1, r.only2, r.both) == (5, 15, 15)
    ref = mcnemar_test(15, 5, correction=False)
    assert r.p_value == ref.p_value and r.mcnemar.statistic == ref.statistic
    assert r.statistic == pytest.approx(-np.sqrt(20 / 4 * 1.0))  # (5 - 15) / sqrt(20)
    assert r.p_value == pytest.approx(2 * stats.norm.sf(10 / np.sqrt(20)))
    # pairing makes the same error rates more convincing than on independent sets
    assert abs(r.statistic) > abs(r.comparison.statistic)
    assert "McNemar" in e._summary_html.value


def test_more_agreement_means_stronger_evidence_and_infeasible_overlap_is_clipped():
    weak = HypothesisComparisonExplorer(test_sets="same", both_wrong=0.05).result
    strong = HypothesisComparisonExplorer(test_sets="same", both_wrong=0.20).result
    assert abs(strong.statistic) > abs(weak.statistic)
    clipped = HypothesisComparisonExplorer(test_sets="same", both_wrong=0.9).result
    assert clipped.both == 20 and clipped.only1 == 0 and clipped.only2 == 10
