"""The learner scores shipped with the package: fresh fits, every explorer option, fallback to fitting."""
import importlib.util
import itertools
from pathlib import Path

import numpy as np
import pytest
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import evalteach.simulate.curves as curves
import evalteach.simulate.learner_scores as scores
import evalteach.simulate.sampling as sampling
from evalteach.data import load_dataset
from evalteach.simulate import bundled_requests as grid
from evalteach.simulate import bundled_scores as bundled
from evalteach.simulate import clear_caches, cv_folds, resubstitution_vs_holdout
from evalteach.widgets import (BayesianComparisonExplorer, LearningCurveExplorer, RandomizationExplorer,
                               ReplicabilityExplorer, SamplingErrorExplorer)


@pytest.fixture
def empty_caches():
    """The caches of computed results emptied for one test, and again after it (nothing it
    fitted under a patched version or bundle stays)."""
    clear_caches()
    yield
    clear_caches()
    bundled._bundle.cache_clear()


@pytest.fixture
def no_fitting(monkeypatch, empty_caches):
    """Any real fit fails the test: everything must come from the bundle."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"fitted {args}: not in the bundle")

    monkeypatch.setattr(scores, "fit_fold_errors", refuse)
    monkeypatch.setattr(scores, "fit_holdout_predictions", refuse)
    monkeypatch.setattr(curves, "_fold_curve", refuse)
    monkeypatch.setattr(sampling, "fit_resubstitution", refuse)


SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "precompute_scores.py"


@pytest.fixture(scope="module")
def builder():
    """``scripts/precompute_scores.py``, the bundle's builder (not part of the package)."""
    spec = importlib.util.spec_from_file_location("precompute_scores", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bundle_was_made_by_the_installed_scikit_learns_minor_version():
    assert bundled._bundle() is not None, (
        f"{bundled.BUNDLE} was fitted by scikit-learn {str(bundled.read()['sklearn_version'])}, "
        f"installed is {bundled.installed_sklearn()}: run scripts/precompute_scores.py")


@pytest.mark.parametrize("fitted_by, installed, usable", [
    ("1.9.1", "1.9.1", True), ("1.9.1", "1.9.0", True), ("1.9.1", "1.9.12", True),
    ("1.9.1", "1.10.0", False), ("1.9.1", "1.8.2", False), ("1.9.1", "2.9.1", False),
    ("1.9.1", "1.9rc1", False), ("1.9.1", None, False)])
def test_a_bundle_serves_the_same_minor_version_of_scikit_learn(fitted_by, installed, usable):
    assert bundled.usable_with(fitted_by, installed) is usable


def test_a_patch_release_keeps_the_bundle(empty_caches, monkeypatch):
    fitted_by = str(bundled.read()["sklearn_version"])
    major, minor, *_ = fitted_by.split(".")
    monkeypatch.setattr(bundled, "installed_sklearn", lambda: f"{major}.{minor}.99")
    bundled._bundle.cache_clear()
    assert bundled.fold_errors("wine", "logistic", 10, 0) is not None
    monkeypatch.setattr(bundled, "installed_sklearn", lambda: f"{major}.{int(minor) + 1}.0")
    bundled._bundle.cache_clear()
    assert bundled.fold_errors("wine", "logistic", 10, 0) is None


def _entries():
    """Every entry of the bundle, as (kind, arguments)."""
    folds, holdouts = grid.requests()
    entries = [("folds", (d, name, k, seed)) for d in grid.DATASETS for name in grid.LEARNERS for k, seed in folds]
    entries += [("holdout", (d, name, seed)) for d in grid.DATASETS for name in grid.LEARNERS for seed in holdouts]
    entries += [("curve", (d, name, mode, k)) for d in grid.CURVE_DATASETS for name in grid.CURVE_LEARNERS
                for mode in curves.CURVE_MODES for k in grid.CURVE_K]
    return entries


def test_a_random_sample_of_the_bundle_equals_a_fresh_fit_with_the_installed_scikit_learn():
    """What allows a bundle fitted by another patch release: 24 entries drawn at random
    (a fixed draw) from all 1,000 or so, fitted afresh here, give exactly the stored numbers.
    A patch release of scikit-learn that changed a prediction fails here: refit the bundle."""
    entries = _entries()
    rng = np.random.default_rng(2026)
    kinds = {"folds": 12, "holdout": 6, "curve": 6}
    for kind, count in kinds.items():
        pool = [args for k, args in entries if k == kind]
        for i in rng.choice(len(pool), size=count, replace=False):
            args = pool[i]
            if kind == "folds":
                np.testing.assert_array_equal(bundled.fold_errors(*args), scores.fit_fold_errors(*args), err_msg=args)
            elif kind == "holdout":
                for stored, fresh in zip(bundled.holdout_predictions(*args), scores.fit_holdout_predictions(*args)):
                    np.testing.assert_array_equal(stored, fresh, err_msg=args)
            else:
                d, name, mode, k = args
                np.testing.assert_array_equal(bundled.curve_accuracies(d, name, mode, k, 0),
                                              curves.fit_curve(d, name, mode, k, 0), err_msg=args)


#: The learners written out in plain scikit-learn (trees seeded by the fold seed).
PLAIN = {"naive_bayes": lambda seed: GaussianNB(), "1nn": lambda seed: KNeighborsClassifier(n_neighbors=1),
         "stump": lambda seed: DecisionTreeClassifier(max_depth=1, random_state=seed),
         "tree": lambda seed: DecisionTreeClassifier(random_state=seed),
         "logistic": lambda seed: make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
         "knn": lambda seed: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5)),
         "majority": lambda seed: DummyClassifier(strategy="most_frequent")}


