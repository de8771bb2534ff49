"""evalteach.stats.bayesian: cross-checks against baycomp, closed forms and the null error rate."""
from pathlib import Path

import baycomp
import numpy as np
import pytest
from scipy import stats

import evalteach as et

RNG = np.random.default_rng(9)
A = RNG.normal(0.80, 0.02, 10)
B = A - RNG.normal(0.01, 0.015, 10)


# --- correlated t-test -----------------------------------------------------------------

@pytest.mark.parametrize("rope", [0.0, 0.005, 0.01, 0.05])
def test_correlated_t_matches_baycomp(rope):
    # baycomp (runs=1) uses rho = 1 / n_folds, i.e. n_test / n_train = 1 / (n_folds - 1)
    ours = et.bayesian_correlated_t_test(A, B, test_train_ratio=1 / 9, rope=rope)
    ref = baycomp.two_on_single(B, A, rope)  # baycomp's difference is y - x
    if rope == 0:
        assert (ours.p_left, ours.p_right) == pytest.approx(ref, abs=1e-12)
        assert ours.p_rope == 0
    else:
        assert (ours.p_left, ours.p_rope, ours.p_right) == pytest.approx(ref, abs=1e-12)
    mean, var, df = baycomp.CorrelatedTTest.compute_statistics(B, A)
    assert (ours.mean_difference, ours.scale ** 2, ours.df) == pytest.approx((mean, var, df), rel=1e-12)


def test_correlated_t_by_hand():
    """Corani & Benavoli's formula written out: 5 folds of a 1:4 split."""
    d = np.array([0.02, 0.01, 0.03, 0.00, 0.02])
    r = et.bayesian_correlated_t_test(d, test_train_ratio=0.25, rope=0.01, credibility=0.9)
    rho = 0.25 / 1.25
    scale = np.sqrt((1 / 5 + rho / (1 - rho)) * np.var(d, ddof=1))
    assert r.rho == pytest.approx(0.2) and r.scale == pytest.approx(scale)
    assert r.p_right == pytest.approx(stats.t.sf((0.01 - 0.016) / scale, 4))
    assert r.p_left == pytest.approx(stats.t.cdf((-0.01 - 0.016) / scale, 4))
    assert r.p_left + r.p_rope + r.p_right == pytest.approx(1.0)
    assert (r.low, r.high) == pytest.approx(0.016 + np.array([-1, 1]) * stats.t.ppf(0.95, 4) * scale)
    assert r.posterior().cdf(0.016) == pytest.approx(0.5)
    # the correction is Nadeau & Bengio's: the same scale as the corrected resampled t-test
    assert et.corrected_resampled_t_test(d, test_train_ratio=0.25).se == pytest.approx(scale)
    md = r._repr_markdown_()
    assert "0.2" in md and "credible interval" in md
    assert r.verdict.startswith("The posterior probability is 0.762 that a - b > 0.01, 0.225 that A and B are "
                                "practically equivalent")
    assert "given the data, the model and the prior" in r.verdict   # what the probability is conditioned on


def test_correlated_t_differences_or_pairs_and_symmetry():
    r1 = et.bayesian_correlated_t_test(A, B, test_train_ratio=0.1, rope=0.01)
    r2 = et.bayesian_correlated_t_test(A - B, test_train_ratio=0.1, rope=0.01)
    r3 = et.bayesian_correlated_t_test(B, A, test_train_ratio=0.1, rope=0.01)
    assert r1.p_right == pytest.approx(r2.p_right) and r1.p_right == pytest.approx(r3.p_left)
    assert r1.p_rope == pytest.approx(r3.p_rope)


def test_correlated_t_zero_spread_is_a_point_mass():
    r = et.bayesian_correlated_t_test([0.02] * 5, test_train_ratio=0.25, rope=0.01)
    assert (r.p_left, r.p_rope, r.p_right, r.scale) == (0.0, 0.0, 1.0, 0.0)
    assert r.posterior() is None and r.low == r.high == pytest.approx(0.02)
    inside = et.bayesian_correlated_t_test([0.005] * 5, test_train_ratio=0.25, rope=0.01)
    assert inside.p_rope == 1.0
    zero = et.bayesian_correlated_t_test([0.0] * 5, test_train_ratio=0.25)
    assert zero.p_left == zero.p_right == 0.5


