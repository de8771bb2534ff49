"""Friedman/Nemenyi, ANOVA, Kruskal-Wallis, Wilcoxon and Hotelling's T^2 against scipy, statsmodels and Demsar."""
import numpy as np
import pytest
from scipy import stats as st

from evalteach.stats import (anova_test, friedman_posthoc, friedman_test, hotelling_t2_test, kruskal_wallis_test,
                             nemenyi_cd, wilcoxon_test)


def test_nemenyi_q_matches_demsar_table():
    demsar_q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
    demsar_q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]
    for k, q05, q10 in zip(range(2, 11), demsar_q05, demsar_q10):
        assert nemenyi_cd(k, 10).q_alpha == pytest.approx(q05, abs=1.1e-3)
        assert nemenyi_cd(k, 10, alpha=0.10).q_alpha == pytest.approx(q10, abs=1.1e-3)
    # k = 2 is the two-sided normal quantile
    assert nemenyi_cd(2, 5).q_alpha == pytest.approx(st.norm.ppf(0.975))


def test_nemenyi_cd_formula():
    r = nemenyi_cd(4, 14)
    assert r.cd == pytest.approx(r.q_alpha * np.sqrt(4 * 5 / (6 * 14)))
    assert round(r.cd, 3) == 1.254
    assert "1.254" in r._repr_markdown_()


def test_friedman_demsar_example():
    # Demsar (2006), section 3.2.2: four C4.5 variants on 14 data sets with average ranks
    # 3.143, 2.000, 2.893, 1.964 give chi2_F = 9.28 and F_F = 3.69. These rows (rank 1 = best)
    # have exactly those rank sums 44, 28, 40.5, 27.5, with one tie as in the paper.
    ranks = np.array([[3, 1, 4, 2], [2, 4, 1, 3], [4, 3, 2, 1], [3, 1, 2, 4], [4, 2, 3, 1], [3, 1, 4, 2],
                      [4, 2, 3, 1], [3, 1, 2, 4], [2, 3, 4, 1], [3, 2, 4, 1], [2, 1, 4, 3], [4, 2, 3, 1],
                      [3, 4, 2, 1], [4, 1, 2.5, 2.5]])
    r = friedman_test(ranks, higher_is_better=False)
    np.testing.assert_allclose(r.average_ranks, [3.143, 2.000, 2.893, 1.964], atol=1e-3)
    assert friedman_test(-ranks).average_ranks == pytest.approx(r.average_ranks)
    # Demsar's numbers use the formula without the tie correction: the default
    assert not r.tie_correction
    assert r.statistic == pytest.approx(9.28, abs=0.005)
    assert r.iman_davenport == pytest.approx(3.69, abs=0.005)
    assert r.iman_davenport == pytest.approx(13 * r.statistic / (14 * 3 - r.statistic))
    # tie_correction=True divides by the tie factor and then equals scipy
    c = friedman_test(ranks, higher_is_better=False, tie_correction=True)
    ref = st.friedmanchisquare(*ranks.T)
    assert c.statistic == pytest.approx(ref.statistic) and c.p_value == pytest.approx(ref.pvalue)
    assert c.tie_factor == pytest.approx(1 - 6 / (14 * 4 * 15))
    assert c.statistic == pytest.approx(r.statistic / c.tie_factor)
    assert r.other_statistic == pytest.approx(c.statistic) and c.other_statistic == pytest.approx(r.statistic)
    # with ties the display names the other value
    assert f"{c.statistic:.3g}" in r.verdict and "tie correction" in r.verdict
    assert f"{r.statistic:.3g}" in c.verdict
    assert (r.df, r.k, r.n) == (3, 4, 14)
    # and with Nemenyi's CD = 1.25 at alpha = 0.05 the paper's conclusion follows
    assert nemenyi_cd(4, 14).cd == pytest.approx(1.25, abs=0.005)


