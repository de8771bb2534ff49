"""TEACHING.md: no verdict says "no evidence" (not significant is not "no difference") or
"95% level" (a test's level is alpha, e.g. 5%); every result class of evalteach.stats is built here."""
import inspect

import numpy as np
import pytest

import evalteach.stats as s
from evalteach._result import Result
from evalteach.example_scores import DEMSAR_AUC


def _results():
    rng = np.random.default_rng(0)
    y = np.array([0, 1] * 10)
    scores = np.linspace(0, 1, 20) + 0.3 * y
    flat = rng.normal(size=10)
    roc = s.roc_curve(y, scores)
    probabilities = np.full((20, 2), 0.5)
    three = np.array([0, 1, 2] * 4)
    built = [
        s.z_table(), s.proportion_interval(12, 40), s.test_set_size(0.1, 0.05), s.difference_interval(56, 70, 48, 80),
        s.difference_interval(30, 60, 31, 60),
    ]
    for alternative in ("two-sided", "less", "greater"):
        built += [
            s.compare_hypotheses(0.3, 40, 0.2, 100, alternative=alternative),
            s.compare_hypotheses(0.3, 40, 0.29, 100, alternative=alternative),
            s.paired_t_test(flat + 1, flat, alternative=alternative),
            s.paired_t_test(flat, rng.normal(size=10), alternative=alternative),
            s.paired_z_test(flat, rng.normal(size=10), alternative=alternative),
            s.corrected_resampled_t_test(flat + 0.5, flat + rng.normal(size=10), test_train_ratio=0.25,
                                         alternative=alternative),
            s.unpaired_t_test(flat, flat + 2, alternative=alternative),
            s.unpaired_t_test(flat, rng.normal(size=10), alternative=alternative),
            s.one_sample_t_test(flat * 0.01 + 0.1, 0.05, alternative=alternative),
            s.one_sample_t_test(flat * 0.01 + 0.05, 0.05, alternative=alternative),
            s.five_by_two_cv_t_test(rng.normal(0.05, 0.01, (5, 2)), alternative=alternative),
            s.five_by_two_cv_t_test(rng.normal(0, 0.01, (5, 2)), alternative=alternative),
            s.binomial_test(9, 10, alternative=alternative), s.binomial_test(5, 10, alternative=alternative),
            s.wilcoxon_test(DEMSAR_AUC[:, 1], DEMSAR_AUC[:, 0], alternative=alternative),
            s.wilcoxon_test(flat, alternative=alternative),
            s.permutation_test(flat + 1, flat, n_resamples=200, alternative=alternative),
            s.permutation_test(flat, rng.normal(size=10), n_resamples=200, alternative=alternative),
        ]
    built += [
        s.five_by_two_cv_f_test(rng.normal(0.05, 0.01, (5, 2))), s.five_by_two_cv_f_test(rng.normal(0, 0.01, (5, 2))),
        s.mcnemar_test(20, 5), s.mcnemar_test(10, 9), s.sign_test(12, 2), s.sign_test(7, 6, 1),
        s.friedman_test(DEMSAR_AUC), s.friedman_test(rng.normal(size=(6, 3))), s.nemenyi_cd(4, 14),
        s.friedman_posthoc(DEMSAR_AUC, control=0), s.friedman_posthoc(rng.normal(size=(6, 3))),
        s.anova_test([1, 2, 3], [2, 3, 4], [5, 6, 7]), s.anova_test(*rng.normal(size=(3, 8))),
        s.kruskal_wallis_test([1, 2, 3], [4, 5, 6]), s.kruskal_wallis_test(*rng.normal(size=(3, 8))),
        s.hotelling_t2_test(rng.normal(1, 0.2, (8, 2))), s.hotelling_t2_test(rng.normal(size=(8, 2))),
        s.cochran_q_test(y, y, 1 - y, y), s.cochran_q_test(y, *rng.integers(0, 2, (3, 20))),
        s.confusion(y, scores > 0.6), s.precision_at_prevalence(0.95, 0.9, 0.02),
        s.precision_at_prevalence(0, 1, 0.5), roc, roc.operating_point(), s.precision_recall_curve(y, scores),
        s.cost_curve(y, scores), s.auc_interval(y, scores), s.auc_interval(y, rng.normal(size=20)),
        s.delong_test(y, scores, rng.normal(size=20)), s.delong_test(y, scores, scores + rng.normal(0, 0.3, 20)),
        s.multiclass_auc(three, np.eye(3)[three] * 0.5 + 0.5 / 3), s.lift_chart(y, scores),
        s.holdout_split(30, seed=0), s.bootstrap_632(0.1, 0.3), s.bootstrap_632_plus(0.1, 0.3, 0.5),
        s.quadratic_loss(probabilities, y), s.informational_loss(probabilities, y),
        s.bayesian_correlated_t_test(flat + 1, flat, test_train_ratio=0.25),
        s.bayesian_signed_rank_test(flat + 1, flat, rope=0.01, n_samples=2000),
        s.bootstrap_interval(y, scores > 0.6, n_resamples=200),
        s.bootstrap_interval(y, scores > 0.6, predictions_b=scores > 0.5, n_resamples=200),
        s.numeric_errors([1.0, 2.0, 3.0], [1.1, 1.9, 3.2]),
        s.reliability_diagram(y, scores / scores.max()),
    ]
    return built


RESULTS = _results()


def test_every_public_result_class_is_checked():
    public = {name for name in s.__all__
              if inspect.isclass(getattr(s, name)) and issubclass(getattr(s, name), Result)}
    built = {type(r).__name__ for r in RESULTS}
    assert public - built == set()


@pytest.mark.parametrize("phrase", ["no evidence", "95% level", "median difference is not zero"])
def test_no_verdict_uses_the_forbidden_phrase(phrase):
    offending = [(type(r).__name__, r.verdict) for r in RESULTS if phrase in r.verdict.lower()]
    assert offending == []


@pytest.mark.parametrize("p, printed", [
    (0.0312, "p = 0.0312"),
    (0.1002, "p = 0.1002"),   # not "0.100" (reads as reaching 0.10) nor "0.1"
    (0.1234, "p = 0.123"),
    (0.0730, "p = 0.0730"),
    (0.5, "p = 0.500"),
    (0.04996, "p = 0.04996"),  # not "0.0500": the verdict says significant at 5%
    (0.0099996, "p = 0.0099996"),
    (0.05, "p = 0.0500"),
    (0.00099, "p < 0.001"),
    (0.99999, "p > 0.999"),   # not "1.00"
    (1.0, "p = 1.00"),
])
def test_a_printed_p_value_keeps_its_figures_and_its_side_of_every_common_level(p, printed):
    from evalteach._result import p_text
    assert p_text(p) == printed


def test_every_printed_p_is_on_the_same_side_of_each_common_level_as_the_p_itself():
    from evalteach._result import p_text
    for p in np.linspace(0.001, 0.999, 20001):
        text = p_text(p)
        if text.startswith("p = "):
            shown = float(text[4:])
            for alpha in (0.1, 0.05, 0.01):
                assert (shown < alpha) == (p < alpha), (p, text)
                assert shown != alpha or p == alpha, (p, text)
