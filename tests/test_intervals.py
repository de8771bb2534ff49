"""evalteach.stats.intervals: slides' worked examples and cross-checks against scipy/statsmodels."""
import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

import evalteach as et
from evalteach.stats import intervals
from evalteach.stats.intervals import _bounds
from evalteach._format import plain

LEVELS = (0.50, 0.68, 0.80, 0.90, 0.95, 0.98, 0.99)


# --- critical values and the z table ---------------------------------------------------

def test_critical_values_match_scipy():
    rng = np.random.default_rng(1)
    for c in rng.uniform(0.01, 0.999, 30):
        assert et.z_critical(c) == stats.norm.isf((1 - c) / 2)  # bit for bit
        assert et.z_critical(c, "one") == pytest.approx(stats.norm.ppf(c), rel=1e-12, abs=1e-12)
        df = int(rng.integers(1, 60))
        assert et.t_critical(c, df) == pytest.approx(stats.t.ppf(1 - (1 - c) / 2, df), rel=1e-12)
        assert et.t_critical(c, df, "one") == pytest.approx(stats.t.ppf(c, df), rel=1e-12, abs=1e-12)


def test_known_critical_values():
    assert et.z_critical(0.95) == pytest.approx(1.95996, abs=1e-5)
    assert et.z_critical(0.90, sided="one") == pytest.approx(1.2816, abs=1e-4)
    assert et.t_critical(0.95, 9) == pytest.approx(2.262, abs=1e-3)  # Mitchell's t_{95,9}


def test_confidence_for_z_inverts_z_critical():
    for c in (0.5, 0.8, 0.9, 0.95, 0.99):
        assert et.confidence_for_z(et.z_critical(c)) == pytest.approx(c, abs=1e-12)
        assert et.confidence_for_z(et.z_critical(c, "one"), "one") == pytest.approx(c, abs=1e-12)
    assert et.confidence_for_z(-1.96) == pytest.approx(0.95, abs=1e-4)  # the observed direction


def test_one_sided_confidence():
    assert et.one_sided_confidence(0.90) == pytest.approx(0.95)
    assert et.one_sided_confidence(0.50) == pytest.approx(0.75)
    assert et.one_sided_confidence(0.99) == pytest.approx(0.995)


def test_slides_z_rows():
    """The z_N and z'_N rows of the slides are the normal quantiles rounded to two decimals."""
    table = et.z_table()
    assert table.levels == LEVELS
    assert table.two_sided == (0.67, 1.00, 1.28, 1.64, 1.96, 2.33, 2.58)
    assert table.one_sided == (0.0, 0.47, 0.84, 1.28, 1.64, 2.05, 2.33)
    exact_two = [round(et.z_critical(c), 2) for c in LEVELS]
    exact_one = [round(et.z_critical(c, "one"), 2) for c in LEVELS]
    assert exact_one == list(table.one_sided)
    # every printed two-sided value is the rounded quantile except 68%, the one-sigma rule
    assert exact_two == [0.67, 0.99, 1.28, 1.64, 1.96, 2.33, 2.58]
    assert et.confidence_for_z(1.00) == pytest.approx(0.6827, abs=1e-4)
    assert table.two_sided_exact[4] == pytest.approx(1.959964, abs=1e-6)
    md = table._repr_markdown_()
    assert "| 2.58 |" in md and "2.05" in md and "0.9945" in md


def test_table_confidence_reads_the_table():
    assert et.table_confidence(1.644) == 0.90
    assert et.table_confidence(1.644, "one") == 0.95
    assert et.table_confidence(0.848) == 0.50
    assert et.table_confidence(0.848, "one") == 0.75
    assert et.table_confidence(0.5) == 0
    assert et.table_confidence(-2.6) == 0.99
    assert et.table_confidence(1.6399999999) == 0.90  # rounding noise counts as the entry
    assert et.table_confidence(1.639) == 0.80
    ones = [et.table_confidence(z, "one") for z in intervals.TABLE_Z]
    assert ones == [0.75, 0.84, 0.90, 0.95, 0.975, 0.99, 0.995]
    assert ones == pytest.approx([et.one_sided_confidence(c) for c in LEVELS], abs=1e-12)
    twos = [et.table_confidence(z) for z in intervals.TABLE_Z]
    assert twos == list(LEVELS)


