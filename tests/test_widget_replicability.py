"""ReplicabilityExplorer: the contract, and its numbers against evalteach.stats on the same partitions."""
import numpy as np
import pytest

from evalteach.simulate import agreement, fold_errors, holdout_predictions, replicability
from evalteach.stats import (corrected_resampled_t_test, five_by_two_cv_f_test, mcnemar_table, mcnemar_test,
                             paired_t_test)
from evalteach.widgets import ReplicabilityExplorer
from evalteach.widgets.replicability import N_SEEDS
from explorer_contract import check_contract


def test_contract_defaults():
    # seed is unused: the partitions are seeds 0..N_SEEDS-1 whatever the explorer's seed;
    # tests/test_explorer_walk.py walks this opening through every mode
    check_contract(ReplicabilityExplorer, sweep=10, every_mode=False)


def test_p_values_shown_equal_each_test_on_that_partition():
    e = ReplicabilityExplorer(dataset="breast_cancer", learner_a="naive_bayes", learner_b="stump", seeds=6)
    r = e.result
    assert r.p_values.shape == (4, 6)
    for s in (0, 5):
        a, b = fold_errors("breast_cancer", "naive_bayes", 10, s), fold_errors("breast_cancer", "stump", 10, s)
        assert r.p_values[0, s] == pytest.approx(paired_t_test(a, b).p_value)
        assert r.p_values[1, s] == pytest.approx(corrected_resampled_t_test(a, b, test_train_ratio=1 / 9).p_value)
        d = np.array([fold_errors("breast_cancer", "naive_bayes", 2, s * 1000 + 500 + i)
                      - fold_errors("breast_cancer", "stump", 2, s * 1000 + 500 + i) for i in range(5)])
        assert r.p_values[2, s] == pytest.approx(five_by_two_cv_f_test(d).p_value)
        y, pa = holdout_predictions("breast_cancer", "naive_bayes", s)
        _, pb = holdout_predictions("breast_cancer", "stump", s)
        assert r.p_values[3, s] == pytest.approx(mcnemar_test(mcnemar_table(y, pa, pb)).p_value)
    sig = r.p_values < 0.05
    np.testing.assert_array_equal(r.significant, sig)
    np.testing.assert_allclose(r.share, sig.mean(axis=1))
    assert f"{r.share[3]:.0%}" in e._summary_html.value


def test_agreement_counts_agreeing_pairs_of_runs():
    # 3 of 5 significant: C(3,2) + C(2,2) = 4 agreeing pairs of C(5,2) = 10
    assert agreement([True, True, True, False, False]) == pytest.approx(0.4)
    assert agreement([True] * 4) == 1.0
    # brute force over all pairs on random verdicts
    rng = np.random.default_rng(1)
    v = rng.random((3, 9)) < 0.5
    pairs = [(i, j) for i in range(9) for j in range(i + 1, 9)]
    brute = [np.mean([row[i] == row[j] for i, j in pairs]) for row in v]
    np.testing.assert_allclose(agreement(v), brute)
    with pytest.raises(ValueError, match="at least 2"):
        agreement([True])


def test_alpha_and_seeds_only_reread_the_cached_p_values():
    e = ReplicabilityExplorer(seeds=N_SEEDS)
    runs = e.result.runs
    e.set(alpha=0.01, seeds=4)
    assert e.result.runs is runs
    np.testing.assert_array_equal(e.result.p_values, runs.p_values[:, :4])
    assert replicability("breast_cancer", "naive_bayes", "stump", N_SEEDS) is runs


def test_bad_values_are_refused():
    with pytest.raises(ValueError, match="seeds"):
        ReplicabilityExplorer(seeds=1)
    with pytest.raises(ValueError, match="n_seeds"):
        replicability(n_seeds=1)


