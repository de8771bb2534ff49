"""What the explorers ask fitted learners for with their default seeds: the requests the
bundle of learner scores holds, and the seeds of repeated cross-validations.

The explorers that compare real learners (randomisation test, Bayesian comparison,
replicability) offer three data sets and five learners, and with their default seed 0
they always ask for the same cross-validations and hold-out splits (lesson 13 adds four
more sets of seeds of 10x10 cross-validation). The learning-curve explorer offers four
data sets, seven learners, three kinds of curve and 5 or 10 folds; the sampling-error
explorer's switch scores 1-NN on its own training set against held-out splits.

This module is the bottom layer: it imports nothing of the package.
:mod:`evalteach.simulate.bundled_scores` reads the bundle for these requests, the
simulations that fit learners read it, and ``scripts/precompute_scores.py`` writes it.
"""
from __future__ import annotations

__all__ = ["DATASETS", "LEARNERS", "RANDOMIZATION_K", "MAX_RUNS", "PARTITIONS", "LESSON_RUN_SETS",
           "CURVE_DATASETS", "CURVE_LEARNERS", "CURVE_K", "RESUBSTITUTION", "run_seed", "five_by_two_seeds",
           "requests"]

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


def run_seed(seed, run):
    """The fold seed of run ``run`` of :func:`evalteach.simulate.repeated_cv_errors` with ``seed``."""
    return seed * 1000 + run


def five_by_two_seeds(seed):
    """The fold seeds of the 5 replications of 2-fold CV on partition seed ``seed``
    (:func:`evalteach.simulate.replicability`)."""
    return [seed * 1000 + 500 + i for i in range(5)]


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
    folds = {(k, 0) for k in RANDOMIZATION_K}
    folds |= {(10, run_seed(s, r)) for s in range(LESSON_RUN_SETS) for r in range(MAX_RUNS)}
    for seed in range(PARTITIONS):
        folds |= {(10, seed)} | {(2, s) for s in five_by_two_seeds(seed)}
    return sorted(folds), tuple(range(PARTITIONS))
