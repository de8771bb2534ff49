"""Learner scores fitted ahead of time and shipped with the package.

The explorers that compare real learners (randomisation test, Bayesian comparison,
replicability) offer three data sets and five learners, and with their default seed 0
they always ask for the same cross-validations and hold-out splits (lesson 13 adds four
more sets of seeds of 10x10 cross-validation). The learning-curve explorer offers four
data sets, seven learners, three kinds of curve and 5 or 10 folds, and fits the curves of
every kind (up to 330 fits) whenever the data set, a learner or k changes; the
sampling-error explorer's switch scores 1-NN on its own training set against held-out
splits. Fitting them on a first visit costs up to seconds (hundreds of fits, and importing
scikit-learn), yet the answers never change. So they are fitted once, by
``python scripts/precompute_scores.py`` (a few minutes; ``--check`` compares a fresh fit
with the file and writes nothing), and stored in ``precomputed/learner_scores.npz`` (about
29 kB) beside this module, with the version of scikit-learn that fitted them.
:mod:`evalteach.simulate.learner_scores`, :mod:`evalteach.simulate.curves` and
:func:`evalteach.simulate.resubstitution_vs_holdout` read an entry only when a request
matches it exactly (data set, learner, k, seed, kind of curve) and the installed
scikit-learn is that version; anything else (another seed, your own arrays, another
scikit-learn) is fitted for real, as before.
"""
from __future__ import annotations

import io
import zipfile
from functools import lru_cache
from pathlib import Path

import numpy as np

__all__ = ["BUNDLE", "DATASETS", "LEARNERS", "RANDOMIZATION_K", "MAX_RUNS", "PARTITIONS",
           "CURVE_DATASETS", "CURVE_LEARNERS", "CURVE_K", "RESUBSTITUTION"]

#: Where the bundle lives (package data: in the wheel and in JupyterLite).
BUNDLE = Path(__file__).with_name("precomputed") / "learner_scores.npz"
#: The data sets and learners the comparing explorers offer (small and quick to fit).
DATASETS = ("breast_cancer", "wine", "iris")
LEARNERS = ("naive_bayes", "1nn", "stump", "tree", "logistic")
#: The fold counts of RandomizationExplorer's sign-flip test.
RANDOMIZATION_K = (5, 10)
#: The most runs of 10-fold cross-validation BayesianComparisonExplorer offers.
MAX_RUNS = 10
#: The partition seeds 0, 1, ... of ReplicabilityExplorer.
PARTITIONS = 15
#: Sets of seeds (0, 1, ...) of 10x10 cross-validation that lesson 13 compares.
LESSON_RUN_SETS = 5
#: The learning-curve explorer's data sets, learners and fold counts (seed 0, every kind of curve).
CURVE_DATASETS = ("breast_cancer", "wine", "iris", "digits")
CURVE_LEARNERS = ("1nn", "knn", "tree", "stump", "naive_bayes", "logistic", "majority")
CURVE_K = (5, 10)
#: SamplingErrorExplorer's resubstitution-versus-held-out request (the arguments of
#: :func:`evalteach.simulate.resubstitution_vs_holdout`).
RESUBSTITUTION = {"dataset": "breast_cancer", "learner": "1nn", "test_fraction": 1 / 3, "n_splits": 20,
                  "seed": 0}
#: The zip entries' time stamp: fixed, so the same scores always give the same bytes.
_STAMP = (1980, 1, 1, 0, 0, 0)


def requests():
    """What the bundle holds: every request the explorers make with seed 0 (and the
    repeated cross-validations of lesson 13).

    Returns
    -------
    folds : list of (k, seed)
        The cross-validations (each for every data set and learner).
    holdouts : tuple of int
        The seeds of the hold-out splits.
    """
    from .learner_scores import run_seed
    from .repeated_partitions import five_by_two_seeds

    folds = {(k, 0) for k in RANDOMIZATION_K}
    folds |= {(10, run_seed(s, r)) for s in range(LESSON_RUN_SETS) for r in range(MAX_RUNS)}
    for seed in range(PARTITIONS):
        folds |= {(10, seed)} | {(2, s) for s in five_by_two_seeds(seed)}
    return sorted(folds), tuple(range(PARTITIONS))


