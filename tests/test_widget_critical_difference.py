"""CriticalDifferenceExplorer: ranks, CD and sign test equal evalteach.stats; Demsar's example."""
import numpy as np
import pytest
from scipy import stats as st

from evalteach.example_scores import DEMSAR_ALGORITHMS, DEMSAR_AUC
from evalteach.stats import friedman_test, nemenyi_cd, sign_test
from evalteach.widgets.critical_difference import CriticalDifferenceExplorer, cd_groups
from explorer_contract import check_contract

TABLE = [[0.90, 0.80, 0.70], [0.85, 0.80, 0.60], [0.70, 0.75, 0.60], [0.88, 0.81, 0.79],
         [0.91, 0.84, 0.83], [0.77, 0.70, 0.72]]


def test_contract_defaults():
    check_contract(CriticalDifferenceExplorer, sweep=20)


def test_contract_on_a_table_of_your_own():
    check_contract(CriticalDifferenceExplorer, sweep=10, scores=TABLE, algorithms=["tree", "nb", "knn"],
                   a="nb", alpha=0.1)


def test_numbers_shown_equal_the_stats_functions():
    e = CriticalDifferenceExplorer(alpha=0.1, a="C4.5+m", b="C4.5+cf")
    r = e.result
    f = friedman_test(DEMSAR_AUC)
    np.testing.assert_array_equal(r.friedman.average_ranks, f.average_ranks)
    assert r.friedman.statistic == f.statistic and r.friedman.iman_davenport == f.iman_davenport
    assert r.cd.cd == nemenyi_cd(4, 14, alpha=0.1).cd
    d = DEMSAR_AUC[:, 1] - DEMSAR_AUC[:, 2]
    expected = sign_test(int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum()), confidence=0.9)
    assert (r.sign.wins, r.sign.losses, r.sign.ties, r.sign.p_value) == (
        expected.wins, expected.losses, expected.ties, expected.p_value)
    assert f"{r.cd.cd:.3f}" in e._summary(r)
    # Independent reference: scipy's Friedman statistic (it applies the same tie correction).
    assert r.friedman.statistic == pytest.approx(st.friedmanchisquare(*DEMSAR_AUC.T).statistic)


def test_demsar_worked_example_is_reproduced():
    # The paper ranks voting's C4.5+cf ahead of C4.5+m+cf and reports chi2_F without tie correction.
    x = DEMSAR_AUC.copy()
    x[12, DEMSAR_ALGORITHMS.index("C4.5+cf")] += 1e-6  # row 12 is voting
    e = CriticalDifferenceExplorer(scores=x, algorithms=list(DEMSAR_ALGORITHMS))
    ranks = e.result.friedman.average_ranks
    np.testing.assert_allclose(ranks, [3.143, 2.000, 2.893, 1.964], atol=5e-4)
    n, k = 14, 4
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(ranks ** 2) - k * (k + 1) ** 2 / 4)
    assert chi2 == pytest.approx(9.28, abs=5e-3)
    assert (n - 1) * chi2 / (n * (k - 1) - chi2) == pytest.approx(3.69, abs=5e-3)
    assert e.result.cd.cd == pytest.approx(1.25, abs=5e-3)


def test_lower_is_better_reverses_the_ranks():
    e = CriticalDifferenceExplorer(higher_is_better=False)
    np.testing.assert_allclose(e.result.friedman.average_ranks,
                               5 - friedman_test(DEMSAR_AUC).average_ranks)
    default = CriticalDifferenceExplorer().result.sign
    assert (e.result.sign.wins, e.result.sign.losses) == (default.losses, default.wins)


def test_groups_join_ranks_closer_than_cd():
    ranks = np.array([1.0, 1.5, 2.4, 3.0, 3.9])
    assert cd_groups(ranks, 1.0) == ((0, 1), (1, 2), (2, 3), (3, 4))
    assert cd_groups(ranks, 1.6) == ((0, 1, 2), (1, 2, 3), (2, 3, 4))
    assert cd_groups(ranks, 0.1) == ()
    assert cd_groups(ranks, 10.0) == ((0, 1, 2, 3, 4),)
    # Every pair in a group is closer than CD; pairs not sharing a group are not.
    for cd in (0.55, 0.95, 1.6):
        groups = cd_groups(ranks, cd)
        for i in range(5):
            for j in range(i + 1, 5):
                together = any(i in g and j in g for g in groups)
                assert together == (abs(ranks[i] - ranks[j]) < cd)


def test_bad_tables_are_refused():
    with pytest.raises(ValueError, match="scores"):
        CriticalDifferenceExplorer(scores=[[0.9, 0.8]])
    with pytest.raises(ValueError, match="algorithms"):
        CriticalDifferenceExplorer(scores=TABLE, algorithms=["a", "b"])
    with pytest.raises(TypeError, match="datasets"):
        CriticalDifferenceExplorer(scores=TABLE, datasets="abc")
