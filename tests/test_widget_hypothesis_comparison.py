"""HypothesisComparisonExplorer: the z test for two hypotheses, independent or shared test set."""
import itertools

import numpy as np
import pytest
from scipy import stats

from evalteach.stats import compare_hypotheses, mcnemar_test, table_confidence
from evalteach.widgets.hypothesis_comparison import HypothesisComparisonExplorer
from explorer_contract import check_contract


def test_contract_with_defaults():
    check_contract(HypothesisComparisonExplorer)


def test_contract_with_mooneys_second_example():
    check_contract(HypothesisComparisonExplorer, sweep=40, error1=0.20, error2=0.25, n1=100, n2=100)


@pytest.mark.parametrize("e2, z, two, one", [(0.30, 1.644, 0.90, 0.95), (0.25, 0.848, 0.50, 0.75)])
def test_mooneys_examples_show_the_slides_numbers(e2, z, two, one):
    e = HypothesisComparisonExplorer(error1=0.20, error2=e2)
    r = e.result
    assert abs(r.statistic) == pytest.approx(z, abs=1e-3)
    assert (r.table_confidence, r.table_one_sided_confidence) == (two, one)
    ref = compare_hypotheses(0.20, 100, e2, 100)
    assert r.statistic == ref.statistic and r.p_value == ref.p_value and r.se == ref.se
    assert r.two_sided_confidence == pytest.approx(ref.two_sided_confidence)
    assert r.one_sided_confidence == pytest.approx(ref.one_sided_confidence)
    assert f"{100 * two:g}% two-sided" in e._summary_html.value


def test_numbers_follow_every_control():
    e = HypothesisComparisonExplorer()
    e.set(error1=0.12, n1=250, error2=0.18, n2=400, confidence=0.9)
    ref = compare_hypotheses(0.12, 250, 0.18, 400, confidence=0.9)
    r = e.result
    assert (r.statistic, r.p_value, r.comparison.low, r.comparison.high) == (
        ref.statistic, ref.p_value, ref.low, ref.high)
    assert r.table_confidence == table_confidence(ref.statistic)
    assert r.one_sided_p_value == pytest.approx(stats.norm.sf(abs(ref.statistic)))


def test_shared_test_set_uses_mcnemar_on_the_disagreements():
    e = HypothesisComparisonExplorer(test_sets="same", both_wrong=0.15)
    r = e.result
    assert (r.only1, r.only2, r.both) == (5, 15, 15)
    ref = mcnemar_test(15, 5, correction=False)
    assert r.p_value == ref.p_value and r.mcnemar.statistic == ref.statistic
    assert r.statistic == pytest.approx(-np.sqrt(20 / 4 * 1.0))  # (5 - 15) / sqrt(20)
    assert r.p_value == pytest.approx(2 * stats.norm.sf(10 / np.sqrt(20)))
    # pairing makes the same error rates more convincing than on independent sets
    assert abs(r.statistic) > abs(r.comparison.statistic)
    assert "McNemar" in e._summary_html.value


def test_more_agreement_means_stronger_evidence_and_infeasible_overlap_is_clipped():
    weak = HypothesisComparisonExplorer(test_sets="same", both_wrong=0.05).result
    strong = HypothesisComparisonExplorer(test_sets="same", both_wrong=0.20).result
    assert abs(strong.statistic) > abs(weak.statistic)
    clipped = HypothesisComparisonExplorer(test_sets="same", both_wrong=0.9).result
    assert clipped.both == 20 and clipped.only1 == 0 and clipped.only2 == 10


@pytest.mark.parametrize("alternative, expected", [("two", lambda z: 2 * stats.norm.sf(abs(z))),
                                                   ("less", stats.norm.cdf), ("greater", stats.norm.sf)])
def test_the_p_value_shown_is_the_one_of_the_alternative_fixed_in_advance(alternative, expected):
    e = HypothesisComparisonExplorer(error1=0.20, error2=0.30, alternative=alternative)
    r = e.result
    assert r.test_p_value == pytest.approx(expected(r.statistic))
    # "h2 better" when h1 happened to be better: the p-value is large, the direction is not flipped
    if alternative == "greater":
        assert r.test_p_value > 0.9 and not r.rejects
    if alternative == "less":
        assert r.test_p_value == pytest.approx(0.05, abs=1e-3)
    assert f"p = {r.test_p_value:.3f}" in e.z_text.get_text()
    tails = e.tail_low.get_xy()[:, 0], e.tail_high.get_xy()[:, 0]
    shaded = [np.ptp(x) > 0 for x in tails]
    assert shaded == {"two": [True, True], "less": [True, False], "greater": [False, True]}[alternative]


