"""Cross-validated learning curves and noise curves with real scikit-learn learners.

Mooney's recipe: split the data into k folds; for each fold, train every learner on
the first p examples of the other folds (for each point p of the curve) and test it on
the held-out fold; average the k accuracies per point and compare two learners per point
with a paired t-test. A noise curve does the same at full training size while a growing
fraction of the training labels (class noise) or feature values (feature noise) is
replaced by random values; the test fold stays clean.

Fitting is the slow part, so each fold's curve is kept by plain values in a cache bounded
in bytes (:mod:`evalteach.simulate.result_cache`): coming back to a data set, learner, k
and seed does not fit again. What the
learning-curve explorer asks for with seed 0 comes fitted with the package
(:mod:`evalteach.simulate.bundled_scores`): read, not fitted, when the installed
scikit-learn is of the minor version that fitted it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate
from . import bundled_scores
from ..data import DATASETS, load_dataset
from ..learners import LEARNERS, fitting, make_learner
from .result_cache import cached

__all__ = ["CURVE_MODES", "N_POINTS", "Curve", "cv_folds", "curve_points", "fit_curve", "learning_curve",
           "majority_class_accuracy"]

#: What the x axis of a curve measures.
CURVE_MODES = ("size", "class", "feature")
#: Points per curve: training-set sizes, or noise fractions 0, 0.1, ..., 1.
N_POINTS = 11


@dataclass(frozen=True, repr=False, eq=False)
class Curve:
    """One learner's accuracies over the points of a curve, one column per fold.

    Attributes
    ----------
    dataset, learner, mode : str
    x : ndarray (N_POINTS,)
        Training-set sizes (``mode="size"``) or noise fractions.
    accuracies : ndarray (N_POINTS, k)
        Test accuracy on each fold at each point.
    """

    dataset: str
    learner: str
    mode: str
    x: np.ndarray
    accuracies: np.ndarray

    @property
    def mean(self):
        """Mean accuracy over the folds, per point."""
        return self.accuracies.mean(axis=-1)

    @property
    def sd(self):
        """Standard deviation over the folds (ddof=1), per point."""
        return self.accuracies.std(axis=-1, ddof=1)

    def __repr__(self):
        return (f"Curve({self.dataset!r}, {self.learner!r}, mode={self.mode!r}, "
                f"points={len(self.x)}, folds={self.accuracies.shape[-1]})")


def _stratified_order(y, rng):
    """A random order of ``y``'s indices whose every prefix keeps the class proportions."""
    key = np.empty(len(y))
    for c in np.unique(y):
        members = np.flatnonzero(y == c)
        key[rng.permutation(members)] = (np.arange(len(members)) + rng.random()) / len(members)
    return np.lexsort((rng.random(len(y)), key))


@cached(max_bytes=16 * 2**20, name="cross-validation folds")  # 10-30 kB each, milliseconds to make
def cv_folds(dataset="breast_cancer", k=10, seed=0):
    """The k stratified folds, as (training indices in curve order, test indices) pairs.

    A curve point of size p trains on ``train[:p]``. The training order is random but
    stratified, so even a short prefix holds every class in about its proportion.

    Examples
    --------
    >>> train, test = cv_folds("iris", k=5)[0]
    >>> len(train), len(test)
    (120, 30)
    """
    _validate.choice("dataset", dataset, DATASETS)
    k = _validate.integer("k", k, low=2, high=20)
    seed = _validate.integer("seed", seed, low=0)
    from sklearn.model_selection import StratifiedKFold

    data = load_dataset(dataset)
    rng = np.random.default_rng([seed, k])
    splitter = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
    folds = []
    for train, test in splitter.split(data.X, data.y):
        train = train[_stratified_order(data.y[train], rng)]
        train.setflags(write=False)
        test.setflags(write=False)
        folds.append((train, test))
    return tuple(folds)


def curve_points(dataset="breast_cancer", k=10, mode="size"):
    """The x values of a curve: geometric training sizes up to the smallest training set,
    or noise fractions 0, 0.1, ..., 1."""
    _validate.choice("mode", mode, CURVE_MODES)
    if mode == "size":
        data = load_dataset(dataset)
        largest = len(data.y) - int(np.ceil(len(data.y) / k))
        smallest = max(10, 2 * len(data.class_names))
        x = np.round(np.geomspace(smallest, largest, N_POINTS)).astype(int)
    else:
        x = np.round(np.linspace(0.0, 1.0, N_POINTS), 10)
    x.setflags(write=False)
    return x


