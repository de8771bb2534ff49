"""evalteach.stats.tests: slides' worked examples and cross-checks against scipy, statsmodels, mlxtend."""
import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

import evalteach as et


# --- two hypotheses (Mooney's worked examples) -----------------------------------------

def test_mooney_example_1():
    r = et.compare_hypotheses(0.20, 100, 0.30, 100)
    assert r.difference == pytest.approx(-0.1)
    assert r.se == pytest.approx(0.0608, abs=5e-5)
    assert abs(r.statistic) == pytest.approx(1.644, abs=5e-4)
    assert r.table_confidence == 0.90 and r.table_one_sided_confidence == 0.95
    assert r.two_sided_confidence == pytest.approx(1 - r.p_value)
    assert r.p_value == pytest.approx(2 * stats.norm.sf(0.1 / math.sqrt(0.0037)))
    assert r.one_sided_p_value == pytest.approx(r.p_value / 2)
    assert r.one_sided_confidence == pytest.approx(0.95, abs=1e-3)
    md = r._repr_markdown_()
    assert "0.06083" in md and "-1.644" in md
    assert "h1's error is lower than h2's with 95% one-sided confidence" in md
    assert "not significant" in md  # 95% two-sided is out of reach


def test_mooney_example_2():
    r = et.compare_hypotheses(0.20, 100, 0.25, 100)
    assert r.se == pytest.approx(0.0589, abs=5e-5)
    assert abs(r.statistic) == pytest.approx(0.848, abs=5e-4)
    assert r.table_confidence == 0.50 and r.table_one_sided_confidence == 0.75
    assert "75% one-sided" in r.verdict


def test_interval_for_the_difference():
    r = et.compare_hypotheses(0.30, 100, 0.20, 100, confidence=0.90)  # Mitchell's 0.30 vs 0.20
    half = stats.norm.ppf(0.95) * r.se
    assert (r.low, r.high) == pytest.approx((0.1 - half, 0.1 + half))
    assert r.confidence == 0.90
    assert "h2's error is lower" in r.verdict


def test_compare_hypotheses_matches_statsmodels_wald():
    """Mitchell's z is statsmodels' unpooled Wald test for two independent proportions."""
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    rng = np.random.default_rng(16)
    for _ in range(30):
        n1, n2 = (int(x) for x in rng.integers(30, 1000, 2))
        k1, k2 = int(rng.integers(1, n1)), int(rng.integers(1, n2))
        ours = et.compare_hypotheses(k1 / n1, n1, k2 / n2, n2, confidence=0.9)
        ref = test_proportions_2indep(k1, n1, k2, n2, method="wald", compare="diff")
        assert ours.statistic == pytest.approx(ref.statistic, rel=1e-9)
        assert ours.p_value == pytest.approx(ref.pvalue, rel=1e-9)
        low, high = confint_proportions_2indep(k1, n1, k2, n2, method="wald", compare="diff", alpha=0.1)
        assert (ours.low, ours.high) == pytest.approx((low, high), rel=1e-9)
    assert "p < 0.001" in et.compare_hypotheses(0.1, 1000, 0.2, 1000).verdict


def test_compare_hypotheses_broadcasts():
    rng = np.random.default_rng(7)
    e1, e2 = rng.uniform(0, 1, 50), rng.uniform(0, 1, 50)
    n2 = rng.integers(30, 500, 50)
    batch = et.compare_hypotheses(e1, 100, e2, n2)
    assert batch.statistic.shape == (50,)
    for i in (0, 13, 49):
        one = et.compare_hypotheses(float(e1[i]), 100, float(e2[i]), int(n2[i]))
        for name in ("difference", "se", "statistic", "p_value", "low", "high", "table_confidence"):
            assert getattr(batch, name)[i] == pytest.approx(getattr(one, name))
    assert "batch of 50" in batch._repr_markdown_()
    assert isinstance(et.compare_hypotheses(0.2, 50, 0.3, 50).statistic, float)


def test_compare_hypotheses_zero_variance_convention():
    same = et.compare_hypotheses(0.0, 50, 0.0, 80)
    assert (same.statistic, same.p_value) == (0.0, 1.0)
    apart = et.compare_hypotheses(0.0, 50, 1.0, 80)
    assert apart.statistic == -np.inf and apart.p_value == 0.0


