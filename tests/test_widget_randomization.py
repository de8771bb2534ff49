"""RandomizationExplorer: the contract, and its numbers against evalteach.stats and scipy."""
import numpy as np
import pytest
from scipy import stats as sps

from evalteach._format import p_text
from evalteach.simulate import fold_errors, holdout_predictions
from evalteach.stats import bootstrap_interval, paired_t_test, permutation_test, proportion_interval
from evalteach.widgets import RandomizationExplorer
from evalteach.widgets._cached_layer import PIXELS
from explorer_contract import check_contract


def test_contract_defaults():
    # every control in every mode: tests/test_explorer_walk.py walks this opening
    check_contract(RandomizationExplorer, sweep=10, every_mode=False)


def test_contract_bootstrap_mode_on_wine():
    # learner B and k are hidden in bootstrap mode (one learner's test error): they may not act;
    # the controls of bootstrap mode in every state: tests/test_explorer_walk.py (mode=bootstrap)
    check_contract(RandomizationExplorer, sweep=6, unchanged_ok=("learner_b", "k"), every_mode=False,
                   mode="bootstrap", dataset="wine", resamples=500)


def test_contract_with_own_scores():
    a = [0.12, 0.08, 0.10, 0.15, 0.09, 0.11, 0.13]
    b = [0.10, 0.09, 0.07, 0.12, 0.10, 0.08, 0.10]
    # your own scores replace the bundled data: its controls are hidden and cannot act
    e = check_contract(RandomizationExplorer, sweep=5, unchanged_ok=("dataset", "learner_a", "learner_b", "k"),
                       a=a, b=b)
    assert set(e.visible_controls()) == {"resamples"}
    np.testing.assert_allclose(e.result.differences, np.subtract(a, b))


def test_p_value_and_null_equal_permutation_test_on_the_same_folds():
    e = RandomizationExplorer(seed=3, k=10, learner_a="naive_bayes", learner_b="stump", resamples=700)
    r = e.result
    d = fold_errors("breast_cancer", "naive_bayes", 10, 3) - fold_errors("breast_cancer", "stump", 10, 3)
    np.testing.assert_array_equal(r.differences, d)
    ref = permutation_test(d, n_resamples=700, seed=3)  # 700 < 1024 patterns: Monte Carlo
    assert not ref.exact
    np.testing.assert_array_equal(r.null, ref.null_distribution)
    assert r.p_value == ref.p_value
    assert r.observed == pytest.approx(ref.statistic)
    assert r.t_test.p_value == pytest.approx(sps.ttest_rel(*[fold_errors("breast_cancer", n, 10, 3)
                                                            for n in ("naive_bayes", "stump")]).pvalue)
    assert f"{r.p_value:.4f}" in e._summary_html.value
    # grown by the buttons in steps, the stream is the same as drawn at once
    steps = RandomizationExplorer(seed=3, k=10, learner_a="naive_bayes", learner_b="stump", resamples=0)
    for _ in range(7):
        steps._step_buttons[2].click()  # +100
    np.testing.assert_array_equal(steps.result.null, r.null)
    assert steps.result.p_value == r.p_value


def test_growing_p_value_converges_to_the_exact_permutation_p():
    e = RandomizationExplorer(k=10, resamples=10)
    d = e.result.differences
    exact = permutation_test(d, n_resamples=2 ** 10)
    assert exact.exact and e.result.exact.p_value == exact.p_value
    e.add(1000)
    assert e.result.resamples == 1010
    e.controls["resamples"].value = 100_000
    r = e.result
    monte_carlo_se = np.sqrt(exact.p_value * (1 - exact.p_value) / r.resamples)
    assert abs(r.p_value - exact.p_value) < 4 * monte_carlo_se
    assert r.trace_b[-1] == 100_000 and r.trace_p[-1] == r.p_value


