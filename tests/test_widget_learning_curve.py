"""LearningCurveExplorer: points equal scikit-learn's cross_val_score on the same folds."""
import numpy as np
import pytest
from scipy import stats as st
from sklearn.model_selection import cross_val_score

from evalteach.data import load_dataset
from evalteach.learners import make_learner
from evalteach.stats import paired_t_test
from evalteach.widgets.learning_curve import LearningCurveExplorer
from explorer_contract import check_contract


def test_contract_defaults():
    # the walk over every mode of this opening is in test_explorer_walk.py
    check_contract(LearningCurveExplorer, sweep=6, every_mode=False)


def test_contract_custom_values():
    check_contract(LearningCurveExplorer, sweep=4, dataset="iris", learner_a="stump", learner_b="1nn",
                   mode="feature", k=5, point=11, confidence=0.9)


@pytest.mark.parametrize("point", [1, 6, 11])
def test_points_equal_cross_val_score_on_the_same_folds(point):
    from evalteach.simulate.curves import cv_folds

    e = LearningCurveExplorer(dataset="wine", learner_a="naive_bayes", learner_b="stump", k=5, point=point)
    r = e.result
    i = point - 1
    size = r.a.x[i]
    data = load_dataset("wine")
    folds = [(train[:size], test) for train, test in cv_folds("wine", 5, 0)]
    for curve in (r.a, r.b):
        scores = cross_val_score(make_learner(curve.learner), data.X, data.y, cv=folds)
        np.testing.assert_allclose(curve.accuracies[i], scores)
        assert curve.mean[i] == pytest.approx(scores.mean())
    # The verdict shown is evalteach's paired t-test, which agrees with scipy's ttest_rel.
    t = paired_t_test(r.a.accuracies[i], r.b.accuracies[i], confidence=0.95)
    assert r.test.statistic[i] == pytest.approx(t.statistic)
    assert r.test.p_value[i] == pytest.approx(t.p_value)
    ref = st.ttest_rel(r.a.accuracies[i], r.b.accuracies[i])
    if np.isfinite(ref.statistic):
        assert r.test.p_value[i] == pytest.approx(ref.pvalue)
    assert r.significant[i] == (t.p_value < 0.05)
    assert f"{r.a.mean[i]:.3f}" in e._summary(r)


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_interval_for_the_difference_equals_scipy_t_interval(confidence):
    # the fold panel and the summary show A − B with the t interval at the chosen confidence
    e = LearningCurveExplorer(dataset="breast_cancer", k=10, point=6, confidence=confidence)
    r, i = e.result, 5
    d = r.a.accuracies[i] - r.b.accuracies[i]
    half = st.t.ppf((1 + confidence) / 2, df=d.size - 1) * st.sem(d)
    assert r.test.df == d.size - 1 == 9
    assert r.test.low[i] == pytest.approx(d.mean() - half) and r.test.high[i] == pytest.approx(d.mean() + half)
    shown = (f"{round(100 * confidence)}% CI [{d.mean() - half:+.3f}, {d.mean() + half:+.3f}]".replace("-", "−"))
    title = e.folds_title.get_text()
    assert shown in title and shown in e._summary(r)
    assert f"t(9) = {st.ttest_rel(r.a.accuracies[i], r.b.accuracies[i]).statistic:.2f}" in title
    level = f"{round(100 * (1 - confidence))}%"
    assert f"at the {level} level" in title
    assert e.legends[2].texts[0].get_text() == f"paired t-test p < {level} at this point alone"
    assert e.controls["confidence"].label == level                   # the buttons show the test level
    # the CI and the test agree: the interval leaves out 0 exactly where the test rejects
    assert np.array_equal((r.test.low > 0) | (r.test.high < 0), r.significant)


def test_reference_fold_panel_at_72_examples():
    # the numbers the reviewers quoted (breast cancer, naive Bayes vs tree, 10 folds, 72 examples)
    e = LearningCurveExplorer(dataset="breast_cancer", k=10, point=6)
    assert e.folds_title.get_text() == ("fold accuracies, trained on 72 examples\n"
                                        "A − B = +0.026, 95% CI [−0.011, +0.063]\n"
                                        "t(9) = 1.61, p = 0.142\nnot significant at the 5% level")
    e.set(mode="class")
    assert e.folds_title.get_text().startswith("fold accuracies, 50% of labels replaced\n")
    assert "p < 0.001" in e.folds_title.get_text() and st.ttest_rel(*(c.accuracies[5] for c in (e.result.a,
                                                                                                  e.result.b))).pvalue < 0.001