# --- intervals: worked examples --------------------------------------------------------

def test_mitchell_12_of_40():
    r = et.proportion_interval(12, 40)
    assert r.estimate == 0.3
    assert (round(r.low, 3), round(r.high, 3)) == (0.158, 0.442)
    assert r.se == pytest.approx(math.sqrt(0.3 * 0.7 / 40))
    assert (r.confidence, r.sided, r.method, r.n) == (0.95, "two", "wald", 40)
    md = r._repr_markdown_()
    assert r"\frac{12}{40}" in md and "0.158" in md and "0.442" in md and "95%" in md


@pytest.mark.parametrize("k, n, low, high", [(750, 1000, 0.732, 0.767), (75, 100, 0.691, 0.801)])
def test_witten_eibe_80_percent(k, n, low, high):
    """Witten & Frank's interval with their rounded z = 1.28 is the Wilson score interval."""
    r = et.proportion_interval(k, n, 0.80, method="wilson", z=1.28)
    assert (round(r.low, 3), round(r.high, 3)) == (low, high)
    assert r.z == 1.28 and r.se is None


def test_witten_eibe_n10():
    # f = 75% of N = 10 is no whole count, so the book's third example checks the kernel arithmetic
    low, high = _bounds(7.5, 10, 0.80, "wilson", "two", 1.28)
    assert (round(low, 3), round(high, 3)) == (0.549, 0.881)


def test_one_sided_bounds():
    two = et.proportion_interval(12, 40, 0.90)
    upper = et.proportion_interval(12, 40, 0.95, sided="upper")
    lower = et.proportion_interval(12, 40, 0.95, sided="lower")
    assert upper.high == pytest.approx(two.high) and upper.low == 0
    assert lower.low == pytest.approx(two.low) and lower.high == 1
    assert "upper bound for the true rate is 0.419" in upper.verdict and "lie at or above" in upper.verdict
    assert "lower bound for the true rate is 0.181" in lower.verdict and "lie at or below" in lower.verdict


def test_verdicts_give_confidence_to_the_procedure():
    """docs/teaching.md: a level is a property of the procedure, not a probability about this interval."""
    for method in intervals.METHODS:
        verdict = et.proportion_interval(12, 40, method=method).verdict
        assert "of intervals built this way cover the true rate" in verdict
        assert "probability" not in verdict and "With 95% confidence" not in verdict
    assert "at least 95% of intervals" in et.proportion_interval(12, 40, method="clopper-pearson").verdict
    assert "about 95% of intervals" in et.proportion_interval(12, 40, method="wilson").verdict


def test_wald_is_clipped():
    low, high = et.proportion_bounds(1, 10)
    raw = 0.1 - 1.959964 * math.sqrt(0.09 / 10)
    assert raw < 0 and low == 0 and high == pytest.approx(0.1 + 1.959964 * math.sqrt(0.009), abs=1e-6)
    assert "clipped" in et.proportion_interval(1, 10).verdict
    assert "clipped" not in et.proportion_interval(12, 40).verdict
    assert et.proportion_bounds(0, 10) == (0.0, 0.0)  # Wald collapses at k = 0: the reason for Clopper-Pearson


# --- intervals: randomised cross-checks -------------------------------------------------

def _random_cases(seed, size=40):
    rng = np.random.default_rng(seed)
    n = rng.integers(1, 400, size)
    k = rng.integers(0, n + 1)
    c = rng.uniform(0.5, 0.995, size)
    return k, n, c


@pytest.mark.parametrize("method, sm", [("wald", "normal"), ("wilson", "wilson"), ("clopper-pearson", "beta"),
                                        ("agresti-coull", "agresti_coull")])
def test_two_sided_matches_statsmodels(method, sm):
    k, n, c = _random_cases(2)
    for ki, ni, ci in zip(k, n, c):
        low, high = proportion_confint(ki, ni, alpha=1 - ci, method=sm)
        got = et.proportion_interval(int(ki), int(ni), ci, method=method)
        assert got.low == pytest.approx(max(low, 0.0), abs=1e-9)
        assert got.high == pytest.approx(min(high, 1.0), abs=1e-9)


