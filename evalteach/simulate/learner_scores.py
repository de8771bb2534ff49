"""Scores of real scikit-learn learners on bundled data, cached, and resamples grown in steps.

The explorers that compare two learners need the same few numbers again and again:
each learner's error on every fold of a (repeated) cross-validation, or its
predictions on a held-out test set. Fitting is the slow part, so every fit is kept by
plain values (data set, learner, k, seed) in a cache bounded in bytes
(:mod:`evalteach.simulate.result_cache`): coming back to a fit costs a look-up (no
progress is reported for it).
What the explorers ask for with seed 0 comes fitted with the package
(:mod:`evalteach.simulate.bundled_scores`): read, not fitted, when the installed
scikit-learn is of the minor version that fitted it.

The fits run on one thread with scikit-learn's input checks off (the bundled data is
finite and well formed): on these small problems worker threads and checks cost more
than the fit itself (logistic regression on breast cancer: about 25x faster on a busy
2-core machine).

:class:`GrowingResamples` keeps a seeded stream of resampled statistics (sign-flip
means or bootstrap error rates) and extends it only by what a new request adds, so
pressing "add 1000" costs only the 1000 new resamples.
"""
from __future__ import annotations

import numpy as np

from .. import _validate
from . import bundled_scores
from ..data import DATASETS, load_dataset
from ..learners import LEARNERS, fitting, make_learner
from ..stats import PermutationNull
from .bundled_requests import run_seed
from .curves import cv_folds
from .result_cache import ResultCache, cached

__all__ = ["fold_errors", "repeated_cv_errors", "holdout_predictions", "GrowingResamples",
           "growing_resamples", "HOLDOUT_FRACTION"]

#: Share of the examples held out as the test set of :func:`holdout_predictions`.
HOLDOUT_FRACTION = 1 / 3
#: Bootstrap statistics :class:`GrowingResamples` draws at a time: the resampled indices
#: of a batch take a few hundred kB, not the gigabyte 100,000 resamples at once would.
_BOOTSTRAP_BATCH = 1 << 15


def _check(dataset, learner, k, seed):
    _validate.choice("dataset", dataset, DATASETS)
    _validate.choice("learner", learner, tuple(LEARNERS))
    return (_validate.integer("k", k, low=2, high=20), _validate.integer("seed", seed, low=0))


#: (data set, learner, k, seed) -> read-only fold errors (each a fit per fold; about 400
#: bytes with its key: 20,000 cross-validations).
_FOLD_ERRORS = ResultCache("fitted fold errors", 8 * 2**20)


def fold_errors(dataset="breast_cancer", learner="naive_bayes", k=10, seed=0, progress=None):
    """Test error of one learner on each fold of a stratified k-fold cross-validation.

    Parameters
    ----------
    dataset : str
        A bundled data set (:data:`evalteach.data.DATASETS`).
    learner : str
        A learner name (:data:`evalteach.learners.LEARNERS`).
    k : int
        Number of folds (the folds of :func:`evalteach.simulate.cv_folds`).
    seed : int
        Seeds the folds (two learners with the same seed share the folds: paired).
    progress : callable, optional
        Called with the fraction done after each fold that had to be fitted
        (not at all when the errors are cached).

    Returns
    -------
    ndarray, shape (k,)
        Error rate on each held-out fold (read-only, cached).

    Examples
    --------
    >>> fold_errors("iris", "naive_bayes", k=5).shape
    (5,)
    """
    k, seed = _check(dataset, learner, k, seed)

    def scored():
        errors = bundled_scores.fold_errors(dataset, learner, k, seed)
        return fit_fold_errors(dataset, learner, k, seed, progress) if errors is None else errors

    return _FOLD_ERRORS.get((dataset, learner, k, seed), scored)


def fit_fold_errors(dataset, learner, k, seed, progress=None):
    """:func:`fold_errors` fitted for real (neither cached nor read from the bundle)."""
    data = load_dataset(dataset)
    errors = np.empty(k)
    with fitting():
        for fold, (train, test) in enumerate(cv_folds(dataset, k, seed)):
            model = make_learner(learner, seed).fit(data.X[train], data.y[train])
            errors[fold] = np.mean(model.predict(data.X[test]) != data.y[test])
            if progress is not None:
                progress((fold + 1) / k)
    return errors