def test_running_p_counts_both_tails_of_the_drawn_sign_patterns():
    """The running Monte Carlo p after every B is (#{|T*| >= |T|} among the first B + 1) / (B + 1),
    counted here from sign patterns drawn independently of the library with the same stream;
    it converges to the exact p. The B axis ends past the current B, the p axis shows 0.05."""
    d = np.array([0.03, 0.05, -0.01, 0.02, 0.04, 0.0, 0.03, -0.02, 0.06, 0.01, 0.02, 0.04])
    e = RandomizationExplorer(a=d, resamples=3000, seed=4)
    r = e.result
    signs = np.where(np.random.default_rng(4).random((3000, d.size)) < 0.5, -1.0, 1.0)
    far = np.abs((signs * d).mean(axis=1)) >= abs(d.mean()) - 1e-12
    running = (np.cumsum(far) + 1) / (np.arange(1, 3001) + 1)
    assert r.p_value == running[-1] and r.p_value == permutation_test(d, n_resamples=3000, seed=4).p_value
    np.testing.assert_allclose(r.trace_p, running[r.trace_b - 1], rtol=0, atol=0)
    assert running[0] == (1.0 if far[0] else 0.5)  # (1 + 1) / 2 or (0 + 1) / 2: never below 1/(B + 1)
    assert e.side.get_xlim()[1] == pytest.approx(3 * 5000) and e.side.get_yscale() == "log"
    assert e.level_line.get_ydata()[0] == pytest.approx(0.05) and e.level_line.get_visible()
    e.controls["resamples"].value = 100_000
    exact = permutation_test(d, n_resamples=2 ** 12)
    assert exact.exact and abs(e.result.p_value - exact.p_value) < 4 * np.sqrt(exact.p_value / 100_000)
    assert e.side.get_xlim()[1] == pytest.approx(3 * 100_000)
    assert "either side" in e._summary_html.value and "Randomisation test" in e._heading.value


def test_exact_p_on_a_worked_example():
    # 6 differences, 64 sign patterns: 6 of them have a mean >= 0.0183 and 6 <= -0.0183 -> p = 12/64
    e = RandomizationExplorer(a=[0.02, 0.01, 0.03, -0.01, 0.02, 0.04], resamples=0)
    assert e.result.exact.p_value == pytest.approx(0.09375)
    assert e.result.p_value is None and "no resamples" in e._summary_html.value


def test_bootstrap_intervals_equal_bootstrap_interval():
    e = RandomizationExplorer(mode="bootstrap", learner_a="1nn", seed=2, resamples=2000)
    r = e.result
    y, pred = holdout_predictions("breast_cancer", "1nn", 2)
    for method, shown in (("percentile", r.percentile), ("bca", r.bca)):
        ref = bootstrap_interval(y, pred, metric="error", method=method, n_resamples=2000, seed=2)
        assert shown == pytest.approx((ref.low, ref.high), abs=1e-12)
        np.testing.assert_array_equal(r.replicates, ref.replicates)
    assert r.estimate == pytest.approx(np.mean(y != pred))
    w = proportion_interval(int(np.sum(y != pred)), y.size, 0.95, method="wilson")
    assert (r.wilson.low, r.wilson.high) == pytest.approx((w.low, w.high))
    wald = proportion_interval(int(np.sum(y != pred)), y.size, 0.95, method="wald")
    assert (r.wald.low, r.wald.high) == pytest.approx((wald.low, wald.high))
    assert set(e.visible_controls()) == {"mode", "dataset", "learner_a", "resamples"}
    # the heading and summary speak of a bootstrap distribution, promise coverage only for Wilson,
    # and the title names the learner readably; the dashed lines mark the percentile ends
    assert "bootstrap distribution" in e._heading.value and "null" not in e._heading.value
    assert "Wilson&#x27;s intervals cover" in e._summary_html.value and "1-nearest neighbour" in r.label
    np.testing.assert_allclose([seg[0][0] for seg in e.ends.get_segments()], r.percentile)


def test_bootstrap_with_own_test_set_and_few_resamples():
    y = np.array([0, 1] * 30)
    pred = y.copy()
    pred[:9] = 1 - pred[:9]
    e = RandomizationExplorer(y_true=y, predictions=pred, resamples=5)
    assert e.result.mode == "bootstrap" and e.result.estimate == pytest.approx(9 / 60)
    assert e.result.percentile is None and "at least 10" in e._summary_html.value
    e.add(95)
    ref = bootstrap_interval(y, pred, method="bca", n_resamples=100, seed=0)
    assert e.result.bca == pytest.approx((ref.low, ref.high), abs=1e-12)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="a"):
        RandomizationExplorer(a=[0.1])
    with pytest.raises(ValueError, match="same length|b"):
        RandomizationExplorer(a=[0.1, 0.2, 0.3], b=[0.1, 0.2])
    with pytest.raises(TypeError, match="y_true and predictions"):
        RandomizationExplorer(y_true=[0, 1, 1])
    with pytest.raises(TypeError, match="without a"):
        RandomizationExplorer(b=[0.1, 0.2])
    with pytest.raises(ValueError, match="mode"):
        RandomizationExplorer(mode="jackknife")
    with pytest.raises(ValueError, match="count"):
        RandomizationExplorer(resamples=0).add(-1)