@pytest.mark.parametrize("dataset, learner, k, seed", [
    ("breast_cancer", "naive_bayes", 10, 0), ("wine", "1nn", 5, 0), ("iris", "logistic", 10, 7),
    ("breast_cancer", "stump", 2, 3502), ("wine", "tree", 10, 14)])
def test_bundled_fold_errors_equal_a_plain_scikit_learn_fit(dataset, learner, k, seed):
    data = load_dataset(dataset)
    expected = []
    for train, test in cv_folds(dataset, k, seed):
        model = PLAIN[learner](seed).fit(data.X[train], data.y[train])
        expected.append(np.mean(model.predict(data.X[test]) != data.y[test]))
    np.testing.assert_array_equal(bundled.fold_errors(dataset, learner, k, seed), expected)


@pytest.mark.parametrize("dataset, learner, seed", [("breast_cancer", "logistic", 0), ("iris", "1nn", 9)])
def test_bundled_holdout_predictions_equal_a_plain_scikit_learn_fit(dataset, learner, seed):
    data = load_dataset(dataset)
    train, test = train_test_split(np.arange(len(data.y)), test_size=1 / 3, random_state=seed, stratify=data.y)
    predictions = PLAIN[learner](seed).fit(data.X[train], data.y[train]).predict(data.X[test])
    y, pred = bundled.holdout_predictions(dataset, learner, seed)
    assert y.dtype == data.y.dtype and pred.dtype == predictions.dtype
    np.testing.assert_array_equal(y, data.y[test])
    np.testing.assert_array_equal(pred, predictions)


def test_bundled_resubstitution_equals_a_plain_scikit_learn_fit():
    """1-NN scored on its own training set and on the held-out third, 20 random splits drawn
    from one seeded generator (SamplingErrorExplorer's switch)."""
    data = load_dataset("breast_cancer")
    rng = np.random.default_rng(0)
    train_errors, test_errors = [], []
    for _ in range(20):
        order = rng.permutation(len(data.y))
        test, train = order[:190], order[190:]  # a third of 569 held out
        model = KNeighborsClassifier(n_neighbors=1).fit(data.X[train], data.y[train])
        train_errors.append(np.mean(model.predict(data.X[train]) != data.y[train]))
        test_errors.append(np.mean(model.predict(data.X[test]) != data.y[test]))
    n_train, n_test, train, test = bundled.resubstitution(**grid.RESUBSTITUTION)
    assert (n_train, n_test) == (379, 190)
    np.testing.assert_array_equal(train, train_errors)
    np.testing.assert_array_equal(test, test_errors)
    assert np.all(train == 0) and test.mean() > 0.05  # a memoriser: resubstitution error 0


