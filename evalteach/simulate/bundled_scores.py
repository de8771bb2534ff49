"""Learner scores fitted ahead of time and shipped with the package: read only.

Fitting the explorers' requests (:mod:`evalteach.simulate.bundled_requests`) on a first
visit costs up to seconds (hundreds of fits, and importing scikit-learn), yet the answers
never change. So they are fitted once, by ``python scripts/precompute_scores.py`` (a few
minutes; ``--check`` compares a fresh fit with the file and writes nothing), and stored in
``precomputed/learner_scores.npz`` (about 29 kB) beside this module, with the version of
scikit-learn that fitted them. :mod:`evalteach.simulate.learner_scores`,
:mod:`evalteach.simulate.curves` and :func:`evalteach.simulate.resubstitution_vs_holdout`
read an entry only when a request matches it exactly (data set, learner, k, seed, kind of
curve); anything else (another seed, your own arrays) is fitted for real.

Which scikit-learn may use the bundle: one of the same minor version (1.9.x for a bundle
fitted by 1.9.1). scikit-learn changes what a model predicts in minor releases and lists
such changes under "Changed models" in their notes; patch releases fix bugs. The test
suite fits a sample of the bundle's entries afresh with the installed scikit-learn and
requires the same numbers, so a patch release that did change a prediction fails there
(refit with the script) instead of showing students numbers their own fit would not give.
Another minor version falls back to fitting.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .bundled_requests import (CURVE_DATASETS, CURVE_K, CURVE_LEARNERS, DATASETS, LEARNERS, PARTITIONS,
                               RANDOMIZATION_K, RESUBSTITUTION)
from .result_cache import cached

#: The grid the bundle covers is re-exported for the explorers that offer it.
__all__ = ["BUNDLE", "DATASETS", "LEARNERS", "RANDOMIZATION_K", "PARTITIONS", "CURVE_DATASETS",
           "CURVE_LEARNERS", "CURVE_K", "RESUBSTITUTION", "installed_sklearn", "usable_with", "read",
           "fold_errors", "curve_accuracies", "holdout_predictions", "resubstitution"]

#: Where the bundle lives (package data: in the wheel and in JupyterLite).
BUNDLE = Path(__file__).with_name("precomputed") / "learner_scores.npz"


def installed_sklearn():
    """The installed scikit-learn's version, read without importing it (that takes seconds)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("scikit-learn")
    except PackageNotFoundError:
        return None


def usable_with(fitted_by, installed):
    """Whether a bundle fitted by scikit-learn ``fitted_by`` serves scikit-learn ``installed``:
    the same major and minor version (see the module's notes).

    Examples
    --------
    >>> usable_with("1.9.1", "1.9.3"), usable_with("1.9.1", "1.10.0"), usable_with("1.9.1", None)
    (True, False, False)
    """
    if installed is None:
        return False
    return fitted_by.split(".")[:2] == installed.split(".")[:2]


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


@cached(max_bytes=2**20, name="bundle of learner scores")  # read once: 160 kB of arrays
def _bundle():
    """The bundle (read once), or None if it is missing or another minor version of
    scikit-learn made it."""
    try:
        bundle = _Bundle(read(BUNDLE))
    except (OSError, KeyError, ValueError):
        return None
    return bundle if usable_with(bundle.version, installed_sklearn()) else None


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