# --- paired tests ----------------------------------------------------------------------

MOONEY_A1, MOONEY_B1 = [87, 83, 88, 82, 85], [82, 78, 83, 77, 80]
MOONEY_A2, MOONEY_B2 = [90, 93, 80, 85, 77], [82, 76, 85, 75, 82]


def test_mooney_experiments_same_mean_different_evidence():
    one = et.paired_t_test(np.array(MOONEY_A1) / 100, np.array(MOONEY_B1) / 100)
    two = et.paired_t_test(np.array(MOONEY_A2) / 100, np.array(MOONEY_B2) / 100)
    assert one.mean_difference == pytest.approx(0.05) and two.mean_difference == pytest.approx(0.05)
    # experiment 1: every trial differs by exactly 5%, so s = 0 and t is infinite
    assert one.statistic == np.inf and one.p_value == 0.0 and one.se == 0.0
    assert "significantly greater" in one.verdict
    # experiment 2: differences 8, 17, -5, 10, -5 -> s = 9.721, t = 1.150 with 4 df
    assert two.se == pytest.approx(math.sqrt(94.5 / 5) / 100)
    assert two.statistic == pytest.approx(1.150, abs=5e-4) and two.df == 4
    assert two.p_value == pytest.approx(stats.ttest_rel(MOONEY_A2, MOONEY_B2).pvalue)
    assert "not significant" in two.verdict
    md = two._repr_markdown_()
    assert "1.15" in md and "df = 4" in md and "0.3142" in md


def test_paired_t_matches_scipy_ttest_rel():
    rng = np.random.default_rng(8)
    for alternative in ("two-sided", "greater", "less"):
        for _ in range(10):
            k = int(rng.integers(2, 30))
            a, b = rng.normal(0.2, 0.05, k), rng.normal(0.21, 0.05, k)
            ref = stats.ttest_rel(a, b, alternative=alternative)
            got = et.paired_t_test(a, b, confidence=0.9, alternative=alternative)
            assert got.statistic == pytest.approx(ref.statistic, rel=1e-10)
            assert got.p_value == pytest.approx(ref.pvalue, rel=1e-9)
            ci = ref.confidence_interval(0.9)
            assert (got.low, got.high) == pytest.approx((ci.low, ci.high), rel=1e-9)
            one_sample = stats.ttest_1samp(a - b, 0.0, alternative=alternative)
            assert et.paired_t_test(a - b, alternative=alternative).p_value == pytest.approx(one_sample.pvalue)


def test_paired_tests_batch_along_axis():
    rng = np.random.default_rng(9)
    a, b = rng.normal(size=(200, 10)), rng.normal(size=(200, 10))
    ref = stats.ttest_rel(a, b, axis=-1)
    got = et.paired_t_test(a, b)
    assert got.statistic.shape == (200,)
    np.testing.assert_allclose(got.statistic, ref.statistic, rtol=1e-10)
    np.testing.assert_allclose(got.p_value, ref.pvalue, rtol=1e-9)
    by_rows = et.paired_t_test(a.T, b.T, axis=0)
    np.testing.assert_allclose(by_rows.statistic, ref.statistic, rtol=1e-10)
    md = got._repr_markdown_()
    assert "batch of 200" in md
    assert f"{100 * np.mean(ref.pvalue < 0.05):.3g}%" in md


def test_paired_z_uses_normal_critical_values():
    rng = np.random.default_rng(10)
    d = rng.normal(0.01, 0.02, 6)
    z, t = et.paired_z_test(d), et.paired_t_test(d)
    assert z.df is None and z.statistic == pytest.approx(t.statistic)
    assert z.p_value == pytest.approx(2 * stats.norm.sf(abs(t.statistic)))
    assert z.high - z.mean_difference == pytest.approx(1.959964 * z.se, rel=1e-6)
    assert z.p_value < t.p_value  # the z test overstates the evidence for small k
    from statsmodels.stats.weightstats import ztest

    stat, p = ztest(d, value=0.0)
    assert (z.statistic, z.p_value) == pytest.approx((stat, p), rel=1e-10)