def _add_noise(X, y, fraction, mode, classes, rng):
    """Replace a fraction of labels (class noise) or feature values (feature noise) by random
    values: a label by a class drawn uniformly, a feature value by that feature's value in a
    random training example. A replaced value may by chance equal the old one (Mooney)."""
    if mode == "class":
        y = y.copy()
        hit = rng.random(len(y)) < fraction
        y[hit] = rng.choice(classes, size=hit.sum())
        return X, y
    X = X.copy()
    hit = rng.random(X.shape) < fraction
    rows, cols = np.nonzero(hit)
    X[rows, cols] = X[rng.integers(len(X), size=len(rows)), cols]
    return X, y


@cached(max_bytes=4 * 2**20, name="fitted learning curves")  # 11 accuracies per fold, a fit each
def _fold_curve(dataset, learner, k, seed, mode, fold):
    data = load_dataset(dataset)
    train, test = cv_folds(dataset, k, seed)[fold]
    classes = np.unique(data.y)
    accuracies = []
    for i, x in enumerate(curve_points(dataset, k, mode)):
        X, y = data.X[train], data.y[train]
        if mode == "size":
            X, y = X[:x], y[:x]
        elif x > 0:
            # The same noise for every learner (seeded by fold and level): a paired comparison.
            rng = np.random.default_rng([seed, k, fold, i, CURVE_MODES.index(mode)])
            X, y = _add_noise(X, y, x, mode, classes, rng)
        with fitting():
            model = make_learner(learner, seed).fit(X, y)
            accuracies.append(np.mean(model.predict(data.X[test]) == data.y[test]))
    return np.array(accuracies)


def learning_curve(dataset="breast_cancer", learner="naive_bayes", mode="size", k=10, seed=0,
                   progress=None):
    """Cross-validated accuracy of one learner against training-set size or noise level.

    Parameters
    ----------
    dataset : str
        A bundled data set (:data:`evalteach.data.DATASETS`).
    learner : str
        A learner name (:data:`evalteach.learners.LEARNERS`).
    mode : {"size", "class", "feature"}
        Learning curve, or noise curve with class noise or feature noise.
    k : int
        Number of stratified folds.
    seed : int
        Seeds the folds, the training order and the noise.
    progress : callable, optional
        Called with the fraction done (0 to 1) after each fold.

    Returns
    -------
    Curve

    Examples
    --------
    >>> c = learning_curve("iris", "naive_bayes", k=5)
    >>> c.accuracies.shape
    (11, 5)

    Source: Mooney, "Experimental evaluation" (learning and noise curves).
    """
    k, seed = _check(dataset, learner, mode, k, seed)
    accuracies = bundled_scores.curve_accuracies(dataset, learner, mode, k, seed)
    if accuracies is None:
        accuracies = fit_curve(dataset, learner, mode, k, seed, progress)
    accuracies.setflags(write=False)
    return Curve(dataset, learner, mode, curve_points(dataset, k, mode), accuracies)


def majority_class_accuracy(dataset="breast_cancer", k=10, seed=0):
    """The majority-class baseline of a curve: the mean accuracy, over the k folds of
    :func:`cv_folds`, of always predicting the class most frequent in the fold's training part.

    What scikit-learn's ``DummyClassifier(strategy="most_frequent")`` scores on the same
    folds (a tie goes to the smallest class label, as there). A learner whose curve falls
    to this line has learned nothing a class count would not tell.

    Parameters
    ----------
    dataset, k, seed
        As in :func:`cv_folds`.

    Returns
    -------
    float

    Examples
    --------
    >>> round(majority_class_accuracy("breast_cancer", k=10), 3)   # 357 benign of 569
    0.627

    Source: Witten and Frank, *Data Mining*, ch. 5 (the majority-class predictor, in the
    leave-one-out example); scikit-learn's ``DummyClassifier``.
    """
    folds = cv_folds(dataset, k, seed)  # checks the arguments
    y = load_dataset(dataset).y
    accuracies = []
    for train, test in folds:
        classes, counts = np.unique(y[train], return_counts=True)
        accuracies.append(np.mean(y[test] == classes[np.argmax(counts)]))
    return float(np.mean(accuracies))


def _check(dataset, learner, mode, k, seed):
    _validate.choice("dataset", dataset, DATASETS)
    _validate.choice("learner", learner, tuple(LEARNERS))
    _validate.choice("mode", mode, CURVE_MODES)
    return _validate.integer("k", k, low=2, high=20), _validate.integer("seed", seed, low=0)


def fit_curve(dataset, learner, mode, k, seed, progress=None):
    """The accuracies of :func:`learning_curve`, always fitted (never read from the bundle):
    an array of shape (N_POINTS, k), one column per fold. Parameters as there."""
    k, seed = _check(dataset, learner, mode, k, seed)
    columns = []
    for fold in range(k):
        columns.append(_fold_curve(dataset, learner, k, seed, mode, fold))
        if progress is not None:
            progress((fold + 1) / k)
    return np.column_stack(columns)
