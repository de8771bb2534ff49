"""Bad values for the bad-input tests (``tests/test_bad_input_*.py``), as hypothesis strategies.

Each of those tests puts a value drawn here in place of one argument of a valid call and
requires a ``ValueError`` or ``TypeError`` whose message names that argument.
"""
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: For the tests that draw their own bad values with ``@given``: few examples, no deadline.
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NOT_FINITE = st.sampled_from([float("nan"), float("inf"), -float("inf")])
#: Neither a number nor an array of numbers.
NOT_NUMBER_OR_ARRAY = st.sampled_from(["0.9", None, {"x": 1}, True, object()])
#: Not a number (a list is not one either).
NOT_NUMBER = st.one_of(NOT_NUMBER_OR_ARRAY, st.just([0.5]))
NOT_BOOL = st.one_of(st.sampled_from(["yes", 1, 0, 0.5, None]), st.integers(), st.text(max_size=3))
#: Not a level in (0, 1) such as 0.95.
BAD_LEVEL = st.one_of(st.floats(max_value=0.0), st.floats(min_value=1.0, allow_infinity=False),
                      NOT_FINITE, NOT_NUMBER)
#: Finite numbers outside [0, 1], and NaN and infinities.
OUTSIDE_UNIT = st.one_of(st.floats(max_value=-1e-9, allow_nan=False, allow_infinity=False),
                         st.floats(min_value=1.000001, allow_infinity=False), NOT_FINITE)
#: Not a fraction in [0, 1].
BAD_FRACTION = st.one_of(OUTSIDE_UNIT, NOT_NUMBER)
#: Not a fraction in [0, 1], nor an array of them.
BAD_FRACTIONS = st.one_of(OUTSIDE_UNIT, NOT_NUMBER_OR_ARRAY)
NEGATIVE = st.one_of(st.integers(max_value=-1), st.floats(max_value=-1e-9, allow_infinity=False),
                     NOT_FINITE, NOT_NUMBER)
NONPOSITIVE = st.one_of(st.floats(max_value=0.0, allow_infinity=False), NOT_FINITE, NOT_NUMBER)
#: Lists of 0/1 labels.
LABELS = st.lists(st.integers(0, 1), min_size=2, max_size=20)


def bad_word(*valid, max_size=8):
    """Strings that are none of the ``valid`` words."""
    return st.text(max_size=max_size).filter(lambda s: s not in valid)


def bad_count(low, high=None):
    """Not a whole number in ``[low, high]`` (``high=None``: no upper end)."""
    out = [st.integers(max_value=low - 1), st.floats(0.1, 1e6).filter(lambda x: not x.is_integer()),
           NOT_FINITE, NOT_NUMBER]
    if high is not None:
        out.append(st.integers(high + 1, 10 ** 6))
    return st.one_of(*out)


BAD_SEED = st.one_of(st.integers(max_value=-1), st.floats(0.1, 10.0).filter(lambda x: not x.is_integer()),
                     NOT_FINITE, NOT_NUMBER)


def with_bad(values, length=5):
    """Arrays of ``length`` holding a NaN or an infinity, or one of ``values`` (of the wrong
    size, shape or type)."""
    return st.one_of(
        st.builds(lambda i, bad: np.where(np.arange(length) == i % length, bad, np.arange(length) / 10),
                  st.integers(0, 50), NOT_FINITE),
        st.sampled_from(values),
    )


def rejects(call, name):
    """``call()`` raises ValueError or TypeError whose message names ``name``."""
    with pytest.raises((ValueError, TypeError), match=re.escape(name)):
        call()


def bad_argument_is_named(func, good, bad, data):
    """``func(**good)`` works; with one argument replaced by a value drawn from its strategy in
    ``bad`` ({name: strategy}), it raises an error that names that argument."""
    func(**good)  # the baseline is valid
    name = data.draw(st.sampled_from(sorted(bad)), label="parameter")
    value = data.draw(bad[name], label="value")
    with pytest.raises((ValueError, TypeError)) as info:
        func(**{**good, name: value})
    assert name in str(info.value)
