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
    # the two-sided verdict reads the two-sided row and never picks a direction
    # 1.644 reaches the printed 1.64 but not the exact 1.6449 of the 90% row
    assert "reaches the printed 1.64 of the table's 90% column, but not the exact 1.6449" in md
    assert "not significant (two-sided, p = 0.1002)" in md  # 95% two-sided is out of reach
    assert "one-sided" not in r.verdict and "lower" not in r.verdict
    assert "interval [-0.219, 0.0192] for it" in r.verdict
    assert r.verdict.endswith("The test assumes two independent test sets of independently drawn examples, "
                              "neither used to build either hypothesis.")
    # Mooney's "h1 is better with 95% confidence" holds for a direction fixed in advance
    one = et.compare_hypotheses(0.20, 100, 0.30, 100, alternative="less")
    assert one.p_value == pytest.approx(r.one_sided_p_value) and one.high < np.inf and one.low == -np.inf
    assert one.verdict.startswith("For the direction fixed in advance (H1: h1's error is lower), |z| = 1.644 "
                                  "reaches the printed 1.64 of the table's 90% column (one-sided: "
                                  "C' = 100 - (100 - 90)/2 = 95%), but not the exact 1.6449")
    other = et.compare_hypotheses(0.20, 100, 0.30, 100, alternative="greater")
    assert other.p_value == pytest.approx(1 - one.p_value) and "points the other way" in other.verdict


def test_mooney_example_2():
    r = et.compare_hypotheses(0.20, 100, 0.25, 100)
    assert r.se == pytest.approx(0.0589, abs=5e-5)
    assert abs(r.statistic) == pytest.approx(0.848, abs=5e-4)
    assert r.table_confidence == 0.50 and r.table_one_sided_confidence == 0.75
    assert "|z| = 0.8482 reaches 0.67, the table's 50% column;" in r.verdict
    # the table has no 75% column: a one-sided level is a two-sided column converted, as the slides do
    assert ("reaches 0.67, the table's 50% column (one-sided: C' = 100 - (100 - 50)/2 = 75%);"
            in et.compare_hypotheses(0.20, 100, 0.25, 100, alternative="less").verdict)
    assert "below 0.67, the table's first (50%) column" in et.compare_hypotheses(0.2, 100, 0.21, 100).verdict


def test_interval_for_the_difference():
    r = et.compare_hypotheses(0.30, 100, 0.20, 100, confidence=0.90)  # Mitchell's 0.30 vs 0.20
    half = stats.norm.ppf(0.95) * r.se
    assert (r.low, r.high) == pytest.approx((0.1 - half, 0.1 + half))
    assert r.confidence == 0.90
    assert "borderline (two-sided, p = 0.1002, about 0.1)" in r.verdict  # p = alpha to three decimals
    assert "h2" not in r.verdict and "lower" not in r.verdict


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
    assert "significantly different from 0" in one.verdict and "degenerate" in one.verdict
    assert "greater" not in one.verdict  # two-sided: no direction picked after the fact
    assert "significantly greater than 0" in et.paired_t_test(np.array(MOONEY_A1) / 100, np.array(MOONEY_B1) / 100,
                                                               alternative="greater").verdict
    # experiment 2: differences 8, 17, -5, 10, -5 -> s = 9.721, t = 1.150 with 4 df
    assert two.se == pytest.approx(math.sqrt(94.5 / 5) / 100)
    assert two.statistic == pytest.approx(1.150, abs=5e-4) and two.df == 4
    assert two.p_value == pytest.approx(stats.ttest_rel(MOONEY_A2, MOONEY_B2).pvalue)
    assert "not significantly different from 0" in two.verdict
    assert "do not rule out a zero mean difference" in two.verdict and "interval [" in two.verdict
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
    assert "(|10 - 2| - 1)^2" in md and "4.083" in md and "A and B differ significantly at the 5% level" in md
    assert "the exact test (exact=True) is safer: p = 0.0386" in md  # binomial: 2 P(X <= 2), X ~ Bin(12, 1/2)
    assert stats.binomtest(2, 12).pvalue == pytest.approx(0.03857, abs=1e-5)


def test_mcnemar_verdict_says_when_no_split_could_be_significant():
    """Three disagreements: even 3-0 gives the exact p = 2 / 2^3 = 0.25 (Dietterich 1998)."""
    few = et.mcnemar_test(3, 0, exact=True)
    assert few.p_value == pytest.approx(0.25) and "no split could reach the 5% level" in few.verdict
    many = et.mcnemar_test(10, 9, exact=True)  # 19-0 would be significant: not said
    assert many.p_value > 0.05 and "no split could" not in many.verdict
    assert "exact=True" not in et.mcnemar_test(40, 10).verdict  # b + c >= 25: the approximation is fine


