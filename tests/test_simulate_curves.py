"""simulate.curves: learning and noise curves against direct scikit-learn fits."""
import numpy as np
import pytest

from evalteach.data import load_dataset
from evalteach.learners import make_learner
from evalteach.simulate.curves import (_add_noise, curve_points, cv_folds, fit_curve, learning_curve,
                                       majority_class_accuracy)


def test_size_points_run_from_small_to_the_smallest_training_set():
    x = curve_points("breast_cancer", 10, "size")
    assert len(x) == 11 and x[0] == 10 and x[-1] == 569 - 57
    assert np.all(np.diff(x) > 0)
    np.testing.assert_allclose(curve_points("iris", 5, "class"), np.linspace(0, 1, 11))


def test_curve_equals_direct_fits_and_is_deterministic():
    progress = []
    c = learning_curve("iris", "stump", "size", k=5, seed=3, progress=progress.append)
    assert c.accuracies.shape == (11, 5)
    assert progress == pytest.approx([0.2, 0.4, 0.6, 0.8, 1.0])
    data = load_dataset("iris")
    for fold, (train, test) in enumerate(cv_folds("iris", 5, 3)):
        rows = train[:c.x[4]]
        model = make_learner("stump", 3).fit(data.X[rows], data.y[rows])
        assert c.accuracies[4, fold] == np.mean(model.predict(data.X[test]) == data.y[test])
    again = learning_curve("iris", "stump", "size", k=5, seed=3)
    np.testing.assert_array_equal(again.accuracies, c.accuracies)
    assert c.mean[4] == c.accuracies[4].mean() and c.sd[4] == pytest.approx(np.std(c.accuracies[4], ddof=1))
    assert not learning_curve("iris", "stump", "size", k=5, seed=4).accuracies.flags.writeable


def test_class_noise_replaces_labels_by_random_classes():
    rng = np.random.default_rng(0)
    y = np.zeros(20000, int)
    X = np.zeros((20000, 1))
    _, noisy = _add_noise(X, y, 0.3, "class", np.arange(3), rng)
    # A replaced label is a uniform draw from 3 classes: 2/3 of replacements change it.
    assert np.mean(noisy != 0) == pytest.approx(0.3 * 2 / 3, abs=0.01)
    assert set(np.unique(noisy)) == {0, 1, 2}


def test_feature_noise_draws_from_the_same_column():
    rng = np.random.default_rng(1)
    X = np.column_stack([np.arange(1000.0), 1000 + np.arange(1000.0)])
    noisy, _ = _add_noise(X, np.zeros(1000, int), 0.5, "feature", None, rng)
    changed = noisy != X
    assert np.mean(changed) == pytest.approx(0.5, abs=0.04)
    assert np.all((noisy[:, 0] < 1000) & (noisy[:, 1] >= 1000))  # values stay in their feature


def test_noise_lowers_accuracy():
    c = learning_curve("breast_cancer", "1nn", "class", k=5)
    assert c.mean[0] > 0.85 and c.mean[-1] < 0.65


@pytest.mark.parametrize("dataset", ["breast_cancer", "wine", "iris", "digits"])
@pytest.mark.parametrize("k, seed", [(5, 0), (10, 0), (10, 3)])
def test_chance_level_is_what_a_most_frequent_dummy_classifier_scores_on_the_same_folds(dataset, k, seed):
    from sklearn.dummy import DummyClassifier
    from sklearn.model_selection import cross_val_score

    data = load_dataset(dataset)
    folds = list(cv_folds(dataset, k, seed))
    scores = cross_val_score(DummyClassifier(strategy="most_frequent"), data.X, data.y, cv=folds)
    assert majority_class_accuracy(dataset, k, seed) == pytest.approx(scores.mean(), abs=1e-12)
    if dataset == "iris":  # as many of each class in every training part: the tie goes to class 0, as in scikit-learn
        assert all(len(set(np.bincount(data.y[train]))) == 1 for train, _ in folds)
        assert scores.mean() == pytest.approx(1 / 3)


def test_chance_level_of_breast_cancer_is_the_benign_share():
    # 357 benign of 569 tumours; stratified folds keep that share in every fold, to within a tumour
    assert majority_class_accuracy("breast_cancer", 10, 0) == pytest.approx(357 / 569, abs=5e-4)
    with pytest.raises(ValueError, match="dataset"):
        majority_class_accuracy("nope")
    with pytest.raises(ValueError, match="k"):
        majority_class_accuracy("iris", k=1)


@pytest.mark.parametrize("kwargs, name", [({"dataset": "nope"}, "dataset"), ({"learner": "svm"}, "learner"),
                                          ({"mode": "labels"}, "mode"), ({"k": 1}, "k"), ({"seed": -1}, "seed")])
def test_bad_arguments_name_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        learning_curve(**kwargs)
    arguments = {"dataset": "iris", "learner": "stump", "mode": "size", "k": 5, "seed": 0, **kwargs}
    with pytest.raises(ValueError, match=name):
        fit_curve(**arguments)