def _count_draws(artist, monkeypatch):
    drawn = []
    draw = artist.draw
    monkeypatch.setattr(artist, "draw", lambda *a, **k: (drawn.append(1), draw(*a, **k)))
    return drawn


def test_no_control_redraws_the_whole_figure_and_kept_layers_show_what_a_fresh_draw_shows(monkeypatch):
    """Mode, axes and data texts are cached layers (CachedLayer): no change redraws the
    whole figure, going back to states shown before (once the limits have settled) draws no
    axis, and every picture equals the one drawn afresh, layer by layer."""
    e = RandomizationExplorer(seed=1)
    states = ({"mode": "bootstrap", "dataset": "breast_cancer"}, {"mode": "permutation"},
              {"dataset": "wine"}, {"dataset": "breast_cancer", "k": 10})
    for state in states:
        e.set(**state)
    full = _count_draws(e.figure.canvas, monkeypatch)
    axis = _count_draws(e.ax.xaxis, monkeypatch)
    for state in states:
        e.set(**state)
        assert e.error is None and not axis, f"{state}: the axes drawn again on going back to a frame"
    for state in states:
        e.set(**state)
        kept = e.image
        PIXELS.clear()  # every layer drawn afresh
        e._update()
        assert axis, "the layers were not drawn afresh"
        axis.clear()
        assert e.image == kept, f"{state}: the kept layers differ from a fresh draw"
    assert not full


def test_new_data_on_the_same_scale_keeps_the_frame(monkeypatch):
    """What changes with the data (its name, the observed mean, the p-values and their lines)
    is drawn over the frame: another learner whose differences need the same scale draws no
    axis, and the picture names the data and the p-values it shows."""
    e = RandomizationExplorer(seed=0)  # naive Bayes - tree on breast cancer; swapped: the same scale
    frame = e._frame
    axis = _count_draws(e.ax.xaxis, monkeypatch)
    e.set(learner_a="tree", learner_b="naive_bayes")
    r = e.result
    assert e._frame == frame and not axis
    assert "decision tree − naive Bayes" in e.data_label.get_text()
    assert f"observed mean {r.observed:+.4f}" in e.data_label.get_text()
    assert f"exact p = {r.exact.p_value:.4f} (all 1,024 sign patterns)" in e.side_facts.get_text()
    assert f"paired t-test {p_text(r.t_test.p_value)} (t = {r.t_test.statistic:.2f}, 9 df)" in e.side_facts.get_text()
    assert e.exact_line.get_ydata()[0] == r.exact.p_value and e.t_line.get_ydata()[0] == r.t_test.p_value
    # the texts drawn over the kept frame: the picture is the one drawn afresh
    shown = e.image
    PIXELS.clear()
    e._update()
    assert axis and e.image == shown
    # the legends name only what the mode draws
    shown = [leg for leg in e.legends.values() if leg.get_visible()]
    assert [t.get_text() for t in shown[0].texts][1] == "at least as far from 0 as observed"
    e.set(mode="bootstrap")
    shown = [t.get_text() for leg in e.legends.values() if leg.get_visible() for t in leg.texts]
    assert shown == ["bootstrap error rates", "error on the test set", "percentile ends (2.5%, 97.5%)"]


