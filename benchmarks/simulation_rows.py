"""The simulation rows of the benchmark: each vectorised simulation beside a per-trial
Python loop that does the same work by calling scipy once per trial.

Each row: (name, trials, vectorised(), loop(), loop_trials). The loop runs fewer
trials (it is slow); rates are compared per trial.
"""
import itertools

import numpy as np
from scipy import stats as sps

from evalteach import simulate

TRIALS = 100_000
_SEEDS = itertools.count(1)
LOOP_TRIALS = 2_000


def _loop_sample_errors():
    rng = np.random.default_rng(0)
    return [sps.binom.rvs(40, 0.3, random_state=rng) / 40 for _ in range(LOOP_TRIALS)]


def _loop_interval_coverage():
    rng = np.random.default_rng(0)
    hits = 0
    for _ in range(LOOP_TRIALS):
        k = sps.binom.rvs(40, 0.3, random_state=rng)
        ci = sps.binomtest(int(k), 40).proportion_ci(0.95, method="wilson")
        hits += ci.low <= 0.3 <= ci.high
    return hits


def _loop_sample_means():
    rng = np.random.default_rng(0)
    return [sps.expon.rvs(size=30, random_state=rng).mean() for _ in range(LOOP_TRIALS)]


def _loop_paired_t():
    rng = np.random.default_rng(0)
    hits = 0
    for _ in range(LOOP_TRIALS):
        d = rng.normal(0.0, 1.0, 10)
        ci = sps.ttest_1samp(d, 0.0).confidence_interval(0.95)
        hits += ci.low <= 0.0 <= ci.high
    return hits


EXPONENTIAL = simulate.parent_distribution("exponential")

SIMULATIONS = [
    ("sample_errors", TRIALS, lambda: simulate.sample_errors(0.3, 40, TRIALS, seed=0),
     _loop_sample_errors, LOOP_TRIALS),
    ("interval_coverage (Wilson)", TRIALS,
     lambda: simulate.interval_coverage(0.3, 40, method="wilson", n_sets=TRIALS, seed=0),
     _loop_interval_coverage, LOOP_TRIALS),
    ("sample_means (exponential)", TRIALS,
     lambda: simulate.sample_means(EXPONENTIAL, 30, TRIALS, seed=0), _loop_sample_means, LOOP_TRIALS),
    # A new seed each call: t_vs_z_coverage caches its draws per setting.
    ("t_vs_z_coverage (k=10)", TRIALS,
     lambda: simulate.t_vs_z_coverage([10], n_experiments=TRIALS, seed=next(_SEEDS)),
     _loop_paired_t, LOOP_TRIALS),
]