def installed_sklearn():
    """The installed scikit-learn's version, read without importing it (that takes seconds)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("scikit-learn")
    except PackageNotFoundError:
        return None


class _Bundle:
    """The arrays of the bundle, indexed by request."""

    def __init__(self, arrays):
        self.version = str(arrays["sklearn_version"])
        self.datasets = {name: i for i, name in enumerate(arrays["datasets"].tolist())}
        self.learners = {name: i for i, name in enumerate(arrays["learners"].tolist())}
        self.folds = {}  # k -> (seed -> column, errors of shape (datasets, learners, seeds, k))
        for name, errors in arrays.items():
            if name.startswith("fold_errors_k"):
                k = int(name.removeprefix("fold_errors_k"))
                seeds = arrays[f"fold_seeds_k{k}"].tolist()
                self.folds[k] = ({seed: i for i, seed in enumerate(seeds)}, errors)
        self.holdout_seeds = {seed: i for i, seed in enumerate(arrays["holdout_seeds"].tolist())}
        self.holdout = {name: (arrays[f"holdout_y_{name}"], arrays[f"holdout_predictions_{name}"])
                        for name in self.datasets}
        # learning curves: correct predictions per (data set, learner, mode, point, fold), and
        # the folds' test sizes; their quotient is exactly the accuracy numpy computes
        self.curve_index = [{name: i for i, name in enumerate(arrays[f"curve_{axis}"].tolist())}
                            for axis in ("datasets", "learners", "modes")]
        self.curves = {k: (arrays[f"curve_correct_k{k}"], arrays[f"curve_test_sizes_k{k}"])
                       for k in arrays["curve_k"].tolist()}
        self.resubstitution = (tuple(arrays["resubstitution_sizes"].tolist())
                               + tuple(arrays["resubstitution_errors"]))

    def fold_errors(self, dataset, learner, k, seed):
        try:
            seeds, errors = self.folds[k]
            return errors[self.datasets[dataset], self.learners[learner], seeds[seed]].copy()
        except KeyError:
            return None

    def curve_accuracies(self, dataset, learner, mode, k, seed):
        if seed != 0 or k not in self.curves:
            return None
        try:
            d, name, m = (index[key] for index, key in zip(self.curve_index, (dataset, learner, mode)))
        except KeyError:
            return None
        correct, sizes = self.curves[k]
        return correct[d, name, m] / sizes[d]

    def holdout_predictions(self, dataset, learner, seed):
        try:
            y, predictions = self.holdout[dataset]
            column = self.holdout_seeds[seed]
            return y[column].astype(int), predictions[self.learners[learner], column].astype(int)
        except KeyError:
            return None


    def resubstitution_errors(self, request):
        if request != RESUBSTITUTION:
            return None
        n_train, n_test, train_errors, test_errors = self.resubstitution
        return n_train, n_test, train_errors.copy(), test_errors.copy()


def read(path=BUNDLE):
    """All arrays of a bundle file, by name."""
    with np.load(path) as archive:
        return {name: archive[name] for name in archive.files}


@lru_cache(maxsize=1)
def _bundle():
    """The bundle, or None if it is missing or another scikit-learn made it."""
    try:
        bundle = _Bundle(read(BUNDLE))
    except (OSError, KeyError, ValueError):
        return None
    return bundle if bundle.version == installed_sklearn() else None


def fold_errors(dataset, learner, k, seed):
    """The bundled fold errors of this cross-validation, or None if they are not bundled
    (or may differ from a fit with the installed scikit-learn)."""
    bundle = _bundle()
    return None if bundle is None else bundle.fold_errors(dataset, learner, k, seed)


def curve_accuracies(dataset, learner, mode, k, seed):
    """The bundled test accuracies of :func:`evalteach.simulate.learning_curve` (one column
    per fold), or None if they are not bundled (or may differ from a fit here)."""
    bundle = _bundle()
    return None if bundle is None else bundle.curve_accuracies(dataset, learner, mode, k, seed)


def holdout_predictions(dataset, learner, seed):
    """The bundled ``(y_test, predictions)`` of this hold-out split, or None."""
    bundle = _bundle()
    return None if bundle is None else bundle.holdout_predictions(dataset, learner, seed)


def resubstitution(dataset, learner, test_fraction, n_splits, seed):
    """The bundled ``(n_train, n_test, train_errors, test_errors)`` of
    :func:`evalteach.simulate.resubstitution_vs_holdout`, or None."""
    bundle = _bundle()
    request = {"dataset": dataset, "learner": learner, "test_fraction": test_fraction,
               "n_splits": n_splits, "seed": seed}
    return None if bundle is None else bundle.resubstitution_errors(request)


def compute(datasets=DATASETS, learners=LEARNERS, curve_datasets=CURVE_DATASETS,
            curve_learners=CURVE_LEARNERS, progress=None):
    """Fit every request of :func:`requests` and every learning curve for real; the arrays
    the bundle stores.

    Parameters
    ----------
    datasets, learners : tuple of str
        What to fit (the defaults make the bundle; a part of it serves the tests).
    curve_datasets, curve_learners : tuple of str
        The same for the learning curves.
    progress : callable, optional
        Called with a line of text after each data set.
    """
    import sklearn

    from .learner_scores import fit_fold_errors, fit_holdout_predictions
    from .sampling import fit_resubstitution

    folds, holdouts = requests()
    arrays = {"sklearn_version": np.array(sklearn.__version__), "datasets": np.array(datasets),
              "learners": np.array(learners), "holdout_seeds": np.array(holdouts)}
    for k in sorted({k for k, _ in folds}):
        seeds = [seed for kk, seed in folds if kk == k]
        arrays[f"fold_seeds_k{k}"] = np.array(seeds)
        arrays[f"fold_errors_k{k}"] = np.array([[[fit_fold_errors(d, name, k, seed) for seed in seeds]
                                                 for name in learners] for d in datasets])
    for d in datasets:
        fits = [[fit_holdout_predictions(d, name, seed) for seed in holdouts] for name in learners]
        arrays[f"holdout_y_{d}"] = np.array([y for y, _ in fits[0]], dtype=np.int8)
        arrays[f"holdout_predictions_{d}"] = np.array([[pred for _, pred in row] for row in fits], dtype=np.int8)
        if progress is not None:
            progress(f"fitted {d}")
    n_train, n_test, train_errors, test_errors = fit_resubstitution(**RESUBSTITUTION)
    arrays["resubstitution_sizes"] = np.array([n_train, n_test])
    arrays["resubstitution_errors"] = np.array([train_errors, test_errors])
    arrays.update(compute_curves(curve_datasets, curve_learners, progress))
    return arrays


def compute_curves(datasets=CURVE_DATASETS, learners=CURVE_LEARNERS, progress=None):
    """Fit the learning curves of seed 0 for real: correct predictions as integers (a quarter
    of the bytes of the accuracies) and the folds' test sizes."""
    from .curves import CURVE_MODES, cv_folds, fit_curve

    arrays = {"curve_datasets": np.array(datasets), "curve_learners": np.array(learners),
              "curve_modes": np.array(CURVE_MODES), "curve_k": np.array(CURVE_K)}
    for k in CURVE_K:
        sizes = np.array([[len(test) for _, test in cv_folds(d, k, 0)] for d in datasets], dtype=np.uint16)
        accuracies = np.array([[[fit_curve(d, name, mode, k, 0) for mode in CURVE_MODES] for name in learners]
                               for d in datasets])
        correct = np.rint(accuracies * sizes[:, None, None, None, :]).astype(np.uint16)
        if not np.array_equal(correct / sizes[:, None, None, None, :], accuracies):
            raise ArithmeticError("correct counts do not give back the fitted accuracies")
        arrays[f"curve_correct_k{k}"], arrays[f"curve_test_sizes_k{k}"] = correct, sizes
        if progress is not None:
            progress(f"fitted the learning curves of {k}-fold cross-validation")
    return arrays


def to_bytes(arrays):
    """The bundle file's bytes: a .npz archive (``numpy.load`` reads it) with fixed time
    stamps and order, so the same arrays always give the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(arrays):
            entry = io.BytesIO()
            np.lib.format.write_array(entry, np.asarray(arrays[name]), allow_pickle=False)
            archive.writestr(zipfile.ZipInfo(f"{name}.npy", date_time=_STAMP), entry.getvalue(),
                             compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return buffer.getvalue()


def main(argv=None):
    """Fit the bundle and write it (``--check``: only say whether the file is up to date)."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--check", action="store_true", help="compare with the bundled file, write nothing")
    args = parser.parse_args(argv)
    data = to_bytes(compute(progress=print))
    if args.check:
        same = BUNDLE.exists() and BUNDLE.read_bytes() == data
        print(f"{BUNDLE}: {'up to date' if same else 'DIFFERS from a fresh fit'}")
        return 0 if same else 1
    BUNDLE.parent.mkdir(exist_ok=True)
    BUNDLE.write_bytes(data)
    print(f"wrote {BUNDLE} ({len(data):,} bytes)")
    _bundle.cache_clear()
    return 0
