"""BayesianComparisonExplorer: the contract, and its numbers against evalteach.stats and scipy."""
import numpy as np
import pytest
from scipy import stats as sps

from evalteach._result import p_text
from evalteach.example_scores import DEMSAR_AUC
from evalteach.simulate import repeated_cv_errors
from evalteach.stats import bayesian_correlated_t_test, bayesian_signed_rank_test, corrected_resampled_t_test
from evalteach.widgets import BayesianComparisonExplorer
from evalteach.widgets.bayesian_comparison import DEMSAR_PAIRS, N_SAMPLES
from explorer_contract import check_contract


def test_contract_one_run():
    # one run of 10-fold CV keeps the contract's refits cheap; the defaults differ only in runs,
    # and tests/test_explorer_walk.py walks the default opening through every mode
    check_contract(BayesianComparisonExplorer, sweep=8, every_mode=False, runs=1)


def test_posterior_probabilities_equal_the_correlated_t_test_on_the_same_folds():
    e = BayesianComparisonExplorer(learner_a="naive_bayes", learner_b="stump", runs=5, rope=0.02, seed=1)
    r = e.result
    d = (repeated_cv_errors("breast_cancer", "naive_bayes", 5, 10, 1)
         - repeated_cv_errors("breast_cancer", "stump", 5, 10, 1))
    np.testing.assert_array_equal(r.differences, d)
    ref = bayesian_correlated_t_test(d, test_train_ratio=1 / 9, rope=0.02)
    assert (r.bayes.p_left, r.bayes.p_rope, r.bayes.p_right) == (ref.p_left, ref.p_rope, ref.p_right)
    # and from first principles: Student t, n - 1 df, scale sqrt((1/n + rho/(1-rho)) s^2), rho = 1/10
    n, rho = d.size, 0.1
    scale = np.sqrt((1 / n + rho / (1 - rho)) * d.var(ddof=1))
    posterior = sps.t(n - 1, loc=d.mean(), scale=scale)
    assert r.bayes.p_left == pytest.approx(posterior.cdf(-0.02))
    assert r.bayes.p_right == pytest.approx(posterior.sf(0.02))
    freq = corrected_resampled_t_test(d, test_train_ratio=1 / 9)
    assert (r.frequentist.p_value, r.frequentist.low, r.frequentist.high) == (freq.p_value, freq.low, freq.high)
    assert f"{ref.p_rope:.3f}" in e._summary_html.value and "not p-values" in e._summary_html.value


def test_a_wider_rope_moves_probability_into_it():
    e = BayesianComparisonExplorer(rope=0.0)
    assert e.result.bayes.p_rope == 0.0
    inside = []
    for rope in (0.005, 0.01, 0.02, 0.04):
        e.controls["rope"].value = rope
        inside.append(e.result.bayes.p_rope)
        b = e.result.bayes
        assert b.p_left + b.p_rope + b.p_right == pytest.approx(1.0)
    assert np.all(np.diff(inside) > 0)


def test_many_data_sets_mode_equals_the_signed_rank_test_on_demsars_table():
    e = BayesianComparisonExplorer(mode="multiple", pair="C4.5+m vs C4.5", rope=0.01, seed=4)
    r = e.result
    d = DEMSAR_AUC[:, 1] - DEMSAR_AUC[:, 0]
    ref = bayesian_signed_rank_test(d, rope=0.01, n_samples=N_SAMPLES, seed=4)
    assert (r.bayes.p_left, r.bayes.p_rope, r.bayes.p_right) == (ref.p_left, ref.p_rope, ref.p_right)
    # Demšar splits the ranks of the two zero differences between R+ and R- (scipy's "zsplit")
    assert r.frequentist.p_value == pytest.approx(sps.wilcoxon(d, zero_method="zsplit").pvalue)
    assert set(e.visible_controls()) == {"rope", "mode", "pair"}


def test_bad_values_are_refused():
    with pytest.raises(ValueError, match="rope"):
        BayesianComparisonExplorer(rope=0.5)
    with pytest.raises(ValueError, match="pair"):
        BayesianComparisonExplorer(pair="J48 vs C4.5")