def test_correlated_t_holds_its_error_rate_under_the_null():
    """Folds whose differences are correlated normals with correlation rho = n_test / n
    and true mean 0: deciding "a > b" when P(mu > 0) > 0.95 errs in 5% of experiments,
    as the posterior is exact under this model. Ignoring the correlation errs far more."""
    rng = np.random.default_rng(3)
    n, ratio, runs = 10, 1 / 9, 800
    rho = ratio / (1 + ratio)
    shared = rng.standard_normal((runs, 1))
    d = np.sqrt(rho) * shared + np.sqrt(1 - rho) * rng.standard_normal((runs, n))
    right = np.array([et.bayesian_correlated_t_test(x, test_train_ratio=ratio).p_right for x in d])
    rate = np.mean(right > 0.95)
    assert abs(rate - 0.05) < 3 * np.sqrt(0.05 * 0.95 / runs)
    naive = np.array([et.bayesian_correlated_t_test(x, test_train_ratio=1e-9).p_right for x in d])
    assert np.mean(naive > 0.95) > 0.09  # about 0.12 in theory


# Benavoli, Corani, Demšar & Zaffalon (2017, JMLR 18(77)): naive Bayes (nbc), AODE, HNB, J48 and
# J48 with grafting, 10 runs of 10-fold cross-validation on 54 UCI data sets. The accuracies (in %)
# are the authors' tutorial data, github.com/BayesianTestsML/tutorial, Julia/Data/Percent_correct.dat;
# tests/data holds the folds of nbc and AODE on five data sets and every classifier's mean accuracy.
DATA = Path(__file__).parent / "data"


def _benavoli_folds(dataset):
    d = np.genfromtxt(DATA / "benavoli_nbc_aode_folds.csv", delimiter=",", names=True, dtype=None, encoding="ascii")
    chosen = d["dataset"] == dataset
    return d["nbc"][chosen] / 100, d["aode"][chosen] / 100


@pytest.mark.parametrize("dataset, mean, sd, p_value, low, high", [
    ("hepatitis", -0.002120899768821926, 0.0010572234264579394, 0.047573247196149436, -0.00421866, -2.31392e-5),
    ("ecoli", -0.07268759207705232, 0.020829926223337843, 0.0007237706429719711, -0.114019, -0.0313565),
    ("iris", -0.032416596466590945, 0.00436226369443885, 3.884739189329373e-11, -0.0410723, -0.0237609),
    ("audiology", -0.0026088997156299564, 0.005270342447276725, 0.6216862298080181, -0.0130664, 0.0078486),
    ("wisconsin-breast-cancer", 0.004667099491286156, 0.008823540094666927, 0.5980328575663212, -0.0128407,
     0.0221749),
])
def test_correlated_t_reproduces_benavolis_tutorial(dataset, mean, sd, p_value, low, high):
    """The printed outputs of the authors' tutorial, Julia/Notebook2 ("computes posteriors for
    Bayesian correlated t-test"), nbc - aode with rho = 1/10: the posterior's mean, scale and
    99 df, and beside them the frequentist correlated t-test's p-value and 95% interval. The
    notebook's posterior parameters went through single precision: they agree to 1e-6."""
    nbc, aode = _benavoli_folds(dataset)
    r = et.bayesian_correlated_t_test(nbc, aode, test_train_ratio=1 / 9, rope=0.01)
    assert r.rho == pytest.approx(0.1) and r.df == 99
    assert (r.mean_difference, r.scale) == (pytest.approx(mean, rel=1e-6), pytest.approx(sd, rel=1e-6))
    f = et.corrected_resampled_t_test(nbc, aode, test_train_ratio=1 / 9)
    assert f.p_value == pytest.approx(p_value, rel=1e-9)
    assert (f.low, f.high) == (pytest.approx(low, rel=1e-5), pytest.approx(high, rel=1e-5))


# --- signed-rank test ------------------------------------------------------------------

SCORES_A = np.array([0.83, 0.91, 0.76, 0.88, 0.69, 0.95, 0.81, 0.72, 0.87, 0.79, 0.93, 0.85])
SCORES_B = SCORES_A - np.array([0.012, 0.02, -0.004, 0.008, 0.015, 0.001, -0.009, 0.03, 0.006, 0.011, 0.0, 0.018])


