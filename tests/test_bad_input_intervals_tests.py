"""Every public function of stats.intervals and stats.tests rejects bad input.

Property: replacing one argument of a valid call by a bad value raises ValueError or
TypeError whose message names that argument.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalteach as et
from bad_values import (BAD_FRACTION, BAD_FRACTIONS, BAD_LEVEL, NEGATIVE, NONPOSITIVE, NOT_BOOL, NOT_FINITE,
                        NOT_NUMBER, NOT_NUMBER_OR_ARRAY, bad_argument_is_named, bad_count, bad_word, with_bad)
from evalteach.stats import intervals, tests

BAD_COUNT = bad_count(1)
BAD_WORD = bad_word("two", "one", "lower", "upper", "wald", "wilson", "clopper-pearson", "two-sided", "greater",
                    "less", "jeffreys", "newcombe", "welch")

PAIRS = [0.2, 0.25, 0.3, 0.22, 0.28]
BAD_PAIRS = with_bad([[0.1], [], "abc", None, 0.3])
BAD_SECOND = with_bad([[0.1], "abc", PAIRS[:4], [PAIRS, PAIRS]])  # b=None is valid: a holds differences
FIVE_BY_TWO = np.full((5, 2), 0.01) + np.arange(10).reshape(5, 2) / 100
BAD_FIVE_BY_TWO = st.one_of(st.sampled_from([np.zeros((5, 3)), np.zeros((2, 5)), np.zeros(10), 0.1, "x"]),
                            st.builds(lambda bad: np.where(np.eye(5, 2) > 0, bad, FIVE_BY_TWO), NOT_FINITE))

# (function, valid keyword arguments, {parameter: strategy of bad values})
CASES = [
    (et.z_critical, {"confidence": 0.9, "sided": "two"}, {"confidence": BAD_LEVEL, "sided": BAD_WORD}),
    (et.t_critical, {"confidence": 0.9, "df": 4, "sided": "one"},
     {"confidence": BAD_LEVEL, "df": NONPOSITIVE, "sided": BAD_WORD}),
    (et.confidence_for_z, {"z": 1.0, "sided": "two"}, {"z": st.one_of(NOT_FINITE, NOT_NUMBER), "sided": BAD_WORD}),
    (et.confidence_for_t, {"t": 1.0, "df": 4, "sided": "two"},
     {"t": st.one_of(NOT_FINITE, NOT_NUMBER), "df": st.one_of(NOT_FINITE, NOT_NUMBER, st.just(0.0), st.just(-1.0)),
      "sided": BAD_WORD}),
    (et.table_confidence, {"z": 1.0, "sided": "one"}, {"z": st.one_of(NOT_FINITE, NOT_NUMBER), "sided": BAD_WORD}),
    (et.one_sided_confidence, {"c": 0.9}, {"c": BAD_LEVEL}),
    (et.proportion_interval, {"k": 3, "n": 10, "confidence": 0.9, "method": "wilson", "sided": "two", "z": None},
     {"k": st.one_of(st.integers(max_value=-1), st.integers(11, 10**6), NOT_FINITE, NOT_NUMBER),
      "n": BAD_COUNT, "confidence": BAD_LEVEL, "method": BAD_WORD, "sided": BAD_WORD,
      "z": st.one_of(st.floats(max_value=0.0, allow_infinity=False), NOT_FINITE, st.just("1.28"))}),
    (et.proportion_bounds, {"k": [1, 2, 3], "n": 10, "confidence": 0.9, "method": "wald", "sided": "upper"},
     {"k": st.sampled_from([[1, -2], [3, 11], [0.5, 1], [np.nan], "k", None, [[1], [2.5]]]),
      "n": st.sampled_from([0, [10, 0, 10], [10.5], [np.inf], "n", None, [10, 10]]),
      "confidence": BAD_LEVEL, "method": BAD_WORD, "sided": BAD_WORD}),
    (et.test_set_size, {"error": 0.2, "half_width": 0.05, "confidence": 0.95},
     {"error": st.one_of(BAD_FRACTION, st.just(0.0), st.just(1.0)),
      "half_width": st.one_of(NONPOSITIVE, st.floats(1.01, 10.0)), "confidence": BAD_LEVEL}),
    (et.compare_hypotheses, {"error1": 0.2, "n1": 100, "error2": 0.3, "n2": 100, "confidence": 0.95},
     {"error1": st.one_of(BAD_FRACTIONS, st.just([0.2, 1.5])), "n1": st.one_of(BAD_COUNT, st.just([100, 0])),
      "error2": st.one_of(BAD_FRACTIONS, st.just([np.nan])), "n2": st.one_of(BAD_COUNT, st.just([100, 0.5])),
      "confidence": BAD_LEVEL}),
    (et.paired_t_test, {"a": PAIRS, "b": PAIRS[::-1], "confidence": 0.9, "alternative": "less", "axis": -1},
     {"a": BAD_PAIRS, "b": BAD_SECOND, "confidence": BAD_LEVEL,
      "alternative": BAD_WORD, "axis": st.one_of(st.integers(1, 5), st.integers(-9, -2), st.just(0.5))}),
    (et.paired_z_test, {"a": PAIRS, "confidence": 0.9, "alternative": "greater"},
     {"a": BAD_PAIRS, "confidence": BAD_LEVEL, "alternative": BAD_WORD}),
    (et.corrected_resampled_t_test, {"a": PAIRS, "b": PAIRS[::-1], "test_train_ratio": 0.25, "confidence": 0.9},
     {"a": BAD_PAIRS, "b": st.just(PAIRS + [0.1]),
      "test_train_ratio": st.one_of(st.floats(max_value=-1e-9, allow_infinity=False), NOT_FINITE, NOT_NUMBER),
      "confidence": BAD_LEVEL}),
    (et.five_by_two_cv_t_test, {"differences": FIVE_BY_TWO, "confidence": 0.95, "alternative": "two-sided"},
     {"differences": BAD_FIVE_BY_TWO, "confidence": BAD_LEVEL, "alternative": BAD_WORD}),
    (et.five_by_two_cv_f_test, {"differences": FIVE_BY_TWO, "confidence": 0.95},
     {"differences": BAD_FIVE_BY_TWO, "confidence": BAD_LEVEL}),
    (et.mcnemar_table, {"y_true": [0, 1, 1], "pred_a": [0, 1, 0], "pred_b": [1, 1, 1]},
     {"y_true": st.sampled_from([[0, 1], [], None, "abc", [[0, 1, 1]], [0.0, np.nan, 1.0]]),
      "pred_a": st.sampled_from([[0, 1, 1, 1], None, [0, np.inf, 1]]),
      "pred_b": st.sampled_from([[1], 3, None])}),
    (et.mcnemar_test, {"table_or_b": [[10, 4], [7, 3]], "correction": True, "exact": False, "confidence": 0.95},
     {"table_or_b": st.sampled_from([[[1, -2], [3, 4]], [[1, 2.5], [3, 4]], [1, 2, 3, 4], [[np.nan, 1], [1, 1]],
                                     "table", None]),
      "correction": NOT_BOOL, "exact": NOT_BOOL, "confidence": BAD_LEVEL}),
    (et.mcnemar_test, {"table_or_b": 10, "c": 4, "n": 20},
     {"table_or_b": st.one_of(NEGATIVE, st.just([1, -1])), "c": st.one_of(st.integers(max_value=-1), NOT_FINITE, NOT_NUMBER_OR_ARRAY.filter(lambda x: x is not None),
                                st.just([1.5]), st.just([1, np.nan])),
      "n": st.one_of(st.integers(max_value=13), NOT_FINITE, st.just([20.5]), st.just("20"))}),
    (et.binomial_test, {"k": 3, "n": 10, "p0": 0.5, "alternative": "greater", "confidence": 0.95},
     {"k": st.one_of(st.integers(max_value=-1), st.integers(11, 10**5), NOT_FINITE, NOT_NUMBER), "n": BAD_COUNT,
      "p0": st.one_of(BAD_FRACTION, st.just(0.0), st.just(1.0)), "alternative": BAD_WORD, "confidence": BAD_LEVEL}),
    (et.sign_test, {"wins": 8, "losses": 3, "ties": 1, "confidence": 0.95},
     {"wins": NEGATIVE, "losses": NEGATIVE, "ties": NEGATIVE, "confidence": BAD_LEVEL}),
]

# the functions added in version 0.2 are covered in test_bad_input_new_inference.py
NEW_IN_0_2 = {"difference_interval", "unpaired_t_test", "one_sample_t_test"}
ALL_PUBLIC = {name for name in intervals.__all__ + tests.__all__
              if callable(getattr(et, name)) and not isinstance(getattr(et, name), type)} - NEW_IN_0_2


def test_every_public_function_is_covered():
    covered = {f.__name__ for f, _, _ in CASES} | {"z_table"}  # z_table takes no arguments
    assert ALL_PUBLIC == covered


@pytest.mark.parametrize("func, good, bad", CASES, ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(CASES)])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_bad_argument_is_named(func, good, bad, data):
    bad_argument_is_named(func, good, bad, data)


def test_specific_messages():
    with pytest.raises(ValueError, match="k must be <= n, got k=12 and n=10"):
        et.proportion_interval(12, 10)
    with pytest.raises(ValueError, match="n must be >= 1, got 0"):
        et.proportion_interval(0, 0)
    with pytest.raises(ValueError, match="confidence must be a fraction in \\(0, 1\\) such as 0.95, got 95"):
        et.z_critical(95)
    with pytest.raises(ValueError, match="at least 2 pairs"):
        et.paired_t_test([0.1], [0.2])
    with pytest.raises(ValueError, match="a and b must have the same shape"):
        et.paired_t_test([0.1, 0.2, 0.3], [0.2, 0.1])
    with pytest.raises(ValueError, match="differences must have shape \\(5, 2\\)"):
        et.five_by_two_cv_f_test(np.zeros((2, 5)))
    with pytest.raises(ValueError, match="z applies to the normal-approximation methods only, got method='clopper-pearson'"):
        et.proportion_interval(3, 10, method="clopper-pearson", z=1.28)
    with pytest.raises(ValueError, match="wins \\+ losses \\+ ties"):
        et.sign_test(0, 0, 1)
    with pytest.raises(ValueError, match="error1 has shape \\(2,\\), n1 has shape \\(3,\\)"):
        et.compare_hypotheses([0.1, 0.2], [10, 20, 30], 0.3, 100)
    with pytest.raises(ValueError, match="table_or_b has shape \\(2,\\), c has shape \\(3,\\)"):
        et.mcnemar_test([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="arrays must have the same length: y_true has 3, pred_a has 2"):
        et.mcnemar_table([0, 1, 1], [0, 1], [1, 1, 0])
    with pytest.raises(TypeError, match="test_train_ratio"):
        et.corrected_resampled_t_test(PAIRS, PAIRS[::-1])
