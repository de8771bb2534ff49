"""Results that scipy users recognise (issue 26, item 6): every test's result has ``pvalue`` beside
``p_value`` (checked against scipy's or statsmodels' value where they have the test), every result
with an interval has ``confidence_interval()`` with ``low`` and ``high`` (checked against scipy's
where scipy gives one), and the arrays inside a result are read-only."""
import dataclasses
import inspect

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import cochrans_q, mcnemar

import evalteach.stats as s
from evalteach._result import Result, WithInterval, WithPValue
from evalteach.example_scores import DEMSAR_AUC
from test_verdict_wording import RESULTS

RNG = np.random.default_rng(21)
A, B = RNG.normal(0.80, 0.03, 10), RNG.normal(0.78, 0.03, 10)


def test_every_result_with_a_p_value_has_pvalue_and_every_interval_confidence_interval():
    for r in RESULTS:
        names = {f.name for f in dataclasses.fields(r)}
        assert isinstance(r, WithPValue) == ("p_value" in names), type(r).__name__
        if "p_value" in names:
            assert r.pvalue is r.p_value
        ends = WithInterval._interval if not hasattr(r, "hl_low") else ("hl_low", "hl_high")
        has_interval = set(ends) <= names and "confidence" in names
        assert isinstance(r, WithInterval) == has_interval, type(r).__name__
        if has_interval and not (np.all(np.isnan(r.low)) if hasattr(r, "low") else False):
            ci = r.confidence_interval()
            assert (ci.low, ci.high) == tuple(getattr(r, e) for e in ends) and tuple(ci) == (ci.low, ci.high)


@pytest.mark.parametrize(("ours", "theirs"), [
    (lambda: s.paired_t_test(A, B), lambda: stats.ttest_rel(A, B)),
    (lambda: s.paired_t_test(A, B, alternative="less", confidence=0.9),
     lambda: stats.ttest_rel(A, B, alternative="less")),
    (lambda: s.unpaired_t_test(A, B[:7]), lambda: stats.ttest_ind(A, B[:7], equal_var=False)),
    (lambda: s.one_sample_t_test(1 - A, 0.18), lambda: stats.ttest_1samp(1 - A, 0.18, alternative="greater")),
    (lambda: s.binomial_test(7, 20, 0.2, alternative="greater"),
     lambda: stats.binomtest(7, 20, 0.2, alternative="greater")),
    (lambda: s.binomial_test(3, 20, 0.3), lambda: stats.binomtest(3, 20, 0.3)),
    (lambda: s.sign_test(11, 2, 2), lambda: stats.binomtest(12, 15, 0.5)),  # w + t/2 of w + l + t
    (lambda: s.wilcoxon_test(A, B), lambda: stats.wilcoxon(A, B)),
    (lambda: s.friedman_test(DEMSAR_AUC, tie_correction=True), lambda: stats.friedmanchisquare(*DEMSAR_AUC.T)),
    (lambda: s.anova_test(A, B, A - 0.01), lambda: stats.f_oneway(A, B, A - 0.01)),
    (lambda: s.kruskal_wallis_test(A, B), lambda: stats.kruskal(A, B)),
    (lambda: s.permutation_test(A[:8], B[:8]),
     lambda: stats.permutation_test((A[:8] - B[:8],), np.mean, permutation_type="samples", n_resamples=np.inf)),
    (lambda: s.mcnemar_test([[40, 10], [3, 47]], exact=True), lambda: mcnemar([[40, 10], [3, 47]], exact=True)),
    (lambda: s.mcnemar_test([[40, 10], [3, 47]]), lambda: mcnemar([[40, 10], [3, 47]], exact=False)),
])
def test_pvalue_is_scipys(ours, theirs):
    assert ours().pvalue == pytest.approx(theirs().pvalue, rel=1e-9)


def test_pvalue_of_cochrans_q_is_statsmodels():
    y = RNG.integers(0, 2, 40)
    predictions = [np.where(RNG.random(40) < q, y, 1 - y) for q in (0.9, 0.8, 0.7)]
    right = np.column_stack([p == y for p in predictions]).astype(int)
    assert s.cochran_q_test(y, *predictions).pvalue == pytest.approx(cochrans_q(right).pvalue)


@pytest.mark.parametrize(("ours", "theirs", "level"), [
    (lambda: s.paired_t_test(A, B), lambda: stats.ttest_rel(A, B), 0.95),
    (lambda: s.paired_t_test(A, B, confidence=0.9, alternative="greater"),
     lambda: stats.ttest_rel(A, B, alternative="greater"), 0.9),
    (lambda: s.unpaired_t_test(A, B[:7], confidence=0.99), lambda: stats.ttest_ind(A, B[:7], equal_var=False), 0.99),
    (lambda: s.one_sample_t_test(1 - A, 0.18), lambda: stats.ttest_1samp(1 - A, 0.18, alternative="greater"), 0.95),
])
def test_confidence_interval_is_scipys(ours, theirs, level):
    mine, reference = ours().confidence_interval(), theirs().confidence_interval(confidence_level=level)
    assert (mine.low, mine.high) == pytest.approx((reference.low, reference.high))


@pytest.mark.parametrize("method", ["exact", "wilson"])
def test_a_proportions_confidence_interval_is_scipys(method):
    ours = s.proportion_interval(12, 40, method="clopper-pearson" if method == "exact" else "wilson", confidence=0.9)
    theirs = stats.binomtest(12, 40).proportion_ci(confidence_level=0.9, method=method)
    assert tuple(ours.confidence_interval()) == pytest.approx((theirs.low, theirs.high))


def test_confidence_interval_refuses_another_level_and_a_missing_interval():
    r = s.paired_t_test(A, B)
    assert r.confidence_interval(0.95) == r.confidence_interval()
    with pytest.raises(ValueError, match="confidence_level must be this result's confidence 0.95"):
        r.confidence_interval(0.9)
    with pytest.raises(ValueError, match="give the test-set size n"):
        s.mcnemar_test(10, 3).confidence_interval()
    assert s.mcnemar_test(10, 3, n=100).confidence_interval().high > 0


def test_arrays_inside_results_are_read_only_and_the_callers_stay_writeable():
    a = RNG.normal(size=12)
    checked = 0
    for r in [*RESULTS, s.paired_t_test(a), s.wilcoxon_test(a)]:
        for f in dataclasses.fields(r):
            value = getattr(r, f.name)
            if isinstance(value, np.ndarray):
                checked += 1
                assert not value.flags.writeable, (type(r).__name__, f.name)
                with pytest.raises(ValueError, match="read-only"):
                    value.flat[0] = 0
    assert checked > 30
    a[0] = 1.0  # the caller's array is theirs
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.paired_t_test(a).p_value = 0.5


def test_every_result_class_documents_its_attributes():
    for name in s.__all__:
        cls = getattr(s, name)
        if not (inspect.isclass(cls) and issubclass(cls, Result)):
            continue
        doc = inspect.getdoc(cls) or ""
        assert "\nAttributes\n----------\n" in doc, f"{name} has no Attributes section"
        section = doc.split("\nAttributes\n----------\n", 1)[1]
        documented = set()
        for line in section.splitlines():
            if line and not line.startswith(" "):
                documented |= {part.strip() for part in line.split(":")[0].split(",")}
        missing = [f.name for f in dataclasses.fields(cls) if f.name not in documented]
        assert missing == [], f"{name} does not document {missing}"
