"""evalteach.stats.randomization: permutation test and bootstrap intervals against scipy,
Fisher's worked example, and their error rates / coverage in small seeded simulations."""
import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

import evalteach as et
from evalteach.stats.randomization import _auc_jackknife

RNG = np.random.default_rng(21)


@pytest.fixture
def rng():
    """Each test's own generator: its draws do not depend on which tests ran before it."""
    return np.random.default_rng(21)


def _mean_difference(x, y, axis):
    return np.mean(x - y, axis=axis)


def _difference_of_means(x, y, axis):
    return np.mean(x, axis=axis) - np.mean(y, axis=axis)


# --- permutation test ------------------------------------------------------------------

def test_fisher_darwin_zea_mays():
    """Fisher (1935, section 21): Darwin's 15 pairs of cross- and self-fertilised plants.
    Of the 2^15 = 32768 sign patterns, 863 give a sum at least the observed 314 (eighths of
    an inch), so the exact two-sided p-value is 2 x 863 / 32768 = 0.0527."""
    d = [49, -67, 8, 16, 6, 23, 28, 41, 14, 29, 56, 24, 75, 60, -48]
    r = et.permutation_test(d, n_resamples=2 ** 15)
    assert r.exact and r.n_resamples == 32768
    assert r.statistic * 15 == pytest.approx(314)
    assert r.p_value == pytest.approx(2 * 863 / 32768)
    assert et.permutation_test(d, n_resamples=2 ** 15, alternative="greater").p_value == pytest.approx(863 / 32768)
    assert "not significantly different from 0" in r.verdict and "not the same as showing there is none" in r.verdict


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("n", [5, 9, 12])
def test_paired_exact_matches_scipy(alternative, n, rng):
    a, b = rng.normal(0.8, 0.03, n), rng.normal(0.79, 0.03, n)
    ours = et.permutation_test(a, b, alternative=alternative)
    ref = stats.permutation_test((a, b), _mean_difference, permutation_type="samples", vectorized=True,
                                 n_resamples=10000, alternative=alternative)
    assert ours.exact and ours.p_value == pytest.approx(ref.pvalue, rel=1e-12)
    assert np.sort(ours.null_distribution) == pytest.approx(np.sort(ref.null_distribution))


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_unpaired_exact_matches_scipy(alternative, rng):
    a, b = rng.normal(0.8, 0.03, 6), rng.normal(0.77, 0.03, 5)  # C(11, 6) = 462 splits
    ours = et.permutation_test(a, b, paired=False, alternative=alternative)
    ref = stats.permutation_test((a, b), _difference_of_means, permutation_type="independent", vectorized=True,
                                 n_resamples=10000, alternative=alternative)
    assert ours.exact and ours.n_resamples == 462
    assert ours.p_value == pytest.approx(ref.pvalue, rel=1e-12)


def test_rounding_never_drops_the_observed_arrangement():
    """On these errors (near 0.8, difference near -0.004) the observed split's statistic,
    recomputed along the null's path, differs from the observed one by more than a tolerance
    relative to the statistic: the tolerance must scale with the data, as rounding does."""
    rng = np.random.default_rng(25)
    a, b = rng.normal(0.8, 0.03, 6), rng.normal(0.77, 0.03, 5)
    for alternative in ("less", "greater", "two-sided"):
        ours = et.permutation_test(a, b, paired=False, alternative=alternative)
        ref = stats.permutation_test((a, b), _difference_of_means, permutation_type="independent",
                                     vectorized=True, n_resamples=10000, alternative=alternative)
        assert ours.p_value == pytest.approx(ref.pvalue, rel=1e-12)