def test_corrected_resampled_t():
    rng = np.random.default_rng(11)
    a, b = rng.normal(0.2, 0.03, 15), rng.normal(0.19, 0.03, 15)
    plain = et.corrected_resampled_t_test(a, b, test_train_ratio=0.0)
    ref = stats.ttest_rel(a, b)
    assert plain.statistic == pytest.approx(ref.statistic) and plain.p_value == pytest.approx(ref.pvalue)
    fixed = et.corrected_resampled_t_test(a, b, 0.5)  # test = 1/3, train = 2/3
    d = a - b
    se = math.sqrt(np.var(d, ddof=1) * (1 / 15 + 0.5))
    assert fixed.se == pytest.approx(se)
    assert fixed.statistic == pytest.approx(ref.statistic / math.sqrt(1 + 15 * 0.5))
    assert fixed.p_value == pytest.approx(2 * stats.t.sf(abs(fixed.statistic), 14))
    assert r"\frac{1}{15} + 0.5" in fixed._repr_markdown_()


def test_all_zero_differences_are_no_evidence():
    r = et.paired_t_test([0.1, 0.2, 0.3], [0.1, 0.2, 0.3])
    assert (r.statistic, r.p_value) == (0.0, 1.0)


# --- 5x2cv against mlxtend on a real learner -------------------------------------------

def _five_by_two_score_differences(est1, est2, X, y, seed):
    """The ten differences mlxtend computes, with the very same splits (read from its source)."""
    from sklearn.model_selection import train_test_split

    rng = np.random.RandomState(seed)
    out = np.empty((5, 2))
    for i in range(5):
        X1, X2, y1, y2 = train_test_split(X, y, test_size=0.5, random_state=rng.randint(low=0, high=32767))
        for j, (Xa, ya, Xb, yb) in enumerate(((X1, y1, X2, y2), (X2, y2, X1, y1))):
            out[i, j] = est1.fit(Xa, ya).score(Xb, yb) - est2.fit(Xa, ya).score(Xb, yb)
    return out


def test_five_by_two_matches_mlxtend():
    from mlxtend.evaluate import combined_ftest_5x2cv, paired_ttest_5x2cv
    from sklearn.datasets import load_wine
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_wine(return_X_y=True)
    est1, est2 = DecisionTreeClassifier(random_state=0, max_depth=2), GaussianNB()
    d = _five_by_two_score_differences(est1, est2, X, y, seed=1)
    t_ref, p_ref = paired_ttest_5x2cv(est1, est2, X, y, random_seed=1)
    f_ref, pf_ref = combined_ftest_5x2cv(est1, est2, X, y, random_seed=1)
    t, f = et.five_by_two_cv_t_test(d), et.five_by_two_cv_f_test(d)
    assert t.statistic == pytest.approx(t_ref, rel=1e-10) and t.p_value == pytest.approx(p_ref, rel=1e-9)
    assert f.statistic == pytest.approx(f_ref, rel=1e-10) and f.p_value == pytest.approx(pf_ref, rel=1e-9)
    assert t.df == 5 and f.df == (10, 5)
    assert t.numerator == d[0, 0]


def test_five_by_two_formulas_and_batch():
    rng = np.random.default_rng(12)
    d = rng.normal(0.01, 0.02, (30, 5, 2))
    s2 = ((d - d.mean(-1, keepdims=True)) ** 2).sum(-1).sum(-1)
    t, f = et.five_by_two_cv_t_test(d), et.five_by_two_cv_f_test(d)
    np.testing.assert_allclose(t.statistic, d[:, 0, 0] / np.sqrt(s2 / 5))
    np.testing.assert_allclose(f.statistic, (d ** 2).sum((-2, -1)) / (2 * s2))
    np.testing.assert_allclose(f.p_value, stats.f.sf(f.statistic, 10, 5))
    single = et.five_by_two_cv_t_test(d[3])
    assert single.statistic == pytest.approx(t.statistic[3]) and isinstance(single.p_value, float)
    assert "batch of 30" in t._repr_markdown_()
    md = single._repr_markdown_()
    assert "t_5" in md and "significant" in md


# --- McNemar ---------------------------------------------------------------------------

def test_mcnemar_table_matches_mlxtend():
    from mlxtend.evaluate import mcnemar_table as ml_table

    rng = np.random.default_rng(13)
    y = rng.integers(0, 3, 300)
    pa = np.where(rng.random(300) < 0.8, y, rng.integers(0, 3, 300))
    pb = np.where(rng.random(300) < 0.7, y, rng.integers(0, 3, 300))
    table = et.mcnemar_table(y, pa, pb)
    np.testing.assert_array_equal(table, ml_table(y, pa, pb))
    assert table.sum() == 300