def _tango_by_search(b, c, n, confidence=0.95):
    """Tango's score interval computed another way: the restricted maximum likelihood by numeric
    search (not the closed-form quadratic root) and each limit by Brent's root finder."""
    from scipy import optimize

    z = stats.norm.ppf((1 + confidence) / 2)

    def score(d):  # H0: P(only B right) - P(only A right) = d
        def minus_log_likelihood(p_b):
            p_c, rest = p_b + d, 1 - 2 * p_b - d
            return -(b * np.log(max(p_b, 1e-300)) + c * np.log(max(p_c, 1e-300))
                     + (n - b - c) * np.log(max(rest, 1e-300)))
        low, high = max(0.0, -d), (1 - d) / 2
        p_b = optimize.minimize_scalar(minus_log_likelihood, bounds=(low, high), method="bounded",
                                       options={"xatol": 1e-13}).x
        p_c = p_b + d
        return (c - b - n * d) / math.sqrt(n * ((p_b + p_c) - d * d))

    estimate = (c - b) / n
    lower = -1.0 if estimate == -1 else optimize.brentq(lambda d: score(d) - z, -1 + 1e-9, estimate, xtol=1e-12)
    upper = 1.0 if estimate == 1 else optimize.brentq(lambda d: score(d) + z, estimate, 1 - 1e-9, xtol=1e-12)
    return estimate, lower, upper


def test_mcnemar_interval_matches_the_published_tango_intervals():
    """Fagerland, Lydersen and Laake (2014; their R package contingencytables): Cavo et al.'s
    table [[59, 6], [16, 80]] gives -0.0621 (95% CI -0.1240 to -0.0054) for (n12 - n21) / N; we
    report (c - b) / n = (n21 - n12) / N, the same interval mirrored. Their asymptotic McNemar
    test there: P = 0.033006 (uncorrected), exact conditional P = 0.052479."""
    r = et.mcnemar_test(np.array([[59, 6], [16, 80]]))
    assert (r.n, r.difference) == (161, pytest.approx(0.0621, abs=5e-5))
    assert (round(r.low, 4), round(r.high, 4)) == (0.0054, 0.1240)
    assert et.mcnemar_test(6, 16, correction=False).p_value == pytest.approx(0.033006, abs=5e-7)
    assert et.mcnemar_test(6, 16, exact=True).p_value == pytest.approx(0.052479, abs=5e-7)
    airway = et.mcnemar_test(np.array([[1, 1], [7, 12]]))  # Bentur et al.: -0.286 (-0.517 to -0.026)
    assert (round(airway.low, 3), round(airway.high, 3)) == (0.026, 0.517)


def test_mcnemar_interval_matches_a_numeric_search_and_the_uncorrected_test():
    rng = np.random.default_rng(21)
    for _ in range(30):
        n = int(rng.integers(5, 400))
        b, c = (int(x) for x in rng.multinomial(n, rng.dirichlet([1, 1, 3]))[:2])
        for confidence in (0.9, 0.95):
            r = et.mcnemar_test(b, c, n=n, confidence=confidence)
            estimate, low, high = _tango_by_search(b, c, n, confidence)
            assert r.difference == pytest.approx(estimate, abs=1e-12)
            assert r.low == pytest.approx(low, abs=1e-7) and r.high == pytest.approx(high, abs=1e-7)
            # the interval excludes 0 exactly when the chi-square test without correction rejects
            rejects = et.mcnemar_test(b, c, correction=False, confidence=confidence).p_value < 1 - confidence
            assert rejects == (not r.low <= 0 <= r.high) or b + c == 0
    batch = et.mcnemar_test([6, 0, 3], [16, 0, 30], n=[161, 50, 33])
    for i, (b, c, n) in enumerate([(6, 16, 161), (0, 0, 50), (3, 30, 33)]):
        single = et.mcnemar_test(b, c, n=n)
        assert (batch.low[i], batch.high[i]) == pytest.approx((single.low, single.high), abs=1e-12)