def test_a_fresh_fit_of_a_slice_gives_the_same_arrays_and_the_file_the_same_bytes(builder):
    """Every request for two learners on one data set, fitted afresh, equals the bundle; the
    file is exactly what the script writes from its arrays (so a fresh fit of every slice
    writes the same file; ``scripts/precompute_scores.py --check`` does the whole)."""
    fresh = builder.compute(datasets=("iris",), learners=("tree", "logistic"),
                            curve_datasets=("iris",), curve_learners=("stump", "naive_bayes"))
    stored = bundled.read()
    assert set(fresh) <= set(stored)
    for name, array in fresh.items():
        if name.startswith("fold_errors_k"):
            np.testing.assert_array_equal(stored[name][2, 3:5], array[0], err_msg=name)
        elif name.startswith("holdout_predictions_"):
            np.testing.assert_array_equal(stored[name][3:5], array, err_msg=name)
        elif name.startswith("curve_correct_k"):
            np.testing.assert_array_equal(stored[name][2, 3:5], array[0], err_msg=name)
        elif name.startswith("curve_test_sizes_k"):
            np.testing.assert_array_equal(stored[name][2], array[0], err_msg=name)
        elif name not in ("datasets", "learners", "curve_datasets", "curve_learners"):
            np.testing.assert_array_equal(stored[name], array, err_msg=name)
    assert stored["datasets"].tolist()[2] == "iris" and stored["learners"].tolist()[3:5] == ["tree", "logistic"]
    assert stored["curve_datasets"].tolist()[2] == "iris"
    assert stored["curve_learners"].tolist()[3:5] == ["stump", "naive_bayes"]
    assert builder.to_bytes(stored) == bundled.BUNDLE.read_bytes()


@pytest.mark.parametrize("dataset, learner, k", [("breast_cancer", "tree", 10), ("wine", "knn", 5),
                                                 ("digits", "naive_bayes", 5), ("iris", "majority", 10)])
def test_bundled_learning_curves_equal_plain_scikit_learn_fits(dataset, learner, k):
    """Learning curves: each point trains on a prefix of each fold's training part."""
    data = load_dataset(dataset)
    sizes = curves.curve_points(dataset, k, "size")
    expected = [[np.mean(PLAIN[learner](0).fit(data.X[train[:p]], data.y[train[:p]]).predict(data.X[test])
                         == data.y[test]) for train, test in cv_folds(dataset, k, 0)] for p in sizes]
    np.testing.assert_array_equal(bundled.curve_accuracies(dataset, learner, "size", k, 0), expected)


@pytest.mark.parametrize("dataset, learner, mode, k", [("iris", "tree", "class", 10),
                                                       ("digits", "stump", "feature", 5),
                                                       ("wine", "logistic", "feature", 10)])
def test_bundled_noise_curves_equal_a_fresh_fit(dataset, learner, mode, k):
    np.testing.assert_array_equal(bundled.curve_accuracies(dataset, learner, mode, k, 0),
                                  curves.fit_curve(dataset, learner, mode, k, 0))


def test_every_learning_curve_option_is_bundled(no_fitting):
    for dataset, learner, mode, k in itertools.product(grid.CURVE_DATASETS, grid.CURVE_LEARNERS,
                                                       curves.CURVE_MODES, grid.CURVE_K):
        curve = curves.learning_curve(dataset, learner, mode, k, seed=0)
        assert curve.accuracies.shape == (curves.N_POINTS, k)
        assert np.all((curve.accuracies >= 0) & (curve.accuracies <= 1)), (dataset, learner, mode, k)


def test_learning_curves_outside_the_bundle_are_fitted(monkeypatch):
    assert bundled.curve_accuracies("iris", "stump", "size", 5, 1) is None
    assert bundled.curve_accuracies("iris", "stump", "size", 3, 0) is None
    calls = []
    fit = curves._fold_curve
    monkeypatch.setattr(curves, "_fold_curve", lambda *args: calls.append(args) or fit(*args))
    curves.learning_curve("iris", "stump", "size", 5, seed=0)
    assert calls == []
    curves.learning_curve("iris", "stump", "size", 5, seed=1)
    assert calls == [("iris", "stump", 5, 1, "size", fold) for fold in range(5)]


def test_every_request_is_bundled():
    folds, holdouts = grid.requests()
    for dataset, learner in itertools.product(grid.DATASETS, grid.LEARNERS):
        for k, seed in folds:
            errors = bundled.fold_errors(dataset, learner, k, seed)
            assert errors.shape == (k,) and np.all((errors >= 0) & (errors <= 1)), (dataset, learner, k, seed)
        for seed in holdouts:
            assert bundled.holdout_predictions(dataset, learner, seed) is not None


def _options(control):
    return [o[1] if isinstance(o, tuple) else o for o in control.options]


