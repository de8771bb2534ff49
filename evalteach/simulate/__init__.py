"""Vectorised Monte Carlo simulations (numpy, no Python loop over trials), all seeded.

Built on :mod:`evalteach.stats`; the explorers in :mod:`evalteach.widgets` draw them.
A submodule (and so scipy and scikit-learn) is imported when one of its names is first
used, as in :mod:`evalteach.stats`. Results that cost a fit or a simulation are kept in
caches bounded in bytes (:mod:`evalteach.simulate.result_cache`): :func:`cache_bytes` says
what they hold, :func:`clear_caches` empties them.
"""
from .._lazy import lazy_names

#: Submodule -> its public names (``tests/test_lazy_import.py`` keeps this in step
#: with each submodule's ``__all__``).
PUBLIC = {
    "sampling": (
        "sample_errors", "sampling_error_sd", "Distribution", "DISTRIBUTIONS", "parent_distribution",
        "parse_distribution", "sample_means", "resubstitution_vs_holdout", "Resubstitution",
    ),
    "intervals": (
        "interval_coverage", "IntervalCoverage", "exact_coverage", "normal_approximation_error",
        "NormalApproximationError",
    ),
    "experiments": (
        "paired_experiments", "t_vs_z_coverage", "TvsZCoverage",
    ),
    "comparison": (
        "ALGORITHM_TESTS", "AlgorithmTestExperiments", "AlgorithmTestSimulation",
        "simulate_algorithm_tests", "TestSetReuseSimulation", "TestSetReuseExperiments",
        "simulate_test_set_reuse", "RESAMPLING_METHODS", "ResamplingEstimates", "ResamplingFits",
        "resampling_estimates",
    ),
    "curves": (
        "CURVE_MODES", "N_POINTS", "Curve", "cv_folds", "curve_points", "fit_curve", "learning_curve",
        "majority_class_accuracy",
    ),
    "learner_scores": (
        "fold_errors", "repeated_cv_errors", "holdout_predictions", "GrowingResamples",
        "growing_resamples", "HOLDOUT_FRACTION",
    ),
    "repeated_partitions": (
        "REPLICABILITY_TESTS", "Replicability", "replicability", "agreement",
    ),
}
_WHERE = {name: module for module, names in PUBLIC.items() for name in names}
_WHERE.update(cache_bytes="result_cache", clear_caches="result_cache")

__all__ = list(_WHERE)
__getattr__, __dir__ = lazy_names(__name__, _WHERE, (*PUBLIC, "bundled_scores", "result_cache"))