def test_picture_names_the_learners_and_keeps_the_two_tests_apart():
    e = BayesianComparisonExplorer(dataset="breast_cancer", learner_a="naive_bayes", learner_b="1nn", runs=10,
                                   rope=0.01, seed=0)
    e.figure.canvas.draw()
    from evalteach.learners import LEARNER_LABELS, LEARNERS

    assert set(LEARNER_LABELS) == set(LEARNERS)          # every learner has a printed name
    r = e.result
    assert r.names == ("naive_bayes", "1nn") and r.label.startswith("error of naive Bayes − 1-NN")
    assert "A: naive Bayes, B: 1-NN;" in e.ax.get_xlabel()               # the bars speak of A and B
    ticks = [t.get_text() for t in e.bars_ax.get_xticklabels()]
    assert ticks == ["A better\nby > rope", "practically\nequivalent", "B better\nby > rope"]
    # the right panel is the Bayesian test alone; the corrected t-test's p sits with its interval
    right = e.right_title.get_text()
    assert right.startswith("Bayesian correlated t-test") and "corrected" not in right
    assert e.ax.get_legend().get_texts()[0].get_text().startswith("corrected resampled t-test")
    numbers = e.interval_text.get_text()
    assert f"[{r.frequentist.low:+.3f}, {r.frequentist.high:+.3f}]" in numbers
    assert f"t-test {p_text(r.frequentist.p_value)} (not significant at 5%)" in numbers
    assert "p = 0.0730 (not" in numbers  # three figures, trailing zero kept
    assert e.rope_title.get_text() == "rope ±0.01 (1 point)"


def test_one_colour_means_one_learner_better_in_both_modes():
    from matplotlib.colors import to_hex

    from evalteach.widgets.bayesian_comparison import A_BETTER, B_BETTER

    e = BayesianComparisonExplorer(runs=1)
    # errors: below the rope learner A is better
    assert [to_hex(b.get_facecolor()) for b in e.bars][::2] == [to_hex(A_BETTER), to_hex(B_BETTER)]
    e.set(mode="multiple")
    # AUC: above the rope learner A is better, and it keeps A's colour
    assert [to_hex(b.get_facecolor()) for b in e.rank_bars][::2] == [to_hex(B_BETTER), to_hex(A_BETTER)]
    assert to_hex(e.dots.get_color()) not in (to_hex(A_BETTER), to_hex(B_BETTER))


def test_signed_rank_bars_say_most_probable_and_show_the_posterior_means():
    e = BayesianComparisonExplorer(mode="multiple", pair="C4.5+m vs C4.5", rope=0.01, seed=0)
    e.figure.canvas.draw()
    assert "(A: C4.5+m, B: C4.5)" in e.dots_ax.get_xlabel()
    assert "posterior probability" not in e.rank_ax.get_ylabel() and "most probable" in e.rank_ax.get_ylabel()
    assert all("most probable" in t.get_text() for t in e.rank_ax.get_xticklabels())
    b = e.result.bayes
    assert f"{b.mean_theta[2]:.3f}" in e._summary_html.value and f"{b.p_right:.3f}" in e._summary_html.value


def test_the_axis_holds_when_only_the_number_of_runs_changes():
    e = BayesianComparisonExplorer(dataset="breast_cancer", learner_a="naive_bayes", learner_b="1nn", runs=10,
                                   rope=0.01, seed=0)
    ten = e.ax.get_xlim()
    e.set(runs=1)
    assert e.ax.get_xlim() == ten                       # so the two widths can be compared by eye
    one = bayesian_correlated_t_test(e.result.differences, test_train_ratio=1 / 9)
    assert ten[0] <= one.mean_difference - 4.5 * one.scale and one.mean_difference + 4.5 * one.scale <= ten[1]
    assert f"scale {one.scale:.4f}" in e.ax.get_xlabel()             # the widths, in numbers


def test_no_control_redraws_the_whole_figure(monkeypatch):
    # issue 13's latency budget: after the first draw every change is drawn over cached pixels
    e = BayesianComparisonExplorer(runs=1)
    full_draws = []
    monkeypatch.setattr(e.figure.canvas, "draw", lambda *a, **k: full_draws.append(1))
    for values in ({"rope": 0.03}, {"learner_a": "stump"}, {"dataset": "iris"}, {"runs": 5},
                   {"mode": "multiple"}, {"pair": list(DEMSAR_PAIRS)[2]}, {"rope": 0.0}, {"mode": "single"}):
        before = e.image
        e.set(**values)
        assert e.error is None and e.image != before, values
    assert full_draws == []


def test_pictures_pasted_from_the_cache_equal_pictures_drawn_afresh():
    e = BayesianComparisonExplorer(runs=1)
    first = e.image
    e.set(mode="multiple")
    multiple = e.image
    e.set(mode="single", learner_b="tree")
    e.set(learner_b="1nn")                   # back to the first comparison: pasted from the cache
    assert e.image == first
    e.set(mode="multiple")
    assert e.image == multiple
    e.frame_layer.clear()                    # drawn afresh, layer by layer
    e.set(rope=0.02)
    e.set(rope=0.01)
    assert e.image == multiple
    e.frame_layer.clear()
    e.set(mode="single")
    assert e.image == first
