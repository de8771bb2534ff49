"""Pictures of comparisons over several data sets: Wilcoxon's bars carry the differences and their
ranks (adding up to R+ and R-), the Hodges-Lehmann estimate and interval are the result's; the
critical-difference diagrams put each algorithm at its average rank and join exactly the groups
that an independent pairwise check finds."""
import itertools

import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy import stats

import evalteach as et
from evalteach.example_scores import DEMSAR_ALGORITHMS, DEMSAR_AUC
from picture_checks import bar_centres, by_gid, heights, one

RNG = np.random.default_rng(5)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.mark.parametrize("zero_method", ["zsplit", "wilcox", "pratt"])
@pytest.mark.parametrize("pair", [(1, 0), (3, 0), (2, 1)])
def test_wilcoxon_bars_are_the_differences_and_their_ranks_add_up_to_r_plus_and_r_minus(zero_method, pair):
    a, b = DEMSAR_AUC[:, pair[0]], DEMSAR_AUC[:, pair[1]]
    r = et.wilcoxon_test(a, b, zero_method=zero_method)
    ax = r.plot()
    d = np.round(a - b, 12)
    by_size = np.lexsort((d, np.abs(d)))
    ranked = d != 0 if zero_method == "wilcox" else np.ones(d.size, bool)
    expected = np.full(d.size, np.nan)
    expected[ranked] = stats.rankdata(np.abs(d[ranked]))
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks == [("–" if np.isnan(x) else f"{x:g}") for x in expected[by_size]]
    ranks = np.array([np.nan if t == "–" else float(t) for t in ticks])
    positions = np.arange(1, d.size + 1)
    for gid, sign, total in (("positive", 1, r.r_plus), ("negative", -1, r.r_minus)):
        drawn = by_gid(ax, gid)
        mine = np.sign(d[by_size]) == sign
        if mine.any():
            np.testing.assert_allclose(bar_centres(drawn[0]), positions[mine])
            np.testing.assert_allclose(np.abs(heights(drawn[0])), np.abs(d[by_size][mine]))
        split = np.nansum(ranks[d[by_size] == 0]) / 2 if zero_method == "zsplit" else 0
        assert np.nansum(ranks[mine]) + split == pytest.approx(total)
    assert len(by_gid(ax, "zero")[0].get_xdata()) == r.n_zero if r.n_zero else not by_gid(ax, "zero")
    assert one(ax, "estimate").get_ydata()[0] == r.hodges_lehmann
    band = one(ax, "interval")  # an axhspan: a rectangle in data units along y
    assert (band.get_y(), band.get_y() + band.get_height()) == pytest.approx((r.hl_low, r.hl_high))


def test_wilcoxon_with_many_differences_draws_them_without_rank_labels():
    r = et.wilcoxon_test(RNG.normal(0.01, 0.02, 60), alternative="greater")
    ax = r.plot()
    assert len(bar_centres(one(ax, "positive"))) + len(bar_centres(one(ax, "negative"))) == 60
    assert r.p_method == "normal"  # more than 50 differences
    assert f"{et._format.p_text(r.p_value)} (one-sided, normal approximation)" in ax.get_title()


def _independent_groups(ranks, apart):
    """Maximal runs in rank order with no pair apart, found by checking every run."""
    order = list(np.argsort(ranks, kind="stable"))
    runs = [tuple(order[i:j + 1]) for i in range(len(order)) for j in range(i + 1, len(order))
            if not any(apart(x, y) for x, y in itertools.combinations(order[i:j + 1], 2))]
    return {run for run in runs if not any(set(run) < set(other) for other in runs)}


def _drawn_groups(ax, ranks):
    found = set()
    for line in ax.get_lines():
        if str(line.get_gid()).startswith("group-"):
            low, high = line.get_xdata()
            found.add(tuple(int(i) for i in np.argsort(ranks, kind="stable") if low < ranks[i] < high))
    return found


@pytest.mark.parametrize("alpha", [0.05, 0.1])
@pytest.mark.parametrize("scores", [DEMSAR_AUC, RNG.normal(size=(20, 7)) + np.linspace(0, 1.5, 7),
                                    RNG.normal(size=(6, 3))])