def test_friedman_random_against_scipy_and_iman_davenport():
    rng = np.random.default_rng(0)
    for _ in range(30):
        n, k = int(rng.integers(3, 15)), int(rng.integers(2, 7))
        x = rng.integers(0, 5, (n, k)).astype(float) if rng.random() < 0.5 else rng.normal(size=(n, k))
        if np.all(x == x[:, :1]):
            continue
        r = friedman_test(x, tie_correction=True)
        ref = st.friedmanchisquare(*x.T) if k >= 3 else None
        if ref is not None:
            assert r.statistic == pytest.approx(ref.statistic) and r.p_value == pytest.approx(ref.pvalue)
        ff = (n - 1) * r.statistic / (n * (k - 1) - r.statistic)
        assert r.iman_davenport == pytest.approx(ff)
        assert r.iman_davenport_p_value == pytest.approx(st.f.sf(ff, k - 1, (k - 1) * (n - 1)))
        # ranks average to (k+1)/2; lower-is-better flips them
        assert r.average_ranks.mean() == pytest.approx((k + 1) / 2)
        flipped = friedman_test(x, higher_is_better=False, tie_correction=True)
        np.testing.assert_allclose(flipped.average_ranks, k + 1 - r.average_ranks)
        assert flipped.statistic == pytest.approx(r.statistic)


def test_friedman_textbook_formula_equals_scipy_without_ties():
    x = np.random.default_rng(7).normal(size=(9, 4))
    r, c = friedman_test(x), friedman_test(x, tie_correction=True)
    assert r.tie_factor == 1.0 and r.statistic == pytest.approx(c.statistic)
    assert r.statistic == pytest.approx(st.friedmanchisquare(*x.T).statistic)
    assert "tie correction" not in r.verdict


def test_friedman_reproduces_demsar_table_6():
    # Demsar (2006), section 3.2.2 on the bundled Table 6 (voting tie resolved as the paper ranks it)
    from evalteach.example_scores import DEMSAR_AUC, DEMSAR_AUC_PRINTED

    r = friedman_test(DEMSAR_AUC)
    assert np.round(r.average_ranks, 3).tolist() == [3.143, 2.000, 2.893, 1.964]
    assert round(r.statistic, 2) == 9.28 and round(r.iman_davenport, 2) == 3.69
    # the printed three-decimal table ties voting's C4.5+cf and C4.5+m+cf
    printed = friedman_test(DEMSAR_AUC_PRINTED)
    assert np.round(printed.average_ranks, 3).tolist() == [3.143, 2.000, 2.929, 1.929]
    assert np.array_equal(np.round(DEMSAR_AUC, 3), DEMSAR_AUC_PRINTED)


def test_friedman_ties_get_average_ranks():
    r = friedman_test([[0.9, 0.9, 0.7], [0.8, 0.6, 0.6]])
    np.testing.assert_allclose(r.average_ranks, [1.25, 2.0, 2.75])


def test_anova_against_scipy():
    rng = np.random.default_rng(1)
    for _ in range(20):
        groups = [rng.normal(rng.normal(), 1, int(rng.integers(2, 12))) for _ in range(int(rng.integers(2, 6)))]
        r = anova_test(*groups)
        ref = st.f_oneway(*groups)
        assert r.statistic == pytest.approx(ref.statistic) and r.p_value == pytest.approx(ref.pvalue)
        assert r.statistic == pytest.approx((r.ss_between / r.df_between) / (r.ss_within / r.df_within))
        assert r.df_within == sum(len(g) for g in groups) - len(groups)


def test_kruskal_against_scipy():
    rng = np.random.default_rng(2)
    for _ in range(20):
        groups = [rng.integers(0, 8, int(rng.integers(2, 10))) for _ in range(int(rng.integers(2, 5)))]
        r = kruskal_wallis_test(*groups)
        ref = st.kruskal(*groups)
        assert r.statistic == pytest.approx(ref.statistic) and r.p_value == pytest.approx(ref.pvalue)
        assert r.df == len(groups) - 1


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_wilcoxon_against_scipy(alternative):
    rng = np.random.default_rng(3)
    for _ in range(20):
        n = int(rng.integers(5, 30))
        a, b = rng.normal(0.8, 0.05, n), rng.normal(0.79, 0.05, n)
        r = wilcoxon_test(a, b, alternative=alternative)
        ref = st.wilcoxon(a, b, alternative=alternative)
        assert r.statistic == pytest.approx(ref.statistic) and r.p_value == pytest.approx(ref.pvalue)
        assert r.r_plus + r.r_minus == pytest.approx(n * (n + 1) / 2)
        assert r.statistic == pytest.approx(min(r.r_plus, r.r_minus) if alternative == "two-sided" else r.r_plus)
    d = rng.normal(size=12)
    assert wilcoxon_test(d).p_value == pytest.approx(st.wilcoxon(d).pvalue)


