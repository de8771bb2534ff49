"""The same comparison of two real learners, repeated over many random partitions of one data set.

Bouckaert & Frank (2004) asked whether a test's verdict replicates: run the same test
on the same data with another random partition and see whether it says
"significant" again. Here each partition seed gives four tests of learner A against
learner B: the paired t-test and the corrected resampled t-test on the same 10-fold
cross-validation, Alpaydin's 5x2cv F-test, and McNemar's test on a 2/3 : 1/3 hold-out
split. The fits are cached per data set, learner and seed (see
:mod:`evalteach.simulate.learner_scores`); the tests run on all seeds at once.
"""
from __future__ import annotations

from dataclasses import dataclass
import numpy as np

from .. import _validate
from ..stats import (corrected_resampled_t_test, five_by_two_cv_f_test, mcnemar_table, mcnemar_test,
                     paired_t_test)
from .bundled_requests import five_by_two_seeds
from .learner_scores import fold_errors, holdout_predictions
from .result_cache import ResultCache

__all__ = ["REPLICABILITY_TESTS", "Replicability", "replicability", "agreement"]

#: The four tests, in the order of :attr:`Replicability.p_values`' rows.
REPLICABILITY_TESTS = ("10-fold CV paired t", "10-fold CV corrected t", "5x2cv F", "McNemar (hold-out)")


@dataclass(frozen=True, repr=False, eq=False)
class Replicability:
    """Every test's p-value on every partition seed.

    Attributes
    ----------
    dataset, learner_a, learner_b : str
    p_values : ndarray, shape (4, n_seeds)
        Rows in the order of :data:`REPLICABILITY_TESTS`, columns partition seeds 0, 1, ...
    cv_differences : ndarray, shape (n_seeds, 10)
        Fold errors of A minus B in each seed's 10-fold cross-validation.
    """

    dataset: str
    learner_a: str
    learner_b: str
    p_values: np.ndarray
    cv_differences: np.ndarray

    def __repr__(self):
        return (f"Replicability({self.dataset!r}, {self.learner_a!r} vs {self.learner_b!r}, "
                f"seeds={self.p_values.shape[1]})")


def agreement(significant):
    """Share of pairs of runs whose verdicts agree (both significant or both not).

    Parameters
    ----------
    significant : array of bool, shape (..., m)
        The verdicts of ``m`` runs.

    Returns
    -------
    float or ndarray
        ``(C(s, 2) + C(m - s, 2)) / C(m, 2)`` with ``s`` significant runs: 1 when every
        run agrees, about 0.5 when half say significant.

    Source: Bouckaert & Frank (2004), "Evaluating the replicability of significance
    tests for comparing learning algorithms", PAKDD (their replicability measure
    counts agreeing pairs of runs).

    Examples
    --------
    >>> agreement([True, True, False, False])
    0.3333333333333333
    """
    sig = np.asarray(significant, dtype=bool)
    m = sig.shape[-1]
    if m < 2:
        raise ValueError(f"significant must hold at least 2 runs, got {m}")
    s = sig.sum(axis=-1)
    share = (s * (s - 1) + (m - s) * (m - s - 1)) / (m * (m - 1))
    return float(share) if np.ndim(share) == 0 else share


def _five_by_two_errors(dataset, learner, seed):
    """Fold errors of 5 replications of 2-fold CV."""
    return np.array([fold_errors(dataset, learner, 2, s) for s in five_by_two_seeds(seed)])


def _fit_all(dataset, learner_a, learner_b, n_seeds, progress):
    cv, fxt, tables = [], [], []
    for s in range(n_seeds):
        cv.append(fold_errors(dataset, learner_a, 10, s) - fold_errors(dataset, learner_b, 10, s))
        fxt.append(_five_by_two_errors(dataset, learner_a, s) - _five_by_two_errors(dataset, learner_b, s))
        y, pred_a = holdout_predictions(dataset, learner_a, s)
        _, pred_b = holdout_predictions(dataset, learner_b, s)
        tables.append(mcnemar_table(y, pred_a, pred_b))
        if progress is not None:
            progress((s + 1) / n_seeds)
    cv, tables = np.array(cv), np.array(tables)
    if learner_a == learner_b:  # the same learner twice: no difference, every test says p = 1
        p = np.ones((len(REPLICABILITY_TESTS), n_seeds))
    else:
        p = np.array([
            paired_t_test(cv).p_value,
            corrected_resampled_t_test(cv, test_train_ratio=1 / 9).p_value,
            five_by_two_cv_f_test(np.array(fxt)).p_value,
            mcnemar_test(tables[:, 0, 1], tables[:, 1, 0]).p_value,
        ], dtype=float)
    p.setflags(write=False)
    cv.setflags(write=False)
    return Replicability(dataset, learner_a, learner_b, p, cv)


#: (data set, learner A, learner B, seeds) -> Replicability (about 4 kB at 30 seeds; its
#: tests on cached fits take 5-10 ms); the fits behind it are cached too.
_CACHE = ResultCache("replicability", 2 * 2**20)


def replicability(dataset="breast_cancer", learner_a="naive_bayes", learner_b="1nn", n_seeds=30,
                  progress=None):
    """Four tests of learner A against learner B on ``n_seeds`` random partitions of one data set.

    Parameters
    ----------
    dataset : str
        A bundled data set.
    learner_a, learner_b : str
        Learner names (:data:`evalteach.learners.LEARNERS`).
    n_seeds : int
        Partition seeds 0, 1, ..., n_seeds - 1; each gives a 10-fold CV, a 5x2 CV and a
        hold-out split.
    progress : callable, optional
        Called with the fraction done after each seed (only while fitting).

    Returns
    -------
    Replicability

    References
    ----------
    Bouckaert & Frank (2004), PAKDD; Dietterich (1998); Alpaydin (1999); Nadeau &
    Bengio (2003).

    Examples
    --------
    >>> r = replicability("iris", "naive_bayes", "stump", n_seeds=2)
    >>> r.p_values.shape
    (4, 2)
    """
    n_seeds = _validate.integer("n_seeds", n_seeds, low=2, high=200)
    return _CACHE.get((dataset, learner_a, learner_b, n_seeds),
                      lambda: _fit_all(dataset, learner_a, learner_b, n_seeds, progress))