@pytest.mark.parametrize("paired", [True, False])
def test_monte_carlo_matches_scipy_within_sampling_error(paired, rng):
    a, b = rng.normal(0.8, 0.03, 20), rng.normal(0.79, 0.03, 20)
    ours = et.permutation_test(a, b, paired=paired, n_resamples=40000, seed=3)
    ref = stats.permutation_test((a, b), _mean_difference if paired else _difference_of_means,
                                 permutation_type="samples" if paired else "independent", vectorized=True,
                                 n_resamples=40000, rng=4)
    assert not ours.exact and ours.n_resamples == 40000
    se = 2 * np.sqrt(ref.pvalue / 2 * (1 - ref.pvalue / 2) / 40000)  # of a doubled one-sided share
    assert ours.p_value == pytest.approx(ref.pvalue, abs=4 * np.sqrt(2) * se)
    assert "Monte Carlo" in ours._repr_markdown_() and "seed 3" in ours._repr_markdown_()


def test_null_grows_in_batches_like_the_test(rng):
    a, b = rng.normal(0.8, 0.03, 16), rng.normal(0.79, 0.03, 16)
    for paired in (True, False):
        test = et.permutation_test(a, b, paired=paired, n_resamples=3000, seed=11)
        null = et.PermutationNull(a, b, paired=paired, seed=11)
        grown = np.concatenate([null.draw(1), null.draw(999), null.draw(2000)])
        assert null.drawn == 3000 and null.observed == test.statistic
        assert np.array_equal(grown, test.null_distribution)
    exact = et.PermutationNull([1.0, -2.0, 3.0])
    assert sorted(exact.enumerate() * 3) == sorted([s1 + 2 * s2 + 3 * s3 for s1 in (1, -1)
                                                    for s2 in (-1, 1) for s3 in (1, -1)])


@pytest.mark.parametrize("paired, n_resamples", [(True, 4096), (True, 300), (False, 10000), (False, 300)])
def test_interval_inverts_the_test(paired, n_resamples, rng):
    """Every shift inside [low, high] is not rejected and every shift just outside is:
    the interval and the test always agree (0 lies outside exactly when p < alpha)."""
    a, b = rng.normal(0.8, 0.03, 12), rng.normal(0.78, 0.03, 12 if paired else 7)
    kwargs = {"paired": paired, "n_resamples": n_resamples, "seed": 4, "confidence": 0.9}
    r = et.permutation_test(a, b, **kwargs)
    assert r.low < r.statistic < r.high
    for delta, inside in ((r.low, True), (r.high, True), (r.low - 1e-9, False), (r.high + 1e-9, False),
                          ((r.low + r.high) / 2, True)):
        p = et.permutation_test(a - delta, b, **kwargs).p_value
        assert (p > 0.1) == inside, (delta, p)
    one = et.permutation_test(a, b, **{**kwargs, "confidence": 0.95}, alternative="greater")
    assert one.high == np.inf
    if r.exact or not paired:  # 95% one-sided = 90% two-sided end where two-sided doubles a tail
        assert one.low == pytest.approx(r.low)
    shifted = {**kwargs, "alternative": "greater"}
    assert et.permutation_test(a - (one.low + 1e-9), b, **shifted).p_value > 0.05   # just inside
    assert et.permutation_test(a - (one.low - 1e-9), b, **shifted).p_value <= 0.05  # just outside


def test_paired_monte_carlo_p_counts_both_tails(rng):
    """Two-sided sign flips: the Monte Carlo p is (#{|T*| >= |T|} + 1) / (B + 1), counted here
    from the same sign patterns drawn independently of the library, and it converges to the
    exact p (which equals twice one tail, scipy's value, because the null is symmetric)."""
    d = rng.normal(0.01, 0.02, 14)  # 16384 sign patterns
    doubled = []
    for b, seed in ((999, 5), (6000, 2)):
        signs = np.where(np.random.default_rng(seed).random((b, d.size)) < 0.5, -1.0, 1.0)
        means = (signs * d).mean(axis=1)
        count = np.sum(np.abs(means) >= abs(d.mean()))
        r = et.permutation_test(d, n_resamples=b, seed=seed)
        assert not r.exact and r.p_value == (count + 1) / (b + 1)
        one_tail = np.sum(means >= d.mean()) if d.mean() > 0 else np.sum(means <= d.mean())
        doubled.append(min(1.0, 2 * (one_tail + 1) / (b + 1)) != r.p_value)
    assert any(doubled)  # the old convention would have given another p on these draws
    exact = et.permutation_test(d, n_resamples=2 ** 14)
    ref = stats.permutation_test((d,), np.mean, permutation_type="samples", vectorized=True,
                                 n_resamples=2 ** 14).pvalue
    assert exact.exact and exact.p_value == pytest.approx(ref, rel=1e-12)
    big = et.permutation_test(d, n_resamples=100_000, seed=1)
    se = np.sqrt(exact.p_value * (1 - exact.p_value) / 100_000)
    assert 0.01 < exact.p_value < 0.5 and abs(big.p_value - exact.p_value) < 4 * se
    assert "|T^*| \\ge |T|" in big._repr_markdown_()