@pytest.mark.parametrize("cls, choices", [
    (RandomizationExplorer, ("mode", "dataset", "learner_a", "learner_b", "k")),
    (BayesianComparisonExplorer, ("dataset", "learner_a", "learner_b", "runs")),
    (ReplicabilityExplorer, ("dataset", "learner_a", "learner_b")),
    (LearningCurveExplorer, ("dataset", "learner_a", "k", "mode"))])
def test_every_option_of_the_explorers_is_bundled(no_fitting, cls, choices):
    """Every combination of the data and learner controls, with the default seed, is read
    from the bundle: the fits refuse to run."""
    explorer = cls()
    state = explorer.state
    for values in itertools.product(*(_options(explorer.controls[name]) for name in choices)):
        state.update(zip(choices, values))
        assert explorer._compute(state) is not None


def test_the_sampling_error_explorers_learner_is_bundled(no_fitting):
    explorer = SamplingErrorExplorer(learner=True)
    learner = explorer.result.learner
    expected = bundled.resubstitution(**grid.RESUBSTITUTION)
    assert (learner.n_train, learner.n_test) == expected[:2]
    np.testing.assert_array_equal(learner.test_errors, expected[3])


def test_resubstitution_outside_the_bundle_is_fitted(empty_caches, monkeypatch):
    calls = []
    fit = sampling.fit_resubstitution
    monkeypatch.setattr(sampling, "fit_resubstitution", lambda *args: calls.append(args) or fit(*args))
    bundled_result = resubstitution_vs_holdout(n_splits=20, seed=0)
    assert calls == []
    assert bundled.resubstitution("breast_cancer", "1nn", 1 / 3, 20, 1) is None
    assert bundled.resubstitution("breast_cancer", "1nn", 1 / 3, 10, 0) is None
    assert bundled.resubstitution("wine", "1nn", 1 / 3, 20, 0) is None
    other = resubstitution_vs_holdout(n_splits=20, seed=1)
    assert calls == [("breast_cancer", "1nn", 1 / 3, 20, 1)]
    assert other.n_test == bundled_result.n_test and not np.array_equal(other.test_errors, bundled_result.test_errors)
    monkeypatch.setattr(bundled, "installed_sklearn", lambda: "0.0")
    bundled._bundle.cache_clear()
    clear_caches()
    refitted = resubstitution_vs_holdout(n_splits=20, seed=0)
    assert calls[-1] == ("breast_cancer", "1nn", 1 / 3, 20, 0)
    np.testing.assert_array_equal(refitted.test_errors, bundled_result.test_errors)


def test_requests_outside_the_bundle_are_fitted(empty_caches, monkeypatch):
    calls = []
    fit = scores.fit_fold_errors
    monkeypatch.setattr(scores, "fit_fold_errors", lambda *args: calls.append(args) or fit(*args))
    assert bundled.fold_errors("iris", "naive_bayes", 5, 1) is None
    assert bundled.fold_errors("digits", "naive_bayes", 10, 0) is None
    assert bundled.holdout_predictions("iris", "naive_bayes", 15) is None
    scores.fold_errors("iris", "naive_bayes", 5, seed=1)
    scores.fold_errors("iris", "naive_bayes", 5, seed=0)
    assert calls == [("iris", "naive_bayes", 5, 1, None)]


def test_another_scikit_learn_version_falls_back_to_fitting(empty_caches, monkeypatch):
    bundled_errors = bundled.fold_errors("wine", "logistic", 10, 0)
    monkeypatch.setattr(bundled, "installed_sklearn", lambda: "0.0")
    bundled._bundle.cache_clear()
    assert bundled.fold_errors("wine", "logistic", 10, 0) is None
    assert bundled.curve_accuracies("wine", "logistic", "size", 10, 0) is None
    calls = []
    fit = scores.fit_fold_errors
    monkeypatch.setattr(scores, "fit_fold_errors", lambda *args: calls.append(args) or fit(*args))
    np.testing.assert_array_equal(scores.fold_errors("wine", "logistic", 10, 0), bundled_errors)
    assert calls == [("wine", "logistic", 10, 0, None)]


def test_a_missing_bundle_falls_back_to_fitting(empty_caches, monkeypatch, tmp_path):
    monkeypatch.setattr(bundled, "BUNDLE", tmp_path / "absent.npz")
    bundled._bundle.cache_clear()
    assert bundled.fold_errors("iris", "naive_bayes", 10, 0) is None
    assert scores.fold_errors("iris", "naive_bayes", 10, 0).shape == (10,)
