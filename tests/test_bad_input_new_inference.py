"""The inference functions added in version 0.2 reject bad input.

Property: replacing one argument of a valid call by a bad value raises ValueError or
TypeError whose message names that argument.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalteach as et
from bad_values import (BAD_LEVEL, BAD_SEED, NEGATIVE, NONPOSITIVE, NOT_BOOL, NOT_FINITE, NOT_NUMBER,
                        bad_argument_is_named, bad_count, bad_word, with_bad)
from evalteach._result import Result
from evalteach.stats import bayesian, numeric, randomization

BAD_WORD = bad_word("two-sided", "greater", "less", "error", "accuracy", "auc", "bca", "percentile", "newcombe",
                    "wald", "welch", "conservative", max_size=12)

PAIRS = [0.81, 0.79, 0.84, 0.80, 0.83, 0.78]
OTHER = [0.78, 0.80, 0.80, 0.76, 0.81, 0.77]
BAD_PAIRS = with_bad([[0.1], [], "abc", None, 0.3, [PAIRS, PAIRS]], 6)
BAD_SECOND = with_bad([[0.1], "abc", PAIRS[:4], [PAIRS, PAIRS]], 6)  # b=None is valid: a holds differences
Y = [0, 1, 1, 0, 1, 0, 0, 1]
PRED = [0, 1, 0, 0, 1, 1, 0, 1]
SCORES = [0.1, 0.8, 0.4, 0.3, 0.9, 0.6, 0.2, 0.7]
BAD_LABELS = st.sampled_from([[0, 1], [], None, "abc", [[0, 1, 1, 0, 1, 0, 0, 1]], [0, 1, np.nan, 0, 1, 0, 0, 1]])

# (function, valid keyword arguments, {parameter: strategy of bad values})
CASES = [
    (et.bayesian_correlated_t_test, {"a": PAIRS, "b": OTHER, "test_train_ratio": 0.25, "rope": 0.01,
                                     "credibility": 0.9},
     {"a": BAD_PAIRS, "b": BAD_SECOND, "test_train_ratio": NONPOSITIVE, "rope": NEGATIVE, "credibility": BAD_LEVEL}),
    (et.bayesian_signed_rank_test, {"a": PAIRS, "b": OTHER, "rope": 0.01, "n_samples": 500, "seed": 1,
                                    "prior_strength": 1.0},
     {"a": BAD_PAIRS, "b": BAD_SECOND, "rope": NEGATIVE, "n_samples": bad_count(1), "seed": BAD_SEED,
      "prior_strength": NONPOSITIVE}),
    (et.permutation_test, {"a": PAIRS, "b": OTHER, "paired": True, "n_resamples": 100, "alternative": "less",
                           "seed": 2, "confidence": 0.9},
     {"a": BAD_PAIRS, "b": BAD_SECOND, "paired": NOT_BOOL, "n_resamples": bad_count(1), "alternative": BAD_WORD,
      "seed": BAD_SEED, "confidence": BAD_LEVEL}),
    (et.permutation_test, {"a": PAIRS, "b": OTHER[:4], "paired": False, "n_resamples": 50},
     {"a": with_bad(["abc", None, [[0.1, 0.2]]], 6), "b": st.sampled_from([None, "abc", [], [0.1, np.nan]])}),
    (et.PermutationNull, {"a": PAIRS, "b": OTHER, "paired": False, "seed": 3},
     {"a": with_bad([[], "abc", None, 0.3, [PAIRS, PAIRS]], 6), "b": st.sampled_from([None, "abc", [], [np.inf]]),
      "paired": NOT_BOOL, "seed": BAD_SEED}),
    (et.bootstrap_interval, {"y_true": Y, "predictions": PRED, "metric": "error", "predictions_b": Y[::-1],
                             "confidence": 0.9, "method": "bca", "n_resamples": 50, "seed": 0},
     {"y_true": BAD_LABELS, "predictions": BAD_LABELS, "metric": BAD_WORD,
      "predictions_b": st.sampled_from([[0, 1], "abc", [[0, 1]], [0, 1, np.inf, 0, 1, 0, 0, 1]]),
      "confidence": BAD_LEVEL, "method": BAD_WORD, "n_resamples": bad_count(10), "seed": BAD_SEED}),
    (et.bootstrap_interval, {"y_true": Y, "predictions": SCORES, "metric": "auc", "n_resamples": 50},
     {"y_true": st.sampled_from([[0, 1, 2, 0, 1, 0, 0, 1], [1] * 8, [0, 1, 1, 1, 1, 1, 1, 1], [0, 1], None]),
      "predictions": st.sampled_from([[0.1, 0.2], ["a"] * 8, SCORES[:-1] + [np.nan], None])}),
    (et.difference_interval, {"k1": 3, "n1": 10, "k2": 5, "n2": 12, "confidence": 0.9, "method": "newcombe"},
     {"k1": bad_count(0, 10), "n1": bad_count(1), "k2": bad_count(0, 12), "n2": bad_count(1), "confidence": BAD_LEVEL,
      "method": BAD_WORD}),
    (et.unpaired_t_test, {"a": PAIRS, "b": OTHER[:4], "confidence": 0.9, "df": "conservative",
                          "alternative": "greater"},
     {"a": BAD_PAIRS, "b": with_bad([[0.1], [], "abc", None], 4), "confidence": BAD_LEVEL, "df": BAD_WORD,
      "alternative": BAD_WORD}),
    (et.one_sample_t_test, {"errors": [0.12, 0.15, 0.10, 0.14], "p0": 0.1, "confidence": 0.9,
                            "alternative": "greater"},
     {"errors": st.one_of(with_bad([[0.1], [], "abc", None, [[0.1, 0.2]]], 4),
                          st.sampled_from([[0.1, 1.2], [-0.1, 0.2]])),
      "p0": st.one_of(st.floats(max_value=-1e-9, allow_infinity=False), st.floats(min_value=1.0001, max_value=1e9),
                      NOT_FINITE, NOT_NUMBER),
      "confidence": BAD_LEVEL, "alternative": BAD_WORD}),
    (et.numeric_errors, {"y_true": [3.0, 5.0, 2.0, 8.0], "y_pred": [2.5, 5.0, 3.0, 7.0]},
     {"y_true": with_bad([[1.0], [], "abc", None, [1.0, 2.0]], 4),
      "y_pred": with_bad([[1.0], "abc", None, [[1.0, 2.0, 3.0, 4.0]]], 4)}),
]

NEW_IN_0_2 = {"difference_interval", "unpaired_t_test", "one_sample_t_test"}


def _is_result(obj):
    return isinstance(obj, type) and issubclass(obj, Result)


def test_every_new_function_is_covered():
    public = {name for name in bayesian.__all__ + randomization.__all__ + numeric.__all__
              if not _is_result(getattr(et, name))} | NEW_IN_0_2
    assert public == {f.__name__ for f, _, _ in CASES}


@pytest.mark.parametrize("func, good, bad", CASES, ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(CASES)])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_bad_argument_is_named(func, good, bad, data):
    bad_argument_is_named(func, good, bad, data)


def test_specific_messages():
    with pytest.raises(TypeError, match="b must be given for an unpaired test"):
        et.permutation_test(PAIRS, paired=False)
    with pytest.raises(ValueError, match="at least 2 examples of each class for metric='auc'"):
        et.bootstrap_interval([0, 1, 1, 1, 1], [0.1, 0.2, 0.3, 0.4, 0.5], metric="auc")
    with pytest.raises(ValueError, match="k1 must be <= n1, got k1=11 and n1=10"):
        et.difference_interval(11, 10, 1, 10)
    with pytest.raises(ValueError, match="errors must be error rates in \\[0, 1\\]"):
        et.one_sample_t_test([12, 15, 10], 0.1)
    with pytest.raises(ValueError, match="size must be >= 0"):
        et.PermutationNull(PAIRS).draw(-1)
    with pytest.raises(ValueError, match="too many rearrangements"):
        et.PermutationNull(np.arange(30.0)).enumerate()
    with pytest.raises(TypeError, match="test_train_ratio"):
        et.bayesian_correlated_t_test(PAIRS, test_train_ratio=None)