def test_too_few_arrangements_give_an_unbounded_interval():
    r = et.permutation_test([0.02, 0.03, 0.01])  # 8 sign patterns: p is never below 0.25
    assert r.p_value == 0.25 and (r.low, r.high) == (-np.inf, np.inf)


def test_permutation_test_holds_its_level_under_the_null():
    """400 experiments with no true difference: an exact paired test (n = 10, 1024 sign
    patterns) and a Monte Carlo unpaired test (B = 199) reject at most about 5% of the time."""
    rng = np.random.default_rng(8)
    runs, alpha = 400, 0.05
    paired = [et.permutation_test(rng.normal(size=10)).p_value for _ in range(runs)]
    unpaired = [et.permutation_test(rng.normal(size=8), rng.normal(size=9), paired=False, n_resamples=199,
                                    seed=i).p_value for i in range(runs)]
    bound = alpha + 3 * np.sqrt(alpha * (1 - alpha) / runs)
    for p in (paired, unpaired):
        rate = np.mean(np.asarray(p) <= alpha)
        assert 0.01 < rate <= bound


def test_permutation_verdicts_keep_the_direction_fixed_in_advance():
    d = [0.02, 0.03, 0.01, 0.04, 0.02, 0.03, 0.05, 0.02]
    greater = et.permutation_test(d, alternative="greater")
    assert "significantly greater than 0" in greater.verdict and "direction fixed in advance" in greater.verdict
    less = et.permutation_test(d, alternative="less")
    assert less.p_value > 0.9 and "not significantly less than 0" in less.verdict


# --- bootstrap interval ----------------------------------------------------------------

Y = RNG.integers(0, 2, 200)
PRED_A = np.where(RNG.random(200) < 0.2, 1 - Y, Y)
PRED_B = np.where(RNG.random(200) < 0.3, 1 - Y, Y)
SCORES_A = Y * 0.6 + RNG.random(200)
SCORES_B = Y * 0.3 + RNG.random(200)


@pytest.mark.parametrize("method", ["bca", "percentile"])
@pytest.mark.parametrize("metric", ["error", "accuracy"])
def test_bootstrap_matches_scipy(method, metric):
    right_a, right_b = (PRED_A == Y).astype(float), (PRED_B == Y).astype(float)
    x = 1 - right_a if metric == "error" else right_a
    ours = et.bootstrap_interval(Y, PRED_A, metric=metric, method=method, n_resamples=20000, seed=1)
    ref = stats.bootstrap((x,), np.mean, method=method, n_resamples=20000, rng=2).confidence_interval
    assert ours.estimate == pytest.approx(x.mean())
    # the replicates move in steps of 1/200; two independent runs agree within about two steps
    assert (ours.low, ours.high) == pytest.approx((ref.low, ref.high), abs=0.011)
    diff = right_b - right_a if metric == "error" else right_a - right_b
    ours = et.bootstrap_interval(Y, PRED_A, metric=metric, predictions_b=PRED_B, method=method,
                                 n_resamples=20000, seed=1)
    ref = stats.bootstrap((diff,), np.mean, method=method, n_resamples=20000, rng=2).confidence_interval
    assert ours.difference and ours.estimate == pytest.approx(diff.mean())
    assert (ours.low, ours.high) == pytest.approx((ref.low, ref.high), abs=0.011)