def test_mcnemar_interval_at_the_edges():
    z2 = stats.norm.ppf(0.975) ** 2
    none = et.mcnemar_test(0, 0, n=50)  # no disagreement: still an interval of width like Wilson's at 0
    assert none.difference == 0 and none.high == pytest.approx(z2 / (50 + z2)) and none.low == pytest.approx(-none.high)
    assert et.mcnemar_test(50, 0, n=50).low == -1.0 and et.mcnemar_test(0, 50, n=50).high == 1.0
    assert math.isnan(et.mcnemar_test(6, 16).low)  # without n there is no interval, and the display says nothing
    assert "interval" not in et.mcnemar_test(6, 16).verdict


def test_mcnemar_verdict_gives_the_interval_and_says_when_it_disagrees_with_the_test():
    r = et.mcnemar_test(np.array([[59, 6], [16, 80]]))  # corrected p = 0.055, interval excludes 0
    assert r.p_value > 0.05 and r.low > 0
    assert ("err(A) - err(B) = (c - b) / n = 0.0621 (B made fewer errors); Tango's 95% interval [0.00543, 0.124] "
            "shows the true differences the data allow") in r.verdict
    assert ("The interval excludes 0 although the test is not significant: at d = 0 the score test is McNemar's "
            "chi-square without the continuity correction (p = 0.0330 here)") in r.verdict
    assert "although" not in et.mcnemar_test(6, 16, n=161, correction=False).verdict  # p = 0.033: they agree
    assert "(A made fewer errors)" in et.mcnemar_test(16, 6, n=161).verdict
    md = r._repr_markdown_()
    assert r"\hat d = \frac{16 - 6}{161} = 0.06211" in md and "[0.005433,\\ 0.124]" in md


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
    assert "18 of 22 comparisons are wins" in et.sign_test(18, 4).verdict
    assert "significantly different from half and half" in et.sign_test(18, 4).verdict
    assert "w' = 12 + 1 = 13" in r._repr_markdown_()
    assert et.sign_test(4, 4, 2).p_value == 1.0


# --- unpaired and one-sample t-tests ----------------------------------------------------

def test_unpaired_welch_matches_scipy():
    rng = np.random.default_rng(31)
    for _ in range(20):
        k, j = (int(x) for x in rng.integers(2, 15, 2))
        a, b = rng.normal(0.2, 0.03, k), rng.normal(0.22, 0.05, j)
        for alternative in ("two-sided", "greater", "less"):
            ours = et.unpaired_t_test(a, b, confidence=0.9, alternative=alternative)
            ref = stats.ttest_ind(a, b, equal_var=False, alternative=alternative)
            assert (ours.statistic, ours.p_value, ours.df) == pytest.approx((ref.statistic, ref.pvalue, ref.df),
                                                                             rel=1e-9)
            ci = ref.confidence_interval(0.9)
            assert (ours.low, ours.high) == pytest.approx((ci.low, ci.high), rel=1e-9)


def test_unpaired_conservative_df_is_witten_and_eibe():
    """Witten & Frank: estimates from different randomisations, k-fold against j-fold, min(k, j) - 1 df."""
    a = [0.20, 0.22, 0.25, 0.21, 0.19, 0.23, 0.20, 0.24, 0.22, 0.21]   # k = 10
    b = [0.26, 0.24, 0.29, 0.27, 0.25]                                   # j = 5
    r = et.unpaired_t_test(a, b, df="conservative")
    se = math.sqrt(np.var(a, ddof=1) / 10 + np.var(b, ddof=1) / 5)
    assert r.df == 4 and r.se == pytest.approx(se)
    assert r.statistic == pytest.approx((np.mean(a) - np.mean(b)) / se)
    assert r.p_value == pytest.approx(2 * stats.t.sf(abs(r.statistic), 4))
    assert r.p_value > et.unpaired_t_test(a, b).p_value  # fewer df: conservative
    md = r._repr_markdown_()
    assert r"\min(k, j) - 1" in md and "k = 10" in md and "j = 5" in md
    assert "significantly different from 0" in r.verdict and "interval [" in r.verdict


# Student (1908), "The probable error of a mean", Biometrika 6: Cushny & Peebles' extra hours of
# sleep of ten patients under two soporifics (R's `sleep` data). R's ?t.test runs both examples:
# t.test(extra ~ group, data = sleep) prints t = -1.8608, df = 17.776, p-value = 0.07939, 95% CI
# -3.3654832 0.2054832; with paired = TRUE, t = -4.0621, df = 9, p-value = 0.002833, CI -2.4598858
# -0.7001142 (the paired test is the one-sample test of the differences against 0).
SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]