def repeated_cv_errors(dataset="breast_cancer", learner="naive_bayes", runs=10, k=10, seed=0,
                       progress=None):
    """Fold errors of ``runs`` repetitions of k-fold cross-validation, each on new folds.

    Run ``r`` uses the folds of seed ``seed * 1000 + r``; two learners with the same
    arguments see the same folds, as the correlated t-test assumes. ``progress`` is
    called only while fitting; runs already fitted are read from the cache of
    :func:`fold_errors`.

    Returns
    -------
    ndarray, shape (runs * k,)
        The errors of run 0's folds, then run 1's, and so on (read-only).

    Source: Bouckaert & Frank (2004), 10x10 cross-validation; Corani & Benavoli (2015).

    Examples
    --------
    >>> repeated_cv_errors("iris", "naive_bayes", runs=2, k=5).shape
    (10,)
    """
    runs = _validate.integer("runs", runs, low=1, high=100)
    k, seed = _check(dataset, learner, k, seed)
    parts = []
    for r in range(runs):
        step = None if progress is None else (lambda f, r=r: progress((r + f) / runs))
        parts.append(fold_errors(dataset, learner, k, run_seed(seed, r), progress=step))
    errors = np.concatenate(parts)
    errors.setflags(write=False)
    return errors


@cached(max_bytes=4 * 2**20, name="fitted hold-out predictions")  # a fit each: two label arrays
def holdout_predictions(dataset="breast_cancer", learner="naive_bayes", seed=0):
    """Train on a stratified two thirds of the data; predict the held-out third.

    Returns
    -------
    y_test, predictions : ndarray
        True and predicted labels of the :data:`HOLDOUT_FRACTION` held-out examples.

    Examples
    --------
    >>> y, pred = holdout_predictions("iris", "naive_bayes")
    >>> len(y) == len(pred) == 50
    True
    """
    _check(dataset, learner, 2, seed)
    fitted = bundled_scores.holdout_predictions(dataset, learner, seed)
    return fit_holdout_predictions(dataset, learner, seed) if fitted is None else fitted


def fit_holdout_predictions(dataset, learner, seed):
    """:func:`holdout_predictions` fitted for real (neither cached nor read from the bundle)."""
    from sklearn.model_selection import train_test_split

    data = load_dataset(dataset)
    train, test = train_test_split(np.arange(len(data.y)), test_size=HOLDOUT_FRACTION,
                                   random_state=seed, stratify=data.y)
    with fitting():
        model = make_learner(learner, seed).fit(data.X[train], data.y[train])
        return data.y[test], model.predict(data.X[test])


class GrowingResamples:
    """A seeded stream of resampled statistics, grown on demand and read by prefix.

    ``kind="sign-flip"``: the mean of the paired differences ``values`` with random
    signs, exactly the stream of :class:`evalteach.stats.PermutationNull` (so the
    first B equal ``permutation_test(values, n_resamples=B, seed=seed).null_distribution``).
    ``kind="bootstrap"``: the mean of ``values`` (per-example errors, 0 or 1) over
    resamples with replacement, the stream :func:`evalteach.stats.bootstrap_interval`
    draws with the same seed.

    Parameters
    ----------
    values : array
    kind : {"sign-flip", "bootstrap"}
    seed : int

    Examples
    --------
    >>> g = GrowingResamples([0.02, -0.01, 0.03], "sign-flip", seed=0)
    >>> np.array_equal(g.first(10)[:4], g.first(4))
    True

    Source: Efron & Tibshirani (1993), ch. 6 and 15; Lock5's StatKey.
    """

    def __init__(self, values, kind, seed=0):
        self.kind = _validate.choice("kind", kind, ("sign-flip", "bootstrap"))
        self.values = _validate.array("values", values, min_size=2)
        self.seed = _validate.integer("seed", seed, low=0)
        self._null = PermutationNull(self.values, seed=self.seed) if kind == "sign-flip" else None
        self._rng = np.random.default_rng(self.seed)
        self._drawn = np.empty(0)

    def first(self, size):
        """The first ``size`` statistics of the stream (drawing only the missing ones)."""
        size = _validate.integer("size", size, low=0)
        missing = size - self._drawn.size
        if missing > 0:
            if self._null is not None:
                new = self._null.draw(missing)
            else:
                new = self._bootstrap(missing)
            self._drawn = np.concatenate((self._drawn, new))
        return self._drawn[:size]

    def _bootstrap(self, size):
        """The means of ``size`` more resamples with replacement. Drawn a batch of rows at a
        time (an even number of indices per batch: the same stream as drawing all at once)."""
        n = self.values.size
        rows = max(2, _BOOTSTRAP_BATCH // n // 2 * 2)
        means = np.empty(size)
        for start in range(0, size, rows):
            stop = min(start + rows, size)
            means[start:stop] = self.values[self._rng.integers(0, n, size=(stop - start, n))].mean(axis=1)
        return means


#: A stream per data and seed; the explorer draws up to 100,000 statistics (800 kB) of each.
@cached(max_bytes=32 * 2**20, name="resample streams", growing=True)
def _growing(values, kind, seed):
    return GrowingResamples(np.frombuffer(values), kind, seed)


def growing_resamples(values, kind, seed=0):
    """The cached :class:`GrowingResamples` of these values (one stream per data and seed)."""
    return _growing(np.ascontiguousarray(values, dtype=float).tobytes(), kind, seed)