def _auc(y, s, axis=-1):
    """Mann-Whitney's AUC from mid-ranks, vectorised over resamples for scipy."""
    ranks = stats.rankdata(s, axis=axis)
    n_pos = np.sum(y, axis=axis)
    n_neg = y.shape[axis] - n_pos
    return (np.sum(ranks * y, axis=axis) - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


@pytest.mark.parametrize("method", ["bca", "percentile"])
def test_bootstrap_auc_matches_scipy(method):
    y, s = Y[:120], SCORES_A[:120]
    ours = et.bootstrap_interval(y, s, metric="auc", method=method, n_resamples=4000, seed=5)
    ref = stats.bootstrap((y, s), _auc, paired=True, vectorized=True, method=method, n_resamples=4000,
                          rng=6).confidence_interval
    assert ours.estimate == pytest.approx(roc_auc_score(y, s)) == pytest.approx(_auc(y, s))
    assert (ours.low, ours.high) == pytest.approx((ref.low, ref.high), abs=0.012)
    pair = et.bootstrap_interval(Y, SCORES_A, metric="auc", predictions_b=SCORES_B, n_resamples=2000)
    assert pair.estimate == pytest.approx(roc_auc_score(Y, SCORES_A) - roc_auc_score(Y, SCORES_B))
    assert pair.low > 0 and "excludes 0" in pair.verdict


def test_bootstrap_pieces_by_brute_force(rng):
    y = rng.integers(0, 2, 40)
    s = np.round(rng.random(40) + 0.3 * y, 1)  # rounding makes ties
    loo = [roc_auc_score(np.delete(y, i), np.delete(s, i)) for i in range(40)]
    assert _auc_jackknife(s, y.astype(float)) == pytest.approx(loo, abs=1e-12)
    r = et.bootstrap_interval(y, s, metric="auc", n_resamples=50, seed=2)
    draws = np.random.default_rng(2).integers(0, 40, size=(50, 40))
    by_hand = [roc_auc_score(y[d], s[d]) for d in draws if 0 < y[d].sum() < 40]
    assert np.sort(r.replicates) == pytest.approx(np.sort(by_hand))
    # BCa by the book from the same replicates and jackknife
    z0 = stats.norm.ppf((np.sum(r.replicates < r.estimate) + np.sum(r.replicates <= r.estimate)) / 100)
    u = np.mean(loo) - np.asarray(loo)
    a = np.sum(u ** 3) / (6 * np.sum(u ** 2) ** 1.5)
    z = stats.norm.ppf([0.025, 0.975])
    levels = stats.norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
    assert (r.bias_correction, r.acceleration) == pytest.approx((z0, a))
    assert (r.low, r.high) == pytest.approx(tuple(np.percentile(r.replicates, 100 * levels)))


def test_bca_reproduces_efron_and_tibshiranis_spatial_example():
    """Efron & Tibshirani (1993), *An Introduction to the Bootstrap*, section 14.3, Tables 14.1-14.2:
    the variance (plug-in, divisor n) of the 26 children's spatial test scores A is 171.5; the
    jackknife gives the acceleration a = .061; from 2000 replicates z0 = .146 and the 90% BCa
    interval is (115.8, 259.6). bootstrap_interval takes test-set metrics only, so its BCa step
    is checked here on the book's statistic; the bounds allow for the book's Monte Carlo error."""
    from evalteach.stats._bootstrap import bca_levels

    a = np.array([48, 36, 20, 29, 42, 42, 20, 42, 22, 41, 45, 14, 6, 0, 33, 28, 34, 4, 32, 24, 47, 41, 24, 26,
                  30, 41.0])
    assert a.var() == pytest.approx(171.5, abs=0.05)
    replicates = a[np.random.default_rng(1).integers(0, 26, size=(40000, 26))].var(axis=1)
    jackknife = np.array([np.delete(a, i).var() for i in range(26)])
    levels, z0, acceleration = bca_levels(replicates, a.var(), jackknife, 0.05)
    assert acceleration == pytest.approx(0.061, abs=5e-4)
    assert z0 == pytest.approx(0.146, abs=0.06)  # about two Monte Carlo standard errors of the book's B = 2000
    low, high = np.percentile(replicates, 100 * levels)
    assert low == pytest.approx(115.8, abs=3) and high == pytest.approx(259.6, abs=6)


def test_bca_covers_an_error_rate_about_as_promised():
    """Efron (1987): BCa intervals are second-order accurate. For an error rate of 0.2 on
    100 test examples (20 expected errors) their coverage is close to the nominal 95%."""
    rng = np.random.default_rng(12)
    runs, p, n = 250, 0.2, 100
    covered = []
    for i in range(runs):
        pred = (rng.random(n) < p).astype(int)
        r = et.bootstrap_interval(np.zeros(n, int), pred, n_resamples=1000, seed=i)
        covered.append(r.low <= p <= r.high)
    assert abs(np.mean(covered) - 0.95) < 0.04


def test_bootstrap_display_and_degenerate_case():
    r = et.bootstrap_interval(Y, PRED_A, n_resamples=500)
    md = r._repr_markdown_()
    assert "BCa" in md and r"\hat z_0" in md and "500" in md
    assert "cover the true error rate in about 95% of test sets" in r.verdict
    perfect = et.bootstrap_interval(Y, Y, n_resamples=100)
    assert (perfect.estimate, perfect.low, perfect.high) == (0.0, 0.0, 0.0)
    same = et.bootstrap_interval(Y, PRED_A, predictions_b=PRED_A, method="percentile", n_resamples=100)
    assert (same.low, same.high) == (0.0, 0.0) and "includes 0" in same.verdict
    labels = et.bootstrap_interval(["cat", "dog", "cat", "dog"], ["cat", "cat", "cat", "dog"], n_resamples=50)
    assert labels.estimate == 0.25


def test_smallest_p_value_is_the_p_of_the_most_extreme_rearrangement():
    # paired, two-sided, exact: 2 / 2**m with m nonzero differences (a zero flips to itself)
    assert et.permutation_test([0.1, -0.2, 0.05, 0.3, 0.02]).smallest_p_value == 2 / 32
    assert et.permutation_test([0.1, 0.0, 0.05, 0.3, 0.02]).smallest_p_value == 2 / 16
    assert et.permutation_test([0.0, 0.0, 0.0]).smallest_p_value == 1.0
    assert et.permutation_test([0.1, 0.0, 0.05, 0.3, 0.02], alternative="greater").smallest_p_value == 1 / 16
    # it is reached: data whose signs all agree give it (scipy's exact test as reference)
    extreme = [0.1, 0.2, 0.05, 0.3, 0.02]
    ref = stats.permutation_test((extreme,), np.mean, permutation_type="samples", n_resamples=np.inf).pvalue
    assert et.permutation_test(extreme).p_value == pytest.approx(ref) == et.permutation_test(extreme).smallest_p_value
    # unpaired, two-sided, exact: 3 against 3 values, 20 splits, the two most extreme ones
    split = et.permutation_test([1, 2, 3], [4, 5, 6], paired=False)
    ref = stats.permutation_test(([1, 2, 3], [4, 5, 6]), lambda x, y: np.mean(x) - np.mean(y),
                                 n_resamples=np.inf).pvalue
    assert split.smallest_p_value == pytest.approx(0.1) == pytest.approx(ref) == pytest.approx(split.p_value)
    # Monte Carlo: (# + 1) / (B + 1) is at least 1 / (B + 1)
    many = et.permutation_test(np.linspace(-1, 2, 40), n_resamples=999, seed=0)
    assert not many.exact and many.smallest_p_value == 1 / 1000 <= many.p_value