@pytest.mark.parametrize("presenter", [False, True], ids=["laptop", "presenter"])
def test_count_axis_label_clears_its_tick_labels_up_to_100000_resamples(presenter, monkeypatch):
    """The count axis reaches 150,000 (100,000 resamples in one bar); its tick labels
    stay four characters wide ("20k", "150k") and the y label "resamples" stands beyond
    them, fresh or after changes (issue 13: "10000" overlapped "resamples" at k = 5)."""
    import evalteach
    from test_text_overlap import clutter

    evalteach.presenter(presenter)
    try:
        fresh = RandomizationExplorer(seed=0, k=5, resamples=100_000)
        changed = RandomizationExplorer(seed=0)
        changed.set(k=5)
        changed.set(resamples=100_000)
        tied = RandomizationExplorer(a=[0.1] * 5, b=[0.1] * 5, resamples=100_000)  # one bar of 100,000
        for e in (fresh, changed, tied):
            assert clutter(e.figure, monkeypatch) == []
            e._background = None
            renderer = e.figure.canvas.get_renderer()
            low, high = e.ax.get_ylim()
            labels = [t for t in e.ax.get_yticklabels() if low <= t.get_position()[1] <= high and t.get_text()]
            assert max(len(t.get_text()) for t in labels) <= 4, [t.get_text() for t in labels]
            label = e.ax.yaxis.label.get_window_extent(renderer)
            assert all(label.x1 < t.get_window_extent(renderer).x0 for t in labels)
        assert [t.get_text() for t in tied.ax.get_yticklabels()][:4] == ["0", "50k", "100k", "150k"]
    finally:
        evalteach.presenter(False)


def test_summary_at_five_folds_says_the_test_cannot_reach_5_percent():
    """k = 5: 32 sign patterns, smallest two-sided p 2/32 = 0.0625 > 0.05; the summary says so,
    which learner erred less, the Monte Carlo error of p beside the exact p, both intervals and
    the assumptions; the side panel notes the smallest p and both p lines stay visible."""
    e = RandomizationExplorer(seed=0, k=5, resamples=100_000)
    r = e.result
    text = e._summary(r)
    assert r.smallest_p == 2 / 32 and r.exact.p_value >= r.smallest_p
    assert "the smallest possible exact two-sided p is 2/32 = 0.0625, above 0.05" in text
    assert "So the exact test can never be significant at the 5% level" in text
    assert r.observed < 0 and "Naive Bayes erred less on average" in text  # differences are A - B
    se = np.sqrt(r.p_value * (1 - r.p_value) / 100_000)
    assert r.monte_carlo_se == pytest.approx(se) and f"standard error is {se:.4f}" in text
    assert f"exact p is known: {r.exact.p_value:.4f}" in text
    assert f"is {abs(r.p_value - r.exact.p_value):.4f} from it" in text
    assert np.isinf(r.exact.low) and "sign-flip test: unbounded" in text
    assert f"From the t-test: [{r.t_test.low:+.4f}, {r.t_test.high:+.4f}]" in text
    assert "not: the training sets overlap" in text and "approximate" in text
    assert e.floor_note.get_text() == "smallest exact p = 2/32 = 0.0625 > 0.05"
    assert f"se {se:.4f}" in e.side_title.get_text()
    # the exact line is drawn over the t-test's, dotted over dashes: both show where they meet
    dynamic = e._dynamic
    assert dynamic.index(e.exact_line) > dynamic.index(e.t_line)
    assert e.exact_line._unscaled_dash_pattern != e.t_line._unscaled_dash_pattern