def test_bands_are_clipped_to_possible_accuracies_and_the_cursor_stops_below_the_stars():
    # naive Bayes at 90% class noise: mean + sd is above 1, an impossible accuracy
    e = LearningCurveExplorer(dataset="breast_cancer", mode="class", k=10, point=10)
    a = e.result.a
    assert a.mean[9] + a.sd[9] > 1
    xy = e.bands[0].get_xy()
    lower, upper = xy[:11, 1], xy[11:22][::-1, 1]
    np.testing.assert_allclose(upper, np.minimum(a.mean + a.sd, 1))
    np.testing.assert_allclose(lower, np.maximum(a.mean - a.sd, 0))
    assert e.legends[2].texts[1].get_text() == "mean ± 1 sd over folds"
    # the selected point's line ends just below accuracy 1; the stars sit above 1, clear of it
    from evalteach.widgets.learning_curve import CURSOR_GAP

    low, high = e.ax.get_ylim()
    top = low + e.cursor.get_ydata()[1] * (high - low)
    assert top == pytest.approx(1.0 - CURSOR_GAP * (high - low)) and np.all(e.stars.get_ydata() > 1.0)
    renderer = e.figure.canvas.get_renderer()
    stars = e.stars.get_window_extent(renderer)       # the whole row of stars, markers included
    line_top = e.ax.transAxes.transform((0, e.cursor.get_ydata()[1]))[1]
    assert line_top < stars.y0


@pytest.mark.parametrize("dataset, k, mode", [("breast_cancer", 10, "size"), ("breast_cancer", 10, "class"),
                                              ("digits", 5, "feature"), ("iris", 5, "size")])
def test_chance_line_is_the_majority_class_accuracy_on_the_same_folds(dataset, k, mode):
    """A thin line at what always predicting the training part's most frequent class scores
    (scikit-learn's DummyClassifier on the same folds), inside the y range, named in the legend."""
    from sklearn.dummy import DummyClassifier

    from evalteach.simulate.curves import cv_folds

    e = LearningCurveExplorer(dataset=dataset, k=k, mode=mode)
    data = load_dataset(dataset)
    scores = cross_val_score(DummyClassifier(strategy="most_frequent"), data.X, data.y,
                             cv=list(cv_folds(dataset, k, 0)))
    assert e.result.chance == pytest.approx(scores.mean(), abs=1e-12)
    assert list(e.chance.get_ydata()) == [e.result.chance] * 2 and e.chance.get_linewidth() < 1
    low, high = e.ax.get_ylim()
    entry = f"majority-class baseline {scores.mean():.3f}"
    below = entry + " (below the plotted range)"
    assert e.legends[2].texts[2].get_text() == e.chance.get_label() == (below if e.result.chance < low else entry)
    if mode != "size":
        assert low < e.result.chance < high                                # noise curves fall towards it
    else:   # a learning curve's range holds its bands, not the baseline
        bands = min(np.clip(c.mean - c.sd, 0, 1).min() for c in (e.result.a, e.result.b))
        assert low < bands and (dataset != "breast_cancer" or e.result.chance < low)


def test_learning_curve_range_is_not_stretched_to_the_baseline():
    # breast cancer: the curves lie at 0.87-0.95, the baseline at 0.627; the fold panel keeps its own range
    e = LearningCurveExplorer(dataset="breast_cancer", k=10, point=3)
    assert e.ax.get_ylim()[0] > e.result.chance and e.chance.get_label().endswith("(below the plotted range)")
    assert e.folds.get_ylim()[0] < min(e.result.a.accuracies.min(), e.result.b.accuracies.min())
    e.set(mode="class")
    assert e.ax.get_ylim()[0] < e.result.chance and e.chance.get_label() == "majority-class baseline 0.627"


