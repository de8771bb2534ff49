"""Argument checks shared by the whole package.

Every public function validates its input with these helpers so that bad input
fails early with a message naming the parameter and the value it got, instead of
a NaN or a traceback from deep inside numpy.
"""
from __future__ import annotations

import math
import numbers
import re

import numpy as np


def show(value):
    """``repr(value)`` cut to 60 characters, for error messages."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_show = show  # the simulations' name for it (evalteach/simulate still calls v._show)


def real(name, value, *, low=None, high=None, low_open=False, high_open=False, finite=True):
    """Return ``value`` as a float, checking type, finiteness and range."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {show(value)}")
    x = float(value)
    if math.isnan(x) or (finite and math.isinf(x)):
        raise ValueError(f"{name} must be a finite number, got {show(value)}")
    if low is not None and (x < low or (low_open and x == low)):
        raise ValueError(f"{name} must be {'>' if low_open else '>='} {low}, got {show(value)}")
    if high is not None and (x > high or (high_open and x == high)):
        raise ValueError(f"{name} must be {'<' if high_open else '<='} {high}, got {show(value)}")
    return x


def probability(name, value, *, open_low=False, open_high=False):
    """A number in [0, 1] (ends optionally excluded)."""
    return real(name, value, low=0.0, high=1.0, low_open=open_low, high_open=open_high)


def confidence(name, value):
    """A confidence level strictly between 0 and 1."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and 1 < value < 100:
        raise ValueError(f"{name} must be a fraction in (0, 1) such as 0.95, got {show(value)}")
    return real(name, value, low=0.0, high=1.0, low_open=True, high_open=True)


def integer(name, value, *, low=None, high=None):
    """An integer (an integral float such as 10.0 is accepted) within bounds."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got {show(value)}")
    if isinstance(value, numbers.Integral):
        n = int(value)
    elif isinstance(value, numbers.Real) and math.isfinite(value) and float(value).is_integer():
        n = int(value)
    else:
        raise TypeError(f"{name} must be an integer, got {show(value)}")
    if low is not None and n < low:
        raise ValueError(f"{name} must be >= {low}, got {show(value)}")
    if high is not None and n > high:
        raise ValueError(f"{name} must be <= {high}, got {show(value)}")
    return n


_IDENTIFIER = re.compile(r"[A-Za-z0-9_.-]{1,80}")


def identifier(name, value, *, optional=False):
    """A short id such as ``"training-error"``: 1 to 80 letters, digits, ``_``, ``.`` or ``-``."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {show(value)}")
    if not _IDENTIFIER.fullmatch(value):
        raise ValueError(f"{name} must be 1 to 80 letters, digits, '_', '.' or '-', got {show(value)}")
    return value


def text(name, value):
    """A non-empty string (a label to show)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {show(value)}")
    if not value.strip():
        raise ValueError(f"{name} must not be empty, got {show(value)}")
    return value


def boolean(name, value):
    """``True`` or ``False`` (numpy's booleans too); returns a Python bool."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {show(value)}")
    return bool(value)


def names(name, value, count, what):
    """``count`` strings naming ``what``; returns a tuple."""
    if isinstance(value, str) or not hasattr(value, "__len__") or len(value) != count \
            or not all(isinstance(x, str) for x in value):
        raise ValueError(f"{name} must be {count} strings ({what}), got {show(value)}")
    return tuple(value)


def choice(name, value, options):
    """One of ``options``."""
    if value not in options:
        listed = ", ".join(repr(o) for o in options)
        raise ValueError(f"{name} must be one of {listed}; got {show(value)}")
    return value


def array(name, value, *, ndim=1, min_size=1, finite=True, shape=None, dtype=float):
    """A numeric array with the given number of dimensions, checked for NaN/inf."""
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be array-like of numbers, got {show(value)}")
    try:
        arr = np.asarray(value, dtype=dtype)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be array-like of numbers, got {show(value)}") from None
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if shape is not None and arr.shape != tuple(shape):
        raise ValueError(f"{name} must have shape {tuple(shape)}, got shape {arr.shape}")
    if arr.size < min_size:
        raise ValueError(f"{name} must hold at least {min_size} values, got {arr.size}")
    if finite and arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must hold finite numbers only (no NaN or inf), got {show(value)}")
    return arr


def same_length(**arrays):
    """Check that the named 1-d arrays all have the same length."""
    lengths = {name: len(a) for name, a in arrays.items()}
    if len(set(lengths.values())) > 1:
        described = ", ".join(f"{name} has {n}" for name, n in lengths.items())
        raise ValueError(f"arrays must have the same length: {described}")


def binary_labels(name, value, *, need_both=True):
    """Class labels coded 0/1 (or booleans); returns an int array."""
    arr = array(name, value, dtype=None if not isinstance(value, np.ndarray) else value.dtype)
    if arr.dtype.kind == "b":
        arr = arr.astype(int)
    if arr.dtype.kind not in "iuf" or not np.all(np.isin(arr, (0, 1))):
        raise ValueError(f"{name} must hold class labels 0 and 1 only, got values {show(np.unique(arr).tolist())}")
    arr = arr.astype(int)
    if need_both and np.unique(arr).size < 2:
        raise ValueError(f"{name} must contain both classes 0 and 1, got only {int(arr[0])}")
    return arr


def counts(name, value, low):
    """Integer count(s) >= low, a scalar or an array; returns an int or an int64 array."""
    if np.ndim(value) == 0 and not isinstance(value, np.ndarray):
        return integer(name, value, low=low)
    arr = array(name, value, ndim=None)
    if not np.all(arr == np.floor(arr)):
        raise TypeError(f"{name} must hold integers, got {show(value)}")
    if np.any(arr < low):
        raise ValueError(f"{name} must be >= {low}, got {show(arr[arr < low].flat[0])}")
    return arr.astype(np.int64)


def fractions(name, value):
    """Number(s) in [0, 1], a scalar or an array."""
    if np.ndim(value) == 0 and not isinstance(value, np.ndarray):
        return probability(name, value)
    arr = array(name, value, ndim=None)
    bad = (arr < 0) | (arr > 1)
    if np.any(bad):
        raise ValueError(f"{name} must be in [0, 1], got {show(float(arr[bad].flat[0]))}")
    return arr


def differences(a, b, axis):
    """Paired differences ``a - b`` (or ``a`` itself when ``b`` is None) with the pairs
    moved to the last axis; at least 2 pairs."""
    a = array("a", a, ndim=None)
    if a.ndim == 0:
        raise ValueError(f"a must be an array of at least 2 pairs, got {show(float(a))}")
    if b is not None:
        b = array("b", b, ndim=None)
        if b.shape != a.shape:
            raise ValueError(f"a and b must have the same shape, got a {a.shape} and b {b.shape}")
        a = a - b
    axis = integer("axis", axis, low=-a.ndim, high=a.ndim - 1)
    d = np.moveaxis(a, axis, -1)
    if d.shape[-1] < 2:
        raise ValueError(f"a must hold at least 2 pairs along axis {axis}, got {d.shape[-1]}")
    return d
