"""Interactive explorers, one per idea of the lecture block, and the active-learning widgets.

Each is a class: leave an instance as the last expression of a cell to display it.
``Predict``, the questions and ``progress()`` make the student commit and see where they stand.
They are imported on first use, so ``import evalteach`` stays fast.
"""
from .._lazy import lazy_names

_MODULES = {
    "SamplingErrorExplorer": "sampling_error",
    "CLTExplorer": "clt",
    "ZTableExplorer": "ztable",
    "ROCExplorer": "roc",
    "TvsZExplorer": "t_vs_z",
    "BinomialNormalExplorer": "binomial_normal",
    "IntervalCoverageExplorer": "interval_coverage",
    "HypothesisComparisonExplorer": "hypothesis_comparison",
    "ResamplingExplorer": "resampling",
    "AlgorithmComparisonExplorer": "algorithm_comparison",
    "TestSetReuseExplorer": "test_set_reuse",
    "LearningCurveExplorer": "learning_curve",
    "ImbalanceExplorer": "imbalance",
    "LossExplorer": "loss",
    "CriticalDifferenceExplorer": "critical_difference",
    "RandomizationExplorer": "randomization",
    "BayesianComparisonExplorer": "bayesian_comparison",
    "ReplicabilityExplorer": "replicability",
    "Gallery": "gallery",
    "NumericQuestion": "quiz",
    "MultipleChoice": "quiz",
    "Predict": "predict",
    "progress": "record",
}
EXPLORERS = tuple(name for name in _MODULES if name.endswith("Explorer"))
__all__ = list(_MODULES)
__getattr__, __dir__ = lazy_names(__name__, _MODULES)