def test_verdict_and_interval_follow_the_chosen_level():
    e = HypothesisComparisonExplorer(error1=0.20, error2=0.30, confidence=0.9)
    ref = compare_hypotheses(0.20, 100, 0.30, 100, confidence=0.9)
    assert (e.result.low, e.result.high) == pytest.approx((ref.low, ref.high))
    np.testing.assert_allclose(e.d_interval.get_xdata(), [ref.low, ref.high])
    assert "not significant" in e.z_text.get_text()  # p = 0.100 is not below 0.10
    e.controls["confidence"].value = 0.8
    assert "significant at α = 0.2" in e.z_text.get_text() and "not" not in e.z_text.get_text()


def test_controls_a_mode_does_not_use_are_hidden():
    e = HypothesisComparisonExplorer()
    assert e._hidden(e.state) == {"both_wrong"}
    e.controls["test_sets"].value = "same"
    assert e._hidden(e.state) == {"n2"}
    before = e.image
    e.controls["n2"].value = 500  # the shared set has one size: n2 changes nothing
    assert e.image == before


def test_jumps_and_mode_switches_never_need_a_full_redraw(full_redraws):
    e = HypothesisComparisonExplorer()
    full = full_redraws(e)
    rng = np.random.default_rng(3)
    for _ in range(40):
        e.set(error1=round(rng.uniform(0.01, 0.99), 2), error2=round(rng.uniform(0.01, 0.99), 2),
              n1=int(rng.integers(1, 101)) * 10, n2=int(rng.integers(1, 101)) * 10,
              test_sets=["independent", "same"][rng.integers(2)],
              alternative=["two", "less", "greater"][rng.integers(3)])
        assert e.error is None
    assert not full


def test_the_difference_panel_zooms_to_the_interval_and_the_null_curve():
    e = HypothesisComparisonExplorer(error1=0.2, n1=1000, error2=0.3, n2=1000)  # interval [-0.138, -0.062]
    r = e.result
    low, high = e.ax_diff.get_xlim()
    assert (low, high) == (-0.3, 0.3)  # not -1..1: the interval fills a readable share
    assert low < r.low - 0.03 and r.high + 0.03 < high and 4 * r.se < high
    x, _ = e.null_curve.get_data()
    assert x.min() == pytest.approx(low) and x.max() == pytest.approx(high)
    e.controls["error2"].value = 0.9  # a far larger difference: the panel widens to hold it
    r = e.result
    low, high = e.ax_diff.get_xlim()
    assert low < r.low - 0.03 and r.high + 0.03 < high <= 1.0
    shown = e.z_alternative.get_text() + "\n" + e.z_text.get_text()
    assert shown.startswith("alternative: the errors differ\nz = ") and "H1" not in shown
    assert "one-sided) column" not in e._summary_html.value


def _drawn_positions(e):
    """Every coordinate the explorer's lines, texts and polygons are drawn at, and its axis limits."""
    values = []
    for ax in e.figure.axes:
        values += [*ax.get_xlim(), *ax.get_ylim()]
        values += [x for line in ax.lines for x in line.get_xydata().ravel()]
        values += [x for text in ax.texts for x in text.get_position()]
        values += [x for patch in ax.patches if hasattr(patch, "get_xy") for x in np.ravel(patch.get_xy())]
    return np.array(values, dtype=float)


def test_no_errors_on_a_small_shared_set_draw_both_as_spikes():
    # audit bug 1: 0.02 and 0.03 of 10 round to 0 errors, whose estimated sigma is 0
    e = HypothesisComparisonExplorer(test_sets="same", n1=10, error1=0.02, error2=0.03)
    assert e.error is None and np.isfinite(_drawn_positions(e)).all()
    r = e.result
    assert (r.error1, r.error2, r.sd1, r.sd2, r.se) == (0, 0, 0, 0, 0)
    for curve in (e.curve1, e.curve2):
        np.testing.assert_array_equal(curve.get_xdata(), [0, 0])  # a spike at 0, not a curve
        assert curve.get_ydata()[1] > 0
    # no disagreements: d has no spread either, its null distribution is a spike at 0
    np.testing.assert_array_equal(e.null_curve.get_data(), [[0, 0], [0, 1]])
    ref = mcnemar_test(0, 0, correction=False)
    assert (r.statistic, r.p_value) == (0, ref.p_value) == (0, 1)
    assert "both sample errors are 0" in e.err_note.get_text() and "σ = 0" in e.err_note.get_text()
    summary = e._summary_html.value
    assert "Since both sample errors are 0" in summary and "says nothing here" in summary
    assert "never disagree" in summary and "0/0, undefined" in summary
    # no evidence is not proof of equality: Tango's interval still allows a difference
    assert (r.low, r.high) == (mcnemar_test(0, 0, n=10).low, mcnemar_test(0, 0, n=10).high)
    assert r.high == pytest.approx(0.278, abs=5e-4) and "[-0.278, 0.278] (Tango's score interval)" in e._summary(r)
    # the same state reached by setting the controls
    e = HypothesisComparisonExplorer()
    e.set(test_sets="same", n1=10, error1=0.02, error2=0.03)
    assert e.error is None and "σ = 0" in e.err_note.get_text()


