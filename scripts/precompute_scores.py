"""Fit the learner scores the explorers ask for with seed 0 and write them into the package.

Usage: ``python scripts/precompute_scores.py [--check]``. Run it after changing a learner,
a data set, the folds or the minor version of scikit-learn, and commit
``evalteach/simulate/precomputed/learner_scores.npz``; ``--check`` fits everything afresh
and says whether the file still holds exactly that (it writes nothing). What the bundle
holds is :mod:`evalteach.simulate.bundled_requests`; how it is read,
:mod:`evalteach.simulate.bundled_scores`. This builder is not part of the package.
"""
from __future__ import annotations

import argparse
import io
import sys
import zipfile

import numpy as np

from evalteach.simulate.bundled_requests import (CURVE_DATASETS, CURVE_K, CURVE_LEARNERS, DATASETS, LEARNERS,
                                                 RESUBSTITUTION, requests)
from evalteach.simulate.bundled_scores import BUNDLE
from evalteach.simulate.curves import CURVE_MODES, cv_folds, fit_curve
from evalteach.simulate.learner_scores import fit_fold_errors, fit_holdout_predictions
from evalteach.simulate.sampling import fit_resubstitution

#: The zip entries' time stamp: fixed, so the same scores always give the same bytes.
_STAMP = (1980, 1, 1, 0, 0, 0)


def compute(datasets=DATASETS, learners=LEARNERS, curve_datasets=CURVE_DATASETS,
            curve_learners=CURVE_LEARNERS, progress=None):
    """Fit every request of :func:`evalteach.simulate.bundled_requests.requests` and every
    learning curve for real; the arrays the bundle stores.

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
    return 0


if __name__ == "__main__":
    sys.exit(main())