def test_mcnemar_matches_statsmodels_and_mlxtend():
    """Defaults follow mlxtend (chi-square, corrected); statsmodels' default is exact=True."""
    from mlxtend.evaluate import mcnemar as ml_mcnemar

    rng = np.random.default_rng(14)
    for _ in range(25):
        table = rng.integers(0, 40, (2, 2))
        if table[0, 1] == table[1, 0]:
            table[0, 1] += 1
        for correction in (True, False):
            ours = et.mcnemar_test(table, correction=correction)
            ref = sm_mcnemar(table, exact=False, correction=correction)
            assert ours.statistic == pytest.approx(ref.statistic) and ours.p_value == pytest.approx(ref.pvalue)
            chi2, p = ml_mcnemar(table, corrected=correction)
            assert ours.statistic == pytest.approx(chi2) and ours.p_value == pytest.approx(p)
        exact = et.mcnemar_test(table, exact=True)
        ref = sm_mcnemar(table, exact=True)
        assert exact.statistic == ref.statistic and exact.p_value == pytest.approx(ref.pvalue)
        assert exact.p_value == pytest.approx(ml_mcnemar(table, exact=True)[1])
        assert et.mcnemar_test(int(table[0, 1]), int(table[1, 0])).p_value == pytest.approx(
            et.mcnemar_test(table).p_value)


def test_mcnemar_equal_counts_clip_the_correction():
    # statsmodels and mlxtend give (|b - c| - 1)^2 / (b + c) = 1/(b + c) here; we clip at 0
    r = et.mcnemar_test(7, 7)
    assert r.statistic == 0.0 and r.p_value == 1.0
    none = et.mcnemar_test(0, 0)
    assert none.p_value == 1.0 and et.mcnemar_test(0, 0, exact=True).p_value == 1.0


def test_mcnemar_batch():
    b, c = np.array([10, 3, 20]), np.array([2, 3, 5])
    batch = et.mcnemar_test(b, c, correction=False)
    np.testing.assert_allclose(batch.statistic, (b - c) ** 2 / (b + c))
    exact = et.mcnemar_test(b, c, exact=True)
    np.testing.assert_allclose(exact.p_value, [stats.binomtest(int(x), int(x + y)).pvalue for x, y in zip(b, c)])
    assert "batch of 3" in batch._repr_markdown_()
    md = et.mcnemar_test(10, 2)._repr_markdown_()
    assert "(|10 - 2| - 1)^2" in md and "4.083" in md and "differ significantly" in md


# --- binomial and sign tests -----------------------------------------------------------

def test_binomial_matches_scipy():
    rng = np.random.default_rng(15)
    for _ in range(40):
        n = int(rng.integers(1, 300))
        k = int(rng.integers(0, n + 1))
        p0 = float(rng.uniform(0.02, 0.98))
        for alternative in ("two-sided", "greater", "less"):
            ref = stats.binomtest(k, n, p0, alternative=alternative).pvalue
            assert et.binomial_test(k, n, p0, alternative).p_value == pytest.approx(ref, rel=1e-9, abs=1e-300)


def test_binomial_display():
    r = et.binomial_test(20, 100, 0.1, "greater")  # Alpaydin: e = 20 errors in N = 100
    assert r.p_value == pytest.approx(stats.binom.sf(19, 100, 0.1))
    assert "significantly greater than 0.1" in r.verdict


def test_sign_test_splits_ties_as_demsar():
    r = et.sign_test(12, 5, ties=3)  # one tie to each side, the odd one ignored
    assert (r.statistic, r.n) == (13, 19)
    assert r.p_value == pytest.approx(stats.binomtest(13, 19).pvalue)
    assert et.sign_test(15, 5).p_value == pytest.approx(stats.binomtest(15, 20).pvalue)
    assert r.p_value > 0.05 and "not significant" in r.verdict
    assert "A wins more often; this is significant" in et.sign_test(18, 4).verdict
    assert "w' = 12 + 1 = 13" in r._repr_markdown_()
    assert et.sign_test(4, 4, 2).p_value == 1.0