def test_wilcoxon_reproduces_demsar_table_2():
    # Demsar (2006), section 3.1.3, Table 2: C4.5+m against C4.5 on 14 data sets, two of them ties.
    from evalteach.example_scores import DEMSAR_AUC

    r = wilcoxon_test(DEMSAR_AUC[:, 1], DEMSAR_AUC[:, 0])
    assert (r.zero_method, r.n, r.n_zero) == ("zsplit", 14, 2)
    assert (r.r_plus, r.r_minus, r.statistic) == (93.0, 12.0, 12.0)
    # Demsar's normal approximation: z = (T - N(N+1)/4) / sqrt(N(N+1)(2N+1)/24) = -2.54 < -1.96
    z = (r.statistic - 14 * 15 / 4) / np.sqrt(14 * 15 * 29 / 24)
    assert round(z, 2) == -2.54 and r.p_value < 0.05
    assert "zero differences ranked, rank split evenly" in r._repr_markdown_()


@pytest.mark.parametrize("zero_method", ["zsplit", "wilcox", "pratt"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_wilcoxon_zero_methods_against_scipy(zero_method, alternative):
    rng = np.random.default_rng(8)
    for _ in range(15):
        # more than 13 non-zero differences: scipy's slow permutation path for small tied samples is not taken
        n = int(rng.integers(16, 30))
        d = rng.integers(-6, 7, n).astype(float)
        if np.sum(d != 0) <= 13:
            continue
        r = wilcoxon_test(d, alternative=alternative, zero_method=zero_method)
        # "wilcox" drops the zeros first (as before), so scipy may use its exact distribution
        ref = st.wilcoxon(d[d != 0] if zero_method == "wilcox" else d, alternative=alternative,
                          zero_method=zero_method)
        assert r.statistic == pytest.approx(ref.statistic) and r.p_value == pytest.approx(ref.pvalue)
        zeros = int(np.sum(d == 0))
        ranked = n - zeros if zero_method == "wilcox" else n
        dropped = np.arange(1, zeros + 1).sum() if zero_method == "pratt" else 0  # zeros hold the lowest ranks
        assert r.r_plus + r.r_minus == pytest.approx(ranked * (ranked + 1) / 2 - dropped)
        assert (r.n, r.n_zero) == (ranked, zeros)


def test_wilcoxon_names_the_distribution_its_p_comes_from():
    """Issue 22: scipy's default on Demsar's table with ties gives 0.0108 (normal approximation: zeros,
    N = 14 > 13); dropping the zeros leaves 12 tied differences, whose exact conditional distribution
    (all 2^12 sign patterns of these ranks) gives 0.0073."""
    from evalteach.example_scores import DEMSAR_AUC

    a, b = DEMSAR_AUC[:, 1], DEMSAR_AUC[:, 0]
    d = np.round(a - b, 12)
    default = wilcoxon_test(a, b)
    assert default.p_method == "normal" and "normal approximation" in default.verdict
    assert round(st.wilcoxon(a, b).pvalue, 4) == 0.0108 and round(default.p_value, 4) == 0.0110
    dropped = wilcoxon_test(a, b, zero_method="wilcox")
    assert dropped.p_method == "conditional" and "exact conditional distribution over all 2^12" in dropped.verdict
    assert dropped.p_value == pytest.approx(0.0073, abs=5e-5)
    # the exact conditional distribution: every one of the 2^12 sign patterns of these ranks
    ranks = st.rankdata(np.abs(d[d != 0]))
    signs = 1 - 2 * ((np.arange(2 ** 12)[:, None] >> np.arange(12)) & 1)
    r_plus = (signs > 0) @ ranks
    observed = ranks[d[d != 0] > 0].sum()
    expected = np.mean(np.abs(r_plus - ranks.sum() / 2) >= abs(observed - ranks.sum() / 2) - 1e-9)
    assert dropped.p_value == pytest.approx(expected)
    assert "2^{12}" in dropped._repr_markdown_() and "normal approximation" in default._repr_markdown_()


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_wilcoxon_p_agrees_with_scipy_using_the_method_it_names(alternative):
    rng = np.random.default_rng(12)
    cases = [rng.normal(size=20),                      # no ties, N <= 50: exact
             rng.integers(-4, 5, 10).astype(float),    # ties and zeros, N <= 13: conditional
             rng.integers(-4, 5, 30).astype(float),    # ties, N > 13: normal
             rng.normal(size=60)]                      # N > 50: normal
    expected = ["exact", "conditional", "normal", "normal"]
    for d, method in zip(cases, expected):
        r = wilcoxon_test(d, alternative=alternative, zero_method="pratt")
        assert r.p_method == method
        scipy_method = {"exact": "exact", "normal": "asymptotic", "conditional": st.PermutationMethod()}[method]
        ref = st.wilcoxon(d, alternative=alternative, zero_method="pratt", method=scipy_method)
        assert r.p_value == pytest.approx(ref.pvalue)


def test_wilcoxon_float_noise_ties():
    # 0.768 - 0.763 and 0.931 - 0.936 are 0.005 apart in exact arithmetic; they tie.
    r = wilcoxon_test([0.768, 0.931, 0.5, 0.9], [0.763, 0.936, 0.4, 0.7])
    assert (r.r_plus, r.r_minus) == (8.5, 1.5)


def test_hotelling_against_direct_and_statsmodels():
    from statsmodels.stats.multivariate import test_mvmean

    rng = np.random.default_rng(4)
    for _ in range(15):
        n, p = int(rng.integers(4, 25)), int(rng.integers(1, 5))
        if n <= p:
            continue
        d = rng.normal(0.2, 1.0, (n, p))
        r = hotelling_t2_test(d)
        mean, cov = d.mean(0), np.atleast_2d(np.cov(d.T))
        t2 = n * mean @ np.linalg.inv(cov) @ mean
        assert r.statistic == pytest.approx(t2)
        assert r.f_statistic == pytest.approx(t2 * (n - p) / (p * (n - 1)))
        if p >= 2:  # statsmodels' test_mvmean needs a 2-d covariance
            ref = test_mvmean(d, np.zeros(p))
            assert r.f_statistic == pytest.approx(ref.statistic) and r.p_value == pytest.approx(ref.pvalue)
        assert r.df == (p, n - p)
    # one column: T^2 is the square of the one-sample t statistic
    d = rng.normal(size=(9, 1))
    assert hotelling_t2_test(d).statistic == pytest.approx(st.ttest_1samp(d[:, 0], 0).statistic ** 2)
    assert hotelling_t2_test(d).p_value == pytest.approx(st.ttest_1samp(d[:, 0], 0).pvalue)


def test_results_explain_themselves():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(6, 3))
    for res in (friedman_test(x), nemenyi_cd(3, 6), anova_test(*x.T), kruskal_wallis_test(*x.T),
                wilcoxon_test(x[:, 0], x[:, 1]), hotelling_t2_test(x)):
        md = res._repr_markdown_()
        assert "$$" in md and "p = " in md or "CD" in md
        assert res.verdict.endswith(".") and len(repr(res)) < 300


# ----------------------------------------------------------------- post-hoc tests after Friedman


def test_posthoc_reproduces_demsar_comparisons_with_the_control():
    # Demsar (2006), section 3.2.2: C4.5 as the control on Table 6. SE = sqrt(4*5/(6*14)) = 0.488;
    # z = 2.342 (C4.5+m), 0.512 (C4.5+cf), 2.415 (C4.5+m+cf); p = 0.019, 0.608, 0.016.
    # Bonferroni-Dunn finds only C4.5+m+cf better; Holm (0.016 < 0.017, 0.019 < 0.025) finds both.
    from evalteach.example_scores import DEMSAR_ALGORITHMS, DEMSAR_AUC

    holm = friedman_posthoc(DEMSAR_AUC, control="C4.5", names=DEMSAR_ALGORITHMS)
    assert holm.pairs == ((1, 0), (2, 0), (3, 0))
    assert round(holm.se, 3) == 0.488
    assert np.round(-holm.statistic, 3).tolist() == [2.342, 0.512, 2.415]
    assert np.round(holm.p_value, 3).tolist() == [0.019, 0.608, 0.016]
    assert holm.significant.tolist() == [True, False, True]
    dunn = friedman_posthoc(DEMSAR_AUC, control=0, method="bonferroni-dunn")
    assert dunn.significant.tolist() == [False, False, True]
    # Bonferroni-Dunn's critical difference: z_{alpha/(2(k-1))} * SE; only C4.5+m+cf's 1.179 exceeds it
    cd = st.norm.ppf(1 - 0.05 / 6) * dunn.se
    assert round(st.norm.ppf(1 - 0.05 / 6), 3) == 2.394
    np.testing.assert_array_equal(dunn.significant, np.abs(dunn.statistic) * dunn.se > cd)
    assert "C4.5+m+cf and C4.5" in holm.verdict and "family-wise" in holm.verdict
    assert "0.488" in holm._repr_markdown_()


@pytest.mark.parametrize("method, reference", [("bonferroni-dunn", "bonferroni"), ("holm", "holm"),
                                               ("hochberg", "simes-hochberg")])
def test_posthoc_adjustments_against_statsmodels(method, reference):
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(31)
    for _ in range(20):
        n, k = int(rng.integers(5, 30)), int(rng.integers(3, 8))
        x = rng.normal(np.linspace(0, 1, k), 1.0, (n, k))
        control = None if rng.random() < 0.5 else int(rng.integers(0, k))
        alpha = float(rng.choice([0.01, 0.05, 0.1]))
        r = friedman_posthoc(x, control=control, method=method, alpha=alpha)
        reject, adjusted, _, _ = multipletests(r.p_value, alpha=alpha, method=reference)
        np.testing.assert_allclose(r.adjusted_p_value, adjusted)
        np.testing.assert_array_equal(r.significant, reject)
        # z straight from the ranks
        ranks = st.rankdata(-x, axis=1).mean(axis=0)
        i, j = np.array(r.pairs).T
        np.testing.assert_allclose(r.statistic, (ranks[i] - ranks[j]) / np.sqrt(k * (k + 1) / (6 * n)))
        np.testing.assert_allclose(r.p_value, 2 * st.norm.sf(np.abs(r.statistic)))
        assert len(r.pairs) == (k - 1 if control is not None else k * (k - 1) // 2)


def test_posthoc_nemenyi_agrees_with_the_critical_difference():
    rng = np.random.default_rng(32)
    for _ in range(20):
        n, k = int(rng.integers(5, 40)), int(rng.integers(3, 9))
        x = rng.normal(np.linspace(0, 1.5, k), 1.0, (n, k))
        alpha = float(rng.choice([0.05, 0.1]))
        r = friedman_posthoc(x, method="nemenyi", alpha=alpha)
        differences = np.abs(r.statistic) * r.se
        cd = nemenyi_cd(k, n, alpha=alpha).cd
        close = np.abs(differences - cd) < 1e-9
        np.testing.assert_array_equal(r.significant[~close], differences[~close] >= cd)
    # the adjusted p-value of a difference of exactly CD is alpha
    r = friedman_posthoc(np.random.default_rng(1).normal(size=(14, 4)), method="nemenyi")
    z_cd = nemenyi_cd(4, 14).cd / r.se
    assert st.studentized_range.sf(np.sqrt(2) * z_cd, 4, np.inf) == pytest.approx(0.05)


# ----------------------------------------------------------------- Cochran's Q


def test_cochran_q_against_statsmodels_and_by_hand():
    from statsmodels.stats.contingency_tables import cochrans_q

    from evalteach.stats import cochran_q_test, mcnemar_test

    # by hand: C = (8, 5, 4), T = 17, sum R^2 = 41: Q = 2 (3 * 105 - 289) / (51 - 41) = 5.2
    y = [1, 0, 1, 1, 0, 1, 0, 0]
    r = cochran_q_test(y, [1, 0, 1, 1, 0, 1, 0, 0], [1, 1, 0, 1, 0, 1, 1, 0], [0, 1, 0, 1, 1, 1, 0, 0])
    assert (r.column_totals.tolist(), r.total, r.row_sum_squares) == ([8, 5, 4], 17, 41)
    assert r.statistic == pytest.approx(5.2) and r.p_value == pytest.approx(np.exp(-2.6))  # chi2(2) sf
    assert "5.2" in r._repr_markdown_()
    rng = np.random.default_rng(41)
    for _ in range(25):
        n, k = int(rng.integers(10, 80)), int(rng.integers(2, 6))
        y = rng.choice(["a", "b", "c"], n)
        predictions = [np.where(rng.random(n) < rng.uniform(0.5, 0.9), y, "a") for _ in range(k)]
        x = np.column_stack([p == y for p in predictions]).astype(int)
        if np.all(x.sum(axis=1) % k == 0):
            continue
        r = cochran_q_test(y, *predictions)
        ref = cochrans_q(x)
        assert r.statistic == pytest.approx(ref.statistic) and r.p_value == pytest.approx(ref.pvalue)
        assert r.df == k - 1
        if k == 2:  # McNemar's chi-square without continuity correction
            b, c = int(np.sum(x[:, 0] > x[:, 1])), int(np.sum(x[:, 0] < x[:, 1]))
            assert r.statistic == pytest.approx(mcnemar_test(b, c, correction=False).statistic)


def _correctness_table(counts):
    """Rows of (correct by D1, D2, D3) repeated as often as the table says; y_true all 1 so that a
    classifier's prediction equals its correctness."""
    rows = np.repeat(np.array(list(counts)), list(counts.values()), axis=0)
    return np.ones(len(rows), int), rows.T


def test_cochran_q_reproduces_kunchevas_example():
    """Kuncheva (2004), *Combining Pattern Classifiers*, section on Cochran's Q: three classifiers
    on 100 objects, accuracies 84%, 92%, 92%, Q = 2 (3 (84^2 + 92^2 + 92^2) - 268^2) / (3 268 -
    (80 9 + 11 4 + 6 1)) = 7.5294 and p about 0.023 (the book prints 3.7647, a typo the author
    confirmed: mlxtend's user guide, docs/sources/user_guide/evaluate/cochrans_q.ipynb)."""
    from evalteach.stats import cochran_q_test

    counts = {(1, 1, 1): 80, (1, 1, 0): 2, (1, 0, 1): 0, (1, 0, 0): 2, (0, 1, 1): 9, (0, 1, 0): 1,
              (0, 0, 1): 3, (0, 0, 0): 3}
    y, (d1, d2, d3) = _correctness_table(counts)
    r = cochran_q_test(y, d1, d2, d3)
    assert r.column_totals.tolist() == [84, 92, 92] and r.total == 268
    assert r.statistic == pytest.approx(7.5294, abs=5e-5) and r.df == 2
    assert r.p_value == pytest.approx(0.023, abs=5e-4)
    # the guide's second example: D1 and D2 alone give Q = McNemar's uncorrected 5.333, p = 0.021
    two = cochran_q_test(y, d1, d2)
    assert two.statistic == pytest.approx(5.333, abs=5e-4) and two.p_value == pytest.approx(0.021, abs=5e-4)


def test_cochran_q_reproduces_nags_example():
    """NAG Library routine G08ALF (nagf_nonpar_test_cochranq), its example program: 12 blocks,
    3 treatments; published results Q = 2.8000, 2 df, upper-tail probability 0.2466."""
    from evalteach.stats import cochran_q_test

    x = np.array([[1, 1, 1], [1, 1, 1], [0, 1, 0], [1, 1, 0], [0, 0, 0], [1, 1, 1], [1, 1, 1], [1, 1, 0],
                  [0, 0, 1], [0, 1, 0], [1, 1, 1], [1, 1, 1]])
    r = cochran_q_test(np.ones(12, int), *x.T)
    assert r.statistic == pytest.approx(2.8, abs=5e-5) and r.df == 2
    assert r.p_value == pytest.approx(0.2466, abs=5e-5)


# ----------------------------------------------------------------- Hodges-Lehmann beside the Wilcoxon test


def _brute_force_hodges_lehmann(d, alpha):
    """Walsh averages by a double loop; k from enumerating all 2^n sign patterns of ranks 1..n."""
    n = len(d)
    walsh = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
    rank_sums = np.zeros(1)
    for rank in range(1, n + 1):  # R+ over every subset of {1..n}, listed explicitly
        rank_sums = np.concatenate([rank_sums, rank_sums + rank])
    k = sum(np.mean(rank_sums <= t) <= alpha / 2 for t in range(n * (n + 1) // 2 + 1))
    return float(np.median(walsh)), walsh[k - 1], walsh[len(walsh) - k], k


def test_hodges_lehmann_reproduces_demsar_and_the_critical_value_table():
    from evalteach.example_scores import DEMSAR_AUC

    r = wilcoxon_test(DEMSAR_AUC[:, 1], DEMSAR_AUC[:, 0])
    # n = 14, two-sided 5%: the tabled critical value is 21, so k = 22 of M = 105 Walsh averages
    assert (r.hl_rank, r.n_walsh) == (22, 105)
    assert (round(r.hl_low, 3), round(r.hl_high, 3)) == (0.003, 0.028)
    d = DEMSAR_AUC[:, 1] - DEMSAR_AUC[:, 0]
    hl, low, high, k = _brute_force_hodges_lehmann(list(d), 0.05)
    assert (r.hodges_lehmann, r.hl_low, r.hl_high, r.hl_rank) == pytest.approx((hl, low, high, k))
    md = r._repr_markdown_()
    assert r"W_{(22)},\ W_{(84)}" in md and "Hodges-Lehmann estimate of the shift is 0.013" in r.verdict
    assert "symmetric around 0" in r.verdict and "tends to be positive" in r.verdict


def test_hodges_lehmann_interval_inverts_scipys_exact_wilcoxon_test():
    rng = np.random.default_rng(11)
    for n in (6, 9, 13, 20):
        d = rng.normal(0.3, 1, n)
        r = wilcoxon_test(d, confidence=0.9)
        hl, low, high, k = _brute_force_hodges_lehmann(list(d), 0.1)
        assert (r.hodges_lehmann, r.hl_low, r.hl_high) == pytest.approx((hl, low, high))
        # the shifts just inside the interval keep p >= alpha under scipy's exact test; just outside, p < alpha
        eps = 1e-9
        for theta, inside in ((low + eps, True), (high - eps, True), (low - eps, False), (high + eps, False)):
            p = st.wilcoxon(d - theta, method="exact").pvalue
            assert (p >= 0.1) == inside, (n, theta, p)
    # one-sided: a lower bound only, at the one-sided critical value
    d = rng.normal(0.3, 1, 12)
    greater = wilcoxon_test(d, alternative="greater")
    assert np.isinf(greater.hl_high) and st.wilcoxon(d - greater.hl_low - 1e-9, alternative="greater",
                                                     method="exact").pvalue >= 0.05
    assert st.wilcoxon(d - greater.hl_low + 1e-9, alternative="greater", method="exact").pvalue < 0.05
    # too few differences for any bound at 5% (n = 5: the smallest two-sided p is 1/16)
    tiny = wilcoxon_test([0.1, 0.2, 0.3, 0.4, 0.5])
    assert tiny.hl_rank == 0 and np.isinf(tiny.hl_low) and np.isinf(tiny.hl_high) and tiny.hodges_lehmann == 0.3


def test_hodges_lehmann_normal_approximation_for_large_n():
    rng = np.random.default_rng(12)
    d = rng.normal(0.2, 1, 250)
    r = wilcoxon_test(d)
    walsh = np.sort([(d[i] + d[j]) / 2 for i in range(250) for j in range(i, 250)])
    # the exact k at n = 250 (from the recursion) against the normal approximation: they agree within one rank
    exact = np.ones(1)
    for i in range(1, 251):
        exact = (np.concatenate([exact, np.zeros(i)]) + np.concatenate([np.zeros(i), exact])) / 2
    k_exact = int(np.sum(np.cumsum(exact) <= 0.025))
    assert abs(r.hl_rank - k_exact) <= 1 and r.hl_low == pytest.approx(walsh[r.hl_rank - 1], abs=1e-11)
    assert r.hodges_lehmann == pytest.approx(np.median(walsh))


def test_wilcoxon_verdict_speaks_of_symmetry_not_the_median():
    rng = np.random.default_rng(13)
    r = wilcoxon_test(rng.normal(0, 1, 10))
    assert r.p_value >= 0.05 and "not significant at the 5% level" in r.verdict
    assert "do not rule out differences symmetric around 0" in r.verdict and "shows the shifts they allow" in r.verdict
    assert "median" not in r.verdict and "no evidence" not in r.verdict
    with pytest.raises(ValueError, match="confidence"):
        wilcoxon_test([1, 2, 3], confidence=1.5)


def test_posthoc_verdict_counts_the_other_comparisons_in_words():
    from evalteach.example_scores import DEMSAR_ALGORITHMS, DEMSAR_AUC
    one_left = friedman_posthoc(DEMSAR_AUC, control=0, names=DEMSAR_ALGORITHMS)
    assert (len(one_left.pairs), int(np.sum(one_left.significant))) == (3, 2)
    assert "for the other comparison the data do not rule out" in one_left.verdict
    assert "other 1 comparisons" not in one_left.verdict
    two_left = friedman_posthoc(DEMSAR_AUC, control=3, names=DEMSAR_ALGORITHMS)
    assert int(np.sum(two_left.significant)) == 1 and "for the other 2 comparisons" in two_left.verdict
    ranks = np.tile([1.0, 2.0, 3.0], (30, 1))        # every data set ranks the three the same way
    everything = friedman_posthoc(ranks, method="bonferroni-dunn")
    assert np.all(everything.significant) and "other" not in everything.verdict
    nemenyi = friedman_posthoc(DEMSAR_AUC, method="nemenyi")._explain().formulas[0]
    assert "studentized range" in nemenyi


def test_friedman_display_names_demsars_chi2_beside_iman_davenports_f():
    """Lesson 11 teaches chi2_F = 9.28, p = 0.026 on Demšar's table: the display leads with it, F_F beside."""
    from evalteach.example_scores import DEMSAR_AUC
    r = friedman_test(DEMSAR_AUC)
    assert r.verdict.startswith("Friedman's χ²_F = 9.28 (p = 0.0258, chi-square with 3 df) and Iman-Davenport's "
                                "F_F = 3.69 (p = 0.0198, F with 3 and 39 df")
    assert r.p_value == pytest.approx(st.chi2.sf(r.statistic, 3))
    assert "both below 0.05" in r.verdict
    split = friedman_test([[0, 1, 2], [0, 1, 2], [0, 2, 1]])       # F_F's p = 0.0494, chi2_F's p = 0.0970
    assert split.p_value == pytest.approx(st.friedmanchisquare([0, 0, 0], [1, 1, 2], [2, 2, 1]).pvalue)
    assert split.iman_davenport_p_value < 0.05 <= split.p_value
    assert "only F_F is below 0.05, so the evidence is borderline" in split.verdict
    assert "significant at" not in split.verdict
    rng = np.random.default_rng(5)
    quiet = friedman_test(rng.normal(size=(6, 3)))
    if quiet.iman_davenport_p_value >= 0.05:
        assert "neither below 0.05" in quiet.verdict and "do not rule out" in quiet.verdict