@pytest.mark.parametrize("presenter", [False, True], ids=["laptop", "presenter"])
def test_at_five_folds_no_text_overlaps_the_p_lines_or_other_text(presenter, monkeypatch):
    """k = 5: the exact p is at least 2/32 = 0.0625, just above the 0.05 line, and the running
    p settles on it. The note on the smallest p stood under the 0.05 line, marked as a label
    of the data under it (exempt from the clutter check), and the running p and the t-test's
    line crossed it (lesson 12's naive Bayes − logistic: exact p 0.0625, t-test p 0.023); the
    walk opens naive Bayes − tree, whose lines stay above it. The note now stands under the
    panel's x label, labels no data, and no text overlaps text, data or the figure's edge in
    either k, also where a tiny t-test p puts its line low on the p axis (the legend's corner)."""
    import evalteach
    from matplotlib.text import Text

    from evalteach import plotting
    from test_text_overlap import clutter

    evalteach.presenter(presenter)
    try:
        # the last three: a running p that dips below the p lines, into the legend's corner
        for dataset, learners, k in (("breast_cancer", ("naive_bayes", "logistic"), 5),
                                     ("breast_cancer", ("naive_bayes", "tree"), 5), ("iris", ("stump", "1nn"), 5),
                                     ("iris", ("stump", "1nn"), 10), ("breast_cancer", ("tree", "logistic"), 10),
                                     ("wine", ("1nn", "stump"), 10), ("breast_cancer", ("naive_bayes", "logistic"), 10)):
            e = RandomizationExplorer(seed=0, dataset=dataset, learner_a=learners[0], learner_b=learners[1],
                                      k=k, resamples=0)
            for resamples in (0, 30, 1000, 100_000):
                e.set(resamples=resamples)
                state = (dataset, learners, k, resamples)
                assert not [t for t in e.figure.findobj(Text) if t.get_gid() == plotting.ON_DATA], state
                assert clutter(e.figure, monkeypatch) == [], state
                e.forget_pixels()  # the checker's full draw left animated artists in the background
                renderer = e.figure.canvas.get_renderer()
                lines = [line for line in (e.exact_line, e.t_line) if line.get_ydata()[0] > 0]
                low = min([e.side.transData.transform((1, line.get_ydata()[0]))[1] for line in lines]
                          + [float(np.min(e.side.transData.transform(e.trace.get_xydata())[:, 1], initial=np.inf))])
                legend = e.legends["p-values"].get_window_extent(renderer)
                assert low > legend.y1, state  # every p line and the running p run above the legend
            r = e.result
            if k == 5:
                assert r.exact.p_value >= 2 / 32 and e.floor_note.get_text() == "smallest exact p = 2/32 = 0.0625 > 0.05"
                note = e.floor_note.get_window_extent(renderer)
                assert note.y1 < e.side.xaxis.label.get_window_extent(renderer).y0  # under the x label
            else:
                assert e.floor_note.get_text() == ""
    finally:
        evalteach.presenter(False)
    lesson = RandomizationExplorer(seed=0, learner_b="logistic", k=5, resamples=1000).result
    assert lesson.exact.p_value == 2 / 32 and round(lesson.t_test.p_value, 3) == 0.023


def test_no_floor_note_when_the_test_can_reach_the_level():
    e = RandomizationExplorer(seed=0, k=10, resamples=100)
    r = e.result
    # zero differences do not count: 2 / 2**(nonzero ones), below 0.05 here
    assert r.smallest_p == 2 / 2 ** np.count_nonzero(r.differences) < 0.05 and e.floor_note.get_text() == ""
    assert "never be significant" not in e._summary(r)
    # zeros change nothing when flipped: 4 nonzero of 6 differences give 16 distinct patterns
    own = RandomizationExplorer(a=[0.02, 0.0, 0.03, 0.0, 0.02, -0.01], resamples=0)
    assert own.result.smallest_p == 2 / 16
    text = own._summary(own.result)
    assert "With only 4 of the 6 differences not 0, the smallest possible exact two-sided p is 2/16" in text
    assert "scores in b are lower" in text and "B = 0: no resamples drawn yet" in text
    own.set(mode="permutation")  # bootstrap mode is not offered: unchanged
    assert own.floor_note.get_text()


def test_the_legend_names_the_dashed_mirror_line():
    e = RandomizationExplorer(seed=0)
    legend = e.legends["permutation"]
    labels = [t.get_text() for t in legend.texts]
    assert labels[2:] == ["observed mean difference", "its mirror image (the other side)"]
    assert e.mirror.get_linestyle() == "--"
    assert e.mirror.get_xdata()[0] == pytest.approx(-e.result.observed)


@pytest.mark.parametrize("resamples", [100, 100_000])
def test_the_monte_carlo_p_shows_its_count_and_the_count_is_the_histograms(resamples):
    e = RandomizationExplorer(seed=0, resamples=resamples)
    r = e.result
    far = int(np.sum(np.abs(r.null) >= abs(r.observed) * (1 - 1e-12)))
    assert r.as_extreme == far
    assert r.p_value == pytest.approx((far + 1) / (resamples + 1))
    shown = f"({far:,} + 1)/({resamples:,} + 1)"
    assert shown in e.side_title.get_text() and shown in e._summary_text
    assert f"= {r.p_value:.4f} (se {r.monte_carlo_se:.4f})" in e.side_title.get_text()