@pytest.mark.parametrize("method, sm", [("wald", "normal"), ("wilson", "wilson"), ("clopper-pearson", "beta"),
                                        ("agresti-coull", "agresti_coull")])
def test_one_sided_matches_statsmodels(method, sm):
    """A one-sided c bound is one end of the two-sided (2c - 1) interval."""
    k, n, c = _random_cases(3)
    c = np.maximum(c, 0.6)
    for ki, ni, ci in zip(k, n, c):
        low, high = proportion_confint(ki, ni, alpha=2 * (1 - ci), method=sm)
        assert et.proportion_bounds(ki, ni, ci, method, "lower")[0] == pytest.approx(max(low, 0), abs=1e-9)
        assert et.proportion_bounds(ki, ni, ci, method, "upper")[1] == pytest.approx(min(high, 1), abs=1e-9)


def test_jeffreys_matches_statsmodels_and_brown_cai_dasgupta():
    """statsmodels takes the Beta(k + 1/2, n - k + 1/2) quantiles everywhere; Brown, Cai &
    DasGupta (2001, section 4.1.2) set the lower bound to 0 at k = 0 and the upper to 1 at k = n."""
    k, n, c = _random_cases(6)
    for ki, ni, ci in zip(k, n, c):
        low, high = proportion_confint(ki, ni, alpha=1 - ci, method="jeffreys")
        got = et.proportion_interval(int(ki), int(ni), ci, method="jeffreys")
        assert got.low == pytest.approx(0.0 if ki == 0 else low, abs=1e-9)
        assert got.high == pytest.approx(1.0 if ki == ni else high, abs=1e-9)
    assert et.proportion_interval(0, 20, method="jeffreys").low == 0
    assert et.proportion_interval(20, 20, method="jeffreys").high == 1
    # Jeffreys is the central interval of the posterior under the Beta(1/2, 1/2) prior
    r = et.proportion_interval(3, 20, 0.9, method="jeffreys")
    assert (r.low, r.high) == pytest.approx(stats.beta(3.5, 17.5).interval(0.9))


# R's binom package (Dorai-Raj), binom.confint(x, n) "agresti-coull", as recorded in statsmodels'
# statsmodels/stats/tests/results/results_proportion.py (R clips nothing; we clip to [0, 1]).
@pytest.mark.parametrize("k, n, low, high", [
    (18, 20, 0.6867561125596077, 0.984343760998137), (4, 20, 0.0749115102767071, 0.4217635845549845),
    (4, 200, 0.005991954548218395, 0.0520995587739575), (190, 200, 0.909307307911624, 0.973731898348837),
    (1, 30, -8.305484e-03, 0.18091798), (29, 30, 0.8190820, 1.0083055), (0, 30, 0.0, 0.13471170),
    (30, 30, 0.8652883, 1.0),
])
def test_agresti_coull_reproduces_r_binom(k, n, low, high):
    r = et.proportion_interval(k, n, method="agresti-coull")
    assert (r.low, r.high) == (pytest.approx(max(low, 0.0), abs=1e-7), pytest.approx(min(high, 1.0), abs=1e-7))


# Julia's HypothesisTests.jl, test/binomial.jl: BinomialTest(26, 78) and 6 of 9, ci(t, method=...)
# two-sided and with tail=:left / :right (the 95% one-sided bounds). No worked table of these two
# intervals in Brown, Cai & DasGupta (2001) or Agresti & Coull (1998) was reachable offline.
@pytest.mark.parametrize("k, n, method, two, upper, lower", [
    (26, 78, "jeffreys", (0.23626570247518358, 0.44251318323879296), 0.42466492683653623, 0.25098836986261724),
    (26, 78, "agresti-coull", (0.2384423809121706, 0.44387022232522744), 0.42558712894362222, 0.25225408385003706),
    (6, 9, "jeffreys", (0.34779179347226591, 0.89578677833922582), 0.86830830610561005, 0.39604343455469687),
    (6, 9, "agresti-coull", (0.350905767251112, 0.88271254994237336), 0.86049746046629294, 0.39579136642712159),
])
def test_jeffreys_and_agresti_coull_reproduce_hypothesistests_jl(k, n, method, two, upper, lower):
    r = et.proportion_interval(k, n, 0.95, method=method)
    assert (r.low, r.high) == pytest.approx(two, rel=1e-12)
    up = et.proportion_interval(k, n, 0.95, method=method, sided="upper")
    assert (up.low, up.high) == (0.0, pytest.approx(upper, rel=1e-12))
    down = et.proportion_interval(k, n, 0.95, method=method, sided="lower")
    assert (down.low, down.high) == (pytest.approx(lower, rel=1e-12), 1.0)