def test_the_cd_diagram_places_each_algorithm_at_its_rank_and_joins_the_nemenyi_groups(scores, alpha):
    r = et.friedman_test(scores)
    k = r.k
    names = tuple(DEMSAR_ALGORITHMS) if k == 4 else tuple(f"learner {i}" for i in range(k))
    ax = r.plot(names=names, alpha=alpha)
    for j in range(k):
        assert one(ax, f"leader-{j}").get_xdata()[0] == r.average_ranks[j]
        assert names[j] in one(ax, f"name-{j}").get_text()
        assert f"{r.average_ranks[j]:.2f}" in one(ax, f"name-{j}").get_text()
    cd = stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2) * np.sqrt(k * (k + 1) / (6 * r.n))
    low, high = one(ax, "cd").get_xdata()
    assert high - low == pytest.approx(cd)
    expected = _independent_groups(r.average_ranks, lambda i, j: abs(r.average_ranks[i] - r.average_ranks[j]) >= cd)
    assert _drawn_groups(ax, r.average_ranks) == expected == set(r.groups(alpha))
    title = ax.get_title()
    assert f"Friedman's $\\chi^2_F$ = {et._format.plain(r.statistic)}, {et._format.p_text(r.p_value)}" in title
    assert (f"Iman-Davenport's $F_F$ = {et._format.plain(r.iman_davenport)}, "
            f"{et._format.p_text(r.iman_davenport_p_value)}") in title


def test_the_diagram_refuses_names_that_do_not_fit():
    with pytest.raises(ValueError, match="names must be 4 strings"):
        et.friedman_test(DEMSAR_AUC).plot(names=["a", "b"])


@pytest.mark.parametrize("method", ["nemenyi", "holm", "bonferroni-dunn", "hochberg"])
@pytest.mark.parametrize("control", [None, 0, 3])
def test_the_posthoc_diagram_joins_what_its_tests_cannot_tell_apart(method, control):
    if method == "nemenyi" and control is not None:
        return
    scores = np.r_[DEMSAR_AUC, DEMSAR_AUC[:6] + 0.01 * np.arange(4)]
    r = et.friedman_posthoc(scores, control=control, method=method, names=DEMSAR_ALGORITHMS)
    ax = r.plot()
    significant = {frozenset(pair) for pair, sig in zip(r.pairs, r.significant) if sig}
    if control is None:
        expected = _independent_groups(r.average_ranks, lambda i, j: frozenset((i, j)) in significant)
    else:
        group = tuple(int(i) for i in np.argsort(r.average_ranks, kind="stable")
                      if i == control or frozenset((int(i), control)) not in significant)
        expected = {group} if len(group) > 1 else set()
        assert one(ax, f"name-{control}").get_fontweight() == "bold"
    assert _drawn_groups(ax, r.average_ranks) == expected == set(r.groups())


def test_wilcoxon_legend_names_the_shift_with_one_precision_and_the_title_p_is_optional():
    r = et.wilcoxon_test(DEMSAR_AUC[:, 1], DEMSAR_AUC[:, 0])
    assert (r.hl_low, r.hl_high) == pytest.approx((0.003, 0.0275))
    ax = r.plot()
    assert one(ax, "interval").get_label() == "95% interval for the shift\n[0.0030, 0.0275]"
    assert "Hodges-Lehmann estimate\nof the shift 0.013" == one(ax, "estimate").get_label()
    hidden = r.plot(show_p=False)
    assert "p =" not in hidden.get_title() and "p <" not in hidden.get_title()
    assert et._format.p_text(r.p_value) in ax.get_title()
    one_sided = et.wilcoxon_test(RNG.normal(0.01, 0.02, 60), alternative="greater")
    label = one(one_sided.plot(), "interval").get_label()
    assert label == f"95% lower bound for the shift\n{et._format.plain(one_sided.hl_low)}" and np.isinf(one_sided.hl_high)
    with pytest.raises(TypeError, match="show_p must be True or False, got 'no'"):
        r.plot(show_p="no")