def test_unpaired_welch_reproduces_rs_sleep_example():
    r = et.unpaired_t_test(SLEEP_1, SLEEP_2)
    assert (r.statistic, r.df, r.p_value) == (pytest.approx(-1.8608, abs=5e-5), pytest.approx(17.776, abs=5e-4),
                                              pytest.approx(0.07939, abs=5e-6))
    assert (r.low, r.high) == (pytest.approx(-3.3654832, abs=5e-8), pytest.approx(0.2054832, abs=5e-8))


def test_one_sample_t_test_reproduces_students_sleep_example():
    """one_sample_t_test takes error rates in [0, 1]: the differences (drug 2 - drug 1, hours) are
    divided by 10, which leaves t and p unchanged and divides the interval by 10."""
    d = np.subtract(SLEEP_2, SLEEP_1) / 10
    r = et.one_sample_t_test(d, 0.0, alternative="two-sided")
    assert (r.statistic, r.df, r.p_value) == (pytest.approx(4.0621, abs=5e-5), 9, pytest.approx(0.002833, abs=5e-7))
    assert (r.low, r.high) == (pytest.approx(0.07001142, abs=5e-9), pytest.approx(0.24598858, abs=5e-9))
    # Student read .9985 off his table for "drug 2 is the better soporific" (odds about 666 to 1)
    greater = et.one_sample_t_test(d, 0.0)
    assert 1 - greater.p_value == pytest.approx(0.9985, abs=2e-4)


def test_one_sample_t_test_is_alpaydins_and_scipys():
    errors = [0.12, 0.15, 0.10, 0.14, 0.13, 0.16, 0.11, 0.12, 0.15, 0.12]
    r = et.one_sample_t_test(errors, p0=0.10)
    m, s = np.mean(errors), np.std(errors, ddof=1)
    assert r.statistic == pytest.approx(math.sqrt(10) * (m - 0.10) / s) and r.df == 9
    ref = stats.ttest_1samp(errors, 0.10, alternative="greater")
    assert r.p_value == pytest.approx(ref.pvalue, rel=1e-9)
    # Alpaydin's rule: reject "p <= p0" when t exceeds t_{alpha, K-1}
    assert (r.statistic > stats.t.ppf(0.95, 9)) == (r.p_value < 0.05)
    assert r.low == pytest.approx(ref.confidence_interval(0.95).low) and r.high == np.inf
    assert "significantly greater than p0 = 0.1" in r.verdict and "direction fixed in advance" in r.verdict
    for alternative in ("two-sided", "less"):
        got = et.one_sample_t_test(errors, 0.14, confidence=0.9, alternative=alternative)
        ref = stats.ttest_1samp(errors, 0.14, alternative=alternative)
        assert got.p_value == pytest.approx(ref.pvalue, rel=1e-9)
        ci = ref.confidence_interval(0.9)
        assert (got.low, got.high) == pytest.approx((ci.low, ci.high))
    near = et.one_sample_t_test(errors, 0.13)
    assert "not significantly greater than p0 = 0.13" in near.verdict and "lower bound" in near.verdict


def test_no_two_sided_verdict_names_a_direction():
    """docs/teaching.md: a verdict never picks the direction the data happened to show."""
    rng = np.random.default_rng(5)
    a, b = rng.normal(0.2, 0.02, 10), rng.normal(0.25, 0.02, 10)
    d = [[0.02, 0.01], [0.03, 0.02], [0.01, 0.02], [0.02, 0.02], [0.03, 0.03]]
    verdicts = [et.paired_t_test(a, b).verdict, et.paired_z_test(b, a).verdict,
                et.corrected_resampled_t_test(a, b, test_train_ratio=0.1).verdict,
                et.unpaired_t_test(a, b).verdict, et.unpaired_t_test(b, a, df="conservative").verdict,
                et.compare_hypotheses(0.1, 500, 0.2, 500).verdict, et.compare_hypotheses(0.3, 500, 0.2, 500).verdict,
                et.five_by_two_cv_t_test(d).verdict, et.five_by_two_cv_f_test(d).verdict,
                et.mcnemar_test(30, 5).verdict, et.sign_test(18, 2).verdict]
    for verdict in verdicts:
        assert "significant" in verdict
        for word in ("greater than", "less than", "lower than", "higher than", "better", "worse", "one-sided"):
            assert word not in verdict, verdict