def test_picture_rows_line_up_and_say_what_they_show():
    from matplotlib.colors import to_hex

    from evalteach.plotting import COLORS
    from evalteach.widgets.replicability import SHORT_TESTS

    e = ReplicabilityExplorer(dataset="breast_cancer", learner_a="naive_bayes", learner_b="1nn")
    e.figure.canvas.draw()
    ax, bars_ax = e.ax, e.bars_ax
    # the right panel's bar pairs sit on the left panel's rows, and are labelled with the same tests
    assert bars_ax.get_ylim() == ax.get_ylim()
    rows = ax.get_yticks()
    assert [t.get_text() for t in bars_ax.get_yticklabels()] == list(SHORT_TESTS)
    np.testing.assert_allclose(bars_ax.get_yticks(), rows)
    for share, agree, row in zip(e.share_bars, e.agree_bars, rows):
        assert share.get_y() + share.get_height() / 2 > row > agree.get_y() + agree.get_height() / 2
    # "agree" is not drawn in the colour of "not significant"
    assert to_hex(e.agree_bars[0].get_facecolor()) != to_hex(COLORS["data"])
    # readable names and the spelling of the colour
    assert e.left_title.get_text().startswith("naive Bayes vs 1-NN on the breast cancer data")
    assert "vermilion" in e.ax.get_xlabel() and "vermillion" not in e.ax.get_xlabel()
    assert "naive_bayes" not in e._summary_html.value


def test_one_p_axis_for_every_pair_and_the_floor_is_marked():
    from evalteach.widgets.replicability import _BELOW_FLOOR, _DOT, P_FLOOR, P_SPAN

    e = ReplicabilityExplorer(dataset="breast_cancer", learner_a="naive_bayes", learner_b="1nn")
    assert e.ax.get_xlim() == pytest.approx(P_SPAN)
    assert "triangles: p < 1e-05" in e.ax.get_xlabel()
    p = e.result.p_values
    assert p.min() > 10 * P_FLOOR          # the lesson's pair: every dot at its own p, none at the floor
    np.testing.assert_allclose(e.points.get_offsets()[:, 0], p.ravel())
    e.set(dataset="iris", learner_b="stump")  # overwhelming differences: some p far below the floor
    p = e.result.p_values.ravel()
    below = p < P_FLOOR
    assert 0 < below.sum() < p.size
    assert e.ax.get_xlim() == pytest.approx(P_SPAN)
    x = e.points.get_offsets()[:, 0]
    np.testing.assert_allclose(x[below], P_FLOOR)
    np.testing.assert_allclose(x[~below], p[~below])
    assert np.all((x >= P_SPAN[0]) & (x <= P_SPAN[1]))
    paths = e.points.get_paths()
    assert len(paths) == p.size
    for path, b in zip(paths, below):
        np.testing.assert_array_equal(path.vertices, (_BELOW_FLOOR if b else _DOT).vertices)
    # every alpha offered lies inside the axis, well right of the floor
    assert all(P_FLOOR < a < P_SPAN[1] for a in e.controls["alpha"].options)


def test_no_control_redraws_the_axes(monkeypatch):
    # every change redraws only the dynamic artists over the cached background: the same
    # axis for every pair, and the pair, count and alpha in the (dynamic) title
    e = ReplicabilityExplorer(dataset="breast_cancer", learner_a="naive_bayes", learner_b="stump")
    full_draws = []
    draw = e.figure.canvas.draw
    monkeypatch.setattr(e.figure.canvas, "draw", lambda: full_draws.append(1) or draw())
    for name, value in [("alpha", 0.01), ("seeds", 5), ("learner_b", "1nn"), ("dataset", "iris"),
                        ("learner_a", "stump"), ("alpha", 0.1), ("dataset", "breast_cancer")]:
        e.controls[name].value = value
        assert e.error is None
        assert full_draws == [], name
    assert e.left_title.get_text() == ("decision stump vs 1-NN on the breast cancer data\n"
                                       "5 random partitions, alpha = 0.1")