def test_folds_are_stratified_and_training_prefixes_hold_every_class():
    from evalteach.simulate.curves import cv_folds

    y = load_dataset("iris").y
    folds = cv_folds("iris", 5, 0)
    tests = np.concatenate([test for _, test in folds])
    assert np.array_equal(np.sort(tests), np.arange(len(y)))  # a partition
    for train, test in folds:
        assert np.intersect1d(train, test).size == 0
        assert set(y[train[:6]]) == {0, 1, 2}
        assert np.all(np.bincount(y[test]) == 10)


def test_noise_curves_start_clean_and_end_at_chance():
    e = LearningCurveExplorer(dataset="breast_cancer", learner_a="naive_bayes", learner_b="tree",
                              mode="class", k=5)
    r = e.result
    data = load_dataset("breast_cancer")
    from evalteach.simulate.curves import cv_folds

    folds = list(cv_folds("breast_cancer", 5, 0))
    clean = cross_val_score(make_learner("tree"), data.X, data.y, cv=folds)
    np.testing.assert_allclose(r.b.accuracies[0], clean)  # noise level 0: untouched labels
    # All labels random: accuracy near the majority share at best, far below the clean one.
    assert r.a.mean[-1] < r.a.mean[0] - 0.2 and r.b.mean[-1] < 0.7


def test_mode_switch_only_selects_curves_fitted_at_the_first_draw(monkeypatch):
    from evalteach.simulate.curves import _fold_curve, learning_curve

    # seed 3: not among the bundled seed-0 curves, so the explorer's first draw fits them
    e = LearningCurveExplorer(dataset="iris", learner_a="stump", learner_b="naive_bayes", k=5, seed=3)
    fitted = []  # a fold curve the cache did not have is computed, then put into it
    keep = _fold_curve.cache.put
    monkeypatch.setattr(_fold_curve.cache, "put", lambda key, value: (fitted.append(key), keep(key, value)))
    for mode in ("class", "feature", "size"):
        e.controls["mode"].value = mode
        assert e.result.a.mode == mode
        direct = learning_curve("iris", "stump", mode, k=5, seed=3)
        np.testing.assert_array_equal(e.result.a.accuracies, direct.accuracies)
    assert fitted == []  # nothing was fitted again


def test_legend_sits_outside_the_axes_and_no_control_is_hidden():
    e = LearningCurveExplorer(dataset="iris", k=5, point=11)
    e.figure.canvas.draw()
    for legend in e.legends:
        for ax in (e.ax, e.folds):
            assert not legend.get_window_extent().overlaps(ax.get_window_extent())
    assert e._hidden(e.state) == set()


def test_side_by_side_spreads_only_tied_folds():
    from evalteach.widgets.learning_curve import side_by_side

    offsets = side_by_side([0.158, 0.702, 0.158, 0.158, 0.9, 0.158], width=0.1)
    tied = offsets[[0, 2, 3, 5]]
    np.testing.assert_allclose(np.sort(tied), [-0.15, -0.05, 0.05, 0.15])      # four distinct x, centred
    assert offsets[1] == offsets[4] == 0


def test_tied_fold_dots_are_all_visible_and_pairs_join_them():
    # 100% class noise: several naive-Bayes folds tie; each gets its own dot
    e = LearningCurveExplorer(dataset="breast_cancer", mode="class", k=10, point=11)
    fa = e.result.a.accuracies[-1]
    xs, ys = e.dots[0].get_data()
    np.testing.assert_allclose(ys, fa)
    assert len(set(zip(np.round(xs, 6), np.round(ys, 6)))) == len(fa)           # no dot hides another
    assert np.sum(np.isclose(fa, fa.min())) >= 2                                # the case the spread is for
    starts = np.array([segment[0] for segment in e.pairs.get_segments()])
    np.testing.assert_allclose(starts, np.c_[xs, ys])                           # lines start at the dots


def test_log_axis_labels_every_size_and_plain_learner_names():
    e = LearningCurveExplorer(dataset="iris", k=5, point=3)
    r = e.result
    np.testing.assert_array_equal(e.ax.get_xticks(), r.a.x)
    assert [t.get_text() for t in e.ax.get_xticklabels()] == [str(x) for x in r.a.x]
    labels = [line.get_label() for line in e.mean_lines]
    assert labels[0].startswith("A: naive Bayes") and "naive_bayes" not in " ".join(labels)
    # the test has a level (5%), the interval a confidence (95%): never a "95% level"
    assert "at the 5% level" in e.folds_title.get_text() and "95% level" not in e.folds_title.get_text()
    assert "95% CI" in e.folds_title.get_text()