def test_compare_hypotheses_display_does_not_claim_the_exact_95_percent_row_below_1_645():
    # z = 0.1 / sqrt(0.21/100 + 0.16/100) = 1.6440 < z'_95 = 1.6449: only the printed 1.64 is reached
    r = et.compare_hypotheses(0.3, 100, 0.2, 100, alternative="greater")
    assert abs(r.statistic) < stats.norm.ppf(0.95)
    text = r._verdict()
    assert "reaches 1.64," not in text  # the plain wording would claim the exact 95% one-sided level
    assert "printed 1.64" in text and "not the exact 1.6449" in text
    # the lower bound -5.254e-05 is printed in plain decimals, in the verdict and the worked step
    assert "-0.0000525" in text and "e-05" not in text
    assert "-0.00005254" in r._explain().steps[-1] and r"\times 10" not in r._explain().steps[-1]
    # a z above the exact value keeps the plain wording
    assert "reaches 2.58, the table's 99% column;" in et.compare_hypotheses(0.3, 100, 0.1, 100)._verdict()


def test_compare_hypotheses_p_at_alpha_to_three_decimals_is_borderline_not_a_verdict():
    """TEACHING, 'Borderline is borderline': p = 0.0501 from a normal approximation is about 0.05."""
    r = et.compare_hypotheses(0.20, 100, 0.30, 100, alternative="less")
    assert r.p_value == pytest.approx(stats.norm.cdf(-0.1 / math.sqrt(0.0037)))
    assert 0.05 < r.p_value < 0.0505
    assert "is borderline (one-sided, p = 0.0501, about 0.05)" in r.verdict
    assert "not significant" not in r.verdict and "do not rule out" not in r.verdict
    assert "95% upper bound 0.0000525 for it" in r.verdict
    # away from alpha the verdict stands: two-sided p = 0.1002, and z = 2.2 gives p = 0.014
    assert "not significant (two-sided, p = 0.1002)" in et.compare_hypotheses(0.20, 100, 0.30, 100).verdict
    assert "borderline" not in et.compare_hypotheses(0.10, 500, 0.20, 500).verdict


def test_sign_test_names_the_algorithms_only_when_given():
    """Counts alone say nothing of which algorithm won: the display speaks of wins unless names are given."""
    plain_counts = et.sign_test(11, 2, 1)
    assert "A wins" not in plain_counts.verdict and plain_counts.names == ()
    assert plain_counts.verdict.startswith("11 of 13 comparisons are wins (ties split evenly)")
    named = et.sign_test(11, 2, 1, names=("C4.5+m", "C4.5"))
    assert named.verdict.startswith("C4.5+m wins 11 of 13 comparisons against C4.5")
    assert named.p_value == plain_counts.p_value == pytest.approx(stats.binomtest(11, 13).pvalue)
    for bad in ("ab", ("only one",), ("a", 2), 5):
        with pytest.raises(ValueError, match="names must be 2 strings"):
            et.sign_test(11, 2, names=bad)


def test_one_sided_interval_steps_are_half_open_with_the_verdicts_digits():
    errors = [0.05, 0.07, 0.06, 0.04, 0.09, 0.08]
    greater = et.one_sample_t_test(errors, 0.03, alternative="greater")
    expected = stats.ttest_1samp(errors, 0.03, alternative="greater").confidence_interval(0.95)
    assert greater.low == pytest.approx(expected.low) and np.isinf(greater.high)
    step = greater._explain().steps[-1]
    assert step.endswith(r"[0.0496,\ \infty)") and "lower bound 0.0496" in greater.verdict
    less = et.one_sample_t_test(errors, 0.1, alternative="less")._explain().steps[-1]
    assert less.endswith(r"(-\infty,\ 0.0804]")
    two = et.one_sample_t_test(errors, 0.1, alternative="two-sided")._explain().steps[-1]
    assert two.endswith(r"[0.04537,\ 0.08463]")                 # two-sided steps keep four digits


def test_mcnemar_display_is_short():
    """Student reading load: the verdict says the test, the counts, the interval and the scope, once each."""
    plain_case = et.mcnemar_test(np.array([[40, 10], [3, 47]]))
    assert plain_case.verdict.startswith("A and B do not differ significantly at the 5% level (p = 0.0961, "
                                         "chi-square, 1 df, with continuity correction): only A was right on "
                                         "b = 10 test examples, only B on c = 3.")
    assert len(plain_case.verdict.split()) <= 100
    assert len(et.mcnemar_test(30, 5).verdict.split()) <= 55
    assert "Dietterich 1998" in plain_case.verdict and "not the learning algorithms" in plain_case.verdict
    formulas = plain_case._explain().formulas
    assert len(formulas) == 2 and r"\tilde p_b" not in plain_case._repr_markdown_()
    assert "every } d \\text{ that his score test does not reject}" in formulas[1]