def test_one_error_count_of_zero_keeps_its_spike_and_label_in_the_picture():
    # audit bug 2: h2 makes 0 of 10 errors; its curve and its label were placed at NaN
    e = HypothesisComparisonExplorer(test_sets="same", n1=10, error1=0.6, error2=0.01, both_wrong=0)
    assert e.error is None and np.isfinite(_drawn_positions(e)).all()
    r = e.result
    assert (r.only1, r.only2, r.both) == (6, 0, 0)
    ref = mcnemar_test(0, 6, correction=False)
    assert r.mcnemar.statistic == ref.statistic and r.p_value == ref.p_value
    assert r.statistic == pytest.approx(np.sqrt(6))
    assert r.comparison.statistic == compare_hypotheses(0.6, 10, 0.0, 10).statistic
    np.testing.assert_array_equal(e.curve2.get_xdata(), [0, 0])
    top1 = stats.norm.pdf(0, 0, r.sd1)
    assert e.curve2.get_ydata()[1] == pytest.approx(top1)  # as tall as h1's peak
    assert e.label2.get_position() == pytest.approx((-0.01, top1))  # beside its spike, inside the panel
    assert e.ax_err.get_xlim()[0] < -0.01
    assert e.err_note.get_text().startswith("h2's sample error is 0, so\nσ = 0")
    assert "Since h2's sample error is 0" in e._summary_text
    assert "centred on the" in HypothesisComparisonExplorer().err_note.get_text()


def test_agreeing_on_every_instance_shows_a_spike_for_d_and_says_why():
    e = HypothesisComparisonExplorer(test_sets="same", n1=100, error1=0.2, error2=0.2, both_wrong=0.5)
    r = e.result
    assert e.error is None and (r.only1, r.only2, r.both, r.se) == (0, 0, 20, 0)
    assert r.low < 0 < r.high  # Tango's interval: no disagreement in 100 still allows a small difference
    np.testing.assert_array_equal(e.null_curve.get_data(), [[0, 0], [0, 1]])
    summary = e._summary_html.value
    assert "never disagree" in summary and "does not show the errors are equal" in summary and "Since" not in summary


def test_a_shared_test_set_gives_tangos_interval_within_the_possible_differences():
    # the spread d has if d = 0 gave [0.120, 1.080] here: past the largest possible difference
    e = HypothesisComparisonExplorer(test_sets="same", n1=10, error1=0.6, error2=0.01, both_wrong=0)
    r = e.result
    ref = mcnemar_test(0, 6, n=10)
    assert (r.low, r.high) == (ref.low, ref.high) and -1 <= r.low < r.difference < r.high <= 1
    assert (round(r.low, 3), round(r.high, 3)) == (0.156, 0.832)
    summary = e._summary_html.value
    assert "the exact McNemar test gives p = 0.0312" in summary  # 6 disagreements: chi-square is rough


def test_every_extreme_state_draws_finite_artists_without_error(full_redraws):
    e = HypothesisComparisonExplorer()
    full = full_redraws(e)
    ends = [0.01, 0.04, 0.5, 0.96, 0.99]
    alternatives = itertools.cycle(["two", "less", "greater"])
    levels = itertools.cycle([0.8, 0.99])
    states = [dict(test_sets="same", n1=n1, both_wrong=both) for n1 in (10, 1000) for both in (0.0, 0.99)]
    states += [dict(test_sets="independent", n1=n1, n2=n2) for n1 in (10, 1000) for n2 in (10, 1000)]
    for state, e1, e2 in itertools.product(states, ends, ends):
        e.set(**state, error1=e1, error2=e2, alternative=next(alternatives), confidence=next(levels))
        where = f"{state}, error1={e1}, error2={e2}"
        assert e.error is None, where
        assert np.isfinite(_drawn_positions(e)).all(), where
        shown = e._summary_html.value + e.z_text.get_text() + e.d_title.get_text()
        assert "nan" not in shown and "inf" not in shown, where
    assert not full


def test_the_difference_panel_labels_its_ticks_from_the_first_picture():
    # opened zoomed out to the widest range: the ticks were matplotlib's, not the panel's
    e = HypothesisComparisonExplorer(test_sets="same", n1=10, error1=0.6, error2=0.01, both_wrong=0)
    assert e.ax_diff.get_xlim() == (-1.0, 1.0)
    assert [t.get_text() for t in e.ax_diff.get_xticklabels()] == ["−1", "−0.5", "0", "0.5", "1"]


