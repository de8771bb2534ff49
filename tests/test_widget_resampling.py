"""ResamplingExplorer: split pictures, repeated estimates, and the slides' two counterexamples."""
import asyncio

import numpy as np
import pytest

from evalteach.learners import make_learner
from evalteach.simulate import RESAMPLING_METHODS, ResamplingFits, resampling_estimates
from evalteach.widgets import resampling
from evalteach.widgets.resampling import _TEST, _TRAIN, ResamplingExplorer, _data
from explorer_contract import built_without_an_event_loop, check_contract, run_on_a_fresh_event_loop


@pytest.fixture
def few_repetitions(monkeypatch):
    monkeypatch.setattr(resampling, "REPETITIONS", 3)  # the contract sweep refits hundreds of times


def test_contract_with_defaults(few_repetitions):
    # with the default "custom" preset every control matters; the visible-controls check over
    # every mode of this opening is in test_explorer_walk.py
    check_contract(ResamplingExplorer, sweep=100, every_mode=False)


def test_contract_with_custom_values(few_repetitions):
    # a preset overrides data set, learner and method: those controls are hidden (the
    # contract's first pass still tries hidden controls, hence unchanged_ok)
    check_contract(ResamplingExplorer, sweep=15, unchanged_ok=("dataset", "learner", "method"),
                   preset="632_memoriser", k=5, n=60)


@pytest.mark.parametrize("values, hidden", [
    ({}, set()),
    ({"method": "holdout"}, {"k"}), ({"method": "stratified"}, {"k"}), ({"method": "loo", "n": 40}, {"k"}),
    ({"method": "bootstrap"}, set()), ({"method": "repeated"}, set()),
    ({"preset": "632_memoriser"}, {"dataset", "learner", "method"}),
    ({"preset": "loo_majority"}, {"dataset", "learner", "method", "k"}),
])
def test_controls_a_state_does_not_use_are_hidden(few_repetitions, values, hidden):
    e = ResamplingExplorer(**values)
    assert e._hidden(e.state) == hidden
    assert set(e.visible_controls()) == set(e.controls) - hidden


@pytest.mark.parametrize("method, roles", [
    ("kfold", ["train", "test"]), ("holdout", ["train", "test"]),
    ("bootstrap", ["train", "train, drawn twice", "train, drawn 3+ times", "test (out of bag)"]),
])
def test_split_legend_lists_only_what_the_method_draws(few_repetitions, method, roles):
    e = ResamplingExplorer(method=method, k=5, n=60, learner="stump")
    assert [t.get_text() for t in e.grid_legend.get_texts()] == roles
    e.controls["method"].value = "kfold" if method == "bootstrap" else "bootstrap"
    assert [t.get_text() for t in e.grid_legend.get_texts()] != roles


def test_leave_one_out_with_a_majority_learner_on_noise_is_always_wrong():
    e = ResamplingExplorer(preset="loo_majority")
    est = e.result.estimates
    np.testing.assert_array_equal(est.estimates, 1.0)  # estimate 100% error, every time
    assert abs(est.true_error - 0.5) < 0.05  # fresh data: a coin toss
    assert e.result.tested_once and e.result.grid.shape == (100, 100)
    assert "100.0%" in e._summary_html.value


def test_632_bootstrap_with_a_memoriser_on_noise_is_far_too_optimistic():
    e = ResamplingExplorer(preset="632_memoriser")
    est = e.result.estimates
    assert est.resub_error == 0.0
    assert est.mean < 0.36 and abs(est.true_error - 0.5) < 0.05
    # the .632+ correction sees the overfitting and moves the estimate back towards 50%
    e.set(preset="custom", dataset="random", learner="1nn", method="632plus")
    assert e.result.estimates.mean > 0.42


@pytest.mark.parametrize("method, k", [("kfold", 10), ("kfold", 3), ("loo", 10)])
def test_every_instance_is_tested_exactly_once_in_cross_validation(method, k):
    e = ResamplingExplorer(method=method, k=k, n=60, learner="naive_bayes")
    grid = e.result.grid
    assert np.all((grid == _TEST).sum(axis=0) == 1) and e.result.tested_once
    assert len(grid) == (k if method == "kfold" else 60)
    assert np.all((grid == _TRAIN).sum(axis=0) == len(grid) - 1)


def test_bootstrap_picture_separates_in_bag_and_out_of_bag():
    e = ResamplingExplorer(method="bootstrap", k=5, n=80, learner="stump")
    for (train, test), row in zip(e.result.estimates.splits, e.result.grid):
        assert (row == _TEST).sum() == len(test) == 80 - len(np.unique(train))
    assert not e.result.tested_once


def test_shown_estimates_equal_a_direct_run_and_scikit_learn():
    from sklearn.model_selection import cross_val_predict

    from evalteach.learners import make_learner
    e = ResamplingExplorer(dataset="wine", learner="knn", method="kfold", k=5, n=90, seed=3)
    X, y, X_big, y_big = _data("wine", 90, 3)
    ref = resampling_estimates(X, y, X_big, y_big, "knn", "kfold", k=5, repetitions=resampling.REPETITIONS,
                               seed=3)
    np.testing.assert_array_equal(e.result.estimates.estimates, ref.estimates)
    # independent reference: scikit-learn's cross_val_predict on the same folds
    folds = [(tr, te) for tr, te in ref.splits]
    predicted = cross_val_predict(make_learner("knn"), X, y, cv=folds)
    assert ref.estimates[0] == pytest.approx(np.mean(predicted != y))
    held_out = make_learner("knn").fit(X, y).predict(X_big)
    assert ref.true_error == pytest.approx(np.mean(held_out != y_big))