@pytest.mark.parametrize("rope", [0.0, 0.005, 0.01])
def test_signed_rank_matches_baycomp_within_monte_carlo_error(rope):
    ours = et.bayesian_signed_rank_test(SCORES_A, SCORES_B, rope=rope, n_samples=30000, seed=1)
    ref = baycomp.SignedRankTest.probs(SCORES_B, SCORES_A, rope, nsamples=30000, random_state=2)
    ref = ref if rope > 0 else (ref[0], 0.0, ref[1])
    # 4 standard errors of a share from 30000 draws, from both sides
    assert (ours.p_left, ours.p_rope, ours.p_right) == pytest.approx(ref, abs=4 * np.sqrt(2 * 0.25 / 30000))
    assert ours.p_left + ours.p_rope + ours.p_right == pytest.approx(1.0)


# Julia/Notebook6 of the tutorial ("compares two classifiers on multiple datasets using left rope
# right"): Bsignranktest on the 54 mean accuracies, rope 0.01, s = 0.5 at 0, 150000 draws; the
# printed shares of draws in which "first better", rope, "second better" is the most probable.
@pytest.mark.parametrize("first, second, published", [
    ("nbc", "aode", (0.000, 0.123, 0.877)), ("nbc", "hnb", (0.000, 0.001, 0.999)),
    ("nbc", "j48", (0.228, 0.006, 0.766)), ("nbc", "j48gr", (0.179, 0.004, 0.817)),
    ("aode", "hnb", (0.001, 0.965, 0.034)), ("aode", "j48", (0.904, 0.034, 0.062)),
    ("aode", "j48gr", (0.883, 0.046, 0.071)), ("hnb", "j48", (0.962, 0.020, 0.019)),
    ("hnb", "j48gr", (0.950, 0.026, 0.024)), ("j48", "j48gr", (0.000, 1.000, 0.000)),
])
def test_signed_rank_reproduces_benavolis_tutorial(first, second, published):
    means = np.genfromtxt(DATA / "benavoli_mean_accuracies.csv", delimiter=",", names=True, dtype=None,
                          encoding="ascii")
    r = et.bayesian_signed_rank_test(means[first] / 100, means[second] / 100, rope=0.01, n_samples=50000, seed=0)
    # a share from 50000 draws has a standard error of at most 0.0022; the paper's from 150000, 0.0013;
    # 0.01 is about four standard errors of the difference, plus the printed rounding
    assert (r.p_right, r.p_rope, r.p_left) == pytest.approx(published, abs=0.01)


def test_signed_rank_posterior_means_match_the_dirichlet_moments():
    """E[w_i w_j] of Dir(alpha) is alpha_i (alpha_j + [i = j]) / (A (A + 1)): the exact mean of theta."""
    d = SCORES_A - SCORES_B
    rope, s = 0.005, 0.5
    z = np.concatenate(([0.0], d))
    alpha = np.concatenate(([s], np.ones(d.size)))
    total = alpha.sum()
    moments = (np.outer(alpha, alpha) + np.diag(alpha)) / (total * (total + 1))
    pair = z[:, None] + z[None, :]
    right = np.sum(moments * ((pair > 2 * rope) + 0.5 * (pair == 2 * rope)))
    left = np.sum(moments * ((-pair > 2 * rope) + 0.5 * (-pair == 2 * rope)))
    r = et.bayesian_signed_rank_test(d, rope=rope, n_samples=100000, seed=4)
    assert r.mean_theta == pytest.approx((left, 1 - left - right, right), abs=0.004)
    assert r.samples.shape == (100000, 3)
    assert np.allclose(r.samples.sum(axis=1), 1.0)


def test_signed_rank_is_seeded_and_readable():
    r1 = et.bayesian_signed_rank_test(SCORES_A, SCORES_B, rope=0.01, n_samples=5000, seed=7)
    r2 = et.bayesian_signed_rank_test(SCORES_A, SCORES_B, rope=0.01, n_samples=5000, seed=7)
    assert (r1.p_left, r1.p_rope, r1.p_right) == (r2.p_left, r2.p_rope, r2.p_right)
    assert "most probable region" in r1.verdict and "not a p-value" in r1.verdict
    md = r1._repr_markdown_()
    assert "Dir" in md and "5000" in md and "seed 7" in md
    assert "posterior mean of" in md and "most probable" in md        # the two kinds of number, named
    clear = et.bayesian_signed_rank_test(np.full(20, 0.05), rope=0.01, n_samples=2000)
    assert clear.p_right == 1.0


def test_bayesian_results_are_frozen():
    r = et.bayesian_signed_rank_test(SCORES_A, SCORES_B, n_samples=100)
    with pytest.raises(AttributeError):
        r.p_left = 0.5
