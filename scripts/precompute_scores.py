"""Fit the learner scores the explorers ask for with seed 0 and write them into the package.

Usage: ``python scripts/precompute_scores.py [--check]`` (see
:mod:`evalteach.simulate.bundled_scores`). Run it after changing a learner, a data set,
the folds or scikit-learn, and commit ``evalteach/simulate/precomputed/learner_scores.npz``.
"""
import sys

from evalteach.simulate.bundled_scores import main

if __name__ == "__main__":
    sys.exit(main())
