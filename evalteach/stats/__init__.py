"""The statistics of the lecture block: pure numpy/scipy, no plotting, no widgets.

Every name is also importable from :mod:`evalteach`. A submodule (and so scipy) is
imported when one of its names is first used, not by ``import evalteach``: scipy.stats
alone takes longer to import than numpy, matplotlib and ipywidgets together, which
costs seconds in the browser (JupyterLite).
"""
from .._lazy import lazy_names

#: Submodule -> its public names (``tests/test_lazy_import.py`` keeps this in step
#: with each submodule's ``__all__``).
PUBLIC = {
    "intervals": (
        "z_critical", "t_critical", "confidence_for_z", "confidence_for_t", "table_confidence",
        "one_sided_confidence", "z_table", "ZTable", "proportion_interval",
        "ProportionInterval", "proportion_bounds", "test_set_size", "TestSetSize",
        "difference_interval", "DifferenceInterval",
    ),
    "tests": (
        "compare_hypotheses", "HypothesisComparison", "paired_t_test", "paired_z_test",
        "corrected_resampled_t_test", "PairedTest", "unpaired_t_test", "UnpairedTest",
        "one_sample_t_test", "OneSampleTest", "five_by_two_cv_t_test",
        "five_by_two_cv_f_test", "FiveByTwoTest", "mcnemar_table", "mcnemar_test",
        "McNemarTest", "binomial_test", "BinomialTest", "sign_test", "SignTest",
    ),
    "multiple": (
        "friedman_test", "FriedmanResult", "nemenyi_cd", "NemenyiCD", "friedman_posthoc",
        "FriedmanPosthoc", "anova_test", "AnovaResult", "kruskal_wallis_test",
        "KruskalWallisResult", "wilcoxon_test", "WilcoxonResult", "hotelling_t2_test",
        "HotellingResult", "cochran_q_test", "CochranQResult",
    ),
    "roc": (
        "confusion", "Confusion", "precision_at_prevalence", "PrecisionAtPrevalence", "roc_curve", "RocCurve", "OperatingPoint",
        "precision_recall_curve", "PrecisionRecallCurve", "cost_curve", "CostCurve", "auc",
        "auc_interval", "AucInterval", "delong_test", "DelongResult", "multiclass_auc",
        "MulticlassAuc", "lift_chart", "LiftChart",
    ),
    "resampling": (
        "Split", "holdout_split", "repeated_holdout_splits", "kfold_splits",
        "leave_one_out_splits", "bootstrap_samples", "bootstrap_632", "bootstrap_632_plus",
        "Bootstrap632", "no_information_error",
    ),
    "losses": (
        "quadratic_loss", "informational_loss", "Loss", "ZeroFrequencyWarning",
    ),
    "calibration": (
        "reliability_diagram", "ReliabilityDiagram",
    ),
    "bayesian": (
        "bayesian_correlated_t_test", "BayesianCorrelatedTTest",
        "bayesian_signed_rank_test", "BayesianSignedRankTest",
    ),
    "randomization": (
        "permutation_test", "PermutationTest", "PermutationNull", "bootstrap_interval",
        "BootstrapInterval",
    ),
    "numeric": (
        "numeric_errors", "NumericErrors",
    ),
    "examples": (
        "scott_roc_example", "fawcett_roc_example",
    ),
}
_WHERE = {name: module for module, names in PUBLIC.items() for name in names}

__all__ = list(_WHERE)
__getattr__, __dir__ = lazy_names(__name__, _WHERE, PUBLIC)