@pytest.mark.parametrize("test_sets", ["independent", "same"])
@pytest.mark.parametrize("alternative", ["two", "less", "greater"])
def test_the_interval_drawn_matches_the_sidedness_of_the_test(test_sets, alternative):
    """Issue 22: a two-sided interval was drawn beside a one-sided test. The interval now
    excludes 0 exactly when the test chosen in advance rejects."""
    e = HypothesisComparisonExplorer(test_sets=test_sets, alternative=alternative)
    rng = np.random.default_rng(7)
    for _ in range(25):
        e.set(error1=round(rng.uniform(0.05, 0.6), 2), error2=round(rng.uniform(0.05, 0.6), 2),
              n1=int(rng.integers(3, 60)) * 10, n2=int(rng.integers(3, 60)) * 10,
              both_wrong=round(rng.uniform(0, 0.3), 2), confidence=[0.8, 0.9, 0.95, 0.99][rng.integers(4)])
        r = e.result
        assert e.error is None
        if alternative == "less":
            assert r.low == -np.inf and np.isfinite(r.high)
        elif alternative == "greater":
            assert r.high == np.inf and np.isfinite(r.low)
        if test_sets == "independent":  # the half-infinite interval of evalteach.stats
            ref = compare_hypotheses(r.error1, r.n1, r.error2, r.n2, confidence=r.confidence,
                                     alternative={"two": "two-sided"}.get(alternative, alternative))
            assert (r.low, r.high) == pytest.approx((ref.low, ref.high))
            z = stats.norm.ppf(r.confidence if alternative != "two" else (1 + r.confidence) / 2)
            if alternative == "less":
                assert r.high == pytest.approx(r.difference + z * r.se)
            elif alternative == "greater":
                assert r.low == pytest.approx(r.difference - z * r.se)
        elif alternative != "two":  # Tango's bound: an end of the two-sided interval at 2c - 1
            ref = mcnemar_test(r.only2, r.only1, correction=False, confidence=2 * r.confidence - 1, n=r.n1)
            assert (r.high if alternative == "less" else r.low) == pytest.approx(
                ref.high if alternative == "less" else ref.low)
        p = {"two": 2 * stats.norm.sf(abs(r.statistic)), "less": stats.norm.cdf(r.statistic),
             "greater": stats.norm.sf(r.statistic)}[alternative]
        if abs(p - (1 - r.confidence)) > 1e-9:  # away from the boundary itself
            assert (not r.low <= 0 <= r.high) == (p < 1 - r.confidence) == r.rejects
        # drawn: the finite part inside the panel, an arrowhead at the open end
        x = e.d_interval.get_xdata()
        width = e.ax_diff.get_xlim()[1]
        assert np.isfinite(x).all() and -width < x[0] <= x[1] < width
        marker = {"two": "None", "less": "<", "greater": ">"}[alternative]
        assert e.d_open.get_marker() == marker
        if alternative == "two":
            np.testing.assert_allclose(x, [r.low, r.high])
            assert e.interval_text.get_text() == f"{r.confidence:.0%} interval for d"
        else:
            bound = "upper" if alternative == "less" else "lower"
            assert e.interval_text.get_text() == f"{r.confidence:.0%} {bound} bound for d (one-sided)"
            assert np.isclose(x[1] if alternative == "less" else x[0], r.high if alternative == "less" else r.low)
            assert "one-sided 95%" in e._summary(e.result).replace(f"{r.confidence:.0%}", "95%")


def test_the_difference_panel_shows_what_sigma_d_is_made_of_in_each_mode():
    """Issue 22: paired mode showed one sigma and not what it came from."""
    e = HypothesisComparisonExplorer(error1=0.2, n1=100, error2=0.3, n2=200)
    r = e.result
    first, second = e.d_title.get_text().split("\n")
    assert first == f"d̂ = {r.difference:.3f},  σ_d = {r.se:.4f}"
    assert r.se == pytest.approx(np.hypot(r.sd1, r.sd2))
    assert second == f"= √(σ1² + σ2²), σ1 = {np.sqrt(0.2 * 0.8 / 100):.4f}, σ2 = {np.sqrt(0.3 * 0.7 / 200):.4f}"
    e.set(test_sets="same", both_wrong=0.15)
    r = e.result
    first, second = e.d_title.get_text().split("\n")
    b, c = r.only2, r.only1  # only h1 right, only h2 right (mcnemar_test's b and c)
    assert (b, c) == (15, 5)
    assert r.se == pytest.approx(np.sqrt(b + c) / 100) and first == f"d̂ = {r.difference:.3f},  σ_d = {r.se:.4f}"
    assert second == "= √(b + c)/n, b = 15, c = 5, n = 100"
    assert r.statistic == pytest.approx((c - b) / np.sqrt(b + c))  # McNemar's z uses exactly this sigma
    assert "σ_d = √(b + c)/n = 0.0447" in e._summary_html.value