def test_632_estimate_combines_resubstitution_and_out_of_bag_errors():
    from evalteach.learners import make_learner
    X, y, X_big, y_big = _data("breast_cancer", 80, 0)
    r = resampling_estimates(X, y, X_big, y_big, "tree", "632", k=4, repetitions=1, seed=0)
    wrong = total = 0
    for train, test in r.splits:
        pred = make_learner("tree").fit(X[train], y[train]).predict(X[test])
        wrong, total = wrong + np.sum(pred != y[test]), total + len(test)
    resub = np.mean(make_learner("tree").fit(X, y).predict(X) != y)
    assert r.estimates[0] == pytest.approx(0.368 * resub + 0.632 * wrong / total)


@pytest.mark.parametrize("kwargs, name", [({"method": "jackknife"}, "method"), ({"k": 1}, "k"),
                                          ({"repetitions": 0}, "repetitions"), ({"learner": "svm"}, "name")])
def test_resampling_estimates_rejects_bad_input(kwargs, name):
    X, y, X_big, y_big = _data("iris", 40, 0)
    with pytest.raises((ValueError, TypeError), match=name):
        resampling_estimates(X, y, X_big, y_big, **kwargs)


def test_a_smaller_k_reuses_the_fits_of_a_larger_one_and_equals_a_fresh_run():
    X, y, X_big, y_big = _data("iris", 60, 2)
    fits = ResamplingFits(X, y, X_big, y_big, "stump", seed=2)
    large = fits.estimates("bootstrap", 8, 3)
    # .632 and .632+ use the bootstrap's samples; k = 5 takes the first 5 of 8
    assert fits.unfitted("bootstrap", 5, 3) == [] and fits.unfitted("632plus", 8, 3) == []
    assert len(fits.unfitted("kfold", 5, 3)) == 15  # k-fold partitions share no fits
    small = fits.estimates("bootstrap", 5, 3)
    for a, b in zip(small.splits, large.splits[:5]):
        np.testing.assert_array_equal(a.train, b.train)
    for method in ("bootstrap", "632", "632plus", "repeated", "kfold"):
        fresh = resampling_estimates(X, y, X_big, y_big, "stump", method, k=5, repetitions=3, seed=2)
        np.testing.assert_array_equal(fits.estimates(method, 5, 3).estimates, fresh.estimates)
    # independent reference: scikit-learn on the same out-of-bag samples, pooled
    wrong = sum(np.sum(make_learner("stump").fit(X[tr], y[tr]).predict(X[te]) != y[te]) for tr, te in small.splits)
    assert small.estimates[0] == pytest.approx(wrong / sum(len(te) for _, te in small.splits))


def test_fitting_ahead_turns_every_k_and_method_into_a_selection(few_repetitions):
    e = ResamplingExplorer(n=40, learner="majority", k=6)
    fits, done = e._fits_of(e._setting(e.state))
    targets = e._targets(e.state)
    assert targets[:2] == [("kfold", 6), ("kfold", 5)]  # the nearest k first
    while e._work_ahead():  # what the kernel does while idle, step by step
        pass
    assert set(targets) <= done
    for k in range(2, 21):
        assert fits.unfitted("kfold", k, resampling.REPETITIONS) == []
    for method in RESAMPLING_METHODS:
        assert fits.unfitted(method, 20, resampling.REPETITIONS) == []
    e.set(method="632plus", k=13)  # only selects what was fitted
    fresh = ResamplingExplorer(n=40, learner="majority", method="632plus", k=13)
    np.testing.assert_array_equal(e.result.estimates.estimates, fresh.result.estimates.estimates)


def test_a_change_by_hand_answers_at_once_and_fills_in_to_the_full_picture(monkeypatch):
    monkeypatch.setattr(resampling, "MORE_FITS_FOR", 0.0)  # one fit per later picture: parts for sure
    monkeypatch.setattr(resampling, "FILL_IN_AFTER", 0.0)
    e = built_without_an_event_loop(lambda: ResamplingExplorer(learner="stump", n=60, k=4))
    shown = []
    draw = e._draw
    e._draw = lambda r: shown.append(r) or draw(r)

    async def slide():
        e.controls["n"].set_state({"value": 70})  # a slider message: a new setting, nothing fitted
        while e.scheduler.state != "idle" or not shown or not shown[-1].complete:
            await asyncio.sleep(0.005)

    run_on_a_fresh_event_loop(slide())
    first = shown[0]
    assert first.repetitions == 0 and first.estimates is None  # the splits at once, no estimate yet
    assert "no repetition finished yet" in e._summary(first)
    done = [r.repetitions for r in shown]
    assert done == sorted(done) and 0 < len(set(done)) and done[-1] == resampling.REPETITIONS
    partial = next(r for r in shown if 0 < r.repetitions < resampling.REPETITIONS)
    assert "so far" in e._summary(partial)
    # the parts are the first repetitions of the full run, and the last picture is the one the
    # same change gives when set from Python (in full, at once)
    fresh = ResamplingExplorer(learner="stump", n=60, k=4)
    fresh.controls["n"].value = 70
    np.testing.assert_array_equal(partial.estimates.estimates,
                                  fresh.result.estimates.estimates[:partial.repetitions])
    np.testing.assert_array_equal(e.result.estimates.estimates, fresh.result.estimates.estimates)
    assert e.image == fresh.image and e._summary(e.result) == e._summary(fresh.result)
    assert "so far" not in e._summary(e.result)


def test_values_set_from_python_are_computed_in_full(few_repetitions):
    e = ResamplingExplorer(learner="stump", n=60)
    e.controls["n"].value = 80  # no fit made yet for n = 80: fitted now, before the assignment returns
    assert e.result.complete and e.result.estimates.estimates.size == resampling.REPETITIONS