def test_agresti_coull_by_hand():
    """Agresti & Coull (1998): add z^2/2 successes and failures, then use Wald's formula."""
    z = stats.norm.ppf(0.975)
    n_t = 40 + z * z
    p_t = (3 + z * z / 2) / n_t
    r = et.proportion_interval(3, 40, method="agresti-coull")
    assert (r.low, r.high) == pytest.approx((p_t - z * math.sqrt(p_t * (1 - p_t) / n_t),
                                             p_t + z * math.sqrt(p_t * (1 - p_t) / n_t)))
    assert r"\tilde n = 40 + 1.96^2 = 43.84" in r._repr_markdown_()
    # with z = 1.96 it is roughly "add two successes and two failures"
    plus_four = et.proportion_interval(5, 44, method="wald")
    assert r.low == pytest.approx(plus_four.low, abs=0.005)


@pytest.mark.parametrize("method, scipy_method", [("wilson", "wilson"), ("clopper-pearson", "exact")])
def test_matches_scipy_binomtest(method, scipy_method):
    k, n, c = _random_cases(4)
    for ki, ni, ci in zip(k, n, c):
        ref = stats.binomtest(int(ki), int(ni)).proportion_ci(ci, method=scipy_method)
        got = et.proportion_interval(int(ki), int(ni), ci, method=method)
        assert (got.low, got.high) == pytest.approx((ref.low, ref.high), abs=1e-9)


def test_bounds_vectorised_equal_scalar():
    k, n, c = _random_cases(5, 60)
    for method in intervals.METHODS:
        for sided in intervals.INTERVAL_SIDES:
            low, high = et.proportion_bounds(k, n, 0.9, method, sided)
            assert low.shape == high.shape == k.shape
            for i in range(0, 60, 7):
                r = et.proportion_interval(int(k[i]), int(n[i]), 0.9, method, sided)
                assert (low[i], high[i]) == pytest.approx((r.low, r.high), abs=1e-12)
    low, high = et.proportion_bounds(np.arange(5)[:, None], np.array([10, 20, 40]))
    assert low.shape == (5, 3)


def test_z_override():
    r = et.proportion_interval(30, 100, 0.80, z=1.28)
    assert r.high - r.estimate == pytest.approx(1.28 * math.sqrt(0.21 / 100))
    exact = et.proportion_interval(30, 100, 0.80)
    assert exact.z == pytest.approx(1.2816, abs=1e-4) and exact.high > r.high


# --- test-set size ---------------------------------------------------------------------

def test_test_set_size_is_the_smallest_n():
    rng = np.random.default_rng(6)
    for _ in range(40):
        e, h, c = rng.uniform(0.02, 0.98), rng.uniform(0.005, 0.2), rng.uniform(0.6, 0.99)
        r = et.test_set_size(e, h, c)
        z = stats.norm.ppf(1 - (1 - c) / 2)
        half = lambda n: z * math.sqrt(e * (1 - e) / n)  # noqa: E731
        assert half(r.n) <= h * (1 + 1e-12)
        assert r.n == 1 or half(r.n - 1) > h
        assert int(r) == r.n


def test_test_set_size_examples():
    r = et.test_set_size(0.25, 0.05)
    assert r.n == 289  # 1.96^2 * 0.1875 / 0.0025 = 288.1
    assert et.test_set_size(0.3, 0.1, 0.95).n == 81
    md = r._repr_markdown_()
    assert "288.1" in md and "289" in md


# --- difference of two independent rates -----------------------------------------------

