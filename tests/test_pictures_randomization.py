"""Pictures of resampling: the permutation test's marked share gives its p-value (exact, Monte
Carlo, doubled for unpaired two-sided tests); the bootstrap picture draws the replicates and both
intervals' ends, which are scipy's percentile and BCa intervals on the same resamples."""
import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy import stats

import evalteach as et
from picture_checks import bar_centres, by_gid, heights, one, x_span

RNG = np.random.default_rng(7)
D = [0.02, 0.01, 0.03, -0.01, 0.02, 0.04]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("make", [
    lambda alt: et.permutation_test(D, alternative=alt),
    lambda alt: et.permutation_test(RNG.normal(0.01, 0.02, 20), n_resamples=999, alternative=alt),
    lambda alt: et.permutation_test([0.21, 0.19, 0.24, 0.22], [0.25, 0.27, 0.23], paired=False, alternative=alt),
    lambda alt: et.permutation_test(RNG.normal(0.2, 0.02, 9), RNG.normal(0.22, 0.02, 9), paired=False,
                                    n_resamples=999, alternative=alt),
])
def test_the_marked_share_of_the_null_distribution_gives_p(make, alternative):
    r = make(alternative)
    ax = r.plot()
    total = r.null_distribution.size
    marked = sum(heights(c).sum() for c in by_gid(ax, "p-value")) * total
    drawn = marked + sum(heights(c).sum() for c in by_gid(ax, "null")) * total
    assert drawn == pytest.approx(total)           # every rearrangement is drawn once
    assert marked == pytest.approx(r.extreme.sum())
    extra = 0 if r.exact else 1
    factor = 2 if (alternative == "two-sided" and not r.paired) else 1
    assert min(1.0, factor * (marked + extra) / (total + extra)) == pytest.approx(r.p_value)
    assert one(ax, "statistic").get_xdata()[0] == r.statistic
    assert bool(by_gid(ax, "mirror")) == (r.paired and alternative == "two-sided")


def test_the_bars_at_the_observed_value_are_not_hidden_under_its_lines():
    r = et.permutation_test(D)                      # paired, two-sided, exact: bars at +-observed are marked
    ax = r.plot()
    marked = by_gid(ax, "p-value")
    centres = np.concatenate([bar_centres(c) for c in marked])
    assert np.isclose(centres, r.statistic).any() and np.isclose(centres, -r.statistic).any()
    bar_colours = {tuple(np.round(colour[:3], 3)) for c in marked for colour in c.get_facecolor()}
    for gid in ("statistic", "mirror"):
        line = one(ax, gid)
        assert line.get_zorder() < min(c.get_zorder() for c in marked)
        assert tuple(np.round(plt.matplotlib.colors.to_rgb(line.get_color()), 3)) not in bar_colours


def test_the_caller_names_the_statistic():
    r = et.permutation_test(D)
    assert r.plot().get_xlabel() == "mean difference a − b"
    assert r.plot(statistic="accuracy difference, tree − NB").get_xlabel() == "accuracy difference, tree − NB"
    with pytest.raises(TypeError, match="statistic must be a string, got 3"):
        r.plot(statistic=3)
    with pytest.raises(ValueError, match="statistic must not be empty"):
        r.plot(statistic=" ")


def test_an_exact_test_draws_a_bar_per_distinct_rearranged_mean():
    r = et.permutation_test(D)
    ax = r.plot()
    centres = np.concatenate([bar_centres(c) for c in by_gid(ax, "null") + by_gid(ax, "p-value")])
    assert set(np.round(centres, 10)) == set(np.round(r.null_distribution, 10))


@pytest.mark.parametrize("method", ["bca", "percentile"])
@pytest.mark.parametrize("options", [dict(), dict(metric="auc"), dict(predictions_b=True)])
def test_the_bootstrap_picture_draws_both_intervals_and_the_estimate(method, options):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 80)
    if options.get("metric") == "auc":
        predictions = rng.random(80) + 0.6 * y
    else:
        predictions = np.where(rng.random(80) < 0.8, y, 1 - y)
    if options.get("predictions_b"):
        options = dict(predictions_b=np.where(rng.random(80) < 0.7, y, 1 - y))
    r = et.bootstrap_interval(y, predictions, method=method, n_resamples=500, **options)
    ax = r.plot()
    assert sorted(line.get_xdata()[0] for line in by_gid(ax, "percentile-end")) == pytest.approx(r.percentile_ends)
    assert sorted(line.get_xdata()[0] for line in by_gid(ax, "BCa-end")) == pytest.approx(r.bca_ends)
    assert x_span(one(ax, "interval")) == pytest.approx((r.low, r.high))
    assert (r.low, r.high) == (r.bca_ends if method == "bca" else r.percentile_ends)
    assert one(ax, "estimate").get_xdata()[0] == r.estimate
    shares = sum(heights(c).sum() for c in by_gid(ax, "null"))
    assert shares == pytest.approx(1.0)


def test_both_intervals_are_scipys_on_the_same_resamples():
    """scipy.stats.bootstrap draws its own resamples; given ours (the replicates' percentiles and
    the BCa levels from the jackknife), its formulas give the same ends: checked on the error rate,
    where the jackknife is the leave-one-out mean."""
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 60)
    pred = np.where(rng.random(60) < 0.75, y, 1 - y)
    r = et.bootstrap_interval(y, pred, n_resamples=4000, seed=5)
    errors = (pred != y).astype(float)
    mine = np.random.default_rng(5).integers(0, 60, size=(4000, 60))
    replicates = errors[mine].mean(axis=1)
    assert r.percentile_ends == pytest.approx(tuple(np.percentile(replicates, [2.5, 97.5])))
    # scipy's BCa with the same replicates: z0 from the share below, a from the jackknife
    z0 = stats.norm.ppf((np.sum(replicates < errors.mean()) + np.sum(replicates <= errors.mean())) / 8000)
    jack = (errors.sum() - errors) / 59
    u = jack.mean() - jack
    a = np.sum(u ** 3) / (6 * np.sum(u ** 2) ** 1.5)
    z = stats.norm.ppf([0.025, 0.975])
    levels = stats.norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
    assert r.bca_ends == pytest.approx(tuple(np.percentile(replicates, 100 * levels)))