def test_pictures_after_switches_equal_fresh_ones():
    # axes, title, legend and verdict are pasted from stamps, curves drawn over a background
    # laid out once: the pixels must be what a fresh explorer draws at the same state
    e = LearningCurveExplorer(dataset="iris", k=5)
    for values in (dict(mode="class"), dict(point=2), dict(learner_a="stump"), dict(mode="size", point=11),
                   dict(dataset="wine"), dict(confidence=0.9), dict(learner_a="naive_bayes", dataset="iris"),
                   dict(k=10, mode="feature"), dict(k=5, mode="size", point=6)):
        e.set(**values)
        fresh = LearningCurveExplorer(**{name: value for name, value in e.state.items() if name != "seed"})
        assert e.image == fresh.image, values


def test_no_full_redraw_after_the_first_picture(monkeypatch):
    e = LearningCurveExplorer(dataset="iris", k=5)
    full = []
    draw = e.figure.canvas.draw
    monkeypatch.setattr(e.figure.canvas, "draw", lambda: full.append(1) or draw())
    for values in (dict(mode="feature"), dict(learner_b="1nn"), dict(dataset="wine", k=10), dict(point=1)):
        e.set(**values)
    assert full == []
    assert [t.get_text() for t in e.titles] == ["Noise curve (feature noise)", "wine, 10-fold cross-validation"]
    assert [legend.texts[0].get_text() for legend in e.legends[:2]] == ["A: naive Bayes (mean over folds)",
                                                                        "B: 1-NN (mean over folds)"]
    lower, upper = e.bands[1].get_xy()[:11], e.bands[1].get_xy()[11:22][::-1]   # the ± sd band of B
    np.testing.assert_allclose(lower[:, 1], np.clip(e.result.b.mean - e.result.b.sd, 0, 1))
    np.testing.assert_allclose(upper[:, 1], np.clip(e.result.b.mean + e.result.b.sd, 0, 1))
    np.testing.assert_allclose(lower[:, 0], e.result.b.x)


@pytest.mark.parametrize("presenter", [False, True])
def test_x_axes_draw_nothing_in_the_corner_their_stamps_leave_out(presenter):
    """The x axes' stamps start CORNER pixels right of the axes' left edge (apart from the y
    axes' stamps): every tick label and axis label must lie right of that."""
    import evalteach
    from evalteach.widgets._cached_layer import PAD
    from evalteach.widgets.learning_curve import CORNER

    evalteach.presenter(presenter)
    try:
        e = LearningCurveExplorer(dataset="digits", learner_a="logistic", learner_b="logistic", k=5)
        for mode in ("size", "class", "feature"):
            e.set(mode=mode)
            renderer = e.figure.canvas.get_renderer()
            for ax in (e.ax, e.folds):
                left = ax.get_window_extent(renderer).x0 + CORNER + PAD
                low, high = sorted(ax.get_xlim())
                texts = [t for t in ax.get_xticklabels() if low <= t.get_position()[0] <= high]
                for text in [*texts, ax.xaxis.label]:
                    assert text.get_window_extent(renderer).x0 >= left, (mode, text.get_text())
    finally:
        evalteach.presenter(False)


@pytest.mark.parametrize("presenter", [False, True])
def test_longest_names_and_titles_fit_after_switches(presenter, monkeypatch):
    """The layout is made once, at the first draw: the longest texts of later states must fit it."""
    import evalteach
    from test_text_overlap import clutter

    evalteach.presenter(presenter)
    try:
        e = LearningCurveExplorer(dataset="iris", k=5)
        for values in (dict(learner_a="logistic", learner_b="logistic", mode="feature", dataset="breast_cancer"),
                       dict(dataset="digits", mode="size", point=11, confidence=0.99)):
            e.set(**values)
            assert clutter(e.figure, monkeypatch) == [], values
    finally:
        evalteach.presenter(False)