@pytest.mark.parametrize("counts, low, high", [
    ((56, 70, 48, 80), 0.0524, 0.3339),   # Newcombe (1998), Table II, example (a), method 10
    ((9, 10, 3, 10), 0.1705, 0.8090),     # (b)
    ((5, 56, 0, 29), -0.0381, 0.1926),    # (d)
    ((0, 10, 0, 20), -0.1611, 0.2775),    # (e)
    ((10, 10, 0, 20), 0.6791, 1.0000),    # (f)
])
def test_newcombe_worked_examples(counts, low, high):
    r = et.difference_interval(*counts)
    assert (round(r.low, 4), round(r.high, 4)) == (low, high)
    assert r.estimate == pytest.approx(counts[0] / counts[1] - counts[2] / counts[3])


def test_difference_interval_matches_statsmodels():
    from statsmodels.stats.proportion import confint_proportions_2indep

    rng = np.random.default_rng(14)
    for _ in range(40):
        n1, n2 = (int(x) for x in rng.integers(1, 300, 2))
        k1, k2 = int(rng.integers(0, n1 + 1)), int(rng.integers(0, n2 + 1))
        c = float(rng.uniform(0.6, 0.99))
        for method, sm in (("newcombe", "newcomb"), ("wald", "wald")):
            ref = confint_proportions_2indep(k1, n1, k2, n2, method=sm, compare="diff", alpha=1 - c)
            got = et.difference_interval(k1, n1, k2, n2, confidence=c, method=method)
            assert (got.low, got.high) == pytest.approx(ref, abs=1e-9)


def test_difference_interval_agrees_with_compare_hypotheses_and_reads_well():
    wald = et.difference_interval(30, 100, 20, 100, confidence=0.9, method="wald")
    z = et.compare_hypotheses(0.30, 100, 0.20, 100, confidence=0.9)
    assert (wald.low, wald.high, wald.se) == pytest.approx((z.low, z.high, z.se))
    r = et.difference_interval(30, 100, 20, 100)
    assert r.low < 0 < r.high and "includes 0, so the data do not rule out equal rates" in r.verdict
    assert "of intervals built this way cover it" in r.verdict
    md = r._repr_markdown_()
    assert "Wilson" in md and r"\frac{30}{100}" in md
    assert "excludes 0" in et.difference_interval(56, 70, 48, 80).verdict


def test_confidence_for_t_against_scipy_and_the_z_interval_from_five_folds():
    from scipy import stats as st

    from evalteach import confidence_for_t
    for t, df in [(1.96, 4), (2.776, 4), (0.5, 1), (3.0, 29)]:
        assert confidence_for_t(t, df) == pytest.approx(1 - 2 * st.t.sf(t, df), abs=1e-12)
        assert confidence_for_t(-t, df, sided="one") == pytest.approx(st.t.cdf(t, df), abs=1e-12)
    # A "95%" z interval from k = 5 estimates covers about 87.8% (Mooney's t against z).
    assert round(confidence_for_t(1.96, 4), 3) == 0.878
    assert confidence_for_t(1.96, 1e6) == pytest.approx(0.95, abs=1e-4)



@pytest.mark.parametrize(("k", "n", "sided"), [(0, 40, "two"), (40, 40, "two"), (3, 40, "two"), (2, 60, "upper"),
                                              (1, 30, "lower")])
def test_wald_with_rare_errors_promises_no_coverage_and_gives_clopper_pearson(k, n, sided):
    """Lesson 3: Wald covers far below 95% near 0 (87% at n = 40, rate 0.05); Clopper-Pearson is reported."""
    r = et.proportion_interval(k, n, sided=sided)
    exact = et.proportion_interval(k, n, sided=sided, method="clopper-pearson")
    assert "about 95%" not in r.verdict and "prefer Wilson" not in r.verdict and "built this way" not in r.verdict
    shown = {"two": f"[{plain(exact.low)}, {plain(exact.high)}]", "upper": plain(exact.high),
             "lower": plain(exact.low)}[sided]
    assert f"Clopper-Pearson's {'interval' if sided == 'two' else 'bound'}, {shown}, covers the true rate in at " \
           "least 95%" in r.verdict
    if k in (0, n):
        assert "standard error is 0" in r.verdict
    assert et.exact_coverage(0.05, 40, method="wald") < 0.9                 # why no promise is made
